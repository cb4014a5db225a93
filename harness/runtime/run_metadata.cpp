#include "runtime/run_metadata.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "core/environment.hpp"
#include "core/version.hpp"
#include "runtime/host_backend.hpp"

namespace cb {

std::string utc_timestamp(bool compact) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string default_results_path() {
  return "results/" + utc_timestamp(true) + "-" + host_name() + ".json";
}

nlohmann::json make_run_header(const std::vector<std::string>& argv, const std::string& backend,
                               const std::string& launcher, const NodeLayout& layout,
                               const std::vector<nlohmann::json>& world_devices,
                               const nlohmann::json& backend_versions,
                               const std::string& mpi_version,
                               const std::vector<nlohmann::json>& nics_of_rank) {
  // Each rank's device into its node's entry, in one pass over the ranks (a pass per node was
  // 8 million steps at 1,024 nodes x 8).
  const auto node_count = static_cast<std::size_t>(layout.node_count());
  std::vector<nlohmann::json> devices(node_count, nlohmann::json::array());
  std::vector<nlohmann::json> nics(node_count, nlohmann::json::array());
  std::vector<std::string> host(node_count);
  std::vector<bool> seen(node_count, false);
  for (std::size_t r = 0; r < layout.node_of_rank.size(); ++r) {
    const auto node = static_cast<std::size_t>(layout.node_of_rank[r]);
    if (node >= node_count)
      continue;
    if (!seen[node] && r < nics_of_rank.size())
      nics[node] = nics_of_rank[r];
    seen[node] = true;
    host[node] = layout.host_of_rank[r];
    nlohmann::json d = world_devices[r];
    d["rank"] = static_cast<int>(r);
    devices[node].push_back(std::move(d));
  }
  nlohmann::json hosts = nlohmann::json::array();
  for (std::size_t node = 0; node < node_count; ++node) {
    hosts.push_back({{"host", std::move(host[node])},
                     {"node", static_cast<int>(node)},
                     {"devices", std::move(devices[node])},
                     {"nics", std::move(nics[node])}});
  }
  nlohmann::json versions = backend_versions;
  versions["mpi"] = mpi_version;
  versions["compiler"] = std::string("g++ ") + __VERSION__;
  nlohmann::json environment = nlohmann::json::object();
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    // The variables that change how collectives and transports behave, the GPUs this rank may
    // see and the Slurm job it ran in.
    const auto eq = entry.find('=');
    const std::string name = entry.substr(0, eq);
    if (is_transport_variable(name) || name.rfind("CUDA_VISIBLE_DEVICES", 0) == 0 ||
        name.rfind("SLURM_JOB_ID", 0) == 0) {
      environment[name] = entry.substr(eq + 1);
    }
  }
  return {{"id", utc_timestamp(true) + "-" + host_name() + "-" + std::to_string(::getpid())},
          {"started", utc_timestamp(false)},
          {"finished", nullptr},
          {"tool_version", kToolVersion},
          {"git_sha", git_sha()},
          {"argv", argv},
          {"backend", backend},
          {"launcher", launcher},
          {"world_size", layout.node_of_rank.size()},
          {"nodes", layout.node_count()},
          {"hosts", std::move(hosts)},
          {"versions", std::move(versions)},
          {"environment", std::move(environment)}};
}

} // namespace cb
