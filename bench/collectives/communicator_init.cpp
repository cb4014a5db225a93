// communicator_init: the time to make a communicator for the collectives of a GPU count's ranks,
// which every start and every restart of a job pays (the restart's share of goodput,
// analysis/useful_work.hpp). The backend makes it as a job does (Backend::new_communicator):
// MPI_Comm_split of the case's communicator on the host; NCCL's bootstrap and ncclCommInitRank on
// cuda. One operation is one creation, timed from a barrier to the communicator being usable on
// this rank; the engine's sample is the slowest rank's (a job starts when its last rank can). The
// communicator is destroyed after the clock stops.
//
// The first creation in the process pays what later ones find done (the library's own set-up, its
// topology search on first use): a restart is such a first one, so it is timed alone before the
// engine's warm-up and kept as cold_time_us beside the steady time_us.
#include <chrono>

#include "runtime/case.hpp"

namespace cb {
namespace {

class CommunicatorInitCase : public BenchmarkCase {
public:
  CommunicatorInitCase() : BenchmarkCase("collectives", "communicator_init") {}
  // The host's are MPI's: threads of one process have none to make (the backend says why).
  std::string why_not_on(const Backend& backend, BackendKind /*kind*/,
                         const Communicator& world) const override {
    return backend.why_no_collectives(world);
  }

  void run(CaseRun& run, const nlohmann::json& /*params*/) override {
    const CaseContext& ctx = run.context();
    Record& record = run.record();
    record.extra["calls"] = ctx.backend.communicator_calls();
    // This rank's seconds for one creation; the barrier lines the ranks up outside the clock.
    auto create_once = [&] {
      ctx.comm.barrier();
      const auto start = std::chrono::steady_clock::now();
      auto made = ctx.backend.new_communicator(ctx.comm);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      made.reset(); // destroyed outside the timed part
      return seconds;
    };
    const double cold_s = ctx.comm.max(create_once());
    const Measurement m = run.measure_timed(
        [&](int k) {
          double seconds = 0;
          for (int i = 0; i < k; ++i)
            seconds += create_once();
          return seconds;
        },
        [](double seconds, bool) {
          return nlohmann::json{{"time_us", seconds * 1e6}};
        });
    ctx.add_rank_timing(record, m, false); // a creation need not wait for every rank's arrival
    if (ctx.comm.rank() == 0)
      record.metrics["cold_time_us"] = cold_s * 1e6;
  }
};

CB_REGISTER_CASE(CommunicatorInitCase);

} // namespace
} // namespace cb
