// clusterbench qualify: is this hardware up to spec, and if not, which GPU, link or node is bad.
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "diagnosis/topology.hpp"
#include "exporters/export_file.hpp"
#include "exporters/qualify_junit.hpp"
#include "exporters/qualify_prometheus.hpp"
#include "qualify/qualify.hpp"
#include "qualify/qualify_report.hpp"
#include "qualify/reference_spec.hpp"
#include "qualify/spec_locator.hpp"
#include "results/results_io.hpp"

namespace {

int qualify_main(const std::vector<std::string>& args) {
  const auto bundled = cb::available_spec_names(cb::specs_directory());
  cb::ArgParser parser("qualify", "clusterbench qualify RESULTS.json --spec NAME|FILE [--json] "
                                  "[--allow-inconclusive] [--fraction F] [--prometheus FILE.prom] "
                                  "[--junit FILE.xml] [--topology FILE]");
  parser.positional("RESULTS.json", "the results file to judge")
      .option("spec", "NAME|FILE",
              "a bundled spec name, a spec file, or a known-good results file as the reference")
      .option("fraction", "F",
              "share of each expected figure that passes: default 0.90 of a reference run; "
              "overrides every check of a spec file")
      .option("topology", "FILE",
              "the fabric's leaf switches (Slurm topology.conf or a JSON map host -> leaf): the "
              "diagnosis groups nodes by leaf and names a slow uplink with its switch")
      .flag("json", "print the report as JSON")
      .flag("allow-inconclusive", "exit 0 when the verdict is INCONCLUSIVE")
      .option("prometheus", "FILE.prom",
              "also write the verdict, checks, culprits and per-GPU figures as a Prometheus "
              "textfile (node_exporter --collector.textfile.directory)")
      .option("junit", "FILE.xml",
              "also write the verdict as JUnit XML (a testcase per check "
              "and per culprit)")
      .epilog("Checks compare measured figures with stated ones (data sheets, published\n"
              "measurements; each spec check carries its source). One diagnosis over every record\n"
              "names the culprits: the fewest GPUs, nodes, rails or uplinks that explain the slow\n"
              "figures; a culprit fails the fleet, outliers (median and MAD) are its evidence.\n"
              "Verdicts: PASS; FAIL; INCONCLUSIVE (fewer than 3 samples, missing cases, noisy\n"
              "records whose 5th and 95th percentile samples fall on both sides of the floor).\n"
              "Exit 0 on PASS, 1 on FAIL, 4 on INCONCLUSIVE (0 when allowed), 2 on bad input.\n"
              "\nbundled specs (" +
              cb::specs_directory() +
              "): " + (bundled.empty() ? std::string("none") : cb::join(bundled, ", ")));
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  const auto spec_argument = parser.get("spec");
  if (!spec_argument || spec_argument->empty()) {
    throw cb::InputError("--spec: required (a bundled name such as h200-sxm, a spec file, or a "
                         "known-good results file)");
  }
  std::optional<double> fraction;
  if (auto text = parser.get("fraction"))
    fraction = cb::parse_number(*text, "--fraction");

  const std::string results_path = parser.positional_value("RESULTS.json");
  std::optional<cb::ExportFile> prometheus, junit;
  if (auto path = parser.get("prometheus"))
    prometheus.emplace(*path, "--prometheus", std::vector{results_path, *spec_argument},
                       cb::OwnFile::prometheus_textfile);
  if (auto path = parser.get("junit"))
    junit.emplace(*path, "--junit", std::vector{results_path, *spec_argument},
                  cb::OwnFile::junit_xml);
  const cb::ResultsFile results = cb::load_results(results_path);
  const cb::Spec spec =
      cb::load_spec_or_reference(cb::resolve_spec_argument(*spec_argument), fraction);
  std::optional<cb::Topology> topology;
  if (auto path = parser.get("topology"))
    topology = cb::load_topology(*path);
  const cb::QualifyReport report =
      cb::qualify(results, results_path, spec, topology ? &*topology : nullptr);
  if (parser.has("json")) {
    std::cout << cb::qualify_to_json(report).dump(2) << "\n";
  } else {
    std::cout << cb::format_qualify_text(report);
  }
  if (prometheus)
    prometheus->commit(cb::qualify_prometheus_text(report, results));
  if (junit)
    junit->commit(cb::qualify_junit_xml(report));
  return cb::qualify_exit_code(report, parser.has("allow-inconclusive"));
}

} // namespace

CB_REGISTER_COMMAND("qualify", "judge results against a hardware spec and name outlier parts",
                    qualify_main);
