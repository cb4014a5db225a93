#include "report/report_builder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "analysis/cost.hpp"
#include "analysis/fit_warnings.hpp"
#include "report/basis_section.hpp"
#include "report/family_section.hpp"
#include "report/goodput_section.hpp"
#include "report/report_format.hpp"
#include "report/step_section.hpp"
#include "results/json_fields.hpp"
#include "runtime/family.hpp"

namespace cb::report {
namespace {

constexpr std::size_t kMaxStragglerParts = 3;

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
  const std::string compute = format_seconds_micro(s.compute_s) + " of compute";
  const std::string all_reduce = format_seconds_micro(s.all_reduce_s) + " of all-reduce";
  if (input_left_out)
    return compute + " and " + all_reduce;
  return compute + ", " + all_reduce + " and " + format_seconds_micro(s.input_s) + " of input";
}

// Each part's efficiency at the outlook's GPU counts, measured or predicted, and its cost.
void add_outlook_table(Document& doc, const Headline& h) {
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
}

// The predicted training step at every GPU count of the prediction, part by part.
void add_prediction_table(Document& doc, const Prediction& prediction) {
  Table steps;
  steps.header = {"GPUs",       "step", "compute",      "all-reduce",     "input",
                  "efficiency", "cost", "largest part", "all-reduce from"};
  steps.numeric = {true, true, true, true, true, true, true, false, false};
  for (const auto& s : prediction.steps) {
    steps.rows.push_back(
        {std::to_string(s.gpus), format_seconds_micro(s.step_s), format_seconds_micro(s.compute_s),
         format_seconds_micro(s.all_reduce_s),
         prediction.model.input_left_out ? "not measured" : format_seconds_micro(s.input_s),
         format_percent(s.efficiency),
         s.efficiency > 0 ? format_cost_overhead(1 / s.efficiency - 1) : "-", s.dominant,
         all_reduce_from_cell(prediction.model, s)});
  }
  doc.heading(3, "Training-step prediction");
  doc.table(std::move(steps));
  auto knee = [&](std::optional<int> n) {
    return n ? gpus_text(*n) : "no GPU count up to " + gpus_text(prediction.steps.back().gpus);
  };
  doc.paragraph("under 80 % at " + knee(prediction.knee_80) + ", under 50 % at " +
                    knee(prediction.knee_50) + ".",
                "Efficiency falls");
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
    items.push_back(
        {"Slowest GPU:",
         s.rank + " runs at " + format_percent(s.share) + " of its peers' median (" + where +
             "); synchronous work waits for it, so it caps scaling "
             "whatever the fitted laws say. Check it before trusting "
             "the predictions." +
             (h.stragglers.size() > 1
                  ? " " + std::to_string(h.stragglers.size() - 1) + " more GPU(s) fall under " +
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
          format_seconds_micro(s.step_s) + " step is " +
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
  for (auto& item : goodput_headline_items(h, data.options))
    items.push_back(std::move(item));
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
  add_goodput_table(doc, h);
  if (h.parts.empty())
    return;
  add_outlook_table(doc, h);
  if (h.prediction)
    add_prediction_table(doc, *h.prediction);
}

} // namespace

std::string plot_family(const std::string& path) {
  const std::string name = std::filesystem::path(path).stem().string();
  for (const auto& family : FamilyRegistry::instance().all()) {
    if (family->draws_plot(name))
      return family->suite();
  }
  // The efficiency plot of a suite no family is registered for (an imported file's own).
  if (name.rfind("efficiency_", 0) == 0)
    return name.substr(std::string("efficiency_").size());
  return "";
}

std::string describe_workload(const PredictionConfig& step) {
  std::string text = "data-parallel training of a " +
                     format_figure_compact(step.model_params / 1e9) + " B-parameter model, " +
                     format_count(step.tokens_per_gpu) +
                     " tokens per GPU per step (6 FLOP per parameter per token), " +
                     format_bytes(step.gradient_bytes()) + " of gradients all-reduced per step ";
  text += step.overlap > 0 ? "(" + format_percent(step.overlap, 0) + " of it hidden behind compute)"
                           : "(none of it hidden behind compute)";
  text += ", " +
          (step.bytes_per_step > 0 ? format_bytes(step.bytes_per_step) : std::string("nothing")) +
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
