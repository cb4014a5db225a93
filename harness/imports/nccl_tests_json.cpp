// The reader of nccl-tests' -J JSON output (nccl_tests_import.hpp describes the layout).
#include "imports/nccl_tests_import.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "imports/nccl_tests_rules.hpp"
#include "imports/text_lines.hpp"
#include "results/json_file.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

using nlohmann::json;
using namespace nccl_tests;

// A string field, "" when absent, not a string, or longer than any the tool writes.
std::string json_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() && it->get_ref<const std::string&>().size() <= kMaxWord
             ? it->get<std::string>()
             : "";
}

std::optional<Half> half_from_json(const json& j) {
  if (!j.is_object())
    return std::nullopt;
  const json* time =
      j.contains("time") ? &j["time"] : (j.contains("cpu_time") ? &j["cpu_time"] : nullptr);
  if (!time || !time->is_number() || !j.contains("alg_bw") || !j["alg_bw"].is_number() ||
      !j.contains("bus_bw") || !j["bus_bw"].is_number()) {
    return std::nullopt;
  }
  Half h;
  h.time_us = time->get<double>();
  h.algbw = j["alg_bw"].get<double>();
  h.busbw = j["bus_bw"].get<double>();
  const json wrong = j.value("nwrong", json());
  if (!(h.time_us > 0) || h.algbw < 0 || h.busbw < 0)
    return std::nullopt; // not a time or rate nccl-tests prints
  if (wrong.is_number()) {
    if (wrong.get<double>() < 0)
      return std::nullopt;
    h.check = wrong.get<double>() == 0 ? DataCheck::pass : DataCheck::fail;
    if (wrong.get<double>() >= 0 && wrong.get<double>() < 9e18)
      h.wrong = static_cast<long long>(wrong.get<double>());
  }
  return h;
}

ImportedRun read_nccl_tests_json(const json& j, const std::string& source) {
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) {
    throw InputError(source + ": not nccl-tests JSON output (no 'results' list; expected the "
                              "file written by an *_perf program's -J option)");
  }
  ImportedRun run;
  run.backend = "cuda";
  std::string program;
  if (j.contains("args") && j["args"].is_array()) {
    for (const auto& a : j["args"]) {
      if (a.is_string() && a.get_ref<const std::string&>().size() <= kMaxWord &&
          run.argv.size() < kMaxArgs) {
        run.argv.push_back(a.get<std::string>());
      }
    }
    if (!run.argv.empty())
      program = run.argv.front();
  }
  std::string name = nccl_case_from_program(program);
  if (name.empty())
    name = nccl_case_from_file_name(source);
  if (name.empty()) {
    throw InputError(source + ": field 'args' names no *_perf program and the file name names no "
                              "collective; cannot tell which collective this is");
  }
  if (j.contains("nccl_version") && j["nccl_version"].is_number_integer()) {
    run.versions["nccl"] = nccl_version_from_code(j["nccl_version"].get<long long>());
  }
  run.started = json_string(j, "start_time");
  const json config = j.value("config", json::object());
  std::set<std::string> hosts;
  int devices = 0;
  for (const auto& d : config.value("devices", json::array())) {
    if (!d.is_object())
      continue;
    ++devices;
    const std::string host = json_string(d, "hostname");
    hosts.insert(host);
    run.add_device(host, {{"index", d.value("device", 0)},
                          {"name", json_string(d, "device_info")},
                          {"pci_bus_id", json_string(d, "device_hex")}});
  }
  // Without MPI the device list holds the first GPU only; nthreads x ngpus is the count.
  const int threads_gpus = config.value("nthreads", 1) * config.value("ngpus", 1);
  const int gpus = std::max(devices, threads_gpus);
  const int nodes = std::max<int>(1, static_cast<int>(hosts.size()));
  const json avg = j.value("average_bus_bandwidth", json::object()).value("bandwidth", json());
  const json oob = j.value("out_of_bounds", json::object()).value("count", json());
  const auto& results = j["results"];
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& row = results[i];
    const std::string where = source + ": results[" + std::to_string(i) + "]";
    // A size is a count of bytes: nlohmann reads a non-negative integer as unsigned.
    if (!row.is_object() || !row.contains("size") || !row["size"].is_number_unsigned() ||
        row["size"].get<std::uint64_t>() > (std::uint64_t{1} << 62)) {
      run.warnings.push_back(where + ": cannot parse: " + row.dump());
      continue;
    }
    const std::string root_text(trim(json_string(row, "root")));
    const long long root = parse_long(root_text).value_or(-1);
    bool any = false;
    for (const auto& [key, in_place] :
         {std::pair{"out_of_place", false}, std::pair{"in_place", true}}) {
      const json half_json = row.value(key, json());
      if (half_json.is_null())
        continue; // trace replay writes no out-of-place figures
      const auto half = half_from_json(half_json);
      if (!half)
        continue;
      any = true;
      // The -J file is nccl-tests 2.16+: today's definitions only.
      const HalfCheck checked =
          check_half(*half, row["size"].get<long long>(), name, gpus, CheckColumn::wrong_count);
      if (!checked.problem.empty())
        throw InputError(where + ": " + checked.problem);
      json params = {{"bytes", row["size"].get<long long>()},
                     {"dtype", nccl_dtype(json_string(row, "type"))}};
      const std::string redop = json_string(row, "redop");
      if (!redop.empty() && redop != "none")
        params["op"] = redop;
      if (root >= 0)
        params["root"] = root;
      params["in_place"] = in_place;
      Record r = imported_record(
          suite_names::kCollectives, name, std::move(params), gpus, nodes, half->time_us * 1e-6,
          {{"time_us", half->time_us}, {"algbw_gbps", half->algbw}, {"busbw_gbps", half->busbw}},
          half->check);
      const json count = row.value("count", json());
      r.extra = {{"tool", kTool},
                 {"source", where},
                 {"count", count.is_number_integer() ? count : json()}};
      if (half->wrong)
        r.extra["wrong_elements"] = *half->wrong;
      if (avg.is_number())
        r.extra["avg_bus_bandwidth_gbps"] = avg;
      if (oob.is_number())
        r.extra["out_of_bounds"] = oob;
      if (!program.empty())
        r.extra["test"] = base_name(program);
      run.records.push_back(std::move(r));
    }
    if (!any)
      run.warnings.push_back(where + ": cannot parse: " + row.dump());
  }
  if (run.records.empty())
    throw InputError(source + ": no results in the nccl-tests JSON output");
  run.finish_hosts();
  return run;
}

} // namespace

ImportedRun import_nccl_tests_json(const json& j, const std::string& source) {
  try {
    return read_nccl_tests_json(j, source);
  } catch (const json::exception& e) {
    // A field of an unexpected type: the file is not the layout documented in the header.
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos)
      what = what.substr(pos + 2); // nlohmann's "[json.exception.type_error.302] "
    throw InputError(source + ": unexpected nccl-tests JSON layout (" + shown(what, 120) + ")");
  }
}

} // namespace cb
