#pragma once
// The `run` section of a results file: who ran what, where, with which software.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/topology.hpp"

namespace cb {

std::string utc_timestamp(bool compact); // 2026-11-29T17:25:00Z, or 20261129T172500Z
// results/<UTC timestamp>-<host>.json
std::string default_results_path();

nlohmann::json make_run_header(const std::vector<std::string>& argv, const std::string& backend,
                               const std::string& launcher, const NodeLayout& layout,
                               const std::vector<nlohmann::json>& world_devices,
                               const nlohmann::json& backend_versions,
                               const std::string& mpi_version,
                               const std::vector<nlohmann::json>& nics_of_rank = {});

} // namespace cb
