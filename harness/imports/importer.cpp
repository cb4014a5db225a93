#include "imports/importer.hpp"

#include <chrono>
#include <ctime>

#include "core/error.hpp"
#include "core/version.hpp"
#include "imports/fio_import.hpp"
#include "imports/nccl_tests_import.hpp"
#include "imports/text_lines.hpp"

namespace cb {
namespace {

using nlohmann::json;

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// nccl-tests writes local time as "2025-06-01 10:00:00"; ISO 8601 puts a T in the middle.
std::string iso_like(std::string text) {
  if (text.size() == 19 && text[10] == ' ')
    text[10] = 'T';
  return text;
}

ImportedRun import_one(ImportTool tool, const std::string& path, const ImportOptions& options,
                       const RecordSink& sink) {
  switch (tool) {
  case ImportTool::nccl_tests:
    return import_nccl_tests_file(path, sink);
  case ImportTool::fio:
    return import_fio_file(path);
  case ImportTool::osu:
    return import_osu_file(path, options.osu, sink);
  }
  throw InputError("TOOL: unknown tool");
}

} // namespace

ImportTool import_tool_from_name(std::string_view name) {
  if (name == "nccl-tests")
    return ImportTool::nccl_tests;
  if (name == "fio")
    return ImportTool::fio;
  if (name == "osu")
    return ImportTool::osu;
  throw InputError("TOOL: unknown tool '" + std::string(name) +
                   "' (allowed: nccl-tests, fio, osu)");
}

std::string_view import_tool_name(ImportTool tool) {
  switch (tool) {
  case ImportTool::nccl_tests:
    return "nccl-tests";
  case ImportTool::fio:
    return "fio";
  case ImportTool::osu:
    return "osu";
  }
  return "?";
}

ImportOutcome import_files(ImportTool tool, const std::vector<std::string>& files,
                           const ImportOptions& options, const RecordSink& sink) {
  if (files.empty())
    throw InputError("import: no FILE given");
  ImportOutcome outcome;
  HostList hosts;
  json versions = json::object();
  std::vector<std::string> argv;
  std::string started;
  std::string backend = "host";
  for (const auto& path : files) {
    ImportedRun part = import_one(tool, path, options, sink);
    for (auto& r : part.records) { // the formats read as a whole (JSON) keep theirs in the run
      if (sink)
        sink(std::move(r));
      else
        outcome.results.records.push_back(std::move(r));
    }
    for (auto& w : part.warnings)
      outcome.warnings.push_back(std::move(w));
    hosts.merge(part.hosts);
    versions.update(part.versions);
    if (argv.empty())
      argv = part.argv;
    if (started.empty())
      started = iso_like(part.started);
    if (part.backend != "host")
      backend = part.backend;
  }
  const std::string now = now_utc();
  std::string stem = base_name(files.front());
  stem = stem.substr(0, stem.find('.'));
  const std::string tool_name(import_tool_name(tool));
  outcome.results.run = {{"id", "import-" + tool_name + "-" + stem},
                         {"started", started.empty() ? now : started},
                         {"finished", now},
                         {"tool_version", kToolVersion},
                         {"git_sha", git_sha()},
                         {"argv", argv},
                         {"backend", backend},
                         {"launcher", "import:" + tool_name},
                         {"hosts", hosts.to_json()},
                         {"versions", versions},
                         {"imported_from", files},
                         {"imported_at", now}};
  return outcome;
}

} // namespace cb
