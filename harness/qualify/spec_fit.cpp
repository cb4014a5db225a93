#include "qualify/spec_fit.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/error.hpp"
#include "core/units.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxDeviceWarnings = 8;

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// Whether `name` holds `words` as whole words (compared without case): "NVIDIA H200" holds
// "H200", "NVIDIA GH200 480GB" does not, nor does "NVIDIA GB200" hold "B200".
bool holds_words(const std::string& name, const std::string& words) {
  const std::string n = lowered(name), w = lowered(words);
  for (std::size_t at = n.find(w); !w.empty() && at != std::string::npos; at = n.find(w, at + 1)) {
    const std::size_t end = at + w.size();
    if ((at == 0 || !word_char(n[at - 1])) && (end == n.size() || !word_char(n[end])))
      return true;
  }
  return false;
}

// Each device name of the run with how many devices carry it, in the order first seen.
std::vector<std::pair<std::string, int>> counted_device_names(const json& run) {
  std::vector<std::pair<std::string, int>> out;
  const auto hosts = run.find("hosts");
  if (hosts == run.end() || !hosts->is_array())
    return out;
  std::map<std::string, std::size_t> index;
  for (const json& host : *hosts) {
    const auto devices = host.is_object() ? host.find("devices") : host.end();
    if (!host.is_object() || devices == host.end() || !devices->is_array())
      continue;
    for (const json& device : *devices) {
      const auto name = device.is_object() ? device.find("name") : device.end();
      if (!device.is_object() || name == device.end() || !name->is_string() ||
          name->get_ref<const std::string&>().empty())
        continue;
      const std::string& text = name->get_ref<const std::string&>();
      const auto [it, added] = index.emplace(text, out.size());
      if (added)
        out.emplace_back(text, 0);
      ++out[it->second].second;
    }
  }
  return out;
}

std::string spec_named(const Spec& spec) {
  return spec.from_reference ? "the reference run" : "spec '" + shown(spec.name, 60) + "'";
}

} // namespace

std::vector<std::string> device_names(const json& run) {
  std::vector<std::string> out;
  for (const auto& [name, count] : counted_device_names(run))
    out.push_back(name);
  return out;
}

std::string backend_mismatch(const ResultsFile& results, const std::string& results_path,
                             const Spec& spec) {
  const auto backend = results.run.find("backend");
  if (spec.backend.empty() || backend == results.run.end() || !backend->is_string())
    return "";
  const std::string& run_backend = backend->get_ref<const std::string&>();
  if (run_backend == spec.backend || (run_backend != "cuda" && run_backend != "host"))
    return "";
  return "--spec: " + spec_named(spec) + " is of the " + spec.backend + " backend, and " +
         shown(results_path, 120) + " was run on the " + run_backend + " backend (use " +
         (run_backend == "host" ? std::string("--spec host-cpu") : std::string("a GPU's spec")) +
         ", or a known-good run of the same kind as --spec)";
}

std::vector<std::string> device_mismatch(const ResultsFile& results, const Spec& spec) {
  std::vector<std::string> warnings;
  if (spec.devices.empty())
    return warnings;
  const auto names = counted_device_names(results.run);
  int total = 0;
  for (const auto& [name, count] : names)
    total += count;
  const std::string parts = shown(join(spec.devices, ", "), 120);
  std::size_t unknown = 0;
  for (const auto& [name, count] : names) {
    const bool known = std::any_of(spec.devices.begin(), spec.devices.end(),
                                   [&](const auto& d) { return holds_words(name, d); });
    if (known)
      continue;
    // A run of a thousand differently named devices is one line per name up to a few, then a
    // count.
    if (++unknown > kMaxDeviceWarnings)
      continue;
    warnings.push_back(std::to_string(count) + " of the run's " + std::to_string(total) +
                       " devices are '" + shown(name, 80) + "', not the parts " + spec_named(spec) +
                       " is for (" + parts + "): its figures are another part's");
  }
  if (unknown > kMaxDeviceWarnings) {
    warnings.push_back("and " + std::to_string(unknown - kMaxDeviceWarnings) +
                       " more device names that are not " + parts);
  }
  return warnings;
}

} // namespace cb
