// Communicators whose ranks are MPI processes.
#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include "core/error.hpp"
#include "runtime/comm_impl.hpp"
#include "runtime/communicator.hpp"

namespace cb {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  CB_RUN_ERROR(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  // SINGLE: only the main thread calls MPI (the watchdog thread never does). Asking for FUNNELED
  // costs Open MPI about 25 % of an 8-byte all_reduce's latency on shared memory.
  MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
  // Errors come back as codes so they become typed exceptions with a message instead of aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

std::string MpiSession::library_version() {
  // Allowed before MPI_Init, so a run without MPI still names the library it was built with.
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string version(text, static_cast<std::size_t>(len));
  if (auto nl = version.find_first_of(",\n"); nl != std::string::npos)
    version.resize(nl);
  return version;
}

namespace detail {
namespace {

class MpiComm : public CommImpl {
public:
  MpiComm(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {}
  ~MpiComm() override {
    if (owned_) {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized)
        MPI_Comm_free(&comm_);
    }
  }
  MpiComm(const MpiComm&) = delete;
  MpiComm& operator=(const MpiComm&) = delete;

  int rank() const override {
    int r = 0;
    MPI_Comm_rank(comm_, &r);
    return r;
  }
  int size() const override {
    int s = 0;
    MPI_Comm_size(comm_, &s);
    return s;
  }
  MPI_Comm mpi() const override { return comm_; }

  std::unique_ptr<CommImpl> split(int color, int key) const override {
    MPI_Comm out = MPI_COMM_NULL;
    check_mpi(MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &out),
              "MPI_Comm_split");
    if (out == MPI_COMM_NULL)
      return nullptr;
    MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN);
    return std::make_unique<MpiComm>(out, true);
  }

  std::unique_ptr<CommImpl> split_shared() const override {
    MPI_Comm out = MPI_COMM_NULL;
    check_mpi(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &out),
              "MPI_Comm_split_type");
    MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN);
    return std::make_unique<MpiComm>(out, true);
  }

  void barrier() const override { check_mpi(MPI_Barrier(comm_), "MPI_Barrier"); }

  void idle_barrier() const override {
    // A non-blocking barrier polled with sleeps (oversubscribed nodes, emulated clusters).
    MPI_Request request;
    check_mpi(MPI_Ibarrier(comm_, &request), "MPI_Ibarrier");
    int done = 0;
    while (!done) {
      check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (!done)
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
  }

  double max(double value) const override { return reduce(value, MPI_DOUBLE, MPI_MAX); }
  double sum(double value) const override { return reduce(value, MPI_DOUBLE, MPI_SUM); }
  long long sum(long long value) const override { return reduce(value, MPI_LONG_LONG, MPI_SUM); }

  void broadcast(void* data, int bytes) const override {
    check_mpi(MPI_Bcast(data, bytes, MPI_BYTE, 0, comm_), "MPI_Bcast");
  }

  std::vector<double> gather(double value) const override {
    std::vector<double> out(rank() == 0 ? static_cast<std::size_t>(size()) : 0);
    check_mpi(MPI_Gather(&value, 1, MPI_DOUBLE, out.data(), 1, MPI_DOUBLE, 0, comm_), "MPI_Gather");
    return out;
  }

  Extremes extremes(double value) const override {
    // One MPI_MAXLOC over two (value, rank) pairs: the largest value, and the largest negated
    // value, i.e. the smallest; MAXLOC breaks ties by the lower rank.
    struct ValueRank {
      double value;
      int rank;
    };
    const int me = rank();
    ValueRank mine[2] = {{value, me}, {-value, me}};
    ValueRank out[2] = {};
    check_mpi(MPI_Allreduce(mine, out, 2, MPI_DOUBLE_INT, MPI_MAXLOC, comm_), "MPI_Allreduce");
    Extremes e;
    e.max = out[0].value;
    e.max_rank = out[0].rank;
    e.min = -out[1].value;
    e.min_rank = out[1].rank;
    return e;
  }

  std::vector<std::vector<double>>
  gather_vectors(const std::vector<double>& values) const override {
    const auto g = gather_to_root(values.data(), static_cast<int>(values.size()), MPI_DOUBLE);
    std::vector<std::vector<double>> out;
    for (std::size_t i = 0; i < g.counts.size(); ++i) {
      const auto first = g.all.begin() + g.offsets[i];
      out.emplace_back(first, first + g.counts[i]);
    }
    return out;
  }

  std::vector<std::string> gather_string(const std::string& value) const override {
    const auto g = gather_to_root(value.data(), static_cast<int>(value.size()), MPI_CHAR);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < g.counts.size(); ++i)
      out.emplace_back(g.all.data() + g.offsets[i], static_cast<std::size_t>(g.counts[i]));
    return out;
  }

  std::vector<std::string> all_gather_string(const std::string& value) const override {
    const int n = size();
    const int len = static_cast<int>(value.size());
    std::vector<int> lengths(static_cast<std::size_t>(n));
    check_mpi(MPI_Allgather(&len, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_), "MPI_Allgather");
    std::vector<int> offsets(static_cast<std::size_t>(n), 0);
    for (int i = 1; i < n; ++i)
      offsets[i] = offsets[i - 1] + lengths[i - 1];
    std::vector<char> all(static_cast<std::size_t>(offsets[n - 1] + lengths[n - 1]) + 1);
    check_mpi(MPI_Allgatherv(value.data(), len, MPI_CHAR, all.data(), lengths.data(),
                             offsets.data(), MPI_CHAR, comm_),
              "MPI_Allgatherv");
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i)
      out.emplace_back(all.data() + offsets[i], static_cast<std::size_t>(lengths[i]));
    return out;
  }

  std::vector<int> all_gather_int(int value) const override {
    std::vector<int> out(static_cast<std::size_t>(size()));
    check_mpi(MPI_Allgather(&value, 1, MPI_INT, out.data(), 1, MPI_INT, comm_), "MPI_Allgather");
    return out;
  }

  // Collective on the first call only: the members never change, and every member calls it as
  // often as the others, so the first call is one they all make. The NCCL communicator cache
  // keys by it once per record; at 8,192 ranks that was an all-gather per record per rank.
  std::vector<int> world_ranks() const override {
    if (!world_ranks_) {
      int world = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &world);
      world_ranks_ = all_gather_int(world);
    }
    return *world_ranks_;
  }

  [[noreturn]] void abort(int code, const std::string& /*why: already said*/) const override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code); // MPI_Abort does not return; this says so to the compiler
  }

private:
  // Each rank's `count` items to rank 0, concatenated in rank order, with each rank's count and
  // offset; empty on the other ranks.
  template <typename T> struct Gathered {
    std::vector<T> all;
    std::vector<int> counts;
    std::vector<int> offsets;
  };
  template <typename T>
  Gathered<T> gather_to_root(const T* data, int count, MPI_Datatype type) const {
    const bool root = rank() == 0;
    const auto n = static_cast<std::size_t>(root ? size() : 0);
    Gathered<T> g;
    g.counts.resize(n);
    check_mpi(MPI_Gather(&count, 1, MPI_INT, g.counts.data(), 1, MPI_INT, 0, comm_), "MPI_Gather");
    g.offsets.assign(n, 0);
    for (std::size_t i = 1; i < n; ++i)
      g.offsets[i] = g.offsets[i - 1] + g.counts[i - 1];
    // One spare item: MPI may want a valid buffer even when every count is zero.
    g.all.resize(n > 0 ? static_cast<std::size_t>(g.offsets[n - 1] + g.counts[n - 1]) + 1 : 1);
    check_mpi(MPI_Gatherv(data, count, type, g.all.data(), g.counts.data(), g.offsets.data(), type,
                          0, comm_),
              "MPI_Gatherv");
    return g;
  }

  template <typename T> T reduce(T value, MPI_Datatype type, MPI_Op op) const {
    T out{};
    check_mpi(MPI_Allreduce(&value, &out, 1, type, op, comm_), "MPI_Allreduce");
    return out;
  }

  MPI_Comm comm_;
  mutable std::optional<std::vector<int>> world_ranks_;
  bool owned_;
};

} // namespace

std::unique_ptr<CommImpl> mpi_world() {
  return std::make_unique<MpiComm>(MPI_COMM_WORLD, false);
}

} // namespace detail
} // namespace cb
