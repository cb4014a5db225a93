// clusterbench fit: scaling laws and alpha-beta models for a results file (stored in its fits
// section), or a USL / Amdahl fit of a plain n,throughput table.
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "analysis/fit_warnings.hpp"
#include "analysis/fits_json.hpp"
#include "analysis/record_values.hpp"
#include "analysis/throughput_csv.hpp"
#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "results/params_text.hpp"
#include "results/results_io.hpp"

namespace cb {
namespace {

// A column's figure to fixed decimals, "-" where the fit gave none.
std::string optional_fixed(std::optional<double> value, int decimals) {
  return value ? format_fixed(*value, decimals) : "-";
}

std::string curve_name(const Curve& c) {
  std::string name = c.key.suite + "/" + c.key.case_name;
  if (const auto params = describe_params(c.key.params); !params.empty())
    name += " " + params;
  return name;
}

// One line per curve family (suite, case, params other than bytes): the largest message or
// buffer size, where scaling is least hidden by latency. The rest are in the fits section.
std::vector<const CurveFits*> curves_to_show(const ScalingAnalysis& analysis) {
  std::map<std::string, const CurveFits*> largest;
  std::vector<std::string> order;
  for (const auto& fits : analysis.curves) {
    const nlohmann::json rest = params_without_size(fits.curve.key.params);
    const std::string id = fits.curve.key.suite + '\n' + fits.curve.key.case_name + '\n' +
                           fits.curve.key.metric + '\n' + rest.dump();
    auto [it, inserted] = largest.emplace(id, &fits);
    if (inserted) {
      order.push_back(id);
    } else if (problem_size(fits.curve.key.params).value_or(0) >
               problem_size(it->second->curve.key.params).value_or(0)) {
      it->second = &fits;
    }
  }
  std::vector<const CurveFits*> shown;
  for (const auto& id : order)
    shown.push_back(largest[id]);
  return shown;
}

// Prints the table; returns the lines that say why a figure in it may not describe its curve.
std::vector<std::string> print_curves(const ScalingAnalysis& analysis, std::ostream& out) {
  const auto shown = curves_to_show(analysis);
  int width = 5;
  for (const CurveFits* fits : shown)
    width = std::max(width, static_cast<int>(curve_name(fits->curve).size()));
  width = std::min(width, 80);
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %-11s %-8s %6s %8s %10s %8s %6s %8s\n", width, "curve",
                "metric", "GPUs", "E@max", "alpha", "beta", "N*", "r2", "serial");
  out << line;
  for (const CurveFits* fits : shown) {
    const Curve& c = fits->curve;
    std::string name = curve_name(c);
    if (static_cast<int>(name.size()) > width)
      name = name.substr(0, width - 3) + "...";
    const std::string gpus = std::to_string(c.gpus.front()) + ".." + std::to_string(c.gpus.back());
    const auto& e = fits->efficiency.value;
    const UslFit* usl = fits->usl && fits->usl->ok ? &*fits->usl : nullptr;
    const AmdahlFit* amdahl = fits->amdahl && fits->amdahl->ok ? &*fits->amdahl : nullptr;
    auto from_usl = [&](double UslFit::*field) {
      return usl ? std::optional<double>(usl->*field) : std::nullopt;
    };
    const std::optional<double> beta = from_usl(&UslFit::beta);
    std::snprintf(
        line, sizeof line, "%-*s %-11s %-8s %6s %8s %10s %8s %6s %8s\n", width, name.c_str(),
        c.key.metric.c_str(), gpus.c_str(),
        optional_fixed(e.empty() ? std::nullopt : e.back(), 3).c_str(),
        optional_fixed(from_usl(&UslFit::alpha), 4).c_str(),
        (beta ? format_figure_compact(*beta) : std::string("-")).c_str(),
        optional_fixed(usl ? usl->n_peak : std::nullopt, 1).c_str(),
        optional_fixed(from_usl(&UslFit::r2), 3).c_str(),
        optional_fixed(amdahl ? std::optional<double>(amdahl->serial_fraction) : std::nullopt, 4)
            .c_str());
    out << line;
  }
  if (shown.size() < analysis.curves.size()) {
    out << "(" << analysis.curves.size() - shown.size()
        << " more curves at smaller sizes are in the fits section; --json prints them)\n";
  }
  // Why a figure above may not describe its curve, in the words the fits section keeps, said
  // once for all the curves it applies to: a run with too few GPU counts would otherwise print a
  // line for every law of every curve. --json keeps every curve's own warnings.
  std::vector<CurveLawNote> notes;
  for (const CurveFits* fits : shown) {
    const std::string name = curve_name(fits->curve);
    const int counts = distinct_counts(std::vector<double>(fits->curve.gpus.begin(),
                                                           fits->curve.gpus.end()));
    auto add = [&](const char* law, const auto& fit) {
      if (!fit)
        return;
      if (!fit->ok) {
        notes.push_back({name, law, false, counts,
                         fit->warnings.empty() ? std::string() : fit->warnings.front()});
        return;
      }
      for (const auto& w : fit->warnings)
        notes.push_back({name, law, true, counts, w});
    };
    add("USL", fits->usl);
    add("Amdahl", fits->amdahl);
  }
  return summarize_fit_notes(notes);
}

// The ring model per tier, then one line per collective and params: latency and bandwidth of the
// alpha-beta line at each GPU count.
void print_alpha_beta(const ScalingAnalysis& analysis, std::ostream& out) {
  for (const auto& ring : analysis.ring_all_reduce) {
    out << "ring all_reduce (" << ring.tier << "): ";
    if (!ring.ok) {
      out << "no fit (" << (ring.warnings.empty() ? "" : ring.warnings.front()) << ")\n";
      continue;
    }
    out << "alpha " << format_fixed(ring.alpha_s * 1e6, 2) << " us, 1/beta "
        << format_fixed(ring.bandwidth_gbps(), 3) << " GB/s, r2 " << format_fixed(ring.r2, 3)
        << " over " << ring.points << " points\n";
  }
  std::map<std::string, std::string> rows;
  std::vector<std::string> order;
  for (const auto& h : analysis.hockney) {
    if (!h.ok)
      continue;
    const std::string id = h.case_name + " " + describe_params(h.params);
    if (!rows.count(id))
      order.push_back(id);
    std::string& row = rows[id];
    row += (row.empty() ? "" : "; ") + std::to_string(h.gpus) + " GPUs " +
           format_fixed(h.latency_s * 1e6, 2) + " us " + format_fixed(h.bandwidth_gbps(), 3) +
           " GB/s";
  }
  for (const auto& id : order)
    out << "alpha-beta " << id << ": " << rows[id] << "\n";
}

// What a results file lacks when nothing in it can be fitted.
std::string nothing_to_fit(const ResultsFile& results, const ScalingAnalysis& analysis) {
  std::size_t usable = 0;
  for (const auto& r : results.records)
    usable += is_usable(r) ? 1 : 0;
  std::size_t longest = 0;
  for (const auto& c : analysis.curves)
    longest = std::max(longest, c.curve.gpus.size());
  return "nothing to fit: needs a throughput metric (busbw_gbps, gbps, tflops or gflops) of one "
         "case at 3 or more GPU counts, or collectives records at 2 or more message sizes; found " +
         std::to_string(usable) + " usable (ok or noisy) record" + (usable == 1 ? "" : "s") +
         " of " + std::to_string(results.records.size()) + ", the longest curve has " +
         std::to_string(longest) + " GPU count" + (longest == 1 ? "" : "s");
}

int fit_results(const ArgParser& args) {
  const std::string path = args.positional_value("RESULTS.json");
  // A results file is evidence: it is rewritten only when asked (--in-place, or --out naming it).
  if (args.has("in-place") && args.has("out"))
    throw InputError("--in-place: give either --in-place or --out FILE, not both");
  std::optional<std::string> out = args.get("out");
  if (args.has("in-place"))
    out = path;
  // --out naming RESULTS.json (however spelled) is --in-place, so the input is not refused here.
  if (out) {
    check_output_target(*out, args.has("in-place") ? "--in-place" : "--out");
    refuse_foreign_file(*out, args.has("in-place") ? "--in-place" : "--out", OwnFile::results);
  }
  ResultsFile results = load_results(path);
  const ScalingAnalysis analysis = analyse_scaling(results);
  if (!analysis.has_fits())
    throw InputError(path + ": " + nothing_to_fit(results, analysis));
  store_fits(results, analysis);
  if (out)
    write_results_atomic(results, *out);
  if (args.has("json")) {
    std::cout << results.fits.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    const std::vector<std::string> warnings = print_curves(analysis, std::cout);
    print_alpha_beta(analysis, std::cout);
    if (out)
      std::cout << "fits written to " << *out << "\n";
    else
      std::cout << "fits not written (--out FILE, or --in-place to store them in " << path << ")\n";
    // Last, so that what could not be fitted is the line a reader sees.
    for (const auto& line : warnings)
      std::cout << "warning: " << line << "\n";
  }
  return 0;
}

std::optional<double> row_at_one(const ThroughputTable& table) {
  for (std::size_t i = 0; i < table.n.size(); ++i) {
    if (table.n[i] == 1)
      return table.throughput[i];
  }
  return std::nullopt;
}

int fit_csv(const ArgParser& args) {
  if (!args.positional_value("RESULTS.json").empty()) {
    throw InputError("--csv: give either RESULTS.json or --csv FILE, not both");
  }
  for (const char* flag : {"out", "in-place"}) {
    if (args.has(flag))
      throw InputError(std::string("--") + flag + ": applies to RESULTS.json, not to --csv");
  }
  const auto model = args.get("model");
  if (!model)
    throw InputError("--model: required with --csv (usl or amdahl)");
  if (*model != "usl" && *model != "amdahl") {
    throw InputError("--model: expected usl or amdahl, got '" + shown(*model) + "'");
  }
  if (*model == "amdahl" && args.has("method")) {
    throw InputError("--method: applies to --model usl only");
  }
  const UslMethod method = usl_method_from_name(args.get_or("method", "nls"), "--method");
  const std::string path = *args.get("csv");
  const ThroughputTable table = read_throughput_csv(path);
  const auto x1 = row_at_one(table);
  nlohmann::json out;
  std::vector<std::string> warnings;
  if (*model == "usl") {
    if (method == UslMethod::linearised && !x1) {
      throw InputError(path + ": the linearised method needs a row with n = 1 (C = X/X(1))");
    }
    const UslFit fit = fit_usl(table.n, table.throughput, method);
    out = usl_to_json(fit);
    warnings = fit.warnings;
  } else {
    if (!x1)
      throw InputError(path + ": the amdahl model needs a row with n = 1 (S = X(N)/X(1))");
    std::vector<double> speedup;
    for (double x : table.throughput)
      speedup.push_back(x / *x1);
    const AmdahlFit fit = fit_amdahl(table.n, speedup);
    out = amdahl_to_json(fit);
    warnings = fit.warnings;
  }
  out["model"] = *model;
  std::cout << out.dump(2) << "\n";
  for (const auto& w : warnings)
    std::cerr << "clusterbench fit: warning: " << w << "\n";
  return 0;
}

int fit_main(const std::vector<std::string>& argv) {
  ArgParser args("clusterbench fit",
                 "clusterbench fit RESULTS.json [--out FILE | --in-place] [--json]\n"
                 "       clusterbench fit --csv FILE --model usl|amdahl [--method nls|linearised]");
  args.positional("RESULTS.json", "results file to fit (read only unless --in-place)", false)
      .option("out", "FILE", "write the results with their fits section to FILE")
      .flag("in-place", "rewrite RESULTS.json itself with its fits section")
      .flag("json", "print the fits section as JSON instead of the table")
      .option("csv", "FILE", "fit a table with the header n,throughput instead of a results file")
      .option("model", "usl|amdahl", "with --csv: the scaling law to fit")
      .option("method", "nls|linearised",
              "with --model usl: bounded non-linear (default) or Gunther's linearised")
      .epilog("For every curve (one case at fixed parameters, its headline metric against GPU\n"
              "count): the weak-scaling efficiency, the Universal Scalability Law (alpha, beta,\n"
              "gamma, peak N*) and Amdahl's serial fraction (3 or more GPU counts); for\n"
              "collectives also the alpha-beta line per GPU count and the ring all-reduce model\n"
              "per tier (intra/inter node).");
  if (!args.parse(argv)) {
    std::cout << args.help();
    return 0;
  }
  if (args.has("csv"))
    return fit_csv(args);
  for (const char* flag : {"model", "method"}) {
    if (args.has(flag))
      throw InputError(std::string("--") + flag + ": applies to --csv only");
  }
  if (args.positional_value("RESULTS.json").empty()) {
    throw InputError("missing RESULTS.json or --csv FILE (see 'clusterbench fit --help')");
  }
  return fit_results(args);
}

} // namespace
} // namespace cb

CB_REGISTER_COMMAND("fit", "fit scaling laws (USL, Amdahl, alpha-beta) to a results file",
                    cb::fit_main);
