// The report's section of one family: what it measures, the models table, each curve with its
// fits, the collectives' alpha-beta fits, the stragglers, what was not run and the plots.
#include "report/family_section.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "analysis/fit_warnings.hpp"
#include "report/report_format.hpp"
#include "results/json_fields.hpp"
#include "results/suite_names.hpp"
#include "runtime/family.hpp"

namespace cb::report {
namespace {

constexpr std::size_t kMaxHockneyRows = 40;
constexpr std::size_t kMaxNotRunItems = 20;
constexpr std::size_t kMaxStragglerRows = 20;
// Below this R² a fitted law is said to describe its points poorly.
constexpr double kPoorFit = 0.9;

std::string straggler_sentence(const StragglerRank& s, int gpus) {
  return straggler_label(s) + " on " + gpus_text(gpus) + ": the others waited for it; its own " +
         "time was the shortest in " + format_percent(s.shortest_share, 0) + " of samples and " +
         format_percent(straggler_ratio(s), 0) + " of theirs.";
}

// The family's own sentence (bench/<family>/family.cpp); a suite of no family, the general rule.
std::string family_definition(const std::string& suite) {
  if (const Family* family = FamilyRegistry::instance().find(suite))
    return family->report_sentence();
  return "E(N) = X(N) / (N · X(1)) for throughputs.";
}

std::string usl_cell(const std::optional<UslFit>& usl, double UslFit::*field, int digits) {
  if (!usl || !usl->ok)
    return "-";
  return format_figure((*usl).*field, digits);
}

void add_models_table(Document& doc, const FamilyReport& family, const std::vector<int>& outlook) {
  Table table;
  table.header = {"curve", "GPUs", "USL α", "USL β", "USL γ", "N*", "R²", "Amdahl serial"};
  for (int n : outlook)
    table.header.push_back(outlook_header("E", n));
  table.header.push_back("fits");
  table.numeric = {false, false, true, true, true, true, true, true};
  for (std::size_t i = 0; i < outlook.size(); ++i)
    table.numeric.push_back(true);
  for (const auto& c : family.curves) {
    if (c.scaling_points() < 2)
      continue;
    const auto& usl = c.fits.usl;
    const auto& amdahl = c.fits.amdahl;
    const auto& gpus = c.curve().gpus;
    std::vector<std::string> row = {
        c.label(),
        std::to_string(gpus.front()) + (gpus.size() > 1 ? "–" + std::to_string(gpus.back()) : ""),
        usl_cell(usl, &UslFit::alpha, 3),
        usl_cell(usl, &UslFit::beta, 3),
        usl_cell(usl, &UslFit::gamma, 4),
        usl && usl->ok && usl->n_peak ? format_figure(*usl->n_peak, 3) : "-",
        usl_cell(usl, &UslFit::r2, 3),
        amdahl && amdahl->ok ? format_figure(amdahl->serial_fraction, 3) : "-"};
    for (const auto& e : c.outlook)
      row.push_back(estimate_text(e));
    row.push_back(c.fit_source);
    table.rows.push_back(std::move(row));
  }
  if (table.rows.empty())
    return;
  doc.heading(3, "Scaling models");
  doc.table(std::move(table));
  doc.paragraph("the USL X(N) = γN / (1 + α(N-1) + βN(N-1)) and Amdahl's law fitted to the "
                "aggregate of each curve; E at N is measured where measured, else the USL's "
                "(Amdahl's where the USL has no fit). Far beyond the largest measured count it "
                "rests on the law alone, and small noise in the points moves it a lot: measure at "
                "more GPUs to confirm.",
                "Models:");
}

void add_curve(Document& doc, const CurveReport& c, Unfitted& unfitted) {
  doc.heading(3, c.label() + " — " + metric_label(c.curve().key.metric));
  const bool any_spread = std::any_of(c.rows.begin(), c.rows.end(),
                                      [](const CurveRow& r) { return r.spread.has_value(); });
  Table table;
  table.header = {"GPUs", "nodes", metric_label(c.curve().key.metric), "efficiency"};
  table.numeric = {true, true, true, true};
  std::string figure;
  if (any_spread) {
    for (const auto& r : c.rows) {
      if (r.spread)
        figure = r.spread->figure;
    }
    for (const char* h : {"per-GPU min", "median", "max", "cv"}) {
      table.header.push_back(h);
      table.numeric.push_back(true);
    }
  }
  const bool any_spike =
      std::any_of(c.rows.begin(), c.rows.end(), [](const CurveRow& r) { return r.spike > 0; });
  if (any_spike) {
    table.header.push_back("p99/median");
    table.numeric.push_back(true);
  }
  for (const auto& r : c.rows) {
    std::vector<std::string> row = {std::to_string(r.gpus), std::to_string(r.nodes),
                                    format_figure(r.value, 4) +
                                        (r.status == RecordStatus::noisy ? " (noisy)" : ""),
                                    format_percent(r.efficiency)};
    if (any_spread) {
      if (r.spread) {
        row.push_back(format_figure(r.spread->min, 4));
        row.push_back(format_figure(r.spread->median, 4));
        row.push_back(format_figure(r.spread->max, 4));
        row.push_back(format_percent(r.spread->cv));
      } else {
        row.insert(row.end(), {"-", "-", "-", "-"});
      }
    }
    if (any_spike)
      row.push_back(r.spike > 0 ? format_figure(r.spike, 3) : "-");
    table.rows.push_back(std::move(row));
  }
  doc.table(std::move(table));
  std::vector<Paragraph> notes;
  if (any_spread) {
    const bool waiting = std::any_of(c.rows.begin(), c.rows.end(), [](const CurveRow& r) {
      return r.spread && r.spread->includes_waiting;
    });
    notes.push_back({"Per GPU:", "the ranks' own " + metric_label(figure) +
                                     " figures; cv = standard deviation / mean." +
                                     (waiting ? " Each rank's time includes its wait for the "
                                                "slowest, so the lowest is a rank that waited, "
                                                "not a slow GPU; the rank waited for, where one "
                                                "stands out, is named as a straggler."
                                              : "")});
  }
  if (any_spike) {
    notes.push_back({"Spikes:", "p99/median is the 99th-percentile sample time over the median "
                                "one: 1 is an even run, 2 means the slowest 1 % of iterations "
                                "took twice the usual time."});
  }
  for (const auto& r : c.rows) {
    if (r.straggler)
      notes.push_back({"Straggler:", straggler_sentence(*r.straggler, r.gpus)});
  }
  std::vector<std::string> seen;
  const int counts =
      distinct_counts(std::vector<double>(c.curve().gpus.begin(), c.curve().gpus.end()));
  auto note = [&](const std::string& model, const std::vector<std::string>& warnings) {
    for (const auto& w : warnings) {
      const std::string text = model + ": " + w;
      if (is_too_few_counts(w)) {
        unfitted.too_few.push_back({c.label(), model, false, counts, w});
        continue;
      }
      if (std::find(seen.begin(), seen.end(), text) != seen.end())
        continue;
      seen.push_back(text);
      notes.push_back({"Note:", text});
    }
  };
  // A straggler: synchronous work waits for the slowest GPU, whatever the scaling law says.
  // Not from a collective's figures: there the lowest own figure is a rank that waited.
  for (const auto& r : c.rows) {
    if (r.spread && !r.spread->includes_waiting && r.spread->count >= 2 && r.spread->median > 0 &&
        r.spread->slowest_share() < kStragglerShare) {
      notes.push_back({"Slowest GPU:", describe_rank(r.spread->slowest) + " on " +
                                           gpus_text(r.gpus) + " runs at " +
                                           format_percent(r.spread->slowest_share()) +
                                           " of the median; every synchronous step waits for it."});
    }
  }
  if (c.series && c.scaling_points() < 2) {
    // The fits' own warnings would only say, three ways, that one point is not a curve; the
    // report's closing line counts these curves once.
    ++unfitted.single_count;
    doc.bullets(std::move(notes));
    return;
  }
  note("efficiency", c.fits.efficiency.warnings);
  // Below 0 the fit's own warning says more.
  if (c.fits.usl && c.fits.usl->ok && c.fits.usl->r2 >= 0 && c.fits.usl->r2 < kPoorFit) {
    notes.push_back({"Note:", "the USL describes these points poorly (R² " +
                                  format_figure(c.fits.usl->r2, 2) +
                                  "): a step, such as crossing to a second node, is not a smooth "
                                  "law; its predictions are a rough guide."});
  }
  if (c.fits.usl)
    note("USL", c.fits.usl->warnings);
  if (c.fits.amdahl)
    note("Amdahl", c.fits.amdahl->warnings);
  doc.bullets(std::move(notes));
}

void add_alpha_beta(Document& doc, const FamilyReport& family) {
  if (family.ring_all_reduce.empty() && family.hockney.empty())
    return;
  Table table;
  table.header = {"model", "tier",  "GPUs", "α latency (µs)", "1/β bandwidth (GB/s)",
                  "R²",    "points"};
  table.numeric = {false, false, false, true, true, true, true};
  for (const auto& r : family.ring_all_reduce) {
    std::string gpus;
    for (int n : r.gpus)
      gpus += (gpus.empty() ? "" : ",") + std::to_string(n);
    table.rows.push_back(
        {"ring all_reduce", r.tier, gpus, r.ok ? format_figure(r.alpha_s * 1e6, 4) : "-",
         r.ok && r.beta_s_per_byte > 0 ? format_figure(r.bandwidth_gbps(), 4) : "-",
         r.ok ? format_figure(r.r2, 3) : "-", std::to_string(r.points)});
  }
  std::size_t shown = 0;
  for (const auto& f : family.hockney) {
    if (!f.ok)
      continue;
    if (++shown > kMaxHockneyRows)
      continue;
    const std::string params = describe_params(f.params);
    table.rows.push_back({f.case_name + (params.empty() ? "" : " " + params), f.tier,
                          std::to_string(f.gpus), format_figure(f.latency_s * 1e6, 4),
                          f.seconds_per_byte > 0 ? format_figure(f.bandwidth_gbps(), 4) : "-",
                          format_figure(f.r2, 3), std::to_string(f.points)});
  }
  doc.heading(3, "α-β models (T = α + n·β per message; ring all-reduce 2(p-1)α + 2(p-1)/p·n·β)");
  doc.table(std::move(table));
  std::string text =
      "fitted on relative error over message sizes (" + family.alpha_beta_source + ").";
  if (shown > kMaxHockneyRows) {
    text +=
        " " + std::to_string(shown - kMaxHockneyRows) + " more per-GPU-count lines are in --json.";
  }
  doc.paragraph(text, "α-β:");
  std::vector<Paragraph> notes;
  for (const auto& r : family.ring_all_reduce) {
    for (const auto& w : r.warnings)
      notes.push_back({"Note:", "ring all_reduce (" + r.tier + "): " + w});
  }
  doc.bullets(std::move(notes));
}

// Every record of the family that names the rank its collective waited for, the largest wait
// first.
void add_stragglers(Document& doc, const FamilyReport& family) {
  if (family.stragglers.empty())
    return;
  Table table;
  table.header = {"record",    "GPUs", "nodes", "straggler", "shortest in", "own / others' time",
                  "p99/median"};
  table.numeric = {false, true, true, false, true, true, true};
  for (std::size_t i = 0; i < family.stragglers.size() && i < kMaxStragglerRows; ++i) {
    const StragglerRow& row = family.stragglers[i];
    const std::string params = describe_params(row.params);
    table.rows.push_back({row.case_name + (params.empty() ? "" : " " + params),
                          std::to_string(row.gpus), std::to_string(row.nodes),
                          straggler_label(row.straggler),
                          format_percent(row.straggler.shortest_share, 0),
                          format_figure(straggler_ratio(row.straggler), 3),
                          row.spike > 0 ? format_figure(row.spike, 3) : "-"});
  }
  doc.heading(3, "Stragglers");
  doc.table(std::move(table));
  std::string text = "the rank the others waited for: its own time was the shortest in most "
                     "samples (it arrived last) and its median own time is at least 10 % below "
                     "the others' (docs/REFERENCE.md, Stragglers).";
  if (family.stragglers.size() > kMaxStragglerRows) {
    text += " " + std::to_string(family.stragglers.size() - kMaxStragglerRows) +
            " more records name one; --json lists them all.";
  }
  doc.paragraph(text, "Straggler:");
}

void add_not_run(Document& doc, const FamilyReport& family) {
  if (family.not_run.empty())
    return;
  std::vector<Paragraph> items;
  for (std::size_t i = 0; i < family.not_run.size() && i < kMaxNotRunItems; ++i) {
    const auto& r = family.not_run[i];
    const std::string params = describe_params(r.params);
    items.push_back({std::string(to_string(r.status)) + ":",
                     r.case_name + (params.empty() ? "" : " " + params) + " on " +
                         gpus_text(r.gpus) + (r.reason.empty() ? "" : " — " + r.reason)});
  }
  if (family.not_run.size() > kMaxNotRunItems) {
    items.push_back({"", std::to_string(family.not_run.size() - kMaxNotRunItems) + " more"});
  }
  doc.heading(3, "Not measured");
  doc.bullets(std::move(items));
}

} // namespace

void add_family(Document& doc, const FamilyReport& family, const ReportData& data,
                const PlotSet& plots, Unfitted& unfitted) {
  doc.heading(2, family.suite);
  doc.paragraph(family_definition(family.suite), "What it measures:");
  add_models_table(doc, family, data.options.outlook_gpus);
  for (const auto& c : family.curves)
    add_curve(doc, c, unfitted);
  if (family.curves.size() < family.curves_total) {
    doc.paragraph(std::to_string(family.curves_total - family.curves.size()) +
                      " more curves at smaller sizes are not shown; 'clusterbench fit' stores "
                      "them all.",
                  "");
  }
  if (family.suite == suite_names::kCollectives)
    add_alpha_beta(doc, family);
  add_stragglers(doc, family);
  add_not_run(doc, family);
  for (const auto& file : plots.files) {
    if (plot_family(file) == family.suite) {
      doc.image(file, std::filesystem::path(file).filename().string());
    }
  }
}

// "rank 5 (n2 device 1)".
std::string straggler_label(const StragglerRank& s) {
  return describe_rank({{"rank", s.rank}, {"host", s.host}, {"device", s.device}});
}

std::string estimate_text(const EfficiencyEstimate& e) {
  if (!e.efficiency)
    return "-";
  return format_percent(e.efficiency) +
         (e.from.empty() || e.from == "measured" ? "" : " " + e.from);
}

std::string outlook_header(const std::string& what, int gpus) {
  return what + " at " + std::to_string(gpus);
}

} // namespace cb::report
