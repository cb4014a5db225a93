// clusterbench compare: two clusters (or two runs) side by side, environment first.
#include <filesystem>
#include <iostream>

#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "verdicts/cluster_compare.hpp"
#include "verdicts/compare_report.hpp"
#include "verdicts/compare_runs.hpp"
#include "verdicts/overlay_plot.hpp"
#include "verdicts/run_figures.hpp"
#include "verdicts/verdict_input.hpp"

namespace {

int compare_main(const std::vector<std::string>& args) {
  cb::ArgParser parser("compare", "clusterbench compare A B [--json] [--plot DIR]");
  parser
      .positional("A", "the first side: a run (clusterbench results or Google Benchmark JSON) "
                       "or a directory of runs of it")
      .positional("B", "the second side: a run or a directory of runs")
      .flag("json", "print the comparison as JSON")
      .option("plot", "DIR",
              "also draw both runs on the same axes into DIR (plots/plot.py --overlay; Python "
              "from $CLUSTERBENCH_PYTHON, else /usr/bin/python3, else python3)")
      .epilog(
          "Prints the environment difference first (GPU model, node and GPU counts, backend,\n"
          "driver, CUDA, NCCL, MPI), then each case measured by both at the same GPU count:\n"
          "both medians (headline metric and time), B's speed relative to A with a 95 %\n"
          "bootstrap interval, the Mann-Whitney p-value and whether it is significant at 0.05,\n"
          "then the scaling efficiency of both at each GPU count and the USL and Amdahl models\n"
          "fitted to each.\n"
          "With one run a side the interval and p resample that run's samples: they cover\n"
          "within-run noise only. Give a directory of runs for A and for B (one file per run,\n"
          "*.json only) and they are taken over the runs' medians (a bootstrap over runs,\n"
          "Welch's t on log run medians), covering the run-to-run drift; environment,\n"
          "efficiency and models come from each side's first run.\n\n"
          "exit: 0 done (even when plotting fails), 2 bad input or nothing in common");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  cb::CompareContext context;
  context.a_path = parser.positional_value("A");
  context.b_path = parser.positional_value("B");
  const auto plot_dir = parser.get("plot");
  if (plot_dir && plot_dir->empty())
    throw cb::InputError("--plot: needs a directory");
  // A plot folder that exists must be a folder: its figures never replace a device or a file.
  std::error_code ec;
  if (plot_dir && std::filesystem::exists(*plot_dir, ec) &&
      !std::filesystem::is_directory(*plot_dir, ec)) {
    throw cb::InputError("--plot " + cb::shown(*plot_dir, 120) + ": exists and is not a directory");
  }

  const std::vector<std::string> a_files = cb::run_files(context.a_path, "A");
  const std::vector<std::string> b_files = cb::run_files(context.b_path, "B");
  const cb::ResultsFile a = cb::load_verdict_input(a_files.front());
  const cb::ResultsFile b = cb::load_verdict_input(b_files.front());
  cb::CompareOptions options;
  options.significance = context.significance;
  options.bootstrap.confidence = context.confidence;
  cb::ClusterComparison comparison = cb::compare_clusters(a, b, options);
  // Every side's runs are read (and checked to hold the same cases) even with one run a side, so
  // each case says how many runs it rests on.
  const cb::RunSide side_a = cb::load_side(a_files, "A", &a);
  const cb::RunSide side_b = cb::load_side(b_files, "B", &b);
  cb::contrast_across_runs(comparison, side_a, side_b, options);
  if (comparison.cases.empty()) {
    throw cb::InputError(context.a_path + " and " + context.b_path +
                         " have no measured case in common (same suite, case, params and gpus): "
                         "nothing to compare");
  }
  if (parser.has("json")) {
    std::cout << cb::compare_report_json(comparison, context).dump(2) << "\n";
  } else {
    std::cout << cb::compare_report_markdown(comparison, context);
  }
  std::cout.flush();
  if (plot_dir) {
    const cb::PlotOutcome plot = cb::run_overlay_plot(a_files.front(), b_files.front(), *plot_dir);
    std::cerr << "clusterbench compare: " << plot.message << "\n";
  }
  return 0;
}

} // namespace

CB_REGISTER_COMMAND("compare", "two clusters or runs side by side: environment, speed, scaling",
                    compare_main);
