#include "verdicts/compare_report.hpp"

#include <cmath>

#include "analysis/fits_json.hpp"
#include "verdicts/report_text.hpp"

namespace cb {
namespace {

using nlohmann::json;

json number_or_null(double value) {
  return std::isfinite(value) ? json(value) : json(nullptr);
}
json optional_json(const std::optional<double>& value) {
  return value ? number_or_null(*value) : json(nullptr);
}

std::string params_cell(const json& params) {
  const std::string text = describe_params(params);
  return text.empty() ? "-" : text;
}

std::string ratio_cell(double ratio) {
  return std::isfinite(ratio) ? format_figure_padded(ratio, 3) : "-";
}

std::string interval_cell(const RatioInterval& r) {
  if (!std::isfinite(r.low) || !std::isfinite(r.high))
    return "-";
  return format_figure_padded(r.low, 3) + " - " + format_figure_padded(r.high, 3);
}

std::string efficiency_cell(const std::optional<double>& e) {
  return e && std::isfinite(*e) ? format_figure_padded(*e * 100.0, 3) + " %" : "-";
}

std::string percent_label(double fraction) {
  return format_figure_compact(fraction * 100.0, 6) + " %";
}

std::string curve_label(const ModelContrast& m) {
  const std::string params = describe_params(m.params);
  return m.suite + "/" + m.case_name + (params.empty() ? "" : " " + params) + " (" +
         quantity_label(m.metric) + ")";
}

// A fitted figure, "-" where the fit produced none.
template <typename Fit>
std::string fit_cell(const std::optional<Fit>& fit, double Fit::*field, int digits) {
  return fit && fit->ok ? format_figure_padded((*fit).*field, digits) : "-";
}

// R² to three decimals, so that a column of them lines up ("1.000", "0.932").
template <typename Fit> std::string r2_cell(const std::optional<Fit>& fit) {
  if (!fit || !fit->ok || !std::isfinite(fit->r2))
    return "-";
  return format_fixed(fit->r2, 3);
}

// The GPU count where the USL's throughput peaks; "none" when it rises for ever (beta = 0).
std::string peak_cell(const std::optional<UslFit>& usl) {
  if (!usl || !usl->ok)
    return "-";
  return usl->n_peak ? format_figure_padded(*usl->n_peak, 3) : "none";
}

void add_model_rows(MarkdownTable& table, const ModelContrast& m, const char* side,
                    const ScalingModels& models) {
  table.add_row({m.suite, m.case_name, params_cell(m.params), quantity_label(m.metric), side,
                 fit_cell(models.usl, &UslFit::alpha, 3), fit_cell(models.usl, &UslFit::beta, 3),
                 peak_cell(models.usl), r2_cell(models.usl),
                 fit_cell(models.amdahl, &AmdahlFit::serial_fraction, 3), r2_cell(models.amdahl)});
}

// "- A, compute/triad ... (GB/s):" then one indented bullet per warning, for a run that has any.
void add_model_notes(std::string& out, const ModelContrast& m, const char* side,
                     const ScalingModels& models) {
  std::string notes;
  auto note = [&](const char* law, const std::vector<std::string>& warnings) {
    for (const auto& w : warnings)
      notes += std::string("  - ") + law + ": " + w + "\n";
  };
  if (models.usl)
    note("USL", models.usl->warnings);
  if (models.amdahl)
    note("Amdahl", models.amdahl->warnings);
  if (!notes.empty())
    out += std::string("- ") + side + ", " + curve_label(m) + ":\n" + notes;
}

void list_models(std::string& out, const std::vector<ModelContrast>& models) {
  if (models.empty())
    return; // the efficiency section already says that nothing was measured at two GPU counts
  out += "\n## Scaling models\n\n"
         "Fitted to each run's aggregate throughput as `clusterbench fit` fits it: the USL "
         "X(N) = gamma N / (1 + alpha (N-1) + beta N (N-1)), alpha the contention (Gunther's "
         "sigma), beta the coherency cost (kappa), N* = sqrt((1 - alpha) / beta) the GPU count "
         "where throughput peaks; Amdahl's serial fraction s caps the speedup at 1/s. \"-\" where "
         "a run has too few points to fit.\n\n";
  MarkdownTable table({"suite", "case", "params", "metric", "run", "USL alpha", "USL beta",
                       "peak N*", "USL R2", "Amdahl serial", "Amdahl R2"});
  for (const auto& m : models) {
    add_model_rows(table, m, "A", m.a);
    add_model_rows(table, m, "B", m.b);
  }
  out += table.str();
  std::string notes;
  for (const auto& m : models) {
    add_model_notes(notes, m, "A", m.a);
    add_model_notes(notes, m, "B", m.b);
  }
  if (!notes.empty())
    out += "\nFit notes:\n\n" + notes;
}

json models_json(const ScalingModels& models) {
  return {{"usl", models.usl ? usl_to_json(*models.usl) : json(nullptr)},
          {"amdahl", models.amdahl ? amdahl_to_json(*models.amdahl) : json(nullptr)}};
}

void list_missing(std::string& out, const std::vector<MissingCase>& missing,
                  const std::string& title) {
  if (missing.empty())
    return;
  out += "\n## " + title + " (" + std::to_string(missing.size()) + ")\n\n";
  for (const auto& m : missing) {
    out += "- " + describe_case(m.key) + (m.note.empty() ? "" : " (" + m.note + ")") + "\n";
  }
}

// What the intervals and p-values cover: run-to-run spread where several runs a side gave them,
// within-run noise only where one run a side did.
std::string runs_sentence(const ClusterComparison& comparison) {
  std::size_t across = 0;
  for (const auto& c : comparison.cases)
    across += c.across_runs;
  const std::string within =
      "interval and p resample the samples of one run a side: they cover within-run noise only, "
      "not the drift from one run to the next (give a directory of runs for A and for B)";
  if (across == 0)
    return "With one run a side, each " + within + ".";
  const std::string over = "Over several runs a side (\"runs\" in n A/B), the interval "
                           "resamples the runs' medians and p is Welch's t-test on their logs: "
                           "they cover the run-to-run spread.";
  if (across == comparison.cases.size())
    return over;
  return over + " Elsewhere the " + within + ".";
}

} // namespace

std::string compare_report_markdown(const ClusterComparison& comparison,
                                    const CompareContext& context) {
  std::string out =
      "# clusterbench compare: A = " + context.a_path + ", B = " + context.b_path + "\n";

  out += "\n## Environment\n\n";
  MarkdownTable environment({"", "A", "B", "differs"});
  for (const auto& row : comparison.environment) {
    environment.add_row({row.field, row.a, row.b, row.differs ? "yes" : ""});
  }
  out += environment.str();

  out += "\n## Cases\n\nB/A is B's speed relative to A (above 1: B faster), the ratio of medians "
         "with its " +
         percent_label(context.confidence) +
         " bootstrap interval; p is the two-sided Mann-Whitney U test, significant when below " +
         format_p(context.significance) + " with " + std::to_string(CompareOptions{}.min_samples) +
         " values on each side at least (\"too few\": " +
         "fewer, which say nothing of run-to-run spread). " + runs_sentence(comparison) + "\n\n";
  MarkdownTable cases({"suite", "case", "params", "gpus", "metric", "A", "B", "A time", "B time",
                       "B/A", "interval", "p", "significant", "n A/B"});
  for (const auto& c : comparison.cases) {
    cases.add_row({c.key.suite, c.key.case_name, params_cell(c.key.params),
                   std::to_string(c.key.gpus), c.metric.empty() ? "-" : quantity_label(c.metric),
                   format_quantity(c.metric, c.a_metric), format_quantity(c.metric, c.b_metric),
                   format_seconds(c.a_time_s), format_seconds(c.b_time_s),
                   ratio_cell(c.speed.ratio), interval_cell(c.speed), format_p(c.p_value),
                   !std::isfinite(c.p_value) ? "-"
                   : c.too_few               ? "too few"
                   : c.significant           ? "yes"
                                             : "no",
                   std::to_string(c.a_count) + "/" + std::to_string(c.b_count) +
                       (c.across_runs ? " runs" : "")});
  }
  out += cases.str();

  out += "\n## Scaling efficiency\n\n";
  if (comparison.efficiency.empty()) {
    out += "No case was measured at more than one GPU count on both sides.\n";
  } else {
    out += "E(N) = X(N) / (N X(1)) for aggregate throughputs; busbw(N) / busbw(2) for "
           "collectives.\n\n";
    MarkdownTable efficiency({"suite", "case", "params", "metric", "gpus", "E A", "E B"});
    for (const auto& curve : comparison.efficiency) {
      for (const auto& row : curve.rows) {
        efficiency.add_row({curve.suite, curve.case_name, params_cell(curve.params),
                            quantity_label(curve.metric), std::to_string(row.gpus),
                            efficiency_cell(row.a), efficiency_cell(row.b)});
      }
    }
    out += efficiency.str();
  }
  list_models(out, comparison.models);

  list_missing(out, comparison.only_in_a, "Only in A");
  list_missing(out, comparison.only_in_b, "Only in B");
  return out;
}

json compare_report_json(const ClusterComparison& comparison, const CompareContext& context) {
  json environment = json::array();
  for (const auto& row : comparison.environment) {
    environment.push_back(
        {{"field", row.field}, {"a", row.a}, {"b", row.b}, {"differs", row.differs}});
  }
  json cases = json::array();
  for (const auto& c : comparison.cases) {
    json j = key_to_json(c.key);
    j["metric"] = c.metric.empty() ? json(nullptr) : json(c.metric);
    j["a_metric"] = number_or_null(c.a_metric);
    j["b_metric"] = number_or_null(c.b_metric);
    j["a_time_s"] = number_or_null(c.a_time_s);
    j["b_time_s"] = number_or_null(c.b_time_s);
    j["basis"] = c.basis;
    j["a_count"] = c.a_count;
    j["b_count"] = c.b_count;
    j["speed_ratio"] = number_or_null(c.speed.ratio);
    j["ci_low"] = number_or_null(c.speed.low);
    j["ci_high"] = number_or_null(c.speed.high);
    j["p_value"] = number_or_null(c.p_value);
    j["p_method"] = to_string(c.method);
    j["significant"] = c.significant;
    j["too_few_values"] = c.too_few;
    j["a_runs"] = c.a_runs;
    j["b_runs"] = c.b_runs;
    j["interval_covers"] = c.across_runs ? "run_to_run_spread" : "within_run_noise_only";
    cases.push_back(std::move(j));
  }
  json efficiency = json::array();
  for (const auto& curve : comparison.efficiency) {
    json points = json::array();
    for (const auto& row : curve.rows) {
      points.push_back(
          {{"gpus", row.gpus}, {"a", optional_json(row.a)}, {"b", optional_json(row.b)}});
    }
    efficiency.push_back({{"suite", curve.suite},
                          {"case", curve.case_name},
                          {"params", curve.params},
                          {"metric", curve.metric},
                          {"base_gpus", curve.base_gpus},
                          {"points", std::move(points)}});
  }
  json models = json::array();
  for (const auto& m : comparison.models) {
    models.push_back({{"suite", m.suite},
                      {"case", m.case_name},
                      {"params", m.params},
                      {"metric", m.metric},
                      {"a", models_json(m.a)},
                      {"b", models_json(m.b)}});
  }
  json only_a = json::array(), only_b = json::array();
  for (const auto& m : comparison.only_in_a)
    only_a.push_back(key_to_json(m.key));
  for (const auto& m : comparison.only_in_b)
    only_b.push_back(key_to_json(m.key));
  return {{"a", context.a_path},
          {"b", context.b_path},
          {"significance", context.significance},
          {"confidence", context.confidence},
          {"environment", std::move(environment)},
          {"cases", std::move(cases)},
          {"efficiency", std::move(efficiency)},
          {"models", std::move(models)},
          {"only_in_a", std::move(only_a)},
          {"only_in_b", std::move(only_b)}};
}

} // namespace cb
