#include "report/report_builder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "analysis/cost.hpp"
#include "analysis/fit_warnings.hpp"
#include "report/basis_section.hpp"
#include "report/report_format.hpp"
#include "report/step_section.hpp"
#include "results/json_fields.hpp"

namespace cb::report {
namespace {

constexpr std::size_t kMaxHockneyRows = 40;
constexpr std::size_t kMaxNotRunItems = 20;
constexpr std::size_t kMaxStragglerParts = 3;
constexpr std::size_t kMaxStragglerRows = 20;
// Below this R² a fitted law is said to describe its points poorly.
constexpr double kPoorFit = 0.9;

std::string gpus_text(int n) {
  return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

// 3 significant digits without trailing zeros: 7 -> "7", 1.5 -> "1.5", 175 -> "175".
std::string compact(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

// "rank 5 (n2 device 1)".
std::string straggler_label(const StragglerRank& s) {
  return describe_rank({{"rank", s.rank}, {"host", s.host}, {"device", s.device}});
}

std::string straggler_sentence(const StragglerRank& s, int gpus) {
  return straggler_label(s) + " on " + gpus_text(gpus) + ": the others waited for it; its own " +
         "time was the shortest in " + format_percent(s.shortest_share, 0) + " of samples and " +
         format_percent(straggler_ratio(s), 0) + " of theirs.";
}

// 65536 -> "64 KiB", 1.4e10 -> "14.0 GB": a whole number of binary units as people configure
// them, anything else in decimal units.
std::string human_bytes(double bytes) {
  const char* binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = bytes;
  int unit = 0;
  while (unit < 4 && v >= 1024 && std::fmod(v, 1024) == 0) {
    v /= 1024;
    ++unit;
  }
  if (unit > 0 && v < 1024)
    return compact(v) + " " + binary[unit];
  const char* decimal[] = {"B", "kB", "MB", "GB", "TB"};
  v = bytes;
  unit = 0;
  while (unit < 4 && v >= 1000) {
    v /= 1000;
    ++unit;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, unit == 0 ? "%.0f %s" : "%.1f %s", v, decimal[unit]);
  return buffer;
}

// "812 µs", "12.3 ms", "1.21 s".
std::string duration(double seconds) {
  if (!std::isfinite(seconds))
    return "-";
  if (seconds == 0)
    return "0";
  if (seconds < 1e-3)
    return format_figure(seconds * 1e6, 3) + " µs";
  if (seconds < 1)
    return format_figure(seconds * 1e3, 3) + " ms";
  return format_figure(seconds, 3) + " s";
}

std::string estimate_text(const EfficiencyEstimate& e) {
  if (!e.efficiency)
    return "-";
  return format_percent(e.efficiency) +
         (e.from.empty() || e.from == "measured" ? "" : " " + e.from);
}

std::string overhead_text(const EfficiencyEstimate& e) {
  if (!e.efficiency || !(*e.efficiency > 0))
    return "-";
  return format_cost_overhead(1 / *e.efficiency - 1);
}

std::string limit_text(const EfficiencyEstimate& e) {
  return (e.from == "measured" ? "at " : "by ") + gpus_text(e.gpus) + " (" +
         (e.from == "measured" ? "measured " : e.from + " prediction ") +
         format_percent(e.efficiency) + ")";
}

// "cost +42.9 % over the ideal", or beyond doubling "cost 7.16× the ideal".
std::string cost_phrase(double overhead) {
  return "cost " + format_cost_overhead(overhead) + (overhead <= 1 ? " over" : "") + " the ideal";
}

// Which part the lost time goes to: compute is the same on every GPU count, so the loss is the
// exposed all-reduce and the growth of the input time over one GPU's.
std::string lost_time_owner(const Prediction& prediction, const StepTime& s) {
  const double input_growth =
      prediction.steps.empty() ? s.input_s : s.input_s - prediction.steps.front().input_s;
  if (s.all_reduce_s <= 0 && input_growth <= 0)
    return "nothing is lost to communication";
  return s.all_reduce_s >= input_growth ? "the all-reduce accounts for most of the lost time"
                                        : "reading input accounts for most of the lost time";
}

std::string horizon(const Headline& h) {
  return h.horizon_gpus > 0 ? gpus_text(h.horizon_gpus) : std::string("the largest count measured");
}

// "812 µs of compute, 12.3 ms of all-reduce and 1.2 ms of input"; where input reads were not
// measured, the parts without them (the sentence after says so).
std::string step_parts_text(const StepTime& s, bool input_left_out) {
  const std::string compute = duration(s.compute_s) + " of compute";
  const std::string all_reduce = duration(s.all_reduce_s) + " of all-reduce";
  if (input_left_out)
    return compute + " and " + all_reduce;
  return compute + ", " + all_reduce + " and " + duration(s.input_s) + " of input";
}

std::string family_definition(const std::string& suite) {
  if (suite == "compute") {
    return "aggregate throughput of all GPUs running the kernel at once; E(N) = X(N) / (N · X(1)).";
  }
  if (suite == "links")
    return "bandwidth between pairs of GPUs, per direction unless marked bi.";
  if (suite == "collectives") {
    return "bus bandwidth (nccl-tests definition) at the largest message size; E(N) = busbw(N) / "
           "busbw(2), as busbw is already a per-GPU figure.";
  }
  if (suite == "storage") {
    return "aggregate read throughput, all bytes over the slowest reader's time; E(N) = X(N) / "
           "(N · X(1)).";
  }
  if (suite == "workload") {
    return "a data-parallel training step measured whole, with the same work on every GPU: "
           "tokens per second of all GPUs; E(N) = step(1) / step(N), utilization = compute / step.";
  }
  return "E(N) = X(N) / (N · X(1)) for throughputs.";
}

std::string outlook_header(const std::string& what, int gpus) {
  return what + " at " + std::to_string(gpus);
}

void add_headline(Document& doc, const ReportData& data) {
  const Headline& h = data.headline;
  doc.heading(2, "Headline");
  std::vector<Paragraph> items = step_headline_items(h);
  items.push_back({"Limits scaling first:", limit_sentence(h)});
  // The one slowest GPU: synchronous work waits for it; the others are in the curves' notes.
  for (std::size_t k = 0; k < h.stragglers.size() && k < 1; ++k) {
    const Straggler& s = h.stragglers[k];
    std::string where;
    for (std::size_t i = 0; i < s.parts.size() && i < kMaxStragglerParts; ++i)
      where += (i ? ", " : "") + s.parts[i];
    if (s.parts.size() > kMaxStragglerParts)
      where += " and " + std::to_string(s.parts.size() - kMaxStragglerParts) + " more";
    items.push_back({"Slowest GPU:", s.rank + " runs at " + format_percent(s.share) +
                                         " of its peers' median (" + where +
                                         "); synchronous work waits for it, so it caps scaling "
                                         "whatever the fitted laws say. Check it before trusting "
                                         "the predictions." +
                                         (h.stragglers.size() > 1
                                              ? " " + std::to_string(h.stragglers.size() - 1) +
                                                    " more GPU(s) fall under " +
                                                    format_percent(kStragglerShare, 0) +
                                                    " of the median somewhere (see the curves)."
                                              : std::string())});
  }
  // The rank collectives waited for most often; the others are in the Stragglers tables.
  if (!h.waited_for.empty()) {
    const WaitedFor& w = h.waited_for.front();
    int other_records = 0;
    for (std::size_t i = 1; i < h.waited_for.size(); ++i)
      other_records += h.waited_for[i].records;
    std::string text = straggler_label(w.rank) + " is the straggler of " +
                       std::to_string(w.records) + " collective record" +
                       (w.records == 1 ? "" : "s") + ": the others waited for it, its own time " +
                       "down to " + format_percent(w.worst_ratio, 0) + " of theirs (" +
                       w.worst_where + "); collectives run at its pace.";
    if (h.waited_for.size() > 1) {
      text += " " + std::to_string(h.waited_for.size() - 1) + " other rank(s) in " +
              std::to_string(other_records) + " record(s) (see Stragglers).";
    }
    items.push_back({"Waited for:", text});
  }
  if (h.prediction) {
    for (std::size_t i = 0; i < h.predicted.size(); ++i) {
      const StepTime& s = h.predicted[i];
      const CostOutlook& c = h.predicted_cost[i];
      std::string text =
          format_percent(s.efficiency) + " efficiency, " + cost_phrase(c.overhead) + "; the " +
          duration(s.step_s) + " step is " +
          step_parts_text(s, h.prediction->model.input_left_out) +
          (s.extrapolated ? " (all-reduce extrapolated beyond the " +
                                gpus_text(h.prediction->model.largest_measured_gpus) + " measured)"
                          : "") +
          "; " + lost_time_owner(*h.prediction, s) + ".";
      if (h.prediction->model.input_left_out)
        text += " Input reads were not measured, so they are not included.";
      if (c.wall_hours) {
        text += " On " + gpus_text(s.gpus) + " at " + format_percent(s.efficiency) +
                " efficiency a " + format_count(*data.options.gpu_hours) + " GPU-hour job takes " +
                format_figure(*c.wall_hours, 3) + " hours and costs " + format_percent(c.overhead) +
                " more than the ideal";
        if (c.cost)
          text += " (" + format_money(*c.cost) + " against " + format_money(*c.ideal_cost) + ")";
        text += ".";
      }
      text += assumed_link_sentence(h, h.predicted_basis[i]);
      items.push_back({"Predicted training step on " + gpus_text(s.gpus) + ":", text});
    }
    for (auto& item : declined_items(h))
      items.push_back(std::move(item));
  } else if (!h.missing_parts.empty()) {
    std::string missing;
    for (const auto& m : h.missing_parts)
      missing += (missing.empty() ? "" : ", ") + m;
    items.push_back({"No training-step prediction:",
                     "the results lack " + missing +
                         " (the prediction needs compute/gemm and collectives/all_reduce; "
                         "storage/seq_read, for input reads, is optional). The table below is "
                         "what the measured parts say on their own."});
  } else if (!h.prediction_problem.empty()) {
    items.push_back({"No training-step prediction:", h.prediction_problem});
  }
  doc.bullets(std::move(items));

  if (h.prediction) {
    const auto& m = h.prediction->model;
    doc.paragraph(describe_workload(m.config) + " GEMM " + format_figure(m.gemm_tflops_per_gpu, 4) +
                      " TFLOP/s per GPU from " + m.gemm_from +
                      ". Change the workload with --model-params, --tokens-per-gpu, --grad-bytes, "
                      "--overlap and --bytes-per-step; how far it is predicted with --predict-to "
                      "and --at.",
                  "Workload:");
    std::vector<Paragraph> warnings;
    for (const auto& w : m.warnings)
      warnings.push_back({"Note:", w});
    doc.bullets(std::move(warnings));
  }

  add_basis_list(doc, h);
  add_step_table(doc, h);
  if (h.parts.empty())
    return;
  Table table;
  table.header = {"part", "configuration", "E measured at most GPUs",
                  "under " + format_percent(h.limit_efficiency, 0) + " from"};
  for (int n : h.outlook_gpus) {
    table.header.push_back(outlook_header("E", n));
    table.header.push_back(outlook_header("cost", n));
  }
  table.numeric = {false, false, true, false};
  for (std::size_t i = 0; i < h.outlook_gpus.size(); ++i) {
    table.numeric.push_back(true);
    table.numeric.push_back(true);
  }
  for (const auto& p : h.parts) {
    std::vector<std::string> row = {p.name(), p.label,
                                    format_percent(p.efficiency_at_largest) + " on " +
                                        std::to_string(p.largest_measured_gpus),
                                    p.limit ? limit_text(*p.limit) : "not by " + horizon(h)};
    for (const auto& e : p.outlook) {
      row.push_back(estimate_text(e));
      row.push_back(overhead_text(e));
    }
    table.rows.push_back(std::move(row));
  }
  doc.heading(3, "Scaling outlook by part");
  doc.table(std::move(table));
  doc.paragraph("measured where measured, else predicted by the USL fitted to the part's curve "
                "(Amdahl's law where the USL has no fit); beyond the largest measured count it is "
                "an extrapolation. Cost: what a job bound by that part pays over perfect scaling, "
                "1/E - 1, given as a multiple of the ideal cost beyond double.",
                "E:");

  if (h.prediction) {
    Table steps;
    steps.header = {"GPUs",       "step", "compute",      "all-reduce",     "input",
                    "efficiency", "cost", "largest part", "all-reduce from"};
    steps.numeric = {true, true, true, true, true, true, true, false, false};
    for (const auto& s : h.prediction->steps) {
      steps.rows.push_back(
          {std::to_string(s.gpus), duration(s.step_s), duration(s.compute_s),
           duration(s.all_reduce_s),
           h.prediction->model.input_left_out ? "not measured" : duration(s.input_s),
           format_percent(s.efficiency),
           s.efficiency > 0 ? format_cost_overhead(1 / s.efficiency - 1) : "-", s.dominant,
           all_reduce_from_cell(h.prediction->model, s)});
    }
    doc.heading(3, "Training-step prediction");
    doc.table(std::move(steps));
    auto knee = [&](std::optional<int> n) {
      return n ? gpus_text(*n) : "no GPU count up to " + gpus_text(h.prediction->steps.back().gpus);
    };
    doc.paragraph("under 80 % at " + knee(h.prediction->knee_80) + ", under 50 % at " +
                      knee(h.prediction->knee_50) + ".",
                  "Efficiency falls");
  }
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

// A fit's "needs at least N points / GPU counts" is said once for the whole report (the "Not
// fitted" paragraph at its end), not beside every curve of a run with too few counts.
struct Unfitted {
  std::size_t single_count = 0;  // curves measured at one GPU count
  std::vector<CurveLawNote> too_few; // the laws refused for too few GPU counts, per curve
};

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
  const int counts = distinct_counts(std::vector<double>(c.curve().gpus.begin(),
                                                         c.curve().gpus.end()));
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
    items.push_back({std::string(to_string(r.status)) + ":", r.case_name + (params.empty() ? "" : " " + params) + " on " +
                                         gpus_text(r.gpus) +
                                         (r.reason.empty() ? "" : " — " + r.reason)});
  }
  if (family.not_run.size() > kMaxNotRunItems) {
    items.push_back({"", std::to_string(family.not_run.size() - kMaxNotRunItems) + " more"});
  }
  doc.heading(3, "Not measured");
  doc.bullets(std::move(items));
}

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
  if (family.suite == "collectives")
    add_alpha_beta(doc, family);
  add_stragglers(doc, family);
  add_not_run(doc, family);
  for (const auto& file : plots.files) {
    if (plot_family(file) == family.suite) {
      doc.image(file, std::filesystem::path(file).filename().string());
    }
  }
}

} // namespace

std::string plot_family(const std::string& path) {
  const std::string name = std::filesystem::path(path).stem().string();
  if (name.rfind("efficiency_", 0) == 0)
    return name.substr(std::string("efficiency_").size());
  if (name == "busbw_vs_size")
    return "collectives";
  if (name.rfind("link_matrix", 0) == 0)
    return "links";
  if (name == "storage_readers")
    return "storage";
  if (name == "step_anatomy")
    return "workload";
  return "";
}

std::string describe_workload(const PredictionConfig& step) {
  std::string text = "data-parallel training of a " + compact(step.model_params / 1e9) +
                     " B-parameter model, " + format_count(step.tokens_per_gpu) +
                     " tokens per GPU per step (6 FLOP per parameter per token), " +
                     human_bytes(step.gradient_bytes()) + " of gradients all-reduced per step ";
  text += step.overlap > 0 ? "(" + format_percent(step.overlap, 0) + " of it hidden behind compute)"
                           : "(none of it hidden behind compute)";
  text += ", " +
          (step.bytes_per_step > 0 ? human_bytes(step.bytes_per_step) : std::string("nothing")) +
          " of input read per GPU per step.";
  return text;
}

std::string limit_sentence(const Headline& h) {
  if (h.parts.empty()) {
    return "nothing can be said yet: no case was measured at two or more GPU counts (sweep with "
           "--gpus 1,2,4,8).";
  }
  const PartOutlook* first = h.limiting();
  if (!first) {
    const PartOutlook& lowest = h.parts.front();
    std::string text = "no part falls under " + format_percent(h.limit_efficiency, 0) + " up to " +
                       horizon(h) + ".";
    if (!lowest.outlook.empty() && lowest.outlook.back().efficiency) {
      text += " The lowest there is " + lowest.name() + " at " +
              estimate_text(lowest.outlook.back()) + ".";
    }
    return text;
  }
  std::string text = first->name() + (first->label.empty() ? "" : " (" + first->label + ")") +
                     ": its efficiency falls under " + format_percent(h.limit_efficiency, 0) + " " +
                     limit_text(*first->limit) + ".";
  std::string next;
  for (std::size_t i = 1; i < h.parts.size() && i < 4; ++i) {
    const auto& p = h.parts[i];
    if (!p.limit)
      break;
    next += (next.empty() ? "" : ", ") + p.name() + " " +
            (p.limit->from == "measured" ? "at " : "by ") + gpus_text(p.limit->gpus);
  }
  if (!next.empty())
    text += " Then " + next + ".";
  return text;
}

Document build_report_document(const ReportData& data, const PlotSet& plots) {
  Document doc;
  doc.title = "clusterbench report: " + describe_run(data.run);
  std::string about = data.source;
  if (const auto id = string_or_empty(data.run, "id"); !id.empty())
    about += ", run " + id;
  const auto started = string_or_empty(data.run, "started");
  const auto finished = string_or_empty(data.run, "finished");
  if (!started.empty())
    about += ", " + started + (finished.empty() ? "" : " to " + finished);
  if (const auto version = string_or_empty(data.run, "tool_version"); !version.empty()) {
    about += ", clusterbench " + version;
    if (const auto sha = string_or_empty(data.run, "git_sha"); !sha.empty())
      about += " (" + sha + ")";
  }
  const auto& n = data.counts;
  about += ". " + std::to_string(n.total) + " records: " + std::to_string(n.ok) + " ok, " +
           std::to_string(n.noisy) + " noisy, " + std::to_string(n.skipped) + " skipped, " +
           std::to_string(n.failed) + " failed.";
  doc.paragraph(about, "Results:");
  add_headline(doc, data);
  Unfitted unfitted;
  for (const auto& family : data.families)
    add_family(doc, family, data, plots, unfitted);

  std::vector<std::string> elsewhere;
  for (const auto& file : plots.files) {
    const std::string family = plot_family(file);
    const bool placed = std::any_of(data.families.begin(), data.families.end(),
                                    [&](const FamilyReport& f) { return f.suite == family; });
    if (!placed)
      elsewhere.push_back(file);
  }
  if (!elsewhere.empty() || (plots.requested && !plots.note.empty())) {
    doc.heading(2, "Plots");
    if (!plots.note.empty())
      doc.paragraph(plots.note, "");
    for (const auto& file : elsewhere) {
      doc.image(file, std::filesystem::path(file).filename().string());
    }
  }
  if (!unfitted.too_few.empty() || unfitted.single_count > 0) {
    std::string text;
    if (!unfitted.too_few.empty()) {
      // "USL/Amdahl not fitted for 48 curves: 2 GPU counts, need 3".
      text = summarize_fit_notes(unfitted.too_few).back() +
             "; their efficiency is the measured one only.";
    }
    if (unfitted.single_count > 0) {
      text += (text.empty() ? "" : " ") + std::to_string(unfitted.single_count) +
              " curve(s) were measured at one GPU count: nothing to say about their scaling.";
    }
    doc.paragraph(text + " Sweep more counts (e.g. --gpus 1,2,4,8) to fit them.", "Not fitted:");
  }
  return doc;
}

} // namespace cb::report
