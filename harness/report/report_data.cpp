#include "report/report_data.hpp"

#include "core/error.hpp"
#include "results/json_fields.hpp"

namespace cb::report {
namespace {

} // namespace

RecordCounts count_records(const ResultsFile& results) {
  RecordCounts counts;
  counts.total = results.records.size();
  for (const Record& r : results.records) {
    if (r.status == RecordStatus::ok)
      ++counts.ok;
    if (r.status == RecordStatus::noisy)
      ++counts.noisy;
    if (r.status == RecordStatus::skipped)
      ++counts.skipped;
    if (r.status == RecordStatus::failed)
      ++counts.failed;
  }
  return counts;
}

ReportData build_report_data(const ResultsFile& results, const std::string& source,
                             const ReportOptions& options) {
  if (results.records.empty()) {
    throw InputError(source + ": no records to report on (the records array is empty); run "
                              "'clusterbench run' first or give a results file that has records");
  }
  ReportData data;
  data.source = source;
  data.run = results.run;
  data.counts = count_records(results);
  data.options = options;
  // The one analysis of the report: every section reads its curves and fits.
  const ScalingAnalysis analysis = analyse_scaling(results);
  data.families = build_family_reports(results, analysis, options.outlook_gpus);
  data.headline = build_headline(results, source, analysis, data.families, options);
  return data;
}

std::string describe_run(const nlohmann::json& run) {
  std::string text;
  const auto hosts = run.is_object() ? run.find("hosts") : run.end();
  std::size_t host_count = 0, device_count = 0;
  std::string first_host, device_name;
  if (run.is_object() && hosts != run.end() && hosts->is_array()) {
    host_count = hosts->size();
    for (const auto& h : *hosts) {
      if (first_host.empty())
        first_host = string_or_empty(h, "host");
      const auto devices = h.is_object() ? h.find("devices") : h.end();
      if (!h.is_object() || devices == h.end() || !devices->is_array())
        continue;
      device_count += devices->size();
      for (const auto& d : *devices) {
        if (device_name.empty())
          device_name = string_or_empty(d, "name");
      }
    }
  }
  if (!first_host.empty()) {
    text = first_host;
    if (host_count > 1) {
      text += " and " + std::to_string(host_count - 1) + " more host" + (host_count > 2 ? "s" : "");
    }
  }
  if (!device_name.empty()) {
    text += (text.empty() ? "" : ", ") + device_name;
    if (device_count > 1)
      text += " x " + std::to_string(device_count);
  }
  if (const auto backend = string_or_empty(run, "backend"); !backend.empty()) {
    text += (text.empty() ? "" : ", ") + backend + " backend";
  }
  // An imported run was measured by another tool: the title names it, not only our backend word.
  if (const auto launcher = string_or_empty(run, "launcher"); launcher.rfind("import:", 0) == 0)
    text += (text.empty() ? "" : ", ") + std::string("measured by ") + launcher.substr(7);
  return text.empty() ? "unknown machine" : text;
}

} // namespace cb::report
