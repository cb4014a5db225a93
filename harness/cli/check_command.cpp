// clusterbench check: the CI gate. Did the current run get slower than the baseline, by more than
// the threshold and by more than noise?
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "exporters/check_junit.hpp"
#include "exporters/export_file.hpp"
#include "verdicts/check_report.hpp"
#include "verdicts/regression_check.hpp"
#include "verdicts/verdict_input.hpp"

namespace {

int check_main(const std::vector<std::string>& args) {
  cb::ArgParser parser(
      "check",
      "clusterbench check --baseline BASE.json CURRENT.json [--threshold 0.05] "
      "[--alpha 0.01] [--min-samples 5] [--allow-inconclusive] [--json] [--junit FILE.xml]");
  parser
      .positional("CURRENT.json",
                  "the run to judge (clusterbench results or Google Benchmark JSON)")
      .option("baseline", "BASE.json", "the run to judge against (required)")
      .option("threshold", "F", "relative change of medians that counts as worse (default 0.05)")
      .option("alpha", "P", "significance level of the Mann-Whitney U test (default 0.01)")
      .option("min-samples", "N", "fewer values on either side is INCONCLUSIVE (default 5)")
      .flag("allow-inconclusive", "exit 0 when the verdict is INCONCLUSIVE")
      .flag("json", "print the report as JSON")
      .option("junit", "FILE.xml",
              "also write the verdict as JUnit XML: a testcase per case, failed on a regression")
      .epilog(
          "Cases are matched by suite, case, params and GPU count and compared by their samples\n"
          "(seconds per operation, lower is better) or, for records without samples, by their\n"
          "headline metric (busbw_gbps, gbps, tflops, gflops higher is better; latency_us,\n"
          "time_us lower is better). A case regresses when it is worse by more than the\n"
          "threshold AND the difference is significant (p < alpha). A change past the threshold\n"
          "that is not significant, or fewer than --min-samples values, is INCONCLUSIVE: never a\n"
          "silent pass. Improvements are reported; cases missing on either side are listed.\n"
          "Google Benchmark JSON (run with --benchmark_repetitions) is recognised by its\n"
          "'context' and 'benchmarks' keys; each repetition is one sample.\n\n"
          "exit: 0 pass, 1 regression (or INCONCLUSIVE unless allowed), 2 bad input");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  const auto baseline_path = parser.get("baseline");
  if (!baseline_path || baseline_path->empty()) {
    throw cb::InputError("--baseline: required (the results file to judge against)");
  }
  cb::CheckContext context;
  context.baseline_path = *baseline_path;
  context.current_path = parser.positional_value("CURRENT.json");
  context.allow_inconclusive = parser.has("allow-inconclusive");
  if (auto text = parser.get("threshold")) {
    context.options.threshold = cb::parse_number(*text, "--threshold");
  }
  if (auto text = parser.get("alpha"))
    context.options.alpha = cb::parse_number(*text, "--alpha");
  if (auto text = parser.get("min-samples")) {
    const long long n = cb::parse_integer(*text, "--min-samples");
    if (n < 1 || n > 1'000'000)
      throw cb::InputError("--min-samples: must be 1..1000000, got " + cb::shown(*text));
    context.options.min_samples = static_cast<std::size_t>(n);
  }
  cb::validate(context.options);
  std::optional<cb::ExportFile> junit;
  if (auto path = parser.get("junit"))
    junit.emplace(*path, "--junit", std::vector{context.baseline_path, context.current_path},
                  cb::OwnFile::junit_xml);

  const cb::ResultsFile baseline = cb::load_verdict_input(context.baseline_path);
  const cb::ResultsFile current = cb::load_verdict_input(context.current_path);
  const cb::CheckReport report = cb::check_regressions(baseline, current, context.options);
  if (report.cases.empty()) {
    throw cb::InputError(context.baseline_path + " and " + context.current_path +
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

CB_REGISTER_COMMAND("check", "gate regressions: judge a run against a baseline (CI)", check_main);
