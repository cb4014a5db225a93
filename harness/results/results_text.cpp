#include "results/results_text.hpp"

#include "results/per_rank_rates.hpp"

#include <initializer_list>
#include <utility>

namespace cb {
namespace {

using nlohmann::json;

json::error_handler_t handler(InvalidUtf8 utf8) {
  return utf8 == InvalidUtf8::replace ? json::error_handler_t::replace
                                      : json::error_handler_t::strict;
}

std::string indented(const json& value, InvalidUtf8 utf8) {
  return value.dump(1, ' ', false, handler(utf8));
}

// Writes an object's members as nlohmann's compact dump does (keys in the order given, which
// callers keep sorted as std::map would), straight into the output.
class CompactWriter {
public:
  CompactWriter(std::string& out, InvalidUtf8 utf8)
      : out_(out), serializer_(nlohmann::detail::output_adapter<char>(out), ' ', handler(utf8)) {}

  // `key` is a plain ASCII name: it needs no escaping.
  void key(const char* key) {
    out_ += first_ ? "{\"" : ",\"";
    first_ = false;
    out_ += key;
    out_ += "\":";
  }
  void value(const json& v) { serializer_.dump(v, false, false, 0); }
  void numbers(const std::vector<double>& values) {
    out_ += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0)
        out_ += ',';
      value(json(values[i]));
    }
    out_ += ']';
  }
  // per_rank: each entry without the rates `derived` names and without what `ids` says of its
  // rank already; whether any entry left identities to `ids`.
  bool entries(const json& array, const RankIdentities& ids,
               const std::vector<std::string>& derived) {
    if (!array.is_array() || (ids.empty() && derived.empty())) {
      value(array);
      return false;
    }
    out_ += '[';
    json stripped;
    bool any = false;
    for (std::size_t i = 0; i < array.size(); ++i) {
      if (i > 0)
        out_ += ',';
      const json own = without_rates(array[i], derived);
      const bool mine = !ids.empty() && ids.strip(own, stripped);
      value(mine ? stripped : own);
      any = any || mine;
    }
    out_ += ']';
    return any;
  }
  void end() { out_ += first_ ? "{}" : "}"; }

private:
  std::string& out_;
  // nlohmann's own serializer, so that numbers and strings are the bytes its dump() writes.
  nlohmann::detail::serializer<json> serializer_;
  bool first_ = true;
};

const RankIdentities kNoIdentities;

} // namespace

void append_record_json(std::string& out, const Record& r, InvalidUtf8 utf8) {
  append_record_json(out, r, utf8, kNoIdentities);
}

std::string results_text_head(const json& fits, InvalidUtf8 utf8) {
  return "{\n \"fits\": " + indented(fits, utf8) + ",\n \"records\": [";
}

std::string_view record_separator(std::size_t index) {
  return index == 0 ? "\n  " : ",\n  ";
}

std::string results_text_tail(std::size_t records, const json& run, InvalidUtf8 utf8) {
  return std::string(records == 0 ? "]" : "\n ]") + ",\n \"run\": " + indented(run, utf8) +
         ",\n \"schema\": " + json(kResultsSchemaName).dump() +
         ",\n \"schema_version\": " + std::to_string(kResultsSchemaVersion) + "\n}\n";
}

void append_record_json(std::string& out, const Record& r, InvalidUtf8 utf8,
                        const RankIdentities& ids) {
  const std::size_t start = out.size();
  try {
    CompactWriter w(out, utf8);
    // The keys of record_to_json, in std::map's order (the tests hold the two byte-equal).
    w.key("case");
    w.value(json(r.case_name));
    w.key("check");
    w.value(json(r.check));
    if (!r.extra.empty()) {
      w.key("extra");
      w.value(r.extra);
    }
    w.key("gpus");
    w.value(json(r.gpus));
    w.key("metrics");
    w.value(r.metrics);
    w.key("nodes");
    w.value(json(r.nodes));
    w.key("params");
    w.value(r.params);
    w.key("per_rank");
    // Entries left to the header they were read with, written into another run's file: made
    // whole again first, then stripped against this file's header.
    const bool moved = !r.per_rank_run.empty() && r.identities &&
                       r.per_rank_run == r.identities->run_id() && r.per_rank_run != ids.run_id();
    json whole;
    if (moved) {
      whole = r.per_rank;
      for (json& entry : whole)
        r.identities->restore(entry);
    }
    const json& entries = moved ? whole : r.per_rank;
    // The rates each entry's median_s gives are left to the loader (per_rank_rates.hpp).
    const std::vector<std::string> derived = derivable_rank_rates(r);
    // A record that leaves its entries to this file's header, or to another run's that is not
    // here to make them whole, keeps that tag and its entries' identities as they are.
    const bool keeps_tag = !r.per_rank_run.empty() && !moved;
    const bool left_to_ids = w.entries(entries, keeps_tag ? kNoIdentities : ids, derived);
    if (!derived.empty()) {
      w.key("per_rank_derived");
      w.value(json(derived));
    }
    if (keeps_tag || left_to_ids) {
      w.key("per_rank_run");
      w.value(json(keeps_tag ? r.per_rank_run : ids.run_id()));
    }
    w.key("ranks_per_node");
    w.value(json(r.ranks_per_node));
    if (!r.reason.empty()) {
      w.key("reason");
      w.value(json(r.reason));
    }
    w.key("samples_s");
    w.numbers(r.samples_s);
    w.key("stats");
    w.value(stats_to_json(r.stats));
    w.key("status");
    w.value(json(r.status));
    if (r.straggler) {
      w.key("straggler");
      w.value(straggler_to_json(*r.straggler));
    }
    w.key("suite");
    w.value(json(r.suite));
    w.key("tier");
    w.value(json(r.tier));
    w.end();
  } catch (...) {
    out.resize(start);
    throw;
  }
}

} // namespace cb
