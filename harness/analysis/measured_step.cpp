#include "analysis/measured_step.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/all_reduce_times.hpp"
#include "analysis/pricing_basis.hpp"
#include "analysis/record_values.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/stats.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

double number(const nlohmann::json& j, const char* key, double fallback = 0) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// Which term explains most of the gap between the prediction and the measurement, and how.
std::string off_term(const StepTime& p, const MeasuredStep& m, const std::string& all_reduce_from,
                     std::size_t buckets) {
  const double d_compute = p.compute_s - m.compute_s;
  const double d_comm = p.all_reduce_s - m.exposed_comm_s;
  const double d_input = p.input_s - m.input_wait_s;
  const double a = std::abs(d_compute), b = std::abs(d_comm), c = std::abs(d_input);
  if (a > b && a > c) {
    return "compute: " + format_milliseconds(m.compute_s) + " measured against " +
           format_milliseconds(p.compute_s) + " predicted";
  }
  if (b >= c) {
    return "exposed all-reduce: " + format_milliseconds(m.exposed_comm_s) + " measured against " +
           format_milliseconds(p.all_reduce_s) + " predicted by the timeline of the " +
           std::to_string(buckets) + " bucket(s) priced by " + all_reduce_from +
           "; the buckets' all-reduces ran " + (d_comm < 0 ? "slower" : "faster") +
           " in the step than those records say, or " +
           (d_comm < 0 ? "overlapped less with" : "overlapped more with") + " backward";
  }
  return "input: " + format_milliseconds(m.input_wait_s) + " of input wait measured against " +
         format_milliseconds(p.input_s) + " of reads predicted; " +
         (d_input > 0 ? "the --prefetch ring hid reads the prediction counts in full"
                      : "the reads were slower than storage/seq_read says");
}

std::vector<double> numbers(const nlohmann::json& j, const char* key) {
  std::vector<double> out;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array())
    return out;
  for (const auto& v : *it) {
    if (!v.is_number())
      return {};
    out.push_back(v.get<double>());
  }
  return out;
}

// The buckets a record reports: bucket_sizes (bytes) and bucket_ready_share, of one length.
std::optional<BucketSchedule> reported_buckets(const Record& r, bool overlap) {
  BucketSchedule b;
  b.bytes = numbers(r.extra, "bucket_sizes");
  b.ready_share = numbers(r.extra, "bucket_ready_share");
  if (b.bytes.empty() || b.bytes.size() != b.ready_share.size())
    return std::nullopt;
  const double compute = number(r.metrics, "compute_s"), backward = number(r.metrics, "backward_s");
  if (compute > 0 && backward > 0)
    b.backward_share = std::min(1.0, backward / compute);
  b.overlap = overlap;
  return b;
}

std::string dominant_part(const StepTime& s) {
  if (s.all_reduce_s > s.compute_s && s.all_reduce_s >= s.input_s)
    return "all_reduce";
  return s.input_s > s.compute_s ? "input" : "compute";
}

// The step at a measured count: its own compute, the exposed all-reduce of its buckets' timeline
// priced at that count (the all_reduce records there, else the ring fit), the parts' input.
StepTime predict_measured(const TrainingStepModel& model, const ResultsFile& results,
                          const MeasuredWorkload& w, const MeasuredStep& m, std::string* from) {
  StepTime p = predict_step(model, m.gpus);
  p.compute_s = m.compute_s;
  const double backward = m.backward_s > 0 ? m.backward_s : w.buckets.backward_share * m.compute_s;
  p.all_reduce_s = 0;
  if (m.gpus > 1) {
    if (auto measured = MeasuredAllReduce::from(results, m.gpus, m.nodes, w.gradient_dtype)) {
      *from = "the all_reduce records at " + std::to_string(m.gpus) + " GPUs";
      p.all_reduce_s = exposed_all_reduce(w.buckets, backward,
                                          [&](double bytes) { return measured->time(bytes); });
    } else {
      *from = "the ring fit";
      p.all_reduce_s = exposed_all_reduce(w.buckets, backward, [&](double bytes) {
        return ring_all_reduce_s(model, bytes, m.gpus);
      });
    }
  }
  p.step_s = p.compute_s + p.all_reduce_s + p.input_s;
  p.dominant = dominant_part(p);
  return p;
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
  std::string out = format_fixed(model_params / 1e6, 1) + " M parameters, " +
                    format_fixed(tokens_per_gpu, 0) + " tokens per GPU per step, " +
                    format_bytes_mib(gradient_bytes) + " of " + gradient_dtype + " gradients in " +
                    format_bytes_mib(bucket_bytes) + " buckets " +
                    (overlap ? "overlapped with backward" : "all-reduced after backward") + ", ";
  out += input_bytes_per_step > 0
             ? format_bytes_mib(input_bytes_per_step) + " of input read per GPU per step"
             : std::string("no input read");
  return out;
}

std::optional<MeasuredWorkload> measured_workload(const ResultsFile& results) {
  std::map<std::string, MeasuredWorkload> groups;
  std::vector<std::string> order;
  for (const Record& r : results.records) {
    if (r.suite != suite_names::kWorkload || r.case_name != "data_parallel_step" || !is_usable(r) ||
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
      w.gradient_dtype = r.extra.value("gradient_dtype", std::string("float"));
      if (auto reported = reported_buckets(r, w.overlap)) {
        w.buckets = std::move(*reported);
        w.buckets_reported = true;
      } else {
        w.buckets = equal_layer_buckets(w.gradient_bytes, w.bucket_bytes,
                                        static_cast<int>(number(r.params, "layers", 1)), w.overlap);
      }
    }
    MeasuredStep s;
    s.gpus = r.gpus;
    s.nodes = r.nodes;
    s.step_s = number(r.metrics, "step_s");
    s.compute_s = number(r.metrics, "compute_s");
    s.exposed_comm_s = number(r.metrics, "exposed_comm_s");
    s.input_wait_s = number(r.metrics, "input_wait_s");
    s.backward_s = number(r.metrics, "backward_s");
    s.update_s = number(r.metrics, "update_s");
    s.utilization = number(r.metrics, "utilization");
    s.tokens_per_s = number(r.metrics, "tokens_per_s");
    s.largest_loss = r.extra.value("largest_loss", std::string());
    s.sm_clock_mhz = sm_clock_at_end(r);
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

BucketSchedule equal_layer_buckets(double gradient_bytes, double bucket_bytes, int layers,
                                   bool overlap) {
  BucketSchedule b;
  b.overlap = overlap;
  if (!(gradient_bytes > 0))
    return b;
  layers = std::max(layers, 1);
  const double per = bucket_bytes > 0 ? std::min(bucket_bytes, gradient_bytes) : gradient_bytes;
  const double layer_bytes = gradient_bytes / layers;
  double end = gradient_bytes;
  while (end > 0 && b.bytes.size() < 4096) {
    const double size = std::min(per, end);
    const double offset = end - size;
    // Backward runs from the last layer down, a weight-gradient then an input-gradient GEMM per
    // layer: the bucket is complete after the weight gradient of the lowest layer it covers.
    const double lowest = std::min(std::floor(offset / layer_bytes), layers - 1.0);
    b.bytes.push_back(size);
    b.ready_share.push_back((2 * (layers - 1 - lowest) + 1) / (2.0 * layers));
    end = offset;
  }
  return b;
}

PredictionConfig workload_prediction_config(const MeasuredWorkload& w, int predict_to) {
  PredictionConfig c;
  c.model_params = w.model_params;
  c.tokens_per_gpu = w.tokens_per_gpu;
  c.grad_bytes = w.gradient_bytes;
  c.overlap = 0; // the buckets' timeline says what is hidden
  c.buckets = w.buckets;
  c.bytes_per_step = w.input_bytes_per_step;
  c.input_required = false;
  c.predict_to = std::max(predict_to, w.largest().gpus);
  return c;
}

namespace {

// The model from the caller's analysis where there is one, else from the records.
std::optional<StepValidation> validate_with(const ResultsFile& results,
                                            const ScalingAnalysis* analysis,
                                            const std::string& source, int predict_to,
                                            const AssumedLink& plan_link) {
  std::optional<MeasuredWorkload> workload = measured_workload(results);
  if (!workload)
    return std::nullopt;
  StepValidation v;
  v.workload = std::move(*workload);
  PredictionConfig config = workload_prediction_config(v.workload, predict_to);
  config.plan_link = plan_link;
  try {
    v.model = analysis ? build_training_step_model(results, *analysis, config, source)
                       : build_training_step_model(results, config, source);
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

  // Predicted step(1), for E(N): the measured one's prediction where one GPU was measured.
  double predicted_one = 0;
  for (int n : counts) {
    StepComparison row;
    row.gpus = n;
    if (const MeasuredStep* m = v.workload.at(n))
      row.measured = *m;
    if (v.model) {
      row.predicted = row.measured ? predict_measured(*v.model, results, v.workload, *row.measured,
                                                      &row.all_reduce_from)
                                   : predict_step(*v.model, n);
      if (!row.measured)
        row.all_reduce_from = "the ring fit";
      if (n == 1)
        predicted_one = row.predicted.step_s;
    }
    row.extrapolated = !row.measured;
    v.rows.push_back(std::move(row));
  }
  if (!v.model)
    return v;
  if (!(predicted_one > 0))
    predicted_one = predict_step(*v.model, 1).step_s;
  for (auto& row : v.rows) {
    if (!row.measured)
      continue;
    row.predicted.efficiency = predicted_one / row.predicted.step_s;
    row.error = row.predicted.step_s / row.measured->step_s - 1;
    if (row.measured->efficiency)
      row.efficiency_error = row.predicted.efficiency / *row.measured->efficiency - 1;
    if (std::abs(*row.error) > kPredictionTolerance)
      row.off_term = off_term(row.predicted, *row.measured, row.all_reduce_from,
                              v.workload.buckets.bytes.size());
  }

  // Calibration of the parts' prediction by the measured points: at the largest measured count
  // the calibrated parts are the measured ones, so the extrapolation starts where the
  // measurement ends.
  const MeasuredStep& largest = v.workload.largest();
  const StepTime parts_at_largest = predict_step(*v.model, largest_measured);
  if (parts_at_largest.compute_s > 0 && largest.compute_s > 0) {
    v.compute_scale = largest.compute_s / parts_at_largest.compute_s;
    if (std::abs(1 / v.compute_scale - 1) > kPredictionTolerance) {
      const double flops = 6 * v.workload.model_params * v.workload.tokens_per_gpu;
      v.compute_note = "the step's GEMMs ran at " +
                       format_fixed(flops / largest.gemm_s() / 1e9, 1) + " GFLOP/s per GPU on " +
                       std::to_string(largest_measured) + " GPU(s) against " +
                       format_fixed(v.model->gemm_tflops_per_gpu * 1e3, 1) + " from " +
                       v.model->gemm_from + ": compute/gemm alone puts the step's compute at " +
                       format_milliseconds(parts_at_largest.compute_s) + ", measured " +
                       format_milliseconds(largest.compute_s);
      // A GPU under sustained GEMM load holds its power cap's clock; a GEMM record of a few
      // milliseconds runs at the boost clock. The clocks say which of the two the gap is.
      if (largest.sm_clock_mhz && v.model->gemm_sm_clock_mhz &&
          *largest.sm_clock_mhz < kSustainedClockShare * *v.model->gemm_sm_clock_mhz) {
        v.compute_note += " (the step's GPU ended at " + format_fixed(*largest.sm_clock_mhz, 0) +
                          " MHz, compute/gemm's at " +
                          format_fixed(*v.model->gemm_sm_clock_mhz, 0) +
                          " MHz: GEMMs back to back hold the power cap's clock, a short GEMM "
                          "record the boost clock)";
      }
    }
  }
  const MeasuredStep* top = nullptr;
  double top_parts_exposed = 0;
  for (const auto& s : v.workload.steps) {
    const double parts_exposed = predict_step(*v.model, s.gpus).all_reduce_s;
    if (s.gpus > 1 && parts_exposed > 0) {
      top = &s;
      top_parts_exposed = parts_exposed;
    }
  }
  if (top)
    v.exposed_scale = top->exposed_comm_s / top_parts_exposed;
  // Parts that hide the whole all-reduce where the step did not: what was exposed there is held.
  const MeasuredStep* exposed_top = nullptr;
  for (const auto& s : v.workload.steps) {
    if (s.gpus > 1)
      exposed_top = &s;
  }
  if (!top && exposed_top)
    v.exposed_hold_s = exposed_top->exposed_comm_s;
  v.input_hold_s = largest.input_wait_s;
  for (const auto& row : v.rows) {
    if (row.gpus == largest_measured && row.error)
      v.largest_error = row.error;
  }
  v.calibration =
      "compute x " + format_figure_compact(v.compute_scale) + " (measured / predicted at " +
      std::to_string(largest_measured) + " GPUs), exposed all-reduce x " +
      format_figure_compact(v.exposed_scale) +
      (top           ? " (measured / predicted at " + std::to_string(top->gpus) + " GPUs)"
       : exposed_top ? " (the parts hide it all; the " + format_milliseconds(v.exposed_hold_s) +
                           " exposed at " + std::to_string(exposed_top->gpus) + " GPUs is held)"
                     : std::string(" (no multi-GPU measurement to calibrate it)")) +
      ", input wait held at " + format_milliseconds(v.input_hold_s) + " (measured at " +
      std::to_string(largest_measured) + " GPUs)";
  const MeasuredStep* one = v.workload.at(1);
  const double t1 =
      one ? one->step_s : predict_step(*v.model, 1).compute_s * v.compute_scale + v.input_hold_s;
  for (auto& row : v.rows) {
    if (row.measured)
      continue;
    const double t = row.predicted.compute_s * v.compute_scale +
                     row.predicted.all_reduce_s * v.exposed_scale + v.exposed_hold_s +
                     v.input_hold_s;
    row.calibrated_step_s = t;
    row.calibrated_efficiency = t1 / t;
  }
  return v;
}

} // namespace

std::optional<StepValidation> validate_step(const ResultsFile& results, const std::string& source,
                                            int predict_to, const AssumedLink& plan_link) {
  return validate_with(results, nullptr, source, predict_to, plan_link);
}

std::optional<StepValidation> validate_step(const ResultsFile& results,
                                            const ScalingAnalysis& analysis,
                                            const std::string& source, int predict_to,
                                            const AssumedLink& plan_link) {
  return validate_with(results, &analysis, source, predict_to, plan_link);
}

std::optional<double> step_efficiency_at(const StepValidation& v, int gpus, std::string* how) {
  for (const auto& row : v.rows) {
    if (row.gpus != gpus)
      continue;
    if (row.measured && row.measured->efficiency) {
      *how = "measured";
      return row.measured->efficiency;
    }
    if (row.calibrated_efficiency && v.model) {
      if (std::string why = unpriced_across_nodes(*v.model, gpus); !why.empty()) {
        *how = why;
        return std::nullopt;
      }
      *how = "predicted, calibrated by the measured points" +
             (v.largest_error
                  ? "; the uncalibrated prediction was " + format_signed_percent(*v.largest_error) +
                        " off at " + std::to_string(v.workload.largest().gpus) + " GPUs"
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
                          {"efficiency", r.predicted.efficiency},
                          {"all_reduce_from", r.all_reduce_from}};
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
                        {"buckets",
                         {{"count", v.workload.buckets.bytes.size()},
                          {"overlap", v.workload.buckets.overlap},
                          {"reported", v.workload.buckets_reported},
                          {"backward_share", v.workload.buckets.backward_share}}},
                        {"rows", rows},
                        {"tolerance", kPredictionTolerance}};
  if (v.model) {
    out["calibration"] = {{"compute_scale", v.compute_scale},
                          {"exposed_scale", v.exposed_scale},
                          {"exposed_hold_s", v.exposed_hold_s},
                          {"input_hold_s", v.input_hold_s},
                          {"how", v.calibration}};
    out["largest_error"] = opt(v.largest_error);
    out["model_warnings"] = v.model->warnings;
    if (!v.compute_note.empty())
      out["compute_note"] = v.compute_note;
  } else {
    out["model_problem"] = v.model_problem;
  }
  return out;
}

} // namespace cb
