#include "report/step_section.hpp"

#include <cmath>
#include <cstdio>

#include "analysis/cost.hpp"
#include "report/basis_section.hpp"
#include "report/report_format.hpp"

namespace cb::report {
namespace {

std::string loss_name(const std::string& loss) {
  if (loss == "exposed_comm")
    return "exposed communication (all-reduce not hidden behind compute)";
  if (loss == "input_wait")
    return "input wait (the GPUs waited for their data)";
  if (loss == "unaccounted")
    return "time in none of the parts";
  return "";
}

double loss_seconds(const MeasuredStep& s) {
  if (s.largest_loss == "exposed_comm")
    return s.exposed_comm_s;
  if (s.largest_loss == "input_wait")
    return s.input_wait_s;
  return std::max(0.0, s.step_s - s.compute_s - s.exposed_comm_s - s.input_wait_s);
}

} // namespace

std::vector<Paragraph> step_headline_items(const Headline& h) {
  std::vector<Paragraph> items;
  if (!h.step)
    return items;
  const StepValidation& v = *h.step;
  const MeasuredStep& top = v.workload.largest();
  std::string text = "on " + gpus_text(top.gpus) + " this cluster did " +
                     format_percent(top.utilization) +
                     " useful work (compute / step of a measured data-parallel training step, " +
                     format_seconds_brief(top.step_s) + ")";
  if (top.efficiency && top.gpus > 1)
    text += ", at " + format_percent(*top.efficiency) + " scaling efficiency (step(1) / step(" +
            std::to_string(top.gpus) + "))";
  text += ".";
  if (const std::string loss = loss_name(top.largest_loss); !loss.empty()) {
    text += " The largest loss is " + loss + ": " + format_seconds_brief(loss_seconds(top)) +
            " of each step.";
  }
  if (top.largest_loss == "input_wait") {
    text += " Input wait is the largest loss: reading the training data from this storage "
            "leaves the GPUs idle; faster storage (or a deeper --prefetch) raises utilization.";
  }
  items.push_back({"Measured training step:", text});

  if (h.step_cost) {
    const CostOutlook& c = *h.step_cost;
    std::string cost = "a " + format_count(h.priced_gpu_hours) + " GPU-hour job on " +
                       gpus_text(c.gpus) + " at " + format_percent(c.efficiency) + " efficiency";
    if (c.wall_hours) {
      cost += " would take " + format_figure(*c.wall_hours, 3) + " hours";
      if (c.cost) {
        cost += " and cost " + format_money(*c.cost) + " at " + format_money(h.priced_price) +
                "/GPU-hour, " + format_percent(c.overhead) + " over the ideal " +
                format_money(*c.ideal_cost);
      } else {
        cost += ", " + format_percent(c.overhead) + " more than the ideal";
      }
    } else {
      cost += " runs at or above the ideal: nothing is lost to scaling there";
    }
    cost += " (efficiency " + h.step_cost_how + ").";
    if (h.step_basis)
      cost += assumed_link_sentence(h, *h.step_basis);
    if (h.priced_by_default)
      cost += " The job is the background example's; give --gpu-hours and --price for yours.";
    cost += " Priced workload: " + v.workload.describe() + ".";
    items.push_back({"What it costs:", cost});
  } else if (!h.step_cost_declined.empty()) {
    items.push_back({"What it costs:",
                     h.step_cost_declined + ". Priced workload: " + v.workload.describe() + "."});
  } else {
    items.push_back({"What it costs:", "beyond the " + gpus_text(top.gpus) +
                                           " measured nothing can be predicted for this step: " +
                                           (v.model_problem.empty() ? std::string("no prediction")
                                                                    : v.model_problem) +
                                           ". Priced workload: " + v.workload.describe() + "."});
  }
  return items;
}

void add_step_table(Document& doc, const Headline& h) {
  if (!h.step)
    return;
  const StepValidation& v = *h.step;
  Table t;
  t.header = {"GPUs",         "step measured", "step predicted", "error",
              "E measured",   "E predicted",   "utilization",    "compute",
              "exposed comm", "input wait",    "largest loss"};
  t.numeric = {true, true, true, true, true, true, true, true, true, true, false};
  for (const auto& r : v.rows) {
    std::vector<std::string> row = {std::to_string(r.gpus)};
    if (r.measured) {
      const auto& m = *r.measured;
      row.push_back(format_seconds_brief(m.step_s));
      row.push_back(v.model ? format_seconds_brief(r.predicted.step_s) : "-");
      row.push_back(r.error ? format_signed_percent(*r.error) : "-");
      row.push_back(m.efficiency ? format_percent(*m.efficiency) : "-");
      row.push_back(v.model ? format_percent(r.predicted.efficiency) : "-");
      row.push_back(format_percent(m.utilization));
      row.push_back(format_seconds_brief(m.compute_s));
      row.push_back(format_seconds_brief(m.exposed_comm_s));
      row.push_back(format_seconds_brief(m.input_wait_s));
      row.push_back(m.largest_loss);
    } else if (v.model && !unpriced_across_nodes(*v.model, r.gpus).empty()) {
      // Intra-node figures would predict the network as if it were the node's own links.
      row.push_back("-");
      row.push_back("- (across nodes)");
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "-", "-"});
    } else {
      row.push_back("-");
      row.push_back((r.calibrated_step_s ? format_seconds_brief(*r.calibrated_step_s)
                                         : format_seconds_brief(r.predicted.step_s)) +
                    " (extrapolated)");
      row.push_back("-");
      row.push_back("-");
      row.push_back(r.calibrated_efficiency ? format_percent(*r.calibrated_efficiency) : "-");
      row.insert(row.end(), {"-", "-", "-", "-", "-"});
    }
    t.rows.push_back(std::move(row));
  }
  doc.heading(3, "Training step: measured against predicted");
  doc.table(std::move(t));
  std::vector<Paragraph> notes;
  notes.push_back({"Workload:", v.workload.describe() + "."});
  notes.push_back(
      {"Prediction:",
       "the step's own measured compute, and its all-reduce bucket by bucket (" +
           std::to_string(v.workload.buckets.bytes.size()) +
           " bucket(s)) on a timeline: a bucket starts once backward has produced its gradients " +
           (v.workload.buckets.overlap ? "" : "(here: after backward, --overlap off) ") +
           "and the bucket before it is done, at the time the collectives/all_reduce records "
           "measured for its size at that GPU count (the ring fit where none were measured); "
           "what ends after backward is exposed. Input reads at storage/seq_read's rate. Error "
           "= predicted / measured - 1."});
  if (!v.compute_note.empty())
    notes.push_back({"Compute:", v.compute_note + "."});
  if (!v.model) {
    notes.push_back({"No prediction:", v.model_problem});
  } else {
    for (const auto& r : v.rows) {
      if (!r.measured) {
        if (std::string why = unpriced_across_nodes(*v.model, r.gpus); !why.empty()) {
          notes.push_back(
              {"Across nodes:", "the table stops predicting at one node; " + why + "."});
          break;
        }
      }
    }
    notes.push_back({"Extrapolated:", "beyond " + gpus_text(v.workload.largest().gpus) +
                                          " the prediction is calibrated by the measured points: " +
                                          v.calibration + "."});
    for (const auto& r : v.rows) {
      if (!r.off_term.empty()) {
        notes.push_back({"Off by more than " + format_percent(kPredictionTolerance, 0) + " at " +
                             gpus_text(r.gpus) + ":",
                         r.off_term + "."});
      }
    }
  }
  doc.bullets(std::move(notes));
}

} // namespace cb::report
