#pragma once
// The GPU-count sweep: for each case, for each count N, the first N ranks in node-aware order form
// a sub-communicator and run the case's instances; the other ranks wait (without spinning) until
// the count is done. Rank 0 appends each finished record to the results file and prints it.
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "results/results_io.hpp"
#include "runtime/case.hpp"
#include "runtime/progress.hpp"
#include "runtime/watchdog.hpp"

namespace cb {

// What the plan (harness/planning) says to run in one phase (one case at one GPU count): which of
// the case's instances, each with its own engine settings. A case at a count with no phase plan
// runs every instance with the run's settings.
struct SweepPhasePlan {
  std::string suite;
  std::string name;
  int gpus = 0;
  std::vector<std::pair<std::size_t, MeasureSettings>> instances; // index into instances(config)
};

struct SweepSummary {
  int records = 0;
  int noisy = 0;
  int skipped = 0;
  int failed = 0;        // status failed
  int failed_to_run = 0; // of those, the ones whose data was not found wrong (could not run)
  int check_failed = 0;  // data verification failed (wrong data, or a read that failed mid-run)
  std::vector<double> noisy_cv;
  int settled = 0; // of the noisy ones, those that stopped when their spread settled
  // Rank 0: wall seconds of each planned phase, in the order of the phase plans (-1: not run).
  std::vector<double> phase_seconds;

  // The run's exit code: 3 when a case could not run (the run failed), else 1 when data was wrong,
  // else 0.
  int exit_code() const { return failed_to_run > 0 ? 3 : (check_failed > 0 ? 1 : 0); }
};

class SweepRunner {
public:
  SweepRunner(Backend& backend, const Communicator& world, const RunConfig& config,
              const NodeLayout& layout, const std::vector<nlohmann::json>& world_devices,
              std::vector<int> counts);
  // Runs only what the plan says, phase by phase, and times each phase.
  void set_plan(std::vector<SweepPhasePlan> phases) { plan_ = std::move(phases); }
  // Rank 0 passes the writer and the table stream; other ranks pass nullptr.
  SweepSummary run(std::vector<std::unique_ptr<BenchmarkCase>>& cases,
                   IncrementalResultsWriter* writer, std::ostream* table);

private:
  std::vector<int> counts_for(const BenchmarkCase& c) const;
  // Why a case chosen for this run cannot run at any count of it; empty when it can.
  std::string why_not_run(const BenchmarkCase& c) const;
  void wait_idle() const;
  // The index of the phase plan of case c at count n, or -1.
  int planned_phase(const BenchmarkCase& c, int n) const;
  // The instances the sweep will run over every count: the plan's, else each case's all.
  long instances_to_run(const std::vector<std::unique_ptr<BenchmarkCase>>& cases) const;

  Backend& backend_;
  const Communicator& world_;
  const RunConfig& config_;
  const NodeLayout& layout_;
  const std::vector<nlohmann::json>& world_devices_;
  std::vector<int> counts_;
  std::vector<SweepPhasePlan> plan_;
};

} // namespace cb
