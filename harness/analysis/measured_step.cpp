#include "analysis/measured_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "analysis/record_values.hpp"
#include "core/error.hpp"
#include "core/stats.hpp"

namespace cb {
namespace {

double number(const nlohmann::json& j, const char* key, double fallback = 0) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string text(double v, const char* format) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

std::string ms(double seconds) {
  return text(seconds * 1e3, "%.1f ms");
}

std::string percent(double fraction) {
  return text(fraction * 100, "%.1f %%");
}

// "64 MiB" / "1.5 MB".
std::string bytes_text(double bytes) {
  if (bytes >= (1 << 20) && std::fmod(bytes, 1 << 20) == 0)
    return text(bytes / (1 << 20), "%.0f MiB");
  if (bytes >= 1e6)
    return text(bytes / 1e6, "%.1f MB");
  return text(bytes, "%.0f bytes");
}

// Which term explains most of the gap between the prediction and the measurement, and how.
std::string off_term(const StepTime& p, const MeasuredStep& m, const TrainingStepModel& model,
                     double overlap) {
  const double d_compute = p.compute_s - m.compute_s;
  const double d_comm = p.all_reduce_s - m.exposed_comm_s;
  const double d_input = p.input_s - m.input_wait_s;
  const double a = std::abs(d_compute), b = std::abs(d_comm), c = std::abs(d_input);
  if (a >= b && a >= c) {
    const double flops = 6 * model.config.model_params * model.config.tokens_per_gpu;
    return "compute: the step's GEMMs ran at " + text(flops / m.compute_s / 1e9, "%.1f") +
           " GFLOP/s per GPU against " + text(model.gemm_tflops_per_gpu * 1e3, "%.1f") + " from " +
           model.gemm_from + " (" + ms(m.compute_s) + " measured, " + ms(p.compute_s) +
           " predicted)";
  }
  if (b >= c) {
    return "exposed all-reduce: " + ms(m.exposed_comm_s) + " measured against " +
           ms(p.all_reduce_s) + " predicted; the overlap was " +
           (d_comm < 0 ? "smaller" : "larger") + " than the " + percent(overlap) +
           " assumed, or the all-reduce " + (d_comm < 0 ? "slower" : "faster") +
           " than the collectives records say";
  }
  return "input: " + ms(m.input_wait_s) + " of input wait measured against " + ms(p.input_s) +
         " of reads predicted; " +
         (d_input > 0 ? "the --prefetch ring hid reads the prediction counts in full"
                      : "the reads were slower than storage/seq_read says");
}

} // namespace

const MeasuredStep* MeasuredWorkload::at(int gpus) const {
  for (const auto& s : steps) {
    if (s.gpus == gpus)
      return &s;
  }
  return nullptr;
}

std::string MeasuredWorkload::describe() const {
  std::string out = text(model_params / 1e6, "%.1f") + " M parameters, " +
                    text(tokens_per_gpu, "%.0f") + " tokens per GPU per step, " +
                    bytes_text(gradient_bytes) + " of float gradients in " +
                    bytes_text(bucket_bytes) + " buckets " +
                    (overlap ? "overlapped with backward" : "all-reduced after backward") + ", ";
  out += input_bytes_per_step > 0
             ? bytes_text(input_bytes_per_step) + " of input read per GPU per step"
             : std::string("no input read");
  return out;
}

std::optional<MeasuredWorkload> measured_workload(const ResultsFile& results) {
  std::map<std::string, MeasuredWorkload> groups;
  std::vector<std::string> order;
  for (const Record& r : results.records) {
    if (r.suite != "workload" || r.case_name != "data_parallel_step" || !is_usable(r) ||
        !(number(r.metrics, "step_s") > 0)) {
      continue;
    }
    const std::string key = r.params.dump();
    auto [it, fresh] = groups.try_emplace(key);
    MeasuredWorkload& w = it->second;
    if (fresh) {
      order.push_back(key);
      w.params = r.params;
      w.model_params = number(r.params, "model_params");
      w.tokens_per_gpu = number(r.params, "tokens_per_gpu");
      w.gradient_bytes = number(r.extra, "gradient_bytes", 4 * w.model_params);
      w.input_bytes_per_step = number(r.params, "input_bytes_per_step");
      w.bucket_bytes = number(r.params, "bucket_bytes");
      w.overlap = r.params.value("overlap", std::string("on")) == "on";
    }
    MeasuredStep s;
    s.gpus = r.gpus;
    s.nodes = r.nodes;
    s.step_s = number(r.metrics, "step_s");
    s.compute_s = number(r.metrics, "compute_s");
    s.exposed_comm_s = number(r.metrics, "exposed_comm_s");
    s.input_wait_s = number(r.metrics, "input_wait_s");
    s.utilization = number(r.metrics, "utilization");
    s.tokens_per_s = number(r.metrics, "tokens_per_s");
    s.largest_loss = r.extra.value("largest_loss", std::string());
    std::erase_if(w.steps, [&](const MeasuredStep& o) { return o.gpus == s.gpus; });
    w.steps.push_back(s);
  }
  if (groups.empty())
    return std::nullopt;
  const MeasuredWorkload* best = nullptr;
  for (const auto& key : order) {
    const MeasuredWorkload& w = groups[key];
    if (!best || w.steps.size() >= best->steps.size())
      best = &w;
  }
  MeasuredWorkload out = *best;
  std::sort(out.steps.begin(), out.steps.end(),
            [](const MeasuredStep& a, const MeasuredStep& b) { return a.gpus < b.gpus; });
  // E(N) = step(1) / step(N) over the records kept (a merged file may hold steps of other runs).
  if (const MeasuredStep* one = out.at(1)) {
    for (auto& s : out.steps)
      s.efficiency = one->step_s / s.step_s;
  }
  return out;
}

double bucket_overlap(const MeasuredWorkload& w) {
  if (!w.overlap || !(w.gradient_bytes > 0) || !(w.bucket_bytes > 0))
    return 0;
  // Buckets are cut from the last layer down; the last one holds what is left over.
  const double buckets = std::ceil(w.gradient_bytes / w.bucket_bytes);
  const double last = w.gradient_bytes - (buckets - 1) * w.bucket_bytes;
  return std::clamp(1 - last / w.gradient_bytes, 0.0, 1.0);
}

PredictionConfig workload_prediction_config(const MeasuredWorkload& w, int predict_to) {
  PredictionConfig c;
  c.model_params = w.model_params;
  c.tokens_per_gpu = w.tokens_per_gpu;
  c.grad_bytes = w.gradient_bytes;
  c.overlap = bucket_overlap(w);
  c.bytes_per_step = w.input_bytes_per_step;
  c.input_required = false;
  c.predict_to = std::max(predict_to, w.largest().gpus);
  return c;
}

std::optional<StepValidation> validate_step(const ResultsFile& results, const std::string& source,
                                            int predict_to) {
  std::optional<MeasuredWorkload> workload = measured_workload(results);
  if (!workload)
    return std::nullopt;
  StepValidation v;
  v.workload = std::move(*workload);
  const PredictionConfig config = workload_prediction_config(v.workload, predict_to);
  try {
    v.model = build_training_step_model(results, config, source);
  } catch (const InputError& e) {
    v.model_problem = e.what();
  }
  std::vector<int> counts;
  for (const auto& s : v.workload.steps)
    counts.push_back(s.gpus);
  const int largest_measured = v.workload.largest().gpus;
  if (v.model) {
    for (long long n = 1; n <= config.predict_to; n *= 2) {
      if (n > largest_measured)
        counts.push_back(static_cast<int>(n));
    }
    if (config.predict_to > largest_measured && counts.back() != config.predict_to)
      counts.push_back(config.predict_to);
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());

  for (int n : counts) {
    StepComparison row;
    row.gpus = n;
    if (const MeasuredStep* m = v.workload.at(n))
      row.measured = *m;
    if (v.model) {
      row.predicted = predict_step(*v.model, n);
      if (row.measured) {
        row.error = row.predicted.step_s / row.measured->step_s - 1;
        if (row.measured->efficiency)
          row.efficiency_error = row.predicted.efficiency / *row.measured->efficiency - 1;
        if (std::abs(*row.error) > kPredictionTolerance)
          row.off_term = off_term(row.predicted, *row.measured, *v.model, config.overlap);
      }
    }
    row.extrapolated = !row.measured;
    v.rows.push_back(std::move(row));
  }
  if (!v.model)
    return v;

  // Calibration from the measured points: at the largest measured count the calibrated parts are
  // the measured ones, so the extrapolation starts where the measurement ends.
  for (const auto& row : v.rows) {
    if (row.measured && row.gpus == largest_measured && row.predicted.compute_s > 0)
      v.compute_scale = row.measured->compute_s / row.predicted.compute_s;
  }
  const StepComparison* top = nullptr;
  for (const auto& row : v.rows) {
    if (row.measured && row.gpus > 1 && row.predicted.all_reduce_s > 0)
      top = &row;
  }
  if (top)
    v.exposed_scale = top->measured->exposed_comm_s / top->predicted.all_reduce_s;
  v.input_hold_s = v.workload.largest().input_wait_s;
  for (const auto& row : v.rows) {
    if (row.gpus == largest_measured && row.error)
      v.largest_error = row.error;
  }
  v.calibration = "compute x " + text(v.compute_scale, "%.3g") + " (measured / predicted at " +
                  std::to_string(largest_measured) + " GPUs), exposed all-reduce x " +
                  text(v.exposed_scale, "%.3g") +
                  (top ? " (measured / predicted at " + std::to_string(top->gpus) + " GPUs)"
                       : std::string(" (no multi-GPU measurement to calibrate it)")) +
                  ", input wait held at " + ms(v.input_hold_s) + " (measured at " +
                  std::to_string(largest_measured) + " GPUs)";
  const MeasuredStep* one = v.workload.at(1);
  const double t1 =
      one ? one->step_s : predict_step(*v.model, 1).compute_s * v.compute_scale + v.input_hold_s;
  for (auto& row : v.rows) {
    if (row.measured)
      continue;
    const double t = row.predicted.compute_s * v.compute_scale +
                     row.predicted.all_reduce_s * v.exposed_scale + v.input_hold_s;
    row.calibrated_step_s = t;
    row.calibrated_efficiency = t1 / t;
  }
  return v;
}

std::optional<double> step_efficiency_at(const StepValidation& v, int gpus, std::string* how) {
  for (const auto& row : v.rows) {
    if (row.gpus != gpus)
      continue;
    if (row.measured && row.measured->efficiency) {
      *how = "measured";
      return row.measured->efficiency;
    }
    if (row.calibrated_efficiency) {
      *how = "predicted, calibrated by the measured points" +
             (v.largest_error ? "; the uncalibrated prediction was " +
                                    text(*v.largest_error * 100, "%+.1f %%") + " off at " +
                                    std::to_string(v.workload.largest().gpus) + " GPUs"
                              : std::string());
      return row.calibrated_efficiency;
    }
  }
  return std::nullopt;
}

nlohmann::json step_validation_to_json(const StepValidation& v) {
  nlohmann::json rows = nlohmann::json::array();
  auto opt = [](const std::optional<double>& x) {
    return x ? nlohmann::json(*x) : nlohmann::json();
  };
  for (const auto& r : v.rows) {
    nlohmann::json row = {{"gpus", r.gpus}, {"extrapolated", r.extrapolated}};
    if (r.measured) {
      const auto& m = *r.measured;
      row["measured"] = {{"step_s", m.step_s},
                         {"compute_s", m.compute_s},
                         {"exposed_comm_s", m.exposed_comm_s},
                         {"input_wait_s", m.input_wait_s},
                         {"utilization", m.utilization},
                         {"efficiency", opt(m.efficiency)},
                         {"tokens_per_s", m.tokens_per_s},
                         {"largest_loss", m.largest_loss}};
    }
    if (v.model) {
      row["predicted"] = {{"step_s", r.predicted.step_s},
                          {"compute_s", r.predicted.compute_s},
                          {"all_reduce_s", r.predicted.all_reduce_s},
                          {"input_s", r.predicted.input_s},
                          {"efficiency", r.predicted.efficiency}};
    }
    row["error"] = opt(r.error);
    row["efficiency_error"] = opt(r.efficiency_error);
    if (!r.off_term.empty())
      row["off_term"] = r.off_term;
    if (r.calibrated_step_s) {
      row["calibrated"] = {{"step_s", *r.calibrated_step_s},
                           {"efficiency", opt(r.calibrated_efficiency)}};
    }
    rows.push_back(std::move(row));
  }
  nlohmann::json out = {{"workload", v.workload.params},
                        {"workload_text", v.workload.describe()},
                        {"assumed_overlap", bucket_overlap(v.workload)},
                        {"rows", rows},
                        {"tolerance", kPredictionTolerance}};
  if (v.model) {
    out["calibration"] = {{"compute_scale", v.compute_scale},
                          {"exposed_scale", v.exposed_scale},
                          {"input_hold_s", v.input_hold_s},
                          {"how", v.calibration}};
    out["largest_error"] = opt(v.largest_error);
    out["model_warnings"] = v.model->warnings;
  } else {
    out["model_problem"] = v.model_problem;
  }
  return out;
}

} // namespace cb
