#include "report/goodput_section.hpp"

#include "analysis/cost.hpp"
#include "core/duration.hpp"
#include "report/report_format.hpp"

namespace cb::report {
namespace {

std::string where_from(const GoodputAtScale& g) {
  if (g.measured)
    return "measured";
  return g.extrapolated ? "extrapolated" : "interpolated";
}

std::optional<double> efficiency_at(const Headline& h, int gpus) {
  for (const auto& [n, e] : h.priced_efficiency) {
    if (n == gpus)
      return e;
  }
  return std::nullopt;
}

} // namespace

std::vector<Paragraph> goodput_headline_items(const Headline& h, const ReportOptions& options) {
  if (!h.goodput_missing.empty())
    return {{"Goodput:", h.goodput_missing + "."}};
  std::vector<Paragraph> items;
  for (const auto& [gpus, efficiency] : h.priced_efficiency) {
    const GoodputAtScale* g = h.goodput_at(gpus);
    if (!g)
      continue;
    std::string text = useful_work_text(efficiency, *g);
    // The measured step is priced at the document's example job, a predicted one where asked.
    const bool measured_step = h.step_cost && h.step_cost->gpus == gpus;
    ReportOptions priced = options;
    if (measured_step) {
      priced.gpu_hours = h.priced_gpu_hours;
      priced.price = h.priced_price > 0 ? std::optional<double>(h.priced_price) : std::nullopt;
    }
    const CostOutlook c = cost_outlook(gpus, efficiency * g->estimate.goodput, priced);
    if (c.wall_hours) {
      text += "; a " + format_count(*priced.gpu_hours) + " GPU-hour job takes " +
              format_figure(*c.wall_hours, 3) + " hours";
      if (c.cost)
        text += " and costs " + format_money(*c.cost) + " against " + format_money(*c.ideal_cost);
    }
    text +=
        g->extrapolated ? " (C and R extrapolated beyond the counts measured: see Goodput)." : ".";
    items.push_back({"Useful work on " + gpus_text(gpus) + ":", text});
  }
  if (items.empty() && !h.goodput.empty()) {
    // Nothing priced: goodput alone at the most GPUs measured.
    const GoodputAtScale& g = h.goodput.back();
    items.push_back({"Goodput:", format_goodput(g.estimate) +
                                     "; no scaling efficiency to multiply it by: the training "
                                     "step is priced at no GPU count (see above)."});
  }
  return items;
}

void add_goodput_table(Document& doc, const Headline& h) {
  if (h.goodput.empty())
    return;
  const auto& mode = h.goodput.front().basis.items.front().basis;
  doc.heading(3, "Goodput per GPU count");
  Table table;
  table.header = {"GPUs",          "checkpoint blocks", "restart",
                  "failure every", "checkpoint every",  "goodput",
                  "efficiency",    "useful work",       "figures"};
  table.numeric = {true, true, true, true, true, true, true, true, false};
  for (const GoodputAtScale& g : h.goodput) {
    const GoodputEstimate& e = g.estimate;
    const auto efficiency = efficiency_at(h, g.gpus);
    table.rows.push_back({format_count(g.gpus), format_budget(e.inputs.checkpoint_s),
                          format_budget(e.inputs.restart_s), format_budget(e.mtbf_s),
                          format_budget(e.interval_s), format_percent(e.goodput),
                          format_percent(efficiency),
                          efficiency ? format_percent(*efficiency * e.goodput) : "-",
                          where_from(g) + (e.progresses ? "" : "; no useful progress")});
  }
  doc.table(std::move(table));
  std::vector<Paragraph> items;
  for (const GoodputAtScale& g : h.goodput) {
    if (efficiency_at(h, g.gpus) || !g.measured)
      items.push_back({"Goodput on " + gpus_text(g.gpus) + ":", describe_basis(g.basis) + "."});
  }
  doc.paragraph("checkpoint = " + mode.substr(0, mode.find(" (")) +
                    "'s time, the slowest rank's; restart = the restore + the communicator's "
                    "start-up + scheduling; failure every = one GPU's MTBF / GPUs; checkpoint "
                    "every = the interval that maximises goodput (Daly 2006, docs/GOODPUT.md).",
                "Goodput:");
  doc.bullets(std::move(items));
}

nlohmann::json goodput_json(const Headline& h) {
  nlohmann::json at = nlohmann::json::array();
  for (const auto& g : h.goodput)
    at.push_back(goodput_at_scale_to_json(g, efficiency_at(h, g.gpus)));
  return {{"at", std::move(at)},
          {"not_measured", h.goodput_missing.empty() ? nlohmann::json(nullptr)
                                                     : nlohmann::json(h.goodput_missing)}};
}

} // namespace cb::report
