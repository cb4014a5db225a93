// The ranks of `run --single-process`: a group of threads must behave like an MPI communicator
// (same order of split members, same results on every rank), and reuse its shared slots safely
// across many back-to-back operations.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "runtime/communicator.hpp"

namespace cb {
namespace {

// Runs body(rank, comm) on n threads, one per rank of a fresh thread world.
void on_threads(int n, const std::function<void(int, const Communicator&)>& body) {
  std::vector<Communicator> world = Communicator::threads(n);
  std::vector<std::jthread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] { body(r, world[static_cast<std::size_t>(r)]); });
}

TEST(ThreadComm, RanksSizeAndNoMpiHandle) {
  std::vector<int> ranks(4, -1), sizes(4, -1);
  std::vector<char> mpi(4, 1);
  on_threads(4, [&](int r, const Communicator& c) {
    ranks[r] = c.rank();
    sizes[r] = c.size();
    mpi[r] = c.is_mpi();
  });
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(sizes, (std::vector<int>(4, 4)));
  EXPECT_EQ(mpi, (std::vector<char>(4, 0)));
}

TEST(ThreadComm, ReductionsGiveEveryRankTheSameAnswer) {
  std::vector<double> maxes(5), sums(5);
  std::vector<long long> counts(5);
  on_threads(5, [&](int r, const Communicator& c) {
    maxes[r] = c.max(r == 3 ? 10.5 : static_cast<double>(r));
    sums[r] = c.sum(0.5 * r);
    counts[r] = c.sum(static_cast<long long>(r + 1));
  });
  for (int r = 0; r < 5; ++r) {
    EXPECT_EQ(maxes[r], 10.5);
    EXPECT_EQ(sums[r], 5.0); // 0.5 * (0+1+2+3+4)
    EXPECT_EQ(counts[r], 15);
  }
}

TEST(ThreadComm, BroadcastStringGivesRankZerosTextEverywhere) {
  std::vector<std::string> got(4), empty(4);
  on_threads(4, [&](int r, const Communicator& c) {
    got[r] = c.broadcast_string(r == 0 ? std::string("leaf01\0x", 8) : std::string(3, 'z'));
    empty[r] = c.broadcast_string(r == 0 ? "" : "not rank 0's");
  });
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(got[r], std::string("leaf01\0x", 8)); // bytes, embedded NUL included
    EXPECT_EQ(empty[r], "");
  }
}

TEST(ThreadComm, BroadcastAndGathers) {
  std::vector<int> got(3);
  std::vector<std::vector<double>> gathered(3);
  std::vector<std::vector<std::string>> names(3);
  std::vector<std::vector<int>> ints(3);
  std::vector<std::vector<std::string>> to_root(3);
  on_threads(3, [&](int r, const Communicator& c) {
    got[r] = c.broadcast_int(r == 0 ? 42 : -1);
    to_root[r] = c.gather_string(std::string(static_cast<std::size_t>(r), 'y'));
    gathered[r] = c.gather(r * 1.5);
    names[r] = c.all_gather_string(std::string(static_cast<std::size_t>(r), 'x'));
    ints[r] = c.all_gather_int(10 * r);
  });
  EXPECT_EQ(got, (std::vector<int>{42, 42, 42}));
  EXPECT_EQ(gathered[0], (std::vector<double>{0, 1.5, 3.0}));
  EXPECT_TRUE(gathered[1].empty()); // only the root gathers, as MPI_Gather
  EXPECT_EQ(to_root[0], (std::vector<std::string>{"", "y", "yy"}));
  EXPECT_TRUE(to_root[1].empty());
  EXPECT_TRUE(to_root[2].empty());
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(names[r], (std::vector<std::string>{"", "x", "xx"}));
    EXPECT_EQ(ints[r], (std::vector<int>{0, 10, 20}));
  }
}

TEST(ThreadComm, ExtremesNameTheirRanksAndBreakTiesByTheLowerRank) {
  std::vector<Extremes> got(4);
  std::vector<Extremes> tied(4);
  on_threads(4, [&](int r, const Communicator& c) {
    got[r] = c.extremes(r == 2 ? -1.5 : (r == 1 ? 7.0 : 0.5 * r));
    tied[r] = c.extremes(3.0);
  });
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(got[r].min, -1.5);
    EXPECT_EQ(got[r].min_rank, 2);
    EXPECT_EQ(got[r].max, 7.0);
    EXPECT_EQ(got[r].max_rank, 1);
    EXPECT_EQ(tied[r].min_rank, 0);
    EXPECT_EQ(tied[r].max_rank, 0);
  }
}

TEST(ThreadComm, GatherVectorsOfDifferentLengthsToRankZero) {
  std::vector<std::vector<std::vector<double>>> got(3);
  on_threads(3, [&](int r, const Communicator& c) {
    got[r] = c.gather_vectors(std::vector<double>(static_cast<std::size_t>(r), 1.0 + r));
  });
  ASSERT_EQ(got[0].size(), 3u);
  EXPECT_TRUE(got[0][0].empty());
  EXPECT_EQ(got[0][1], (std::vector<double>{2.0}));
  EXPECT_EQ(got[0][2], (std::vector<double>{3.0, 3.0}));
  EXPECT_TRUE(got[1].empty());
  EXPECT_TRUE(got[2].empty());
}

TEST(ThreadComm, SplitOrdersByKeyLikeMpiAndLeavesNegativeColorsOut) {
  // 6 ranks: even ranks form one group keyed in reverse, odd ranks 1 and 3 another, rank 5 none.
  std::vector<int> new_rank(6, -9), new_size(6, -9);
  std::vector<std::vector<int>> world_ranks(6);
  std::vector<char> valid(6);
  on_threads(6, [&](int r, const Communicator& c) {
    const int color = r == 5 ? -1 : r % 2;
    const int key = r % 2 == 0 ? -r : 0;
    const Communicator sub = c.split(color, key);
    valid[r] = sub.valid();
    if (sub.valid()) {
      new_rank[r] = sub.rank();
      new_size[r] = sub.size();
      world_ranks[r] = sub.world_ranks();
      EXPECT_EQ(sub.sum(1LL), sub.size()); // the group works on its own
    }
  });
  EXPECT_EQ(valid, (std::vector<char>{1, 1, 1, 1, 1, 0}));
  EXPECT_EQ(new_rank[4], 0); // key -4 first
  EXPECT_EQ(new_rank[2], 1);
  EXPECT_EQ(new_rank[0], 2);
  EXPECT_EQ(new_size[0], 3);
  EXPECT_EQ(world_ranks[0], (std::vector<int>{4, 2, 0}));
  EXPECT_EQ(new_rank[1], 0); // equal keys: old rank order
  EXPECT_EQ(new_rank[3], 1);
  EXPECT_EQ(world_ranks[3], (std::vector<int>{1, 3}));
}

TEST(ThreadComm, NestedSplitsKeepWorldRanks) {
  std::vector<std::vector<int>> inner(4);
  on_threads(4, [&](int r, const Communicator& c) {
    const Communicator upper = c.split(r >= 1 ? 0 : -1, r); // ranks 1, 2, 3
    if (!upper.valid())
      return;
    const Communicator last_two = upper.split(upper.rank() >= 1 ? 0 : -1, upper.rank());
    if (last_two.valid())
      inner[r] = last_two.world_ranks();
    const Communicator node = upper.split_shared(); // one process is one node
    EXPECT_EQ(node.size(), 3);
  });
  EXPECT_TRUE(inner[1].empty());
  EXPECT_EQ(inner[2], (std::vector<int>{2, 3}));
  EXPECT_EQ(inner[3], (std::vector<int>{2, 3}));
}

TEST(ThreadComm, ManyBackToBackOperationsStayConsistent) {
  // Fast and slow ranks interleave: a rank that leaves one exchange early must not overwrite a
  // slot another rank has not read yet.
  constexpr int kRounds = 2000;
  std::vector<long long> wrong(4, 0);
  on_threads(4, [&](int r, const Communicator& c) {
    for (int i = 0; i < kRounds; ++i) {
      if (c.sum(static_cast<long long>(i + r)) != 4LL * i + 6)
        ++wrong[r];
      if (c.broadcast_int(r == 0 ? i : -1) != i)
        ++wrong[r];
      if (i % 100 == 0)
        c.barrier();
    }
  });
  EXPECT_EQ(wrong, (std::vector<long long>(4, 0)));
}

TEST(ThreadComm, AnAbortWakesEveryWaitingRankWithTheFailedRanksMessage) {
  // Rank 2 fails; rank 0 waits in the world, rank 1 in a group split from it. Neither may wait
  // forever, and both learn which rank failed and why, with the job's exit code.
  std::vector<std::string> seen(3);
  std::vector<int> codes(3, -1);
  on_threads(3, [&](int r, const Communicator& c) {
    const Communicator pair = c.split(r < 2 ? 0 : -1, r);
    try {
      if (r == 2)
        c.abort(3, "an illegal memory access was encountered");
      if (r == 1)
        pair.barrier(); // waits for rank 0, which is waiting for rank 2
      else
        c.barrier();
    } catch (const RankStopped& e) {
      seen[r] = e.what();
      codes[r] = static_cast<int>(e.code());
    }
  });
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(seen[r], "rank 2 failed: an illegal memory access was encountered") << r;
    EXPECT_EQ(codes[r], 3) << r;
  }
}

TEST(ThreadComm, ZeroRanksIsBadInput) {
  EXPECT_THROW(Communicator::threads(0), InputError);
}

} // namespace
} // namespace cb
