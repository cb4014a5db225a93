#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "collectives/collective_case.hpp"
#include "runtime/case.hpp"
#include "runtime/console_printer.hpp"

using namespace cb;

namespace {
// Exposes the reduction helper to check it against a direct loop.
struct Probe : CollectiveCase {
  Probe() : CollectiveCase(Collective::all_reduce) {}
  using CollectiveCase::reduce_over_ranks;
  CollectiveShape shape(std::size_t, std::size_t, int) const override { return {}; }
  double send_value(int, int, const CollectiveShape&, std::size_t) const override { return 0; }
  double expected_value(int, int, const CollectiveShape&, std::size_t, ReduceOp) const override {
    return 0;
  }
  void call(CollectiveComm&, const void*, void*, std::size_t, DType, ReduceOp) const override {}
};
} // namespace

TEST(CollectivePattern, ValuesAreSmallPositiveIntegers) {
  for (int r = 0; r < 20; ++r) {
    for (std::size_t j = 0; j < 20; ++j) {
      const double v = pattern_value(r, j);
      EXPECT_GE(v, 1);
      EXPECT_LE(v, 8);
      EXPECT_EQ(v, static_cast<int>(v));
    }
  }
}

TEST(CollectivePattern, ReductionOverRanksMatchesADirectLoop) {
  for (int ranks : {1, 2, 3, 7, 8, 9, 16, 33}) {
    for (std::size_t j : {0u, 1u, 5u, 1000u}) {
      double sum = 0, lo = 1e9, hi = -1e9;
      for (int r = 0; r < ranks; ++r) {
        sum += pattern_value(r, j);
        lo = std::min(lo, pattern_value(r, j));
        hi = std::max(hi, pattern_value(r, j));
      }
      EXPECT_EQ(Probe::reduce_over_ranks(ranks, j, ReduceOp::sum), sum) << ranks << " " << j;
      EXPECT_EQ(Probe::reduce_over_ranks(ranks, j, ReduceOp::min), lo);
      EXPECT_EQ(Probe::reduce_over_ranks(ranks, j, ReduceOp::max), hi);
    }
  }
}

TEST(CollectiveRegistry, EveryCollectiveIsRegisteredOnce) {
  const auto names = CaseRegistry::instance().case_names("collectives");
  for (const char* name : {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall"}) {
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
  }
}

TEST(CollectiveInstances, SweepSizesDtypesAndOnlyReducingCollectivesSweepOps) {
  RunConfig c;
  c.axis_settings = {{"--axis", "", "bytes", "8:64:2", ""},
                     {"--dtypes", "", "", "float,double", ""},
                     {"--ops", "", "", "sum,max", ""}};
  for (const auto& kase : CaseRegistry::instance().create_all()) {
    if (kase->suite() != "collectives" || kase->name() == "communicator_init")
      continue; // no sizes: one instance (test_communicator_init.cpp)
    const auto instances = kase->instances(c);
    const bool reduces = kase->name() == "all_reduce" || kase->name() == "reduce_scatter";
    EXPECT_EQ(instances.size(), (reduces ? 2u : 1u) * 2u * 4u) << kase->name();
  }
}

TEST(CollectiveTable, AReasonSharedByEveryRowIsPrintedOnce) {
  const auto table = PrinterRegistry::instance().create("collectives");
  auto row = [](std::size_t bytes, const std::string& in_place_reason) {
    std::vector<Record> records(2);
    for (int i = 0; i < 2; ++i) {
      records[i].suite = "collectives";
      records[i].case_name = "all_reduce";
      records[i].params = {{"bytes", bytes}, {"count", bytes / 4}, {"dtype", "float"},
                           {"in_place", i == 1}};
      records[i].status = RecordStatus::ok;
    }
    if (!in_place_reason.empty()) {
      records[1].status = RecordStatus::skipped;
      records[1].reason = in_place_reason;
    }
    return records;
  };
  std::ostringstream out;
  table->rows(out, row(8, "in-place: two buffers needed"));
  table->rows(out, row(64, "in-place: two buffers needed"));
  table->rows(out, row(512, "in-place: another reason"));
  const std::string text = out.str();
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("#   skipped: in-place: two buffers needed\n"), 1u) << text;
  EXPECT_EQ(count("#   skipped: in-place: another reason\n"), 1u) << text;
  EXPECT_EQ(count("skip "), 3u) << text; // every row still marks its skipped column
}
