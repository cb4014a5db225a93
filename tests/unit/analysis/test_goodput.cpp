#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "analysis/goodput.hpp"
#include "core/error.hpp"

using namespace cb;

namespace {

// Wall time of a job simulated segment by segment under exponential failures at mean `mtbf_s`:
// each attempt runs tau of work then a checkpoint of C; a failure throws the attempt away and
// starts a restart of R, which a failure during it starts again (the exponential is memoryless,
// so each attempt draws afresh).
struct Simulated {
  double work = 0, checkpoints = 0, rework = 0, restarts = 0;
  double wall() const { return work + checkpoints + rework + restarts; }
};

Simulated simulate(double tau, double c, double r, double mtbf_s, int segments,
                   std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> next_failure(1 / mtbf_s);
  Simulated s;
  for (int i = 0; i < segments; ++i) {
    for (;;) {
      const double failure = next_failure(rng);
      if (failure >= tau + c) {
        s.work += tau;
        s.checkpoints += c;
        break;
      }
      s.rework += failure;
      for (;;) {
        const double during_restart = next_failure(rng);
        if (during_restart >= r) {
          s.restarts += r;
          break;
        }
        s.restarts += during_restart;
      }
    }
  }
  return s;
}

// Enough for the mean wall time of a segment to within about 0.25 % (one sigma), in 0.2 s.
constexpr int kSegments = 200000;

GoodputInputs goodput_inputs(long long gpus, double gpu_mtbf_hours, double c, double r) {
  GoodputInputs in;
  in.gpus = gpus;
  in.gpu_mtbf_hours = gpu_mtbf_hours;
  in.checkpoint_s = c;
  in.restart_s = r;
  return in;
}

std::string goodput_error(const GoodputInputs& in) {
  try {
    estimate_goodput(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

// The formula against a simulation of exponential failures, at tau* and away from it, for
// checkpoints and restarts up to M/20; the shares lost each agree too.
TEST(Goodput, AgreesWithMonteCarloSimulation) {
  const double m = 3600;
  const double cases[][2] = {
      {m / 20, m / 20}, {m / 100, m / 50}, {m / 1000, m / 20}, {m / 20, m / 1000}};
  std::uint64_t seed = 20061;
  for (const auto& [c, r] : cases) {
    const double best = optimal_interval_s(c, m);
    for (double tau : {best, best / 3, 2 * best}) {
      const Simulated s = simulate(tau, c, r, m, kSegments, seed++);
      const double model = goodput_at(tau, c, r, m);
      EXPECT_NEAR(s.work / s.wall() / model, 1, 0.01) << "C=" << c << " R=" << r << " tau=" << tau;
      EXPECT_NEAR(s.wall() / kSegments / segment_wall_s(tau, c, r, m), 1, 0.01);
    }
    GoodputInputs in = goodput_inputs(1, m / 3600, c, r);
    const GoodputEstimate e = estimate_goodput(in);
    const Simulated s = simulate(e.interval_s, c, r, m, kSegments, seed++);
    EXPECT_NEAR(s.checkpoints / s.wall(), e.lost_checkpoints, 0.01 * e.lost_checkpoints + 1e-4);
    EXPECT_NEAR(s.rework / s.wall(), e.lost_rework, 0.03 * e.lost_rework + 1e-4);
    EXPECT_NEAR(s.restarts / s.wall(), e.lost_restarts, 0.03 * e.lost_restarts + 1e-4);
  }
}

TEST(Goodput, OptimalIntervalMaximisesGoodput) {
  for (double c : {1e-6, 1e-3, 0.05, 0.5}) {
    const double m = 1000, r = 10;
    const double best = optimal_interval_s(c * m, m);
    const double g = goodput_at(best, c * m, r, m);
    EXPECT_GT(g, goodput_at(best * 1.001, c * m, r, m)) << c;
    EXPECT_GT(g, goodput_at(best * 0.999, c * m, r, m)) << c;
    // The stationary point in closed form: (1 - u) e^{u + c} = 1.
    const double u = best / m;
    EXPECT_NEAR((1 - u) * std::exp(u + c), 1, 1e-12) << c;
  }
  // Young's sqrt(2 C M) for C << M, less 2C/3 (the next term of W0's series): for C/M = 1e-6
  // the omitted terms are ~1e-7 of tau* (the first, 11/72 (2C/M)^1.5 M, is 3e-7 of it).
  EXPECT_NEAR(optimal_interval_s(1, 1e6) / (std::sqrt(2e6) - 2.0 / 3), 1, 1e-6);
}

// Where C/M is tiny the bisection's ln(1 - u) + u cancels to nothing; the series keeps tau* at
// sqrt(2 C M) - 2C/3 down to any C, and the two agree where both are exact.
TEST(Goodput, OptimalIntervalHoldsForTinyCheckpoints) {
  const double m = 3.6e12;
  for (double c : {1e-20, 1e-12, 1e-6}) {
    const double young = std::sqrt(2 * c * m) - 2 * c / 3;
    EXPECT_NEAR(optimal_interval_s(c, m) / young, 1, 1e-9) << c;
  }
  EXPECT_NEAR(optimal_interval_s(0.99e-4, 1) / optimal_interval_s(1.01e-4, 1),
              std::sqrt(0.99 / 1.01), 1e-4);
}

TEST(Goodput, SharesSumToOne) {
  const auto e = estimate_goodput(goodput_inputs(16384, kLlama3GpuMtbfHours, 60, 600));
  ASSERT_TRUE(e.progresses);
  EXPECT_NEAR(e.goodput + e.lost_checkpoints + e.lost_rework + e.lost_restarts, 1, 1e-12);
}

// The hand-computed cases of docs/REFERENCE.md (mpmath, Lambert W, 40 digits).
TEST(Goodput, HandComputedCases) {
  auto e = estimate_goodput(goodput_inputs(1024, kLlama3GpuMtbfHours, 41, 360));
  EXPECT_NEAR(e.mtbf_s, 178161.336516, 1e-5);
  EXPECT_NEAR(e.interval_s, 3794.917865, 1e-5);
  EXPECT_NEAR(e.goodput, 0.97672394, 1e-8);
  EXPECT_NEAR(e.lost_checkpoints, 0.01055245, 1e-8);
  EXPECT_NEAR(e.lost_rework, 0.01070501, 1e-8);
  EXPECT_NEAR(e.lost_restarts, 0.00201860, 1e-8);
  e = estimate_goodput(goodput_inputs(16384, kLlama3GpuMtbfHours, 60, 600));
  EXPECT_NEAR(e.mtbf_s, 11135.083532, 1e-5);
  EXPECT_NEAR(e.interval_s, 1116.296368, 1e-5);
  EXPECT_NEAR(e.goodput, 0.85255078, 1e-8);
  e = estimate_goodput(goodput_inputs(512, 5000, 120, 900));
  EXPECT_NEAR(e.interval_s, 2825.294433, 1e-5);
  EXPECT_NEAR(e.goodput, 0.89639218, 1e-8);
  EXPECT_EQ(format_goodput(e), "on 512 GPUs: a failure every 9h 45m 56s (one per 5000 GPU-hours); "
                               "a checkpoint every 47m 05s of work blocking 2m 00s; restart "
                               "15m 00s: 89.6 % goodput (lost to checkpoints 3.8 %, rework "
                               "4.0 %, restarts 2.5 %)");
}

// Llama 3's rate: 419 interruptions in 54 days on 16,384 GPUs.
TEST(Goodput, DefaultGpuMtbfIsLlama3Rate) {
  EXPECT_NEAR(kLlama3GpuMtbfHours, 50677.0, 0.01);
  EXPECT_NEAR(GoodputInputs().gpu_mtbf_hours, 50677.0, 0.01);
}

TEST(Goodput, CheckpointOrRestartAsLongAsMtbfMakesNoUsefulProgress) {
  // M = 1000 h x 3600 / 16384 = 219.7 s: C = 300 s >= M. The model's figures are kept (REFERENCE.md,
  // last hand-computed case): a checkpoint every 196.8 s of work, 0.003 % goodput.
  auto e = estimate_goodput(goodput_inputs(16384, 1000, 300, 1800));
  EXPECT_FALSE(e.progresses);
  EXPECT_NEAR(e.interval_s, 196.823135, 1e-5);
  EXPECT_NEAR(e.goodput, 2.8858751e-05, 1e-12);
  EXPECT_NEAR(e.goodput + e.lost_checkpoints + e.lost_rework + e.lost_restarts, 1, 1e-12);
  EXPECT_NE(format_goodput(e).find("cannot make useful progress: a checkpoint blocks 5m 00s"),
            std::string::npos);
  const auto json = goodput_to_json(e);
  EXPECT_FALSE(json["progress"].get<bool>());
  EXPECT_NEAR(json["goodput"].get<double>(), 2.8858751e-05, 1e-12);
  EXPECT_TRUE(json["lost"].is_object());
  // Either side of R = M the figure moves a little; only the verdict beside it changes.
  const auto below = estimate_goodput(goodput_inputs(16384, 1000, 60, 219.7));
  const auto above = estimate_goodput(goodput_inputs(16384, 1000, 60, 219.8));
  EXPECT_TRUE(below.progresses);
  EXPECT_FALSE(above.progresses);
  EXPECT_NE(format_goodput(above).find("a restart takes"), std::string::npos);
  EXPECT_NEAR(above.goodput / below.goodput, 1, 1e-3);
  EXPECT_GT(above.goodput, 0.1);
}

TEST(Goodput, JsonHasTheDocumentedFields) {
  const auto json =
      goodput_to_json(estimate_goodput(goodput_inputs(1024, kLlama3GpuMtbfHours, 41, 360)));
  for (const char* key : {"mtbf_s", "interval_s", "goodput", "lost"})
    EXPECT_TRUE(json.contains(key)) << key;
  for (const char* key : {"checkpoints", "rework", "restarts"})
    EXPECT_TRUE(json["lost"][key].is_number()) << key;
  EXPECT_NEAR(json["interval_s"].get<double>(), 3794.917865, 1e-5);
}

TEST(Goodput, RefusesImpossibleInputs) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {0.0, -1.0, nan, inf, 2e9}) {
    EXPECT_EQ(goodput_error(goodput_inputs(8, bad, 10, 10)).rfind("--gpu-mtbf-hours: ", 0), 0u)
        << bad;
  }
  for (double bad : {0.0, -1.0, nan, inf, 604801.0}) {
    EXPECT_EQ(goodput_error(goodput_inputs(8, 1000, bad, 10)).rfind("--checkpoint-s: ", 0), 0u)
        << bad;
    EXPECT_EQ(goodput_error(goodput_inputs(8, 1000, 10, bad)).rfind("--restart-s: ", 0), 0u) << bad;
  }
  for (long long bad : {0LL, -4LL, 2'000'000'000LL})
    EXPECT_EQ(goodput_error(goodput_inputs(bad, 1000, 10, 10)).rfind("--gpus: ", 0), 0u) << bad;
}
