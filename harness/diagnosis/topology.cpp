#include "diagnosis/topology.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

#include "core/error.hpp"
#include "core/text_file.hpp"
#include "results/json_file.hpp"
#include "slurm/slurm_environment.hpp"

namespace cb {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// One logical line of topology.conf: continuations joined, the comment cut.
struct ConfLine {
  int number = 0; // where it starts
  std::string text;
};

std::vector<ConfLine> logical_lines(const std::string& text) {
  std::vector<ConfLine> lines;
  ConfLine current;
  bool continued = false;
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    ++number;
    start = end + 1;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    // The comment: from the first '#' not escaped by a backslash.
    std::string kept;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '#') {
        kept += '#';
        ++i;
      } else if (line[i] == '#') {
        break;
      } else {
        kept += line[i];
      }
    }
    if (!continued)
      current = ConfLine{number, ""};
    const bool continues = !kept.empty() && kept.back() == '\\';
    if (continues)
      kept.pop_back();
    current.text += (continued ? " " : "") + kept;
    continued = continues;
    if (!continued)
      lines.push_back(current);
    if (end == text.size())
      break;
  }
  if (continued)
    lines.push_back(current);
  return lines;
}

// Names reach JSON output and terminals: bytes outside printable ASCII (a Latin-1 name, a
// control character) would make the JSON writer throw or the text output lie.
void refuse_unprintable(std::string_view value, const std::string& where) {
  for (const char c : value) {
    if (c < 0x21 || c > 0x7e) {
      throw InputError(where + "='" + shown(value) +
                       "': a name is printable ASCII (letters, digits, punctuation; no spaces)");
    }
  }
}

// Hosts named so far against kMaxTopologyHosts, counted before each list is expanded: a few
// bytes of ranges must not fill memory.
struct HostBudget {
  std::size_t used = 0;
  std::vector<std::string> expand(std::string_view list, const std::string& where) {
    auto hosts = expand_hostlist_in(list, where, kMaxTopologyHosts - used);
    used += hosts.size();
    return hosts;
  }
};

struct SwitchLine {
  std::string name;
  int line = 0;
  std::vector<std::string> switches;
  std::vector<std::string> nodes;
  bool has_nodes = false;
  bool has_switches = false;
  bool has_link_speed = false;
};

std::string at_line(const std::string& source, int line) {
  return source + " line " + std::to_string(line);
}

SwitchLine parse_switch_line(const ConfLine& line, const std::string& source, HostBudget& budget) {
  SwitchLine sw;
  sw.line = line.number;
  const std::string where = at_line(source, line.number);
  std::size_t pos = 0;
  const std::string& t = line.text;
  while (pos < t.size()) {
    while (pos < t.size() && std::isspace(static_cast<unsigned char>(t[pos])))
      ++pos;
    if (pos >= t.size())
      break;
    std::size_t end = pos;
    while (end < t.size() && !std::isspace(static_cast<unsigned char>(t[end])))
      ++end;
    const std::string token = t.substr(pos, end - pos);
    pos = end;
    const auto eq = token.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == token.size()) {
      throw InputError(where + ": expected Key=Value, got '" + shown(token) + "'");
    }
    const std::string key = lower(token.substr(0, eq));
    const std::string value = token.substr(eq + 1);
    // A repeated key would silently replace the earlier value, so each may appear once.
    const auto once = [&](bool& seen, const char* name) {
      if (seen)
        throw InputError(where + ": " + name + " given twice");
      seen = true;
      refuse_unprintable(value, where + ": " + name);
    };
    bool has_name = !sw.name.empty();
    if (key == "switchname") {
      once(has_name, "SwitchName");
      if (value.find_first_of("[],") != std::string::npos)
        throw InputError(where + ": SwitchName='" + shown(value) + "' names more than one switch");
      sw.name = value;
    } else if (key == "switches") {
      once(sw.has_switches, "Switches");
      sw.switches = expand_hostlist_in(value, where + ": Switches", kMaxTopologyHosts);
    } else if (key == "nodes") {
      once(sw.has_nodes, "Nodes");
      sw.nodes = budget.expand(value, where + ": Nodes");
    } else if (key == "linkspeed") {
      // A relative figure for Slurm's scheduler; the measurement is ours.
      once(sw.has_link_speed, "LinkSpeed");
    } else {
      throw InputError(where + ": unknown parameter '" + shown(token.substr(0, eq)) +
                       "' (expected SwitchName, Switches, Nodes, LinkSpeed)");
    }
  }
  if (sw.name.empty())
    throw InputError(where + ": a line needs SwitchName=");
  // A leaf (Nodes=) under which switches hang would be a leaf and a spine at once: the diagnosis
  // could not tell its uplinks from its hosts' links.
  if (sw.has_nodes && sw.has_switches) {
    throw InputError(where + ": switch " + shown(sw.name) +
                     " lists both Nodes= and Switches= (a leaf lists Nodes=, a spine Switches=)");
  }
  return sw;
}

// Refuses a cycle of switches (a switch its own ancestor), naming the line that closes it.
void refuse_cycles(const std::vector<SwitchLine>& switches,
                   const std::map<std::string, std::size_t>& index, const std::string& source) {
  enum class Mark { none, open, done };
  std::vector<Mark> mark(switches.size(), Mark::none);
  // Iterative depth-first search: a 10,000-switch chain must not exhaust the stack.
  for (std::size_t root = 0; root < switches.size(); ++root) {
    if (mark[root] != Mark::none)
      continue;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
    mark[root] = Mark::open;
    while (!stack.empty()) {
      auto& [at, next] = stack.back();
      if (next == switches[at].switches.size()) {
        mark[at] = Mark::done;
        stack.pop_back();
        continue;
      }
      const std::size_t child = index.at(switches[at].switches[next++]);
      if (mark[child] == Mark::open) {
        throw InputError(at_line(source, switches[at].line) +
                         ": switch cycle: " + shown(switches[at].name) + " lists " +
                         shown(switches[child].name) + ", which is above it");
      }
      if (mark[child] == Mark::none) {
        mark[child] = Mark::open;
        stack.emplace_back(child, 0);
      }
    }
  }
}

} // namespace

Topology parse_slurm_topology(const std::string& text, const std::string& source) {
  std::vector<SwitchLine> switches;
  std::map<std::string, std::size_t> index;
  HostBudget budget;
  for (const auto& line : logical_lines(text)) {
    if (line.text.find_first_not_of(" \t") == std::string::npos)
      continue;
    SwitchLine sw = parse_switch_line(line, source, budget);
    if (auto it = index.find(sw.name); it != index.end()) {
      throw InputError(at_line(source, sw.line) + ": switch " + shown(sw.name) +
                       " already defined on line " + std::to_string(switches[it->second].line));
    }
    index[sw.name] = switches.size();
    switches.push_back(std::move(sw));
  }
  if (switches.empty())
    throw InputError(source + ": no switches (expected lines like SwitchName=leaf01 Nodes=...)");

  std::map<std::string, std::size_t> parent; // switch -> the switch listing it
  for (std::size_t s = 0; s < switches.size(); ++s) {
    for (const auto& child : switches[s].switches) {
      if (!index.count(child)) {
        throw InputError(at_line(source, switches[s].line) + ": Switches names " + shown(child) +
                         ", which no line defines");
      }
      if (auto it = parent.find(child); it != parent.end() && it->second != s) {
        throw InputError(at_line(source, switches[s].line) + ": switch " + shown(child) +
                         " is already under " + shown(switches[it->second].name) + " (line " +
                         std::to_string(switches[it->second].line) + ")");
      }
      parent[child] = s;
    }
  }
  refuse_cycles(switches, index, source);

  Topology topology;
  topology.source = source;
  for (const auto& sw : switches) {
    if (!sw.has_nodes)
      continue;
    const int leaf = static_cast<int>(topology.leaves.size());
    topology.leaves.push_back(sw.name);
    auto up = parent.find(sw.name);
    topology.leaf_parent.push_back(up == parent.end() ? "" : switches[up->second].name);
    for (const auto& host : sw.nodes) {
      auto [it, inserted] = topology.leaf_of_host.emplace(host, leaf);
      if (!inserted && it->second != leaf) {
        throw InputError(at_line(source, sw.line) + ": host " + shown(host) + " is already under " +
                         shown(topology.leaves[static_cast<std::size_t>(it->second)]) + " (line " +
                         std::to_string(topology.line_of_host[host]) + ")");
      }
      topology.line_of_host.emplace(host, sw.line);
    }
  }
  if (topology.leaves.empty())
    throw InputError(source + ": no switch lists Nodes=, so no host is placed");
  return topology;
}

Topology parse_json_topology(const std::string& text, const std::string& source) {
  const nlohmann::json doc = parse_json_text(text, source);
  if (!doc.is_object() || doc.empty())
    throw InputError(source + ": expected an object {\"HOST\": \"LEAF\", ...}");
  Topology topology;
  topology.source = source;
  std::map<std::string, int> leaf_index;
  HostBudget budget;
  for (const auto& [key, value] : doc.items()) {
    const std::string where = source + ": host '" + shown(key) + "'";
    refuse_unprintable(key, source + ": host");
    std::string leaf, spine;
    if (value.is_string()) {
      leaf = value.get<std::string>();
    } else if (value.is_object()) {
      for (const auto& [field, v] : value.items()) {
        if ((field != "leaf" && field != "spine") || !v.is_string())
          throw InputError(where + ": expected {\"leaf\": NAME, \"spine\": NAME}");
      }
      if (!value.contains("leaf"))
        throw InputError(where + ": no \"leaf\"");
      leaf = value["leaf"].get<std::string>();
      spine = value.value("spine", "");
    } else {
      throw InputError(where + ": expected a leaf name or {\"leaf\": ..., \"spine\": ...}");
    }
    if (leaf.empty())
      throw InputError(where + ": empty leaf name");
    refuse_unprintable(leaf, where + ": leaf");
    refuse_unprintable(spine, where + ": spine");
    auto [it, added] = leaf_index.emplace(leaf, static_cast<int>(topology.leaves.size()));
    if (added) {
      topology.leaves.push_back(leaf);
      topology.leaf_parent.push_back(spine);
    }
    auto& parent = topology.leaf_parent[static_cast<std::size_t>(it->second)];
    if (!spine.empty() && parent != spine) {
      if (!parent.empty()) {
        throw InputError(where + ": leaf " + shown(leaf) + " is under " + shown(parent) +
                         " elsewhere, here under " + shown(spine));
      }
      parent = spine;
    }
    for (const auto& host : budget.expand(key, source + ": host")) {
      auto [at, inserted] = topology.leaf_of_host.emplace(host, it->second);
      if (!inserted && at->second != it->second) {
        throw InputError(where + ": host " + shown(host) + " is already under " +
                         shown(topology.leaves[static_cast<std::size_t>(at->second)]));
      }
      topology.line_of_host.emplace(host, 0);
    }
  }
  // A spine that is also a leaf makes a cycle of switches, or a leaf above another leaf.
  for (std::size_t l = 0; l < topology.leaves.size(); ++l) {
    const std::string& spine = topology.leaf_parent[l];
    if (!spine.empty() && leaf_index.count(spine)) {
      throw InputError(source + ": " + shown(spine) + " is the spine above leaf " +
                       shown(topology.leaves[l]) + " and a leaf too");
    }
  }
  return topology;
}

Topology load_topology(const std::string& path) {
  const std::string text = read_text_file(path);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{')
    return parse_json_topology(text, path);
  return parse_slurm_topology(text, path);
}

HostPlacement place_hosts(const Topology& topology, const std::vector<std::string>& hosts) {
  HostPlacement placement;
  std::vector<int> dense(topology.leaves.size(), -1);
  std::unordered_map<std::string, bool> in_job;
  for (const auto& host : hosts) {
    auto it = topology.leaf_of_host.find(host);
    if (it == topology.leaf_of_host.end()) {
      throw InputError(topology.source + ": job host " + shown(host) +
                       " is under no leaf switch of the topology");
    }
    int& d = dense[static_cast<std::size_t>(it->second)];
    if (d < 0) {
      d = static_cast<int>(placement.leaf_names.size());
      placement.leaf_names.push_back(topology.leaves[static_cast<std::size_t>(it->second)]);
      placement.leaf_parents.push_back(topology.leaf_parent[static_cast<std::size_t>(it->second)]);
    }
    placement.leaf_of_node.push_back(d);
    in_job[host] = true;
  }
  const std::size_t absent = topology.leaf_of_host.size() - in_job.size();
  if (absent > 0) {
    placement.notes.push_back(topology.source + ": " + std::to_string(absent) +
                              " host(s) of the topology are not in this job; left out");
  }
  return placement;
}

} // namespace cb
