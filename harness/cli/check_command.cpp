// clusterbench check: the CI gate. Did the current build get slower than the baseline, by more
// than the threshold and by more than the machine's run-to-run spread explains?
#include <filesystem>
#include <iostream>
#include <optional>
#include <system_error>

#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "exporters/check_junit.hpp"
#include "exporters/export_file.hpp"
#include "verdicts/check_report.hpp"
#include "verdicts/history_check.hpp"
#include "verdicts/regression_check.hpp"
#include "verdicts/run_figures.hpp"

namespace {

std::vector<std::string> expand(const std::vector<std::string>& paths, const std::string& flag) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    if (path.empty())
      throw cb::InputError(flag + ": an empty path");
    for (auto& file : cb::run_files(path, flag))
      files.push_back(std::move(file));
  }
  return files;
}

// check --history DIR: where each case changed, over the runs of a directory.
int history_main(const cb::ArgParser& parser, const std::string& directory) {
  if (!parser.positionals().empty() || parser.has("baseline") || parser.has("paired")) {
    throw cb::InputError("--history: takes the runs of DIR alone (no --baseline, CURRENT or "
                         "--paired)");
  }
  if (directory.empty())
    throw cb::InputError("--history: needs a directory");
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec))
    throw cb::InputError("--history " + cb::shown(directory, 120) + ": not a directory");
  cb::ChangePointOptions options;
  if (auto text = parser.get("threshold"))
    options.threshold = cb::parse_number(*text, "--threshold");
  if (auto text = parser.get("alpha"))
    options.alpha = cb::parse_number(*text, "--alpha");
  cb::CheckOptions bounds;
  bounds.threshold = options.threshold;
  bounds.alpha = options.alpha;
  cb::validate(bounds);
  const cb::RunSide history =
      cb::load_side(cb::run_files(directory, "--history"), "--history", nullptr, false);
  const cb::HistoryReport report = cb::find_history_changes(history, options);
  if (parser.has("json")) {
    std::cout << cb::history_report_json(report, options).dump(2) << "\n";
  } else {
    std::cout << cb::history_report_markdown(report, options);
  }
  return 0;
}

int check_main(const std::vector<std::string>& args) {
  cb::ArgParser parser(
      "check", "clusterbench check --baseline BASE [--baseline BASE2 ...] CURRENT [CURRENT2 ...] "
               "[--paired] [--threshold 0.05] [--alpha 0.01] [--power 0.8] "
               "[--allow-inconclusive] [--json] [--junit FILE.xml] | clusterbench check --history "
               "DIR");
  parser
      .positional("CURRENT",
                  "the runs to judge: results files (clusterbench or Google Benchmark JSON) or "
                  "directories of them, one file per run",
                  false)
      .allow_extra_positionals()
      .option("baseline", "BASE",
              "a baseline run, or a directory of runs (required; give it once per file)")
      .flag("paired", "baseline run i and current run i ran back to back (interleaved A/B): "
                      "judge each pair's ratio")
      .option("threshold", "F", "relative change that counts as worse (default 0.05)")
      .option("alpha", "P", "significance level of the run-level t-test (default 0.01)")
      .option("power", "P", "power at which the smallest detectable change is stated (0.8)")
      .option("history", "DIR",
              "instead of judging: find, in DIR's runs (oldest first by name), the run where "
              "each case's figure changed (change points; --alpha and --threshold apply)")
      .flag("allow-inconclusive", "exit 0 when the verdict is INCONCLUSIVE")
      .flag("json", "print the report as JSON (with every case's run figures)")
      .option("junit", "FILE.xml",
              "also write the verdict as JUnit XML: a testcase per case, failed on a regression, "
              "skipped when inconclusive")
      .epilog(
          "Cases are matched by suite, case, params and GPU count. Each run gives one figure per\n"
          "case: the median of its samples (seconds per operation, lower is better) or, for\n"
          "records without samples, of its headline metric (busbw_gbps, gbps, tflops, gflops\n"
          "higher is better; latency_us, time_us lower is better). Samples inside one run share\n"
          "its machine state and are not independent: the run is the unit. A case regresses when\n"
          "it is worse by more than the threshold, the t-test on log run figures (Welch's, or\n"
          "paired with --paired) gives p < alpha, and the change is at least the smallest this\n"
          "runner detects at that alpha and power given the baseline's run-to-run spread. One run\n"
          "a side, or a detectable change above the threshold, is INCONCLUSIVE with the reason:\n"
          "never a silent pass. A Google Benchmark file is one run: its repetitions ran in one\n"
          "process. The runs of one side must hold the same cases on one backend.\n"
          "See docs/REGRESSION_GATE.md.\n\n"
          "With --history DIR it judges nothing: it lists, per case, the runs of DIR where the\n"
          "figure changed (exit 0, or 2 for bad input).\n\n"
          "exit: 0 pass, 1 regression, 4 INCONCLUSIVE (0 with --allow-inconclusive), 2 bad input");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  if (auto history = parser.get("history"))
    return history_main(parser, *history);
  if (parser.positionals().empty())
    throw cb::InputError("CURRENT: required (the run or runs to judge)");
  const std::vector<std::string> baseline_args = parser.get_all("baseline");
  if (baseline_args.empty())
    throw cb::InputError("--baseline: required (the run or runs to judge against)");
  cb::CheckContext context;
  context.allow_inconclusive = parser.has("allow-inconclusive");
  context.options.paired = parser.has("paired");
  if (auto text = parser.get("threshold"))
    context.options.threshold = cb::parse_number(*text, "--threshold");
  if (auto text = parser.get("alpha"))
    context.options.alpha = cb::parse_number(*text, "--alpha");
  if (auto text = parser.get("power"))
    context.options.power = cb::parse_number(*text, "--power");
  cb::validate(context.options);

  const std::vector<std::string> baseline_files = expand(baseline_args, "--baseline");
  const std::vector<std::string> current_files = expand(parser.positionals(), "CURRENT");
  if (context.options.paired && baseline_files.size() != current_files.size()) {
    throw cb::InputError("--paired: " + std::to_string(baseline_files.size()) +
                         " baseline runs and " + std::to_string(current_files.size()) +
                         " current runs; pairs need as many of each");
  }
  // Checked before any run is read: a --junit path we may not write is bad input, said first.
  std::optional<cb::ExportFile> junit;
  if (auto path = parser.get("junit")) {
    std::vector<std::string> inputs = baseline_files;
    inputs.insert(inputs.end(), current_files.begin(), current_files.end());
    junit.emplace(*path, "--junit", inputs, cb::OwnFile::junit_xml);
  }
  const cb::RunSide baseline = cb::load_side(baseline_files, "--baseline");
  const cb::RunSide current = cb::load_side(current_files, "CURRENT");
  const cb::CheckReport report = cb::check_regressions(baseline, current, context.options);
  if (report.cases.empty()) {
    throw cb::InputError(cb::shown(baseline_files.front(), 120) + " and " +
                         cb::shown(current_files.front(), 120) +
                         " have no measured case in common (same suite, case, params and gpus): "
                         "nothing to check");
  }
  if (parser.has("json")) {
    std::cout << cb::check_report_json(report, context).dump(2) << "\n";
  } else {
    std::cout << cb::check_report_markdown(report, context);
  }
  if (junit)
    junit->commit(cb::check_junit_xml(report, context));
  return cb::check_exit_code(report, context.allow_inconclusive);
}

} // namespace

CB_REGISTER_COMMAND("check", "gate regressions: judge runs against baseline runs (CI)", check_main);
