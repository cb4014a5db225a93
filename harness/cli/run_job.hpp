#pragma once
// The rank side of `run` before anything is measured: what every rank learns of the job (its
// layout, backend and devices) and whether the job can run as asked.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/backend.hpp"
#include "runtime/case.hpp"
#include "runtime/communicator.hpp"
#include "runtime/run_config.hpp"
#include "runtime/topology.hpp"

namespace cb {

// What every rank learns of the job before anything is measured; the same on every rank.
struct JobView {
  NodeLayout layout;
  std::vector<int> counts;  // the GPU counts of the sweep
  std::string backend_name; // auto resolved
  // backend.device() of every rank on rank 0, which writes them; elsewhere this rank's own, the
  // others {} (what a rank builds of a record beside its own is not kept).
  std::vector<nlohmann::json> devices;
  std::vector<nlohmann::json> nics; // each node's network adapters (its first rank), on rank 0
  // backend.device() of this node's ranks, on the node's first rank; elsewhere empty.
  std::vector<std::pair<int, nlohmann::json>> node_devices; // (world rank, device)
};

// Finds this rank's node, gathers the layout, creates the backend (into `backend`, which the
// caller keeps alive past an error) and gathers every rank's device and each node's adapters to
// rank 0, and each node's devices to its first rank. Only the layout goes to every rank (an int
// and a host name per rank): devices and adapters to every rank were ~8 MB on each of 8,192.
JobView discover_job(const Communicator& world, const Communicator& node, const RunConfig& config,
                     int device, std::unique_ptr<Backend>& backend);

// Why the job cannot run as asked, found before the results file is opened: two ranks on one
// GPU, or a case's input on any node (the storage directory, its free space). "" when none.
std::string job_input_problem(const Communicator& world, const Communicator& node,
                              const RunConfig& config, const JobView& job,
                              const std::vector<std::unique_ptr<BenchmarkCase>>& cases);

// Before the sweep of a job whose largest GPU count spans nodes and whose plan rests on the
// inter-node link rate (a chosen case's family says so; planning/measured_link.hpp,
// wants_link_calibration) when neither --plan-link nor --plan-from gives it: the links family
// measures it (a few tenths of a second, bench/links/link_calibration.hpp) and the plan takes it
// into `config`, naming it as its source. Collective over `world`, under a watchdog of the run's
// --timeout. When it cannot measure, the plan keeps the model's figure, its source (in the results
// file) says why, and rank 0 says so on stderr.
void calibrate_plan_link(const Communicator& world, RunConfig& config, const JobView& job,
                         Backend& backend,
                         const std::vector<std::unique_ptr<BenchmarkCase>>& cases);

} // namespace cb
