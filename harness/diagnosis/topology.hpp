#pragma once
// The fabric's shape as the operator describes it: which leaf switch each host hangs off, and
// which switch each leaf's uplinks go to. Read from Slurm's topology.conf (topology/tree) or from
// a JSON map host -> leaf (-> spine); used to plan the screen (inside each leaf, then between
// leaves) and to tell a slow uplink from slow nodes.
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace cb {

// Hosts one topology may name, all its lists together: the simulator's node bound
// (kMaxScenarioNodes), and more than any job this screen plans for.
inline constexpr std::size_t kMaxTopologyHosts = 65536;

struct Topology {
  std::string source;                   // the file, for messages
  std::vector<std::string> leaves;      // leaf switches (those with Nodes=), in file order
  std::vector<std::string> leaf_parent; // per leaf: the switch above it, "" when none
  std::unordered_map<std::string, int> leaf_of_host;
  std::unordered_map<std::string, int> line_of_host; // where a host was named (0 for JSON)
};

// Slurm's topology.conf: one switch per line, `SwitchName=NAME [Switches=LIST] [Nodes=LIST]
// [LinkSpeed=N]`, parameter names case-insensitive, `#` to the end of the line a comment (`\#` a
// literal one), a line ending in `\` continued on the next, LIST in Slurm's host list notation.
// InputError "SOURCE line N: ..." for an unparsable line, an unknown parameter, a range that does
// not expand, a parameter given twice, a name not printable ASCII, more than kMaxTopologyHosts
// hosts, a switch listing both Nodes= and Switches=, a switch defined twice or named but never
// defined, a host under two leaves, a switch under two parents, and a cycle of switches.
Topology parse_slurm_topology(const std::string& text, const std::string& source);

// {"HOST": "LEAF", "HOST": {"leaf": "LEAF", "spine": "SPINE"}, ...}; HOST may be a host list
// ("gpu[001-032]"). InputError "SOURCE: host 'H': ..." for a bad entry, a leaf under two spines;
// "SOURCE: ..." for a name not printable ASCII, more than kMaxTopologyHosts hosts, a spine that is
// also a leaf.
Topology parse_json_topology(const std::string& text, const std::string& source);

// Reads either form from a file: JSON when the first non-blank byte is '{'.
Topology load_topology(const std::string& path);

// The job's hosts placed on the topology: leaf index per host (in the job's order). A job host
// the topology does not name is bad input (InputError naming the file and host); hosts the
// topology names that the job does not have are left out and counted in `notes`.
struct HostPlacement {
  std::vector<int> leaf_of_node;       // per job host, an index into `leaf_names`
  std::vector<std::string> leaf_names; // the leaves holding job hosts, as the hosts reach them
  std::vector<std::string> leaf_parents;
  std::vector<std::string> notes;
};
HostPlacement place_hosts(const Topology& topology, const std::vector<std::string>& hosts);

} // namespace cb
