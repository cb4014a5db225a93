#include "runtime/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/stats.hpp"
#include "runtime/communicator.hpp"

namespace cb {

double robust_relative_spread(const std::vector<double>& samples) {
  if (samples.size() < 2)
    return 0.0;
  const double med = median(samples);
  return med == 0.0 ? 0.0 : 1.4826 * median_absolute_deviation(samples) / med;
}

bool spread_settled(const std::vector<double>& samples, const MeasureSettings& settings) {
  const auto n = static_cast<int>(samples.size());
  const int window = settings.settle_window;
  if (!settings.settle || window < 2 || n <= window || settings.settle_every < 1 ||
      n % settings.settle_every != 0) {
    return false;
  }
  // The spread after each of the last `window` samples (prefixes of the sample list).
  std::vector<double> spreads;
  spreads.reserve(static_cast<std::size_t>(window));
  for (int end = n - window + 1; end <= n; ++end) {
    spreads.push_back(robust_relative_spread(
        std::vector<double>(samples.begin(), samples.begin() + end)));
  }
  const double current = spreads.back();
  if (current <= 0)
    return false;
  // nvbench's test: the window's standard deviation about the current value, relative to it.
  double about_current = 0;
  for (double v : spreads)
    about_current += (v - current) * (v - current);
  about_current = std::sqrt(about_current / static_cast<double>(spreads.size())) / current;
  // The trend: least-squares slope over the window, as the change across the whole window.
  const double mid = (window - 1) / 2.0;
  double mean = 0;
  for (double v : spreads)
    mean += v;
  mean /= window;
  double num = 0, den = 0;
  for (int i = 0; i < window; ++i) {
    num += (i - mid) * (spreads[static_cast<std::size_t>(i)] - mean);
    den += (i - mid) * (i - mid);
  }
  const double drift = std::abs(num / den) * (window - 1) / current;
  return about_current < settings.settle_tolerance && drift < settings.settle_tolerance;
}

StopDecision stopping_rule(const std::vector<double>& samples, double elapsed_s,
                           const MeasureSettings& settings) {
  const bool enough =
      static_cast<int>(samples.size()) >= settings.min_samples && elapsed_s >= settings.min_time_s;
  if (enough && robust_relative_spread(samples) <= settings.target_cv) {
    return StopDecision::converged;
  }
  if (enough && !settings.stop_early) // the window is over: noisy
    return StopDecision::capped;
  if (enough && spread_settled(samples, settings))
    return StopDecision::settled;
  if (elapsed_s >= settings.max_time_s ||
      static_cast<int>(samples.size()) >= settings.max_samples) {
    // At the cap with too few samples to judge, it still counts as capped: the record says so.
    return StopDecision::capped;
  }
  return StopDecision::keep_going;
}

MeasureSettings latency_settings(const MeasureSettings& run) {
  MeasureSettings s = run;
  const double room = run.max_time_s / (4.0 * std::max(1, run.min_samples));
  s.batch_time_s = std::max(run.batch_time_s, std::min(kLatencyBatchS, room));
  return s;
}

int batch_for(double seconds_per_op, const MeasureSettings& settings) {
  int k = 1;
  while (k < settings.max_batch && seconds_per_op * k < settings.batch_time_s)
    k *= 2;
  return k;
}

Measurement measure(const Communicator& comm, const MeasureSettings& settings,
                    const std::function<double(int)>& timed_batch) {
  using clock = std::chrono::steady_clock;
  Measurement m;
  const bool root = comm.rank() == 0;

  // Warm-up: first touch, connection set-up, caches. Never kept.
  for (int i = 0; i < settings.warmup_batches; ++i) {
    comm.barrier();
    timed_batch(1);
  }
  // Calibration: time one operation (max over ranks), pick the batch on rank 0, broadcast it.
  comm.barrier();
  double one = comm.max(timed_batch(1));
  int k = root ? batch_for(one, settings) : 0;
  k = comm.broadcast_int(k);
  if (k > 1) {
    // A second look with a real batch: single-operation timings of microsecond collectives are
    // dominated by clock resolution and jitter.
    comm.barrier();
    const double per_op = comm.max(timed_batch(k)) / k;
    k = root ? batch_for(per_op, settings) : 0;
    k = comm.broadcast_int(k);
  }
  m.batch = k;

  // Each rank keeps its own samples; per sample, one reduction gives the maximum (the sample) and
  // whose time was the shortest. Nothing grows on rank 0 with the number of ranks until the end.
  std::size_t shortest = 0;
  const auto start = clock::now();
  while (true) {
    comm.barrier();
    const double mine = timed_batch(k) / k;
    const Extremes e = comm.extremes(mine);
    m.own_samples_s.push_back(mine);
    if (e.min_rank == comm.rank())
      ++shortest;
    int decision = 0;
    if (root) {
      m.samples_s.push_back(e.max);
      const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
      decision = static_cast<int>(stopping_rule(m.samples_s, elapsed, settings));
    }
    decision = comm.broadcast_int(decision);
    if (decision != static_cast<int>(StopDecision::keep_going)) {
      m.converged = decision == static_cast<int>(StopDecision::converged);
      m.sampling_s = std::chrono::duration<double>(clock::now() - start).count();
      if (decision == static_cast<int>(StopDecision::settled)) {
        m.stop = "settled";
      } else if (decision == static_cast<int>(StopDecision::capped)) {
        // Rank 0 knows which limit it was; the others only that it was one.
        m.stop = root && static_cast<int>(m.samples_s.size()) >= settings.max_samples
                     ? "max_samples"
                     : "cap";
      }
      break;
    }
  }
  // The summary: three numbers per rank.
  const auto n = static_cast<double>(m.own_samples_s.size());
  const std::vector<std::vector<double>> summaries =
      comm.gather_vectors({median(m.own_samples_s), percentile(m.own_samples_s, 0.99),
                           static_cast<double>(shortest) / n});
  for (const auto& s : summaries) {
    m.rank_timing.push_back({s.at(0), s.at(1), s.at(2)});
    m.rank_median_s.push_back(s.at(0));
  }
  return m;
}

} // namespace cb
