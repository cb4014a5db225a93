#include "report/report_json.hpp"

#include <cmath>

#include "analysis/fits_json.hpp"
#include "report/goodput_section.hpp"
#include "report/report_format.hpp"

namespace cb::report {
namespace {

using nlohmann::json;

json number_or_null(std::optional<double> v) {
  return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

json estimate_json(const EfficiencyEstimate& e) {
  return {{"gpus", e.gpus},
          {"efficiency", number_or_null(e.efficiency)},
          {"from", e.from.empty() ? json(nullptr) : json(e.from)},
          {"extrapolated", e.extrapolated},
          {"cost_overhead", e.efficiency && *e.efficiency > 0
                                ? number_or_null(1 / *e.efficiency - 1)
                                : json(nullptr)}};
}

json estimates_json(const std::vector<EfficiencyEstimate>& estimates) {
  json out = json::array();
  for (const auto& e : estimates)
    out.push_back(estimate_json(e));
  return out;
}

json part_json(const PartOutlook& p) {
  return {{"part", p.name()},
          {"suite", p.suite},
          {"case", p.case_name},
          {"configuration", p.label},
          {"metric", p.metric},
          {"largest_measured_gpus", p.largest_measured_gpus},
          {"efficiency_at_largest", number_or_null(p.efficiency_at_largest)},
          {"limit", p.limit ? estimate_json(*p.limit) : json(nullptr)},
          {"outlook", estimates_json(p.outlook)}};
}

json cost_json(const CostOutlook& c) {
  return {{"gpus", c.gpus},
          {"efficiency", number_or_null(c.efficiency)},
          {"cost_overhead", number_or_null(c.overhead)},
          {"wall_hours", number_or_null(c.wall_hours)},
          {"cost", number_or_null(c.cost)},
          {"ideal_cost", number_or_null(c.ideal_cost)}};
}

json straggler_json(const std::optional<StragglerRank>& s) {
  if (!s)
    return nullptr;
  json j = straggler_to_json(*s);
  j["own_over_others"] = straggler_ratio(*s);
  return j;
}

json headline_json(const Headline& h) {
  json parts = json::array();
  for (const auto& p : h.parts)
    parts.push_back(part_json(p));
  json stragglers = json::array();
  for (const auto& s : h.stragglers)
    stragglers.push_back({{"rank", s.rank}, {"share_of_median", s.share}, {"where", s.parts}});
  json waited_for = json::array();
  for (const auto& w : h.waited_for) {
    json j = straggler_to_json(w.rank);
    j["records"] = w.records;
    j["worst_own_over_others"] = w.worst_ratio;
    j["worst_where"] = w.worst_where;
    waited_for.push_back(std::move(j));
  }
  json out = {{"limit_efficiency", h.limit_efficiency},
              {"outlook_gpus", h.outlook_gpus},
              {"horizon_gpus", h.horizon_gpus},
              {"limits_first", h.limiting() ? part_json(*h.limiting()) : json(nullptr)},
              {"summary", limit_sentence(h)},
              {"parts", parts},
              {"stragglers", stragglers},
              {"waited_for", waited_for},
              {"prediction_missing_parts", h.missing_parts},
              {"prediction_problem",
               h.prediction_problem.empty() ? json(nullptr) : json(h.prediction_problem)},
              {"prediction", nullptr}};
  if (h.step) {
    json step = step_validation_to_json(*h.step);
    step["priced"] = {
        {"gpu_hours", h.priced_gpu_hours},
        {"price_per_gpu_hour", h.priced_price},
        {"example_defaults", h.priced_by_default},
        {"efficiency_from", h.step_cost_how},
        {"cost", h.step_cost ? cost_json(*h.step_cost) : json(nullptr)},
        {"rests_on", h.step_basis ? basis_to_json(*h.step_basis) : json(nullptr)},
        {"declined", h.step_cost_declined.empty() ? json(nullptr) : json(h.step_cost_declined)}};
    out["training_step"] = std::move(step);
  } else {
    out["training_step"] = nullptr;
  }
  out["goodput"] = goodput_json(h);
  if (h.prediction) {
    json prediction = prediction_to_json(*h.prediction);
    prediction["workload"] = describe_workload(h.prediction->model.config);
    json at = json::array();
    for (std::size_t i = 0; i < h.predicted.size(); ++i) {
      json entry = cost_json(h.predicted_cost[i]);
      const StepTime& s = h.predicted[i];
      entry["step_s"] = s.step_s;
      entry["compute_s"] = s.compute_s;
      entry["all_reduce_s"] = s.all_reduce_s;
      entry["input_s"] = s.input_s;
      entry["dominant"] = s.dominant;
      entry["extrapolated"] = s.extrapolated;
      entry["rests_on"] = basis_to_json(h.predicted_basis[i]);
      at.push_back(std::move(entry));
    }
    prediction["at"] = std::move(at);
    json declined = json::array();
    for (const auto& [gpus, why] : h.predicted_declined)
      declined.push_back({{"gpus", gpus}, {"why", why}});
    prediction["declined"] = std::move(declined);
    out["prediction"] = std::move(prediction);
  }
  return out;
}

json spread_json(const std::optional<PerRankSpread>& s) {
  if (!s)
    return nullptr;
  return {{"figure", s->figure}, {"count", s->count}, {"min", s->min},
          {"median", s->median}, {"max", s->max},     {"cv", s->cv},
          {"includes_waiting", s->includes_waiting}};
}

json curve_json(const CurveReport& c) {
  json rows = json::array();
  for (const auto& r : c.rows) {
    rows.push_back({{"gpus", r.gpus},
                    {"nodes", r.nodes},
                    {"value", r.value},
                    {"efficiency", number_or_null(r.efficiency)},
                    {"status", r.status},
                    {"per_rank", spread_json(r.spread)},
                    {"spike", r.spike > 0 ? json(r.spike) : json(nullptr)},
                    {"straggler", straggler_json(r.straggler)}});
  }
  const Curve& curve = c.curve();
  return {{"case", curve.key.case_name},
          {"params", curve.key.params},
          {"metric", curve.key.metric},
          {"tier_info", curve.key.tier_info},
          {"configuration", c.label()},
          {"rows", rows},
          {"efficiency_base_gpus",
           c.fits.efficiency.base_gpus > 0 ? json(c.fits.efficiency.base_gpus) : json(nullptr)},
          {"warnings", c.fits.efficiency.warnings},
          {"fit_source", c.fit_source},
          {"usl", c.fits.usl ? usl_to_json(*c.fits.usl) : json(nullptr)},
          {"amdahl", c.fits.amdahl ? amdahl_to_json(*c.fits.amdahl) : json(nullptr)},
          {"outlook", estimates_json(c.outlook)}};
}

json family_json(const FamilyReport& f) {
  json curves = json::array();
  for (const auto& c : f.curves)
    curves.push_back(curve_json(c));
  json not_run = json::array();
  for (const auto& r : f.not_run) {
    not_run.push_back({{"case", r.case_name},
                       {"params", r.params},
                       {"gpus", r.gpus},
                       {"status", r.status},
                       {"reason", r.reason}});
  }
  json stragglers = json::array();
  for (const auto& r : f.stragglers) {
    stragglers.push_back({{"case", r.case_name},
                          {"params", r.params},
                          {"gpus", r.gpus},
                          {"nodes", r.nodes},
                          {"straggler", straggler_json(r.straggler)},
                          {"spike", r.spike > 0 ? json(r.spike) : json(nullptr)}});
  }
  json out = {{"suite", f.suite},   {"curves_total", f.curves_total}, {"curves", curves},
              {"not_run", not_run}, {"stragglers", stragglers},       {"alpha_beta", nullptr}};
  if (!f.alpha_beta_source.empty()) {
    json ring = json::array(), per_gpu = json::array();
    for (const auto& r : f.ring_all_reduce)
      ring.push_back(ring_all_reduce_to_json(r));
    for (const auto& h : f.hockney)
      per_gpu.push_back(hockney_to_json(h));
    out["alpha_beta"] = {
        {"source", f.alpha_beta_source}, {"ring_all_reduce", ring}, {"per_gpu_count", per_gpu}};
  }
  return out;
}

} // namespace

json report_to_json(const ReportData& data, const PlotSet& plots) {
  json families = json::array();
  for (const auto& f : data.families)
    families.push_back(family_json(f));
  const auto& n = data.counts;
  json options = {{"outlook_gpus", data.options.outlook_gpus},
                  {"predict_to", data.options.step.predict_to},
                  {"limit_efficiency", data.options.limit_efficiency},
                  {"gpu_hours", number_or_null(data.options.gpu_hours)},
                  {"price_per_gpu_hour", number_or_null(data.options.price)}};
  return {{"source", data.source},
          {"run",
           {{"description", describe_run(data.run)},
            {"id", data.run.value("id", json(nullptr))},
            {"started", data.run.value("started", json(nullptr))},
            {"finished", data.run.value("finished", json(nullptr))},
            {"backend", data.run.value("backend", json(nullptr))},
            {"tool_version", data.run.value("tool_version", json(nullptr))}}},
          {"records",
           {{"total", n.total},
            {"ok", n.ok},
            {"noisy", n.noisy},
            {"skipped", n.skipped},
            {"failed", n.failed}}},
          {"options", options},
          {"headline", headline_json(data.headline)},
          {"families", families},
          {"plots",
           {{"requested", plots.requested},
            {"files", plots.files},
            {"note", plots.note.empty() ? json(nullptr) : json(plots.note)}}}};
}

} // namespace cb::report
