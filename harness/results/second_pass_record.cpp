#include "results/second_pass_record.hpp"

#include "results/json_fields.hpp"

namespace cb {
namespace {

using nlohmann::json;

// A count, or 0 for anything else (absent, negative, not an integer).
std::size_t count_of(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() && it->get<long long>() > 0
             ? static_cast<std::size_t>(it->get<long long>())
             : 0;
}

std::vector<std::string> strings_of(const json& list) {
  std::vector<std::string> out;
  for (const auto& h : list) {
    if (h.is_string())
      out.push_back(h.get<std::string>());
  }
  return out;
}

void read_verdicts(const json& pass, SecondPassRecord& out) {
  auto verdicts = pass.find("verdicts");
  if (verdicts == pass.end() || !verdicts->is_array())
    return;
  for (const auto& v : *verdicts) {
    if (!v.is_object())
      continue;
    const std::string kind = string_or_empty(v, "kind");
    SecondPassVerdict verdict;
    auto value = v.find(out.metric);
    verdict.value = value != v.end() && value->is_number() ? value->get<double>() : 0.0;
    if (kind == "node") {
      verdict.host = string_or_empty(v, "host");
    } else if (kind == "link") {
      auto hosts = v.find("hosts");
      if (hosts == v.end() || !hosts->is_array() || hosts->size() != 2)
        continue;
      verdict.is_link = true;
      verdict.host = (*hosts)[0].is_string() ? (*hosts)[0].get<std::string>() : "";
      verdict.to_host = (*hosts)[1].is_string() ? (*hosts)[1].get<std::string>() : "";
    } else {
      continue;
    }
    out.verdicts.push_back(std::move(verdict));
  }
}

void read_notes(const json& pass, SecondPassRecord& out) {
  if (auto better = pass.find("better_than_reference");
      better != pass.end() && better->is_object()) {
    out.better_pairs = count_of(*better, "pairs");
    if (auto hosts = better->find("hosts"); hosts != better->end() && hosts->is_array()) {
      out.better_listed = hosts->size();
      out.better_hosts = strings_of(*hosts);
    } else if (auto nodes = better->find("nodes"); nodes != better->end() && nodes->is_array()) {
      out.better_listed = nodes->size();
    }
  }
  if (auto split = pass.find("split"); split != pass.end() && split->is_object()) {
    out.split_pairs = count_of(*split, "pairs");
    if (auto groups = split->find("groups"); groups != split->end() && groups->is_array()) {
      for (const auto& g : *groups) {
        auto hosts = g.is_object() ? g.find("hosts") : g.end();
        if (g.is_object() && hosts != g.end() && hosts->is_array())
          out.split_groups.push_back(strings_of(*hosts));
      }
    }
  }
  if (auto unresolved = pass.find("unresolved");
      unresolved != pass.end() && unresolved->is_array())
    out.unresolved = unresolved->size();
  if (auto cap = pass.find("beyond_cap"); cap != pass.end() && cap->is_object())
    out.beyond_cap = count_of(*cap, "end_retests") > 0 || count_of(*cap, "pair_retests") > 0;
}

} // namespace

std::optional<SecondPassRecord> second_pass_from_json(const json& extra,
                                                      const std::string& fallback_metric) {
  auto pass = extra.is_object() ? extra.find("second_pass") : extra.end();
  if (!extra.is_object() || pass == extra.end() || !pass->is_object())
    return std::nullopt;
  SecondPassRecord out;
  out.metric = string_or_empty(*pass, "metric"); // "" when absent or not a string
  if (out.metric.empty())
    out.metric = fallback_metric;
  auto reference = pass->find("reference");
  out.reference =
      reference != pass->end() && reference->is_number() ? reference->get<double>() : 0.0;
  // Only an explicit false: a file from before the field was judged.
  auto judged = pass->find("judged");
  if (judged != pass->end() && judged->is_boolean() && !judged->get<bool>()) {
    out.judged = false;
    out.why = string_or_empty(*pass, "why");
    return out; // whatever else it lists was not judged: nothing to name, nothing to note
  }
  read_verdicts(*pass, out);
  read_notes(*pass, out);
  return out;
}

} // namespace cb
