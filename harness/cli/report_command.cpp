// clusterbench report: a summary of a results file for people — Markdown on stdout, or JSON, and
// a self-contained HTML page — with the part that limits scaling first up top.
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "core/args.hpp"
#include "exporters/export_file.hpp"
#include "exporters/report_prometheus.hpp"
#include "report/report_options.hpp"
#include "report/report_runner.hpp"

namespace cb {
namespace {

int report_main(const std::vector<std::string>& argv) {
  ArgParser args("clusterbench report",
                 "clusterbench report RESULTS.json [--html FILE] [--plots DIR] [--json] "
                 "[--predict-to N] [--at N,N] [--model-params P] [--tokens-per-gpu T] "
                 "[--grad-bytes B] "
                 "[--overlap F] [--bytes-per-step B] [--gpu-hours H [--price P]] "
                 "[--prometheus FILE.prom]");
  report::declare_report_flags(args);
  args.option("prometheus", "FILE.prom",
              "also write the figures, efficiencies and per-GPU and per-node figures as a "
              "Prometheus textfile (node_exporter --collector.textfile.directory)");
  args.epilog(
      "Per family: a table by GPU count (headline metric, efficiency, per-GPU spread), the\n"
      "fitted USL and Amdahl laws with the efficiency they predict, and for collectives the\n"
      "alpha-beta models per tier. Up top: the part whose efficiency falls under 80 % first, and\n"
      "a data-parallel training step predicted from compute/gemm, collectives/all_reduce and\n"
      "(for input reads; left out, and said so, where not measured) storage/seq_read, up to\n"
      "--predict-to GPUs, with its cost overhead 1/E - 1 at the --at counts. Fits come from the\n"
      "results' fits section when it matches the records, else are computed.\n"
      "Figures need Python with matplotlib: $CLUSTERBENCH_PYTHON, else /usr/bin/python3, else\n"
      "python3; the script is $CLUSTERBENCH_PLOTS, else plots/plot.py of the source tree.");
  if (!args.parse(argv)) {
    std::cout << args.help();
    return 0;
  }
  const auto options = report::read_report_flags(args);
  std::optional<ExportFile> prometheus;
  if (auto path = args.get("prometheus"))
    prometheus.emplace(*path, "--prometheus", std::vector{options.results_path},
                       OwnFile::prometheus_textfile);
  return report::run_report(options, std::cout, std::cerr,
                            [&](const ResultsFile& results, const report::ReportData& data) {
                              if (prometheus)
                                prometheus->commit(report_prometheus_text(data, results));
                            });
}

} // namespace
} // namespace cb

CB_REGISTER_COMMAND("report", "summarise a results file: scaling tables, fits, predictions, plots",
                    cb::report_main);
