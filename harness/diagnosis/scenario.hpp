#pragma once
// A modelled cluster to run the screen and the diagnosis against (`clusterbench simulate`): its
// size, its fabric, the noise of every measurement and the faults planted in it. The file is a
// contract (results/scenario.schema.json, docs/DIAGNOSIS.md); every bound is checked here.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diagnosis/observation.hpp"

namespace cb {

enum class FaultKind { node, rail, uplink };
const char* fault_kind_name(FaultKind kind);

struct PlantedFault {
  FaultKind kind = FaultKind::node;
  int host = -1;     // node, rail
  int gpu = -1;      // rail
  int leaf = -1;     // uplink
  double factor = 1; // (0, 1]: the share of its healthy rate the component keeps
  Direction direction = Direction::both; // node: what it sends, receives, or both
};

enum class PairsMode { screen, rounds, sequential };
const char* pairs_mode_name(PairsMode mode);
// "screen" | "rounds" | "sequential"; InputError naming `where` otherwise.
PairsMode parse_pairs_mode(const std::string& text, const std::string& where);

struct Scenario {
  int nodes = 0;
  int gpus_per_node = 0;
  int leaf_nodes = 0; // hosts per leaf switch; host h is in leaf h / leaf_nodes
  double oversubscription = 1;
  double rail_gbps = 400;
  double noise = 0; // relative standard deviation of every measurement
  std::uint64_t seed = 0;
  PairsMode pairs = PairsMode::screen;
  std::vector<PlantedFault> faults;

  int leaves() const { return (nodes + leaf_nodes - 1) / leaf_nodes; }
};

inline constexpr int kMaxScenarioNodes = 65536;
inline constexpr int kMaxScenarioGpusPerNode = 64;
inline constexpr double kMaxScenarioNoise = 0.5;
inline constexpr double kMaxOversubscription = 64;

// InputError "SOURCE: FIELD: ..." for a missing or unknown field, a wrong type, a value out of
// bounds (nodes above 65,536, noise < 0, a factor <= 0 or > 1, an index out of range), an unknown
// kind, a fault planted twice on one component.
Scenario parse_scenario(const nlohmann::json& doc, const std::string& source);
Scenario load_scenario(const std::string& path);

// The name of host h in a simulation: node0000, node0001, ...
std::string simulated_host_name(int host);

} // namespace cb
