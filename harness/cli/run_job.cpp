#include "cli/run_job.hpp"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <optional>

#include "core/error.hpp"
#include "planning/measured_link.hpp"
#include "runtime/backend_registry.hpp"
#include "runtime/case_context.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/family.hpp"
#include "runtime/host_backend.hpp"
#include "runtime/launcher.hpp"
#include "runtime/network_interfaces.hpp"
#include "runtime/shared_directory.hpp"
#include "runtime/watchdog.hpp"

namespace cb {

JobView discover_job(const Communicator& world, const Communicator& node, const RunConfig& config,
                     int device, std::unique_ptr<Backend>& backend) {
  JobView job;
  int node_key = world.rank();
  node.broadcast(&node_key, sizeof node_key);
  bool emulated = false;
  const std::vector<std::string> hosts = world.all_gather_string(job_host_name(emulated));
  if (world.sum(static_cast<long long>(emulated)) > 0)
    check_emulated_hosts(hosts);
  if (emulated) // ranks of one emulated host name are one node, the first rank its key
    node_key = static_cast<int>(
        std::find(hosts.begin(), hosts.end(), hosts[static_cast<std::size_t>(world.rank())]) -
        hosts.begin());
  job.layout = make_layout(world.all_gather_int(node_key), hosts);
  job.counts = config.gpus == "auto" ? auto_gpu_counts(job.layout)
                                     : parse_gpu_counts(config.gpus, world.size());
  std::string note;
  job.backend_name = BackendRegistry::instance().resolve(config.backend, note);
  backend = BackendRegistry::instance().find(job.backend_name)->create(device);
  nlohmann::json mine = backend->device();
  // Where the rank runs, as the launcher and the binding beside its GPU left it.
  mine["cpus"] = cpu_list_text(current_thread_cpus());
  const std::string mine_text = mine.dump();
  const auto all = world.gather_string(mine_text);
  if (world.rank() == 0) {
    for (const auto& text : all)
      job.devices.push_back(nlohmann::json::parse(text));
  } else {
    job.devices.assign(static_cast<std::size_t>(world.size()), nlohmann::json::object());
    job.devices[static_cast<std::size_t>(world.rank())] = mine;
  }
  const std::vector<int> node_world_ranks = node.world_ranks();
  const auto on_node = node.gather_string(mine_text);
  for (std::size_t i = 0; i < on_node.size(); ++i)
    job.node_devices.emplace_back(node_world_ranks[i], nlohmann::json::parse(on_node[i]));
  for (const auto& text :
       world.gather_string(node.rank() == 0 ? network_interfaces().dump() : std::string("[]"))) {
    job.nics.push_back(nlohmann::json::parse(text));
  }
  return job;
}

std::string job_input_problem(const Communicator& world, const Communicator& node,
                              const RunConfig& config, const JobView& job,
                              const std::vector<std::unique_ptr<BenchmarkCase>>& cases) {
  // Ranks share a GPU only within a node: each node's first rank checks its node's devices.
  if (job.backend_name == "cuda") {
    std::string shared;
    if (node.rank() == 0) {
      std::vector<nlohmann::json> device_of_rank(job.layout.node_of_rank.size(),
                                                 nlohmann::json::object());
      for (const auto& [rank, device] : job.node_devices)
        device_of_rank[static_cast<std::size_t>(rank)] = device;
      shared =
          ranks_sharing_a_gpu(job.layout.node_of_rank, job.layout.host_of_rank, device_of_rank);
    }
    if (std::string problem = first_problem_anywhere(world, shared); !problem.empty())
      return problem;
  }
  // One rank per node checks its node: the ranks of a node share its memory and disks, and on a
  // shared --storage-dir every rank scanning every file's header would be ranks^2 reads of the
  // filesystem's metadata before the run starts.
  std::string mine;
  std::optional<DirectoryDemand> demand; // the most any one case writes there (they share files)
  if (node.rank() == 0) {
    const int my_node = job.layout.node_of_rank[static_cast<std::size_t>(world.rank())];
    std::vector<int> node_ranks;
    for (std::size_t r = 0; r < job.layout.node_of_rank.size(); ++r) {
      if (job.layout.node_of_rank[r] == my_node)
        node_ranks.push_back(static_cast<int>(r));
    }
    try {
      for (const auto& c : cases) {
        if (auto d = c->check_input(config, node_ranks); d && (!demand || d->bytes > demand->bytes))
          demand = std::move(d);
      }
    } catch (const InputError& e) {
      mine = e.what();
    }
  }
  if (std::string problem = first_problem_anywhere(world, mine); !problem.empty())
    return problem;
  // Each node has room for its own files; nodes that share one directory need room for all.
  return first_problem_anywhere(world, shared_directory_problem(world, demand));
}

void calibrate_plan_link(const Communicator& world, RunConfig& config, const JobView& job,
                         Backend& backend,
                         const std::vector<std::unique_ptr<BenchmarkCase>>& cases) {
  std::vector<std::string> suites;
  for (const auto& c : cases)
    suites.push_back(c->suite());
  if (!wants_link_calibration(config, job.layout, job.counts, suites))
    return;
  std::vector<int> members(static_cast<std::size_t>(world.size()));
  std::iota(members.begin(), members.end(), 0);
  Watchdog watchdog(config.timeout_s, world.rank());
  WatchdogScope guard(watchdog, "measuring the link rate between nodes for the plan");
  CaseContext ctx{backend,     world,    config,
                  job.layout,  members,  placement_of(job.layout, members),
                  job.devices, &watchdog};
  for (const auto& family : FamilyRegistry::instance().all()) {
    const std::optional<LinkCalibration> link = family->calibrate_link(ctx);
    if (!link)
      continue;
    // Measured, the plan's rate; not, the model's, its source saying why (kept in the results).
    config.plan_link_bps = link->bytes_per_s;
    config.plan_link_source = link->source;
    if (link->bytes_per_s <= 0 && world.rank() == 0)
      std::cerr << "clusterbench run: the plan's link rate between nodes was " << link->source
                << ": it assumes the model's\n";
    return;
  }
}

} // namespace cb
