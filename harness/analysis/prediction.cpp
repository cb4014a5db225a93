#include "analysis/prediction.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "analysis/bucket_timeline.hpp"
#include "analysis/record_values.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "results/suite_names.hpp"

namespace cb {

std::optional<double> sm_clock_at_end(const Record& record) {
  const auto state = record.extra.find("state_after");
  if (state == record.extra.end() || !state->is_object())
    return std::nullopt;
  const auto clock = state->find("sm_clock_mhz");
  if (clock == state->end() || !clock->is_number() || !(clock->get<double>() > 0))
    return std::nullopt;
  return clock->get<double>();
}

namespace {

std::string plain(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Per-GPU GEMM throughput in TFLOP/s: the largest problem measured, bf16 when there is a choice
// (what training runs in), at the fewest GPUs. The record's figure is taken as the aggregate of its
// GPUs, which is the same thing on one GPU.
void choose_gemm(const ResultsFile& results, const std::string& source, TrainingStepModel& model) {
  struct Candidate {
    const Record* record;
    double size;
    double tflops;
  };
  std::vector<Candidate> candidates;
  for (const Record& r : results.records) {
    if (r.suite != suite_names::kCompute || r.case_name != "gemm" || !is_usable(r))
      continue;
    double tflops = 0;
    if (r.metrics.contains("tflops") && r.metrics["tflops"].is_number()) {
      tflops = r.metrics["tflops"].get<double>();
    } else if (r.metrics.contains("gflops") && r.metrics["gflops"].is_number()) {
      tflops = r.metrics["gflops"].get<double>() / 1000;
    }
    if (!(tflops > 0))
      continue;
    candidates.push_back({&r, problem_size(r.params).value_or(0), tflops});
  }
  if (candidates.empty()) {
    throw InputError(source + ": the prediction needs compute suite, case gemm records (metric "
                              "tflops or gflops) with status ok or noisy; none found");
  }
  const double largest =
      std::max_element(candidates.begin(), candidates.end(), [](auto& a, auto& b) {
        return a.size < b.size;
      })->size;
  std::erase_if(candidates, [&](const Candidate& c) { return c.size < largest; });
  const bool any_bf16 = std::any_of(candidates.begin(), candidates.end(), [](const Candidate& c) {
    return c.record->params.value("dtype", nlohmann::json()) == "bf16";
  });
  if (any_bf16) {
    std::erase_if(candidates, [](const Candidate& c) {
      return c.record->params.value("dtype", nlohmann::json()) != "bf16";
    });
  }
  const auto best = std::min_element(candidates.begin(), candidates.end(), [](auto& a, auto& b) {
    if (a.record->gpus != b.record->gpus)
      return a.record->gpus < b.record->gpus;
    return a.tflops / a.record->gpus > b.tflops / b.record->gpus;
  });
  model.gemm_tflops_per_gpu = best->tflops / best->record->gpus;
  model.gemm_from = "compute/gemm " + best->record->params.dump() + " on " +
                    std::to_string(best->record->gpus) + " GPU(s)";
  model.gemm_sm_clock_mhz = sm_clock_at_end(*best->record);
}

void choose_ring(const std::vector<RingAllReduceFit>& ring_fits, const std::string& source,
                 TrainingStepModel& model) {
  std::vector<std::string> problems;
  for (const auto& fit : ring_fits) {
    if (fit.ok) {
      model.largest_measured_gpus = std::max(model.largest_measured_gpus, fit.gpus.back());
      model.ring.push_back(fit);
    } else {
      for (const auto& w : fit.warnings)
        problems.push_back(fit.tier + ": " + w);
    }
  }
  if (model.ring.empty()) {
    std::string why;
    for (const auto& p : problems)
      why += "; " + p;
    throw InputError(source +
                     ": the prediction needs collectives suite, case all_reduce records "
                     "on 2 or more GPUs at 2 or more message sizes (for the ring "
                     "alpha-beta model); none could be fitted" +
                     why);
  }
  const bool has_inter = std::any_of(model.ring.begin(), model.ring.end(),
                                     [](const auto& f) { return f.tier == "inter"; });
  if (!has_inter && model.config.plan_link.given()) {
    // A ring runs at its slowest link: the assumed one, or the node's own where that is slower.
    // Its latency is the node's, the least a hop between nodes can cost.
    const RingAllReduceFit& node = model.ring.front();
    RingAllReduceFit link;
    link.tier = "inter";
    link.ok = true;
    link.assumed = true;
    link.alpha_s = node.alpha_s;
    link.beta_s_per_byte = std::max(node.beta_s_per_byte, 1 / model.config.plan_link.bytes_per_s);
    model.ring.push_back(link);
    model.warnings.push_back(
        "no inter-node all_reduce measured: beyond " + std::to_string(model.gpus_per_node) +
        " GPUs the all-reduce is priced on the assumed link --plan-link " +
        shown(model.config.plan_link.text, 40) + " (" + format_fixed(link.bandwidth_gbps(), 3) +
        " GB/s per rank), not a measurement");
  } else if (has_inter && model.config.plan_link.given()) {
    model.warnings.push_back("--plan-link " + shown(model.config.plan_link.text, 40) +
                             " not used: all_reduce was measured across nodes");
  } else if (!has_inter && model.config.predict_to > model.gpus_per_node) {
    model.warnings.push_back("no inter-node all_reduce measured: beyond " +
                             std::to_string(model.gpus_per_node) +
                             " GPUs the intra-node model is used, which is optimistic");
  }
}

// The best-tuned seq_read configuration: highest aggregate at its largest GPU count.
std::optional<Curve> best_storage_curve(const std::vector<CurveFits>& curves) {
  std::optional<Curve> best;
  for (const auto& fitted : curves) {
    const Curve& curve = fitted.curve;
    if (curve.key.suite != suite_names::kStorage || curve.key.case_name != "seq_read" ||
        curve.key.metric != "gbps" || curve.gpus.empty()) {
      continue;
    }
    auto better = [](const Curve& a, const Curve& b) {
      if (a.value.back() != b.value.back())
        return a.value.back() > b.value.back();
      return a.gpus.size() > b.gpus.size();
    };
    if (!best || better(curve, *best))
      best = curve;
  }
  return best;
}

void choose_storage(const std::vector<CurveFits>& curves, const std::string& source,
                    TrainingStepModel& model) {
  std::optional<Curve> best = best_storage_curve(curves);
  if (!best && model.config.input_required) {
    throw InputError(source + ": --bytes-per-step needs storage suite, case seq_read records "
                              "(metric gbps) with status ok or noisy; none found (give "
                              "--bytes-per-step 0 to leave input reads out)");
  }
  if (!best) {
    // Input reads are part of a step only where the job streams its data from storage; unmeasured,
    // they are left out and said to be.
    model.input_left_out = true;
    model.warnings.push_back("input reads not measured (no storage suite, case seq_read records): "
                             "the prediction leaves out the input each GPU reads per step (" +
                             plain(model.config.bytes_per_step) +
                             " bytes); run the storage suite to include it, or give "
                             "--bytes-per-step 0 to say there is none");
    return;
  }
  std::vector<double> n(best->gpus.begin(), best->gpus.end());
  model.storage_usl = fit_usl(n, best->value, UslMethod::nls);
  if (!model.storage_usl->ok) {
    model.warnings.push_back("storage seq_read: no USL fit (" +
                             (model.storage_usl->warnings.empty()
                                  ? std::string("no reason given")
                                  : model.storage_usl->warnings[0]) +
                             "); per-GPU read throughput is held at the nearest measurement");
  }
  model.storage = std::move(best);
}

// Per-GPU read throughput in GB/s at N: measured where measured, else the USL, else the nearest
// measurement.
double storage_gbps_per_gpu(const TrainingStepModel& model, int gpus) {
  const Curve& c = *model.storage;
  for (std::size_t i = 0; i < c.gpus.size(); ++i) {
    if (c.gpus[i] == gpus)
      return c.value[i] / gpus;
  }
  if (model.storage_usl && model.storage_usl->ok)
    return model.storage_usl->throughput(gpus) / gpus;
  std::size_t nearest = 0;
  for (std::size_t i = 0; i < c.gpus.size(); ++i) {
    if (c.gpus[i] <= gpus)
      nearest = i;
  }
  return c.value[nearest] / c.gpus[nearest];
}

struct Parts {
  double compute_s, all_reduce_s, input_s;
  double total() const { return compute_s + all_reduce_s + input_s; }
};

Parts step_parts(const TrainingStepModel& model, int gpus) {
  const auto& c = model.config;
  Parts parts{};
  parts.compute_s = 6 * c.model_params * c.tokens_per_gpu / (model.gemm_tflops_per_gpu * 1e12);
  const RingAllReduceFit& ring = ring_tier_at(model, gpus);
  if (c.buckets) {
    parts.all_reduce_s =
        exposed_all_reduce(*c.buckets, parts.compute_s * c.buckets->backward_share,
                           [&](double bytes) { return ring.time(bytes, gpus); });
  } else {
    parts.all_reduce_s = ring.time(c.gradient_bytes(), gpus) * (1 - c.overlap);
  }
  if (c.bytes_per_step > 0 && model.storage) {
    parts.input_s = c.bytes_per_step / (storage_gbps_per_gpu(model, gpus) * 1e9);
  }
  return parts;
}

} // namespace

double exposed_all_reduce(const BucketSchedule& schedule, double backward_s,
                          const std::function<double(double)>& all_reduce_s) {
  std::vector<double> ready, comm;
  for (std::size_t k = 0; k < schedule.bytes.size(); ++k) {
    const double share = k < schedule.ready_share.size() ? schedule.ready_share[k] : 1.0;
    ready.push_back(std::clamp(share, 0.0, 1.0) * backward_s);
    comm.push_back(all_reduce_s(schedule.bytes[k]));
  }
  return bucket_timeline(ready, comm, backward_s, schedule.overlap).exposed_s;
}

double ring_all_reduce_s(const TrainingStepModel& model, double bytes, int gpus) {
  return ring_tier_at(model, gpus).time(bytes, gpus);
}

const RingAllReduceFit& ring_tier_at(const TrainingStepModel& model, int gpus) {
  const char* wanted = gpus <= model.gpus_per_node ? "intra" : "inter";
  for (const auto& fit : model.ring) {
    if (fit.tier == wanted)
      return fit;
  }
  return model.ring.front();
}

void validate_prediction_config(const PredictionConfig& c) {
  if (!(c.model_params > 0) || !std::isfinite(c.model_params)) {
    throw InputError("--model-params: the model's parameter count must be greater than 0 (e.g. "
                     "7e9 or 7B), got " +
                     plain(c.model_params));
  }
  if (!(c.tokens_per_gpu > 0) || !std::isfinite(c.tokens_per_gpu)) {
    throw InputError("--tokens-per-gpu: tokens per GPU per step must be greater than 0, got " +
                     plain(c.tokens_per_gpu));
  }
  if (c.grad_bytes && (!(*c.grad_bytes > 0) || !std::isfinite(*c.grad_bytes))) {
    throw InputError("--grad-bytes: must be greater than 0, got " + plain(*c.grad_bytes));
  }
  if (!(c.overlap >= 0 && c.overlap <= 1)) {
    throw InputError("--overlap: the hidden share of the all-reduce must be in [0, 1], got " +
                     plain(c.overlap));
  }
  if (!(c.bytes_per_step >= 0) || !std::isfinite(c.bytes_per_step)) {
    throw InputError("--bytes-per-step: must be 0 or more, got " + plain(c.bytes_per_step));
  }
  if (c.predict_to < 1) {
    throw InputError("--predict-to: must be at least 1, got " + std::to_string(c.predict_to));
  }
}

TrainingStepModel build_training_step_model(const ResultsFile& results,
                                            const PredictionConfig& config,
                                            const std::string& source) {
  // Only what the model reads: the curves as measured and the ring fits, not the scaling laws.
  ScalingAnalysis inputs;
  for (auto& curve : extract_curves(results))
    inputs.curves.emplace_back().curve = std::move(curve);
  inputs.ring_all_reduce = fit_ring_all_reduce(results);
  return build_training_step_model(results, inputs, config, source);
}

TrainingStepModel build_training_step_model(const ResultsFile& results,
                                            const ScalingAnalysis& analysis,
                                            const PredictionConfig& config,
                                            const std::string& source) {
  validate_prediction_config(config);
  TrainingStepModel model;
  model.config = config;
  for (const Record& r : results.records) {
    if (!is_usable(r))
      continue;
    model.gpus_per_node = std::max(model.gpus_per_node, r.ranks_per_node);
    if (r.nodes == 1)
      model.gpus_per_node = std::max(model.gpus_per_node, r.gpus);
  }
  choose_gemm(results, source, model);
  choose_ring(analysis.ring_all_reduce, source, model);
  if (config.bytes_per_step > 0)
    choose_storage(analysis.curves, source, model);
  return model;
}

StepTime predict_step(const TrainingStepModel& model, int gpus) {
  const Parts parts = step_parts(model, gpus);
  StepTime step;
  step.gpus = gpus;
  step.compute_s = parts.compute_s;
  step.all_reduce_s = parts.all_reduce_s;
  step.input_s = parts.input_s;
  step.step_s = parts.total();
  step.efficiency = step_parts(model, 1).total() / step.step_s;
  step.extrapolated = gpus > model.largest_measured_gpus;
  step.dominant = "compute";
  double largest = parts.compute_s;
  if (parts.all_reduce_s > largest) {
    step.dominant = "all_reduce";
    largest = parts.all_reduce_s;
  }
  if (parts.input_s > largest)
    step.dominant = "input";
  return step;
}

Prediction predict_training(const ResultsFile& results, const PredictionConfig& config,
                            const std::string& source) {
  return predict_training(build_training_step_model(results, config, source));
}

Prediction predict_training(const ResultsFile& results, const ScalingAnalysis& analysis,
                            const PredictionConfig& config, const std::string& source) {
  return predict_training(build_training_step_model(results, analysis, config, source));
}

Prediction predict_training(TrainingStepModel model) {
  Prediction prediction;
  prediction.model = std::move(model);
  const PredictionConfig& config = prediction.model.config;
  std::vector<int> counts;
  for (long long n = 1; n <= config.predict_to; n *= 2)
    counts.push_back(static_cast<int>(n));
  if (counts.back() != config.predict_to)
    counts.push_back(config.predict_to);
  for (int n : counts) {
    StepTime step = predict_step(prediction.model, n);
    if (!prediction.knee_80 && step.efficiency < 0.8)
      prediction.knee_80 = n;
    if (!prediction.knee_50 && step.efficiency < 0.5)
      prediction.knee_50 = n;
    prediction.steps.push_back(std::move(step));
  }
  return prediction;
}

nlohmann::json prediction_to_json(const Prediction& p) {
  const auto& m = p.model;
  const auto& c = m.config;
  nlohmann::json ring = nlohmann::json::array();
  for (const auto& f : m.ring) {
    ring.push_back({{"tier", f.tier},
                    {"assumed", f.assumed},
                    {"alpha_us", f.alpha_s * 1e6},
                    {"beta_s_per_byte", f.beta_s_per_byte},
                    {"r2", f.r2},
                    {"gpus", f.gpus}});
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : p.steps) {
    steps.push_back({{"gpus", s.gpus},
                     {"compute_s", s.compute_s},
                     {"all_reduce_s", s.all_reduce_s},
                     {"input_s", s.input_s},
                     {"step_s", s.step_s},
                     {"efficiency", s.efficiency},
                     {"dominant", s.dominant},
                     {"extrapolated", s.extrapolated}});
  }
  auto optional_int = [](std::optional<int> v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
  };
  nlohmann::json out = {{"config",
                         {{"model_params", c.model_params},
                          {"tokens_per_gpu", c.tokens_per_gpu},
                          {"grad_bytes", c.gradient_bytes()},
                          {"overlap", c.overlap},
                          {"buckets", c.buckets ? nlohmann::json(c.buckets->bytes.size())
                                                : nlohmann::json()},
                          {"bytes_per_step", c.bytes_per_step},
                          {"predict_to", c.predict_to}}},
                        {"gemm_tflops_per_gpu", m.gemm_tflops_per_gpu},
                        {"gemm_from", m.gemm_from},
                        {"ring_all_reduce", ring},
                        {"gpus_per_node", m.gpus_per_node},
                        {"largest_measured_gpus", m.largest_measured_gpus},
                        {"steps", steps},
                        {"knee_80", optional_int(p.knee_80)},
                        {"knee_50", optional_int(p.knee_50)},
                        {"input_left_out", m.input_left_out},
                        {"warnings", m.warnings}};
  if (m.storage) {
    out["storage_from"] = {
        {"params", m.storage->key.params}, {"gpus", m.storage->gpus}, {"gbps", m.storage->value}};
  }
  return out;
}

std::string format_prediction(const Prediction& p) {
  std::ostringstream out;
  out << "data-parallel step, " << plain(p.model.config.model_params) << " parameters, "
      << plain(p.model.config.tokens_per_gpu) << " tokens per GPU; GEMM "
      << format_fixed(p.model.gemm_tflops_per_gpu, 2) << " TFLOP/s per GPU\n";
  char line[160];
  std::snprintf(line, sizeof line, "%7s %12s %12s %12s %12s %7s  %s\n", "GPUs", "step_ms",
                "compute_ms", "allreduce_ms", "input_ms", "E", "dominant");
  out << line;
  for (const auto& s : p.steps) {
    std::snprintf(line, sizeof line, "%7d %12s %12s %12s %12s %7s  %s%s\n", s.gpus,
                  format_fixed(s.step_s * 1e3, 3).c_str(),
                  format_fixed(s.compute_s * 1e3, 3).c_str(),
                  format_fixed(s.all_reduce_s * 1e3, 3).c_str(),
                  format_fixed(s.input_s * 1e3, 3).c_str(), format_fixed(s.efficiency, 3).c_str(),
                  s.dominant.c_str(), s.extrapolated ? " (extrapolated)" : "");
    out << line;
  }
  out << "efficiency falls under 0.8 at "
      << (p.knee_80 ? std::to_string(*p.knee_80) + " GPUs" : std::string("no GPU count shown"))
      << ", under 0.5 at "
      << (p.knee_50 ? std::to_string(*p.knee_50) + " GPUs" : std::string("no GPU count shown"))
      << "\n";
  for (const auto& w : p.model.warnings)
    out << "warning: " << w << "\n";
  return out.str();
}

} // namespace cb
