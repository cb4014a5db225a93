#include "imports/imported_run.hpp"

#include <algorithm>

#include "core/stats.hpp"
#include "imports/text_lines.hpp"

namespace cb {

void ImportedRun::warn_line(const std::string& source, std::size_t line, const std::string& text) {
  if (lines_listed == kLinesListed) {
    ++lines_not_listed;
    return;
  }
  ++lines_listed;
  warnings.push_back(source + ":" + std::to_string(line) + ": cannot parse: " + shown(text, 120));
}

void ImportedRun::close_warnings(const std::string& source) {
  if (lines_not_listed > 0) {
    warnings.push_back(source + ": " + std::to_string(lines_not_listed) +
                       " more line(s) that cannot be parsed, not listed");
  }
  lines_not_listed = 0;
}

void ImportedRun::add_device(const std::string& host, const nlohmann::json& device) {
  auto it = std::find_if(hosts.begin(), hosts.end(),
                         [&](const nlohmann::json& h) { return h.value("host", "") == host; });
  if (it == hosts.end()) {
    hosts.push_back({{"host", host}, {"devices", nlohmann::json::array()}});
    it = hosts.end() - 1;
  }
  auto& devices = (*it)["devices"];
  const int index = device.value("index", -1);
  for (const auto& d : devices) {
    if (d.value("index", -2) == index)
      return;
  }
  devices.push_back(device);
  std::sort(devices.begin(), devices.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a.value("index", 0) < b.value("index", 0);
  });
}

Record imported_record(const std::string& suite, const std::string& case_name,
                       nlohmann::json params, int gpus, int nodes, double seconds_per_op,
                       nlohmann::json metrics, const std::string& check) {
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
  r.status = "ok";
  return r;
}

} // namespace cb
