#include "analysis/goodput.hpp"

#include <cmath>
#include <sstream>

#include "core/duration.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace cb {
namespace {

std::string goodput_number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

std::string percent(double share) {
  return format_percent_fixed(share);
}

// Past these a figure is a typo rather than a cluster: a GPU failing once in 114,000 years, a
// checkpoint or restart of more than a week.
constexpr double kMaxGpuMtbfHours = 1e9;
constexpr double kMaxSeconds = 7 * 24 * 3600.0;
constexpr long long kMaxGpus = 1'000'000'000;
// Below this C/M the optimum comes from W0's series (its first omitted term is ~1e-11 relative
// here, against the bisection's ~1e-16).
constexpr double kSeriesBelow = 1e-4;

void require_seconds(double value, const char* flag, const char* what) {
  if (!(value > 0 && value <= kMaxSeconds)) {
    throw InputError(std::string(flag) + ": " + what +
                     " must be greater than 0 and at most 604800 (a week), got " +
                     goodput_number(value));
  }
}

} // namespace

double segment_wall_s(double interval_s, double checkpoint_s, double restart_s, double mtbf_s) {
  return mtbf_s * std::exp(restart_s / mtbf_s) * std::expm1((interval_s + checkpoint_s) / mtbf_s);
}

double goodput_at(double interval_s, double checkpoint_s, double restart_s, double mtbf_s) {
  return interval_s / segment_wall_s(interval_s, checkpoint_s, restart_s, mtbf_s);
}

double optimal_interval_s(double checkpoint_s, double mtbf_s) {
  // d/dtau of tau / (e^{(tau+C)/M} - 1) vanishes where (1 - u) e^{u + c} = 1, u = tau/M, c = C/M,
  // that is u = 1 + W0(-e^{-(1 + c)}).
  const double c = checkpoint_s / mtbf_s;
  if (c < kSeriesBelow) {
    // W0's series at its branch point, p = sqrt(2 (1 - e^{-c})) (Corless et al. 1996, eq. 4.22):
    // the bisection below loses u's digits to cancellation in ln(1 - u) + u as u falls under
    // ~1e-8, where this series is exact to double precision.
    const double p = std::sqrt(-2 * std::expm1(-c));
    const double u = p - p * p / 3 + 11 * std::pow(p, 3) / 72 - 43 * std::pow(p, 4) / 540 +
                     769 * std::pow(p, 5) / 17280;
    return u * mtbf_s;
  }
  // h(u) = ln(1 - u) + u + c falls from c at u = 0 towards -inf at u = 1: one root, by bisection.
  double lo = 0, hi = 1;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi)
      break;
    (std::log1p(-mid) + mid + c > 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi) * mtbf_s;
}

GoodputEstimate estimate_goodput(const GoodputInputs& inputs) {
  if (inputs.gpus < 1 || inputs.gpus > kMaxGpus) {
    throw InputError("--gpus: must be 1..1000000000, got " + std::to_string(inputs.gpus));
  }
  if (!(inputs.gpu_mtbf_hours > 0 && inputs.gpu_mtbf_hours <= kMaxGpuMtbfHours)) {
    throw InputError("--gpu-mtbf-hours: one GPU's mean time between failures must be greater "
                     "than 0 and at most 1e9 hours, got " +
                     goodput_number(inputs.gpu_mtbf_hours));
  }
  require_seconds(inputs.checkpoint_s, "--checkpoint-s", "the checkpoint's blocking time");
  require_seconds(inputs.restart_s, "--restart-s", "the restart time");

  GoodputEstimate e;
  e.inputs = inputs;
  e.mtbf_s = inputs.gpu_mtbf_hours * 3600 / static_cast<double>(inputs.gpus);
  // A checkpoint or restart as long as the MTBF still completes now and then (with probability
  // e^{-C/M}): the model's figure stays positive and is kept, with the verdict beside it.
  e.progresses = inputs.checkpoint_s < e.mtbf_s && inputs.restart_s < e.mtbf_s;
  const double c = inputs.checkpoint_s, r = inputs.restart_s, m = e.mtbf_s;
  e.interval_s = optimal_interval_s(c, m);
  const double attempt = e.interval_s + c;
  const double wall = segment_wall_s(e.interval_s, c, r, m);
  const double failures = std::expm1(attempt / m); // expected failures per segment
  e.goodput = e.interval_s / wall;
  e.lost_checkpoints = c / wall;
  // Each failure throws away the attempt it interrupts (on average M - attempt / (e^{a/M} - 1) of
  // it) and pays a restart that itself restarts on a failure (M (e^{R/M} - 1) in all).
  e.lost_rework = (m * failures - attempt) / wall;
  e.lost_restarts = failures * m * std::expm1(r / m) / wall;
  return e;
}

std::string format_goodput(const GoodputEstimate& e) {
  const auto& in = e.inputs;
  std::string text = "on " + std::to_string(in.gpus) + (in.gpus == 1 ? " GPU" : " GPUs") +
                     ": a failure every " + format_budget(e.mtbf_s) + " (one per " +
                     goodput_number(in.gpu_mtbf_hours) + " GPU-hours); ";
  if (!e.progresses) {
    const bool checkpoint = in.checkpoint_s >= e.mtbf_s;
    text += "the job cannot make useful progress: " +
            (checkpoint ? "a checkpoint blocks " + format_budget(in.checkpoint_s)
                        : "a restart takes " + format_budget(in.restart_s)) +
            ", as long as the time between failures or longer; at best ";
  }
  return text + "a checkpoint every " + format_budget(e.interval_s) + " of work blocking " +
         format_budget(in.checkpoint_s) + "; restart " + format_budget(in.restart_s) + ": " +
         percent(e.goodput) + " goodput (lost to checkpoints " + percent(e.lost_checkpoints) +
         ", rework " + percent(e.lost_rework) + ", restarts " + percent(e.lost_restarts) + ")";
}

nlohmann::json goodput_to_json(const GoodputEstimate& e) {
  return {{"gpus", e.inputs.gpus},
          {"gpu_mtbf_hours", e.inputs.gpu_mtbf_hours},
          {"checkpoint_s", e.inputs.checkpoint_s},
          {"restart_s", e.inputs.restart_s},
          {"mtbf_s", e.mtbf_s},
          {"progress", e.progresses},
          {"interval_s", e.interval_s},
          {"goodput", e.goodput},
          {"lost",
           {{"checkpoints", e.lost_checkpoints},
            {"rework", e.lost_rework},
            {"restarts", e.lost_restarts}}}};
}

} // namespace cb
