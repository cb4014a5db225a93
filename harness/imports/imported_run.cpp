#include "imports/imported_run.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/format.hpp"
#include "core/stats.hpp"
#include "imports/text_lines.hpp"

namespace cb {

void ImportedRun::warn_line(const std::string& source, std::size_t line, const std::string& text) {
  if (lines_listed == kLinesListed) {
    ++lines_not_listed;
    return;
  }
  ++lines_listed;
  warnings.push_back(source + ":" + std::to_string(line) + ": cannot parse: " + shown(text, 100));
}

void ImportedRun::close_warnings(const std::string& source) {
  if (lines_not_listed > 0) {
    warnings.push_back(source + ": " + std::to_string(lines_not_listed) +
                       " more line(s) that cannot be parsed, not listed");
  }
  lines_not_listed = 0;
}

void HostList::add(const std::string& host, const nlohmann::json& device) {
  auto [it, inserted] = devices_.try_emplace(host);
  if (inserted)
    order_.push_back(host);
  long long index = -1;
  if (auto i = device.find("index"); i != device.end() && i->is_number_integer())
    index = i->get<long long>();
  it->second.try_emplace(index, device);
}

void HostList::merge(const nlohmann::json& hosts) {
  if (!hosts.is_array())
    return;
  for (const auto& h : hosts) {
    if (!h.is_object() || !h.contains("host") || !h["host"].is_string())
      continue;
    const std::string name = h["host"].get<std::string>();
    if (devices_.try_emplace(name).second)
      order_.push_back(name);
    if (auto d = h.find("devices"); d != h.end() && d->is_array()) {
      for (const auto& device : *d)
        add(name, device);
    }
  }
}

nlohmann::json HostList::to_json() const {
  nlohmann::json hosts = nlohmann::json::array();
  for (const auto& name : order_) {
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& [index, device] : devices_.at(name))
      devices.push_back(device);
    hosts.push_back({{"host", name}, {"devices", std::move(devices)}});
  }
  return hosts;
}

void ImportedRun::add_record(Record&& r) {
  ++records_added;
  if (sink)
    sink(std::move(r));
  else
    records.push_back(std::move(r));
}

void ImportedRun::add_device(const std::string& host, const nlohmann::json& device) {
  host_list.add(host, device);
}

void ImportedRun::finish_hosts() {
  hosts = host_list.to_json();
}

std::string implausible_rate(const nlohmann::json& metrics) {
  for (const char* key : {"busbw_gbps", "gbps"}) {
    const auto it = metrics.find(key);
    if (it == metrics.end() || !it->is_number())
      continue;
    const double v = it->get<double>();
    if (v > kMaxPlausibleGbps) {
      return std::string(key) + " " + format_figure_compact(v, 4) + " GB/s is above " +
             format_fixed(kMaxPlausibleGbps, 0) + " GB/s, faster than any link, memory or disk";
    }
  }
  return "";
}

Record imported_record(const std::string& suite, const std::string& case_name,
                       nlohmann::json params, int gpus, int nodes, double seconds_per_op,
                       nlohmann::json metrics, DataCheck check) {
  Record r;
  r.suite = suite;
  r.case_name = case_name;
  r.params = std::move(params);
  r.gpus = std::max(1, gpus);
  r.nodes = std::max(1, nodes);
  r.ranks_per_node = (r.gpus + r.nodes - 1) / r.nodes;
  r.tier = r.nodes > 1 ? "inter" : "intra";
  r.samples_s = {seconds_per_op};
  r.stats = summarize(r.samples_s);
  r.metrics = std::move(metrics);
  r.check = check;
  r.status = RecordStatus::ok;
  return r;
}

} // namespace cb
