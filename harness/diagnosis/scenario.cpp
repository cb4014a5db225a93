#include "diagnosis/scenario.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

#include "core/error.hpp"
#include "results/json_file.hpp"

namespace cb {

const char* fault_kind_name(FaultKind kind) {
  switch (kind) {
  case FaultKind::node:
    return "node";
  case FaultKind::rail:
    return "rail";
  case FaultKind::uplink:
    return "uplink";
  }
  return "node";
}

const char* pairs_mode_name(PairsMode mode) {
  switch (mode) {
  case PairsMode::screen:
    return "screen";
  case PairsMode::rounds:
    return "rounds";
  case PairsMode::sequential:
    return "sequential";
  }
  return "screen";
}

PairsMode parse_pairs_mode(const std::string& text, const std::string& where) {
  if (text == "screen")
    return PairsMode::screen;
  if (text == "rounds")
    return PairsMode::rounds;
  if (text == "sequential")
    return PairsMode::sequential;
  throw InputError(where + ": expected screen, rounds or sequential, got '" + shown(text) + "'");
}

std::string simulated_host_name(int host) {
  char name[16];
  std::snprintf(name, sizeof name, "node%04d", host);
  return name;
}

namespace {

using json = nlohmann::json;

void only_fields(const json& object, std::initializer_list<const char*> allowed,
                 const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (const char* name : allowed)
      known = known || key == name;
    if (!known)
      throw InputError(where + ": unknown field '" + shown(key) + "'");
  }
}

long long integer_field(const json& object, const char* field, long long low, long long high,
                        const std::string& where) {
  const json& v = object.at(field);
  if (!v.is_number_integer())
    throw InputError(where + field + ": expected an integer");
  const long long value = v.is_number_unsigned() && v.get<unsigned long long>() > 1ull << 62
                              ? high + 1
                              : v.get<long long>();
  if (value < low || value > high) {
    throw InputError(where + field + ": must be " + std::to_string(low) + ".." +
                     std::to_string(high) + ", got " + v.dump());
  }
  return value;
}

double number_field(const json& object, const char* field, const std::string& where) {
  const json& v = object.at(field);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw InputError(where + field + ": expected a number");
  return v.get<double>();
}

PlantedFault parse_fault(const json& f, const Scenario& s, const std::string& where) {
  if (!f.is_object())
    throw InputError(where + ": expected an object {\"kind\": ..., \"factor\": ...}");
  if (!f.contains("kind") || !f["kind"].is_string())
    throw InputError(where + ".kind: expected node, rail or uplink");
  const std::string kind = f["kind"].get<std::string>();
  PlantedFault fault;
  const std::string at = where + ".";
  if (kind == "node") {
    only_fields(f, {"kind", "host", "factor", "direction"}, where);
    fault.kind = FaultKind::node;
  } else if (kind == "rail") {
    only_fields(f, {"kind", "host", "gpu", "factor"}, where);
    fault.kind = FaultKind::rail;
  } else if (kind == "uplink") {
    only_fields(f, {"kind", "leaf", "factor"}, where);
    fault.kind = FaultKind::uplink;
  } else {
    throw InputError(where + ".kind: expected node, rail or uplink, got '" + shown(kind) + "'");
  }
  for (const char* field : {"host", "gpu", "leaf"}) {
    const bool needed = (fault.kind != FaultKind::uplink && std::string(field) == "host") ||
                        (fault.kind == FaultKind::rail && std::string(field) == "gpu") ||
                        (fault.kind == FaultKind::uplink && std::string(field) == "leaf");
    if (needed && !f.contains(field))
      throw InputError(at + field + ": required for a " + kind + " fault");
  }
  if (fault.kind != FaultKind::uplink)
    fault.host = static_cast<int>(integer_field(f, "host", 0, s.nodes - 1, at));
  if (fault.kind == FaultKind::rail)
    fault.gpu = static_cast<int>(integer_field(f, "gpu", 0, s.gpus_per_node - 1, at));
  if (fault.kind == FaultKind::uplink)
    fault.leaf = static_cast<int>(integer_field(f, "leaf", 0, s.leaves() - 1, at));
  if (!f.contains("factor"))
    throw InputError(at + "factor: required");
  fault.factor = number_field(f, "factor", at);
  if (!(fault.factor > 0 && fault.factor <= 1))
    throw InputError(at + "factor: must be in (0, 1], got " + f["factor"].dump());
  if (f.contains("direction")) {
    const json& d = f["direction"];
    const std::string text = d.is_string() ? d.get<std::string>() : "";
    if (text == "egress")
      fault.direction = Direction::egress;
    else if (text == "ingress")
      fault.direction = Direction::ingress;
    else if (text != "both")
      throw InputError(at + "direction: expected both, egress or ingress, got " +
                       shown(d.dump()));
  }
  return fault;
}

} // namespace

Scenario parse_scenario(const json& doc, const std::string& source) {
  return reading_json(source, [&] {
    if (!doc.is_object())
      throw InputError(source + ": expected an object {\"nodes\": N, ...}");
    only_fields(doc,
                {"nodes", "gpus_per_node", "leaf_nodes", "oversubscription", "rail_gbps", "noise",
                 "seed", "pairs", "faults"},
                source);
    const std::string at = source + ": ";
    for (const char* field : {"nodes", "gpus_per_node"}) {
      if (!doc.contains(field))
        throw InputError(at + field + ": required");
    }
    Scenario s;
    s.nodes = static_cast<int>(integer_field(doc, "nodes", 2, kMaxScenarioNodes, at));
    s.gpus_per_node =
        static_cast<int>(integer_field(doc, "gpus_per_node", 1, kMaxScenarioGpusPerNode, at));
    s.leaf_nodes = doc.contains("leaf_nodes")
                       ? static_cast<int>(integer_field(doc, "leaf_nodes", 1, s.nodes, at))
                       : s.nodes;
    if (doc.contains("oversubscription")) {
      s.oversubscription = number_field(doc, "oversubscription", at);
      if (!(s.oversubscription >= 1 && s.oversubscription <= kMaxOversubscription))
        throw InputError(at + "oversubscription: must be in [1, 64], got " +
                         doc["oversubscription"].dump());
    }
    if (doc.contains("rail_gbps")) {
      s.rail_gbps = number_field(doc, "rail_gbps", at);
      if (!(s.rail_gbps > 0 && s.rail_gbps <= 1e6))
        throw InputError(at + "rail_gbps: must be in (0, 1e6], got " + doc["rail_gbps"].dump());
    }
    if (doc.contains("noise")) {
      s.noise = number_field(doc, "noise", at);
      if (!(s.noise >= 0 && s.noise <= kMaxScenarioNoise))
        throw InputError(at + "noise: must be in [0, 0.5], got " + doc["noise"].dump());
    }
    if (doc.contains("seed"))
      s.seed = static_cast<std::uint64_t>(integer_field(doc, "seed", 0, 1ll << 53, at));
    if (doc.contains("pairs")) {
      if (!doc["pairs"].is_string())
        throw InputError(at + "pairs: expected screen, rounds or sequential");
      s.pairs = parse_pairs_mode(doc["pairs"].get<std::string>(), at + "pairs");
    }
    if (doc.contains("faults")) {
      if (!doc["faults"].is_array())
        throw InputError(at + "faults: expected an array");
      std::set<std::tuple<int, int, int, int>> planted;
      for (std::size_t i = 0; i < doc["faults"].size(); ++i) {
        const std::string where = at + "faults[" + std::to_string(i) + "]";
        PlantedFault f = parse_fault(doc["faults"][i], s, where);
        if (!planted.emplace(static_cast<int>(f.kind), f.host, f.gpu, f.leaf).second)
          throw InputError(where + ": the same component is planted twice");
        s.faults.push_back(f);
      }
    }
    return s;
  });
}

Scenario load_scenario(const std::string& path) {
  return parse_scenario(read_json_file(path), path);
}

} // namespace cb
