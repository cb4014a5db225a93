#include "verdicts/google_benchmark_json.hpp"

#include <map>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "results/results_io.hpp"

namespace cb {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& problem) {
  throw InputError(where + ": " + problem);
}

double seconds_per_unit(const std::string& unit, const std::string& where) {
  if (unit == "ns")
    return 1e-9;
  if (unit == "us")
    return 1e-6;
  if (unit == "ms")
    return 1e-3;
  if (unit == "s")
    return 1.0;
  bad(where, "field 'time_unit' is '" + unit + "', allowed ns|us|ms|s");
}

// Entries of one benchmark run, in file order.
struct RunEntries {
  std::vector<double> seconds;
  std::vector<double> bytes_per_second;
  std::string error; // the first error_message, when a repetition failed
};

// An optional text field of `obj` ("" when absent); bad input when present and not a string.
std::string optional_text(const json& obj, const char* key, const std::string& where,
                          const std::string& field) {
  const auto it = obj.find(key);
  if (it == obj.end())
    return "";
  if (!it->is_string())
    bad(where, "field '" + field + "' must be a string");
  return it->get<std::string>();
}

bool is_iteration(const json& entry) {
  if (auto type = entry.find("run_type"); type != entry.end()) {
    return type->is_string() && *type == "iteration";
  }
  // Files from before run_type existed mark aggregates only by their aggregate_name.
  return !entry.contains("aggregate_name");
}

Record record_for(const std::string& run_name, const RunEntries& run) {
  Record r;
  r.suite = kGoogleBenchmarkSuite;
  r.case_name = run_name;
  r.gpus = 1;
  r.nodes = 1;
  r.ranks_per_node = 1;
  r.samples_s = run.seconds;
  r.stats = summarize(r.samples_s);
  if (!run.error.empty()) {
    r.status = RecordStatus::failed;
    r.reason = run.error;
    return r;
  }
  if (!r.samples_s.empty())
    r.metrics["time_us"] = r.stats.median * 1e6;
  if (!run.bytes_per_second.empty())
    r.metrics["gbps"] = median(run.bytes_per_second) / 1e9;
  r.check = DataCheck::skipped;
  return r;
}

} // namespace

bool is_google_benchmark_json(const json& j) {
  return j.is_object() && j.contains("context") && j.contains("benchmarks");
}

ResultsFile results_from_google_benchmark(const json& j, const std::string& source) {
  const json& context = j.at("context");
  const json& benchmarks = j.at("benchmarks");
  if (!context.is_object())
    bad(source, "field 'context' must be an object");
  if (!benchmarks.is_array())
    bad(source, "field 'benchmarks' must be an array");

  std::vector<std::string> order;
  std::map<std::string, RunEntries> runs;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const json& entry = benchmarks[i];
    const std::string where = source + ": benchmarks[" + std::to_string(i) + "]";
    if (!entry.is_object())
      bad(where, "must be an object");
    if (!entry.contains("name") || !entry["name"].is_string()) {
      bad(where, "field 'name' must be a string");
    }
    if (!is_iteration(entry))
      continue;
    std::string run_name = entry["name"].get<std::string>();
    if (auto it = entry.find("run_name"); it != entry.end()) {
      if (!it->is_string())
        bad(where, "field 'run_name' must be a string");
      run_name = it->get<std::string>();
    }
    auto [slot, inserted] = runs.try_emplace(run_name);
    if (inserted)
      order.push_back(run_name);
    RunEntries& run = slot->second;
    bool error = false;
    if (auto it = entry.find("error_occurred"); it != entry.end()) {
      if (!it->is_boolean())
        bad(where, "field 'error_occurred' must be a boolean");
      error = it->get<bool>();
    }
    if (error) {
      const std::string message = optional_text(entry, "error_message", where, "error_message");
      if (run.error.empty())
        run.error = message.empty() ? "benchmark error" : message;
      continue;
    }
    if (!entry.contains("real_time") || !entry["real_time"].is_number()) {
      bad(where, "field 'real_time' must be a number");
    }
    if (!entry.contains("time_unit") || !entry["time_unit"].is_string()) {
      bad(where, "field 'time_unit' must be a string (ns|us|ms|s)");
    }
    const double seconds = entry["real_time"].get<double>() *
                           seconds_per_unit(entry["time_unit"].get<std::string>(), where);
    if (!(seconds >= 0))
      bad(where, "field 'real_time' must not be negative");
    run.seconds.push_back(seconds);
    if (auto bps = entry.find("bytes_per_second"); bps != entry.end() && bps->is_number()) {
      run.bytes_per_second.push_back(bps->get<double>());
    }
  }

  auto context_text = [&](const char* key) {
    return optional_text(context, key, source, std::string("context.") + key);
  };
  ResultsFile f;
  f.run = {
      {"id", source},
      {"started", context_text("date")},
      {"backend", "google-benchmark"},
      {"launcher", "none"},
      {"argv", json::array({context_text("executable")})},
      {"hosts", json::array({{{"host", context_text("host_name")}, {"devices", json::array()}}})},
      {"versions", {{"google_benchmark", context_text("library_version")}}},
      {"context", context}};
  // Held to the bounds of a results file (a time of 0 or 1e300 ns, a negative rate): what check
  // and compare then judge is a figure a run could have measured.
  for (const auto& name : order) {
    f.records.push_back(record_from_json(record_to_json(record_for(name, runs.at(name))),
                                         source + ": benchmark '" + shown(name) + "'"));
  }
  return f;
}

} // namespace cb
