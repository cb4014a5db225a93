#include "slurm/slurm_environment.hpp"

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/units.hpp"

namespace cb {

namespace {

// A job of more nodes than this is a malformed list, not a cluster.
constexpr std::size_t kMaxHosts = 1'000'000;

// `where` names the source: "environment variable SLURM_JOB_NODELIST", "topology.conf line 3:
// Nodes".
[[noreturn]] void malformed_in(std::string_view where, std::string_view text,
                               const std::string& why) {
  throw InputError(std::string(where) + "='" + shown(text) + "': " + why);
}

[[noreturn]] void too_many(std::string_view where, std::string_view text, std::size_t max_hosts) {
  malformed_in(where, text, "too many hosts (more than " + std::to_string(max_hosts) + ")");
}

[[noreturn]] void malformed(std::string_view variable, std::string_view text,
                            const std::string& why) {
  malformed_in("environment variable " + std::string(variable), text, why);
}

int read_count(std::string_view text, std::string_view variable) {
  long long value = parse_integer(text, "environment variable " + std::string(variable));
  if (value < 0 || value > 1'000'000'000)
    malformed(variable, text, "out of range");
  return static_cast<int>(value);
}

std::optional<int> optional_count(const EnvironmentLookup& environment, const std::string& name) {
  auto value = environment(name);
  if (!value)
    return std::nullopt;
  return read_count(*value, name);
}

bool is_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Splits on commas outside brackets.
std::vector<std::string_view> split_top_level(std::string_view list, std::string_view where) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    char c = i < list.size() ? list[i] : ',';
    if (c == '[') {
      if (++depth > 1)
        malformed_in(where, list, "nested '['");
    } else if (c == ']') {
      if (--depth < 0)
        malformed_in(where, list, "']' without '['");
    } else if (c == ',' && depth == 0) {
      if (i == start)
        malformed_in(where, list, "empty host name");
      items.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  if (depth != 0)
    malformed_in(where, list, "'[' without ']'");
  return items;
}

// "01-03,7" -> 01 02 03 7.
std::vector<std::string> expand_ranges(std::string_view ranges, std::string_view list,
                                       std::string_view where, std::size_t max_hosts) {
  std::vector<std::string> values;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= ranges.size(); ++i) {
    if (i < ranges.size() && ranges[i] != ',')
      continue;
    std::string_view range = ranges.substr(start, i - start);
    start = i + 1;
    auto dash = range.find('-');
    std::string_view low = range.substr(0, dash);
    std::string_view high = dash == std::string_view::npos ? low : range.substr(dash + 1);
    if (!is_digits(low) || !is_digits(high) || low.size() > 9 || high.size() > 9) {
      malformed_in(where, list, "a bracket holds numbers and ranges like [1-4,7]");
    }
    long first = std::stol(std::string(low));
    long last = std::stol(std::string(high));
    if (last < first)
      malformed_in(where, list, "range " + std::string(range) + " runs backwards");
    // Counted before expanding: "[0-999999,0-999999,...]" must not build its strings first.
    if (static_cast<std::size_t>(last - first) + values.size() >= max_hosts)
      too_many(where, list, max_hosts);
    for (long n = first; n <= last; ++n) {
      std::string digits = std::to_string(n);
      if (digits.size() < low.size())
        digits.insert(0, low.size() - digits.size(), '0');
      values.push_back(digits);
    }
  }
  return values;
}

} // namespace

std::vector<std::string> expand_hostlist(std::string_view list, std::string_view variable) {
  return expand_hostlist_in(list, "environment variable " + std::string(variable));
}

std::vector<std::string> expand_hostlist_in(std::string_view list, std::string_view where,
                                            std::size_t max_hosts) {
  if (list.empty())
    malformed_in(where, list, "empty host list");
  std::vector<std::string> hosts;
  for (std::string_view item : split_top_level(list, where)) {
    std::vector<std::string> names{""};
    std::size_t pos = 0;
    while (pos < item.size()) {
      auto open = item.find('[', pos);
      std::string_view literal =
          item.substr(pos, open == std::string_view::npos ? item.npos : open - pos);
      for (auto& name : names)
        name += literal;
      if (open == std::string_view::npos)
        break;
      auto close = item.find(']', open);
      auto values =
          expand_ranges(item.substr(open + 1, close - open - 1), list, where, max_hosts);
      if (names.size() * values.size() + hosts.size() > max_hosts)
        too_many(where, list, max_hosts);
      std::vector<std::string> combined;
      for (const auto& name : names) {
        for (const auto& value : values)
          combined.push_back(name + value);
      }
      names = std::move(combined);
      pos = close + 1;
    }
    if (hosts.size() + names.size() > max_hosts)
      too_many(where, list, max_hosts);
    hosts.insert(hosts.end(), names.begin(), names.end());
  }
  return hosts;
}

std::vector<int> expand_tasks_per_node(std::string_view text, std::string_view variable) {
  if (text.empty())
    malformed(variable, text, "empty");
  std::vector<int> tasks;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',')
      continue;
    std::string_view item = text.substr(start, i - start);
    start = i + 1;
    std::string_view count = item;
    std::string_view repeat = "1";
    if (auto paren = item.find("(x"); paren != std::string_view::npos) {
      if (item.back() != ')')
        malformed(variable, text, "expected N or N(xM) items, like 2(x3),1");
      count = item.substr(0, paren);
      repeat = item.substr(paren + 2, item.size() - paren - 3);
    }
    if (!is_digits(count) || !is_digits(repeat) || repeat.size() > 7) {
      malformed(variable, text, "expected N or N(xM) items, like 2(x3),1");
    }
    int tasks_on_node = read_count(count, variable);
    int nodes = read_count(repeat, variable);
    if (tasks.size() + static_cast<std::size_t>(nodes) > kMaxHosts)
      malformed(variable, text, "too many nodes");
    tasks.insert(tasks.end(), static_cast<std::size_t>(nodes), tasks_on_node);
  }
  return tasks;
}

SlurmAllocation read_slurm_allocation(const EnvironmentLookup& environment) {
  SlurmAllocation allocation;
  auto job_id = environment("SLURM_JOB_ID");
  if (!job_id)
    job_id = environment("SLURM_JOBID");
  if (!job_id || job_id->empty()) {
    throw InputError("not inside a Slurm job: environment variable SLURM_JOB_ID is not set");
  }
  allocation.job_id = *job_id;

  std::string nodes_variable = "SLURM_JOB_NODELIST";
  auto nodes = environment(nodes_variable);
  if (!nodes)
    nodes = environment(nodes_variable = "SLURM_NODELIST");
  if (!nodes)
    throw InputError("Slurm job " + *job_id +
                     ": environment variable SLURM_JOB_NODELIST is not set");
  allocation.nodes = expand_hostlist(*nodes, nodes_variable);

  std::string ntasks_variable = "SLURM_NTASKS";
  auto ntasks = environment(ntasks_variable);
  if (!ntasks)
    ntasks = environment(ntasks_variable = "SLURM_NPROCS");
  if (ntasks)
    allocation.ntasks = read_count(*ntasks, ntasks_variable);

  if (auto per_node = environment("SLURM_TASKS_PER_NODE")) {
    allocation.tasks_per_node = expand_tasks_per_node(*per_node, "SLURM_TASKS_PER_NODE");
    if (allocation.tasks_per_node.size() != allocation.nodes.size()) {
      malformed("SLURM_TASKS_PER_NODE", *per_node,
                "names " + std::to_string(allocation.tasks_per_node.size()) + " nodes, " +
                    nodes_variable + " " + std::to_string(allocation.nodes.size()));
    }
  }

  if (auto on_node = optional_count(environment, "SLURM_GPUS_ON_NODE")) {
    allocation.gpus_per_node = *on_node;
  } else if (auto per_node = environment("SLURM_GPUS_PER_NODE")) {
    // "4", "a100:4", or a list of typed counts "a100:2,v100:2".
    int total = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= per_node->size(); ++i) {
      if (i < per_node->size() && (*per_node)[i] != ',')
        continue;
      std::string item = per_node->substr(start, i - start);
      start = i + 1;
      auto colon = item.rfind(':');
      total += read_count(colon == std::string::npos ? item : item.substr(colon + 1),
                          "SLURM_GPUS_PER_NODE");
    }
    allocation.gpus_per_node = total;
  }

  allocation.procid = optional_count(environment, "SLURM_PROCID");
  allocation.localid = optional_count(environment, "SLURM_LOCALID");
  allocation.nodeid = optional_count(environment, "SLURM_NODEID");
  return allocation;
}

SlurmAllocation read_slurm_allocation() {
  return read_slurm_allocation(process_environment());
}

} // namespace cb
