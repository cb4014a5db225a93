#include "workload/host_step.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "host/blas_gemm.hpp"
#include "workload/batch_loader.hpp"
#include "workload/bucket_plan.hpp"

namespace cb {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Each GEMM is cut into this many row blocks, with a progress call between them: the all-reduce
// moves only inside MPI calls.
constexpr int kPiecesPerGemm = 4;
// A learning rate small enough that the weights stay where they are over any number of steps.
constexpr float kLearningRate = 1e-7f;

// Values in [-1, 1) from a position: the same on every rank.
float pattern(std::uint64_t i, std::uint64_t salt) {
  std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ salt;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  return static_cast<float>(static_cast<double>(x >> 40) / static_cast<double>(1ull << 23) - 1.0);
}

} // namespace

// One rank's model: weights, gradients, activations, and the GEMMs of a step.
class LayerChain {
public:
  LayerChain(const WorkloadShape& shape, float gradient_scale)
      : shape_(shape), d_(shape.width), t_(shape.tokens),
        weights_(shape.layer_elements() * shape.layers),
        gradients_(shape.layer_elements() * shape.layers),
        activations_(static_cast<std::size_t>(shape.layers + 1) * t_ * d_),
        output_gradient_(static_cast<std::size_t>(t_) * d_), grad_a_(output_gradient_.size()),
        grad_b_(output_gradient_.size()) {
    // Weights keep the activations' scale through the chain (variance 1/width).
    const float w_scale = std::sqrt(3.0f / static_cast<float>(d_));
    for (std::size_t i = 0; i < weights_.size(); ++i)
      weights_[i] = w_scale * pattern(i, 1);
    for (std::size_t i = 0; i < static_cast<std::size_t>(t_) * d_; ++i)
      activations_[i] = pattern(i, 2);
    // Rank r's output gradient is 2^(r mod 4) times its peers': exact, so the sum is known.
    for (std::size_t i = 0; i < output_gradient_.size(); ++i)
      output_gradient_[i] = gradient_scale * pattern(i, 3) / static_cast<float>(t_);
  }

  float* gradients() { return gradients_.data(); }
  // Seconds inside the GEMMs and the update, all of them so far.
  double compute_seconds() const { return compute_s_; }
  // Seconds inside the GEMMs and the update since the last call.
  double take_compute_seconds() {
    const double s = compute_s_;
    compute_s_ = 0;
    return s;
  }

  // Forward: X[l+1] = X[l] W[l]. `between` runs between the pieces.
  template <typename Between> void forward(Between&& between) {
    for (int l = 0; l < shape_.layers; ++l) {
      const float* x = activation(l);
      float* y = activation(l + 1);
      by_rows(t_, between, [&](int r0, int rows) {
        gemm_f32(false, false, rows, d_, d_, x + row(r0), d_, weight(l), d_, y + row(r0), d_);
      });
    }
  }

  // Backward from the last layer: dW[l] = X[l]^T dY, then dX = dY W[l]^T (dY of the layer
  // below). `layer_done(l)` runs once dW[l] is complete.
  template <typename Between, typename LayerDone>
  void backward(Between&& between, LayerDone&& layer_done) {
    const float* dy = output_gradient_.data();
    float* dx = grad_a_.data();
    for (int l = shape_.layers - 1; l >= 0; --l) {
      const float* x = activation(l);
      float* dw = gradients_.data() + shape_.layer_elements() * static_cast<std::size_t>(l);
      by_rows(d_, between, [&](int r0, int rows) {
        gemm_f32(true, false, rows, d_, t_, x + r0, d_, dy, d_, dw + row(r0), d_);
      });
      layer_done(l);
      by_rows(t_, between, [&](int r0, int rows) {
        gemm_f32(false, true, rows, d_, d_, dy + row(r0), d_, weight(l), d_, dx + row(r0), d_);
      });
      dy = dx;
      dx = dx == grad_a_.data() ? grad_b_.data() : grad_a_.data();
    }
  }

  // SGD on the all-reduced (summed) gradients: the same update on every rank. Returns its seconds
  // (also counted in compute).
  double update(float scale) {
    const auto start = Clock::now();
    const float step = -kLearningRate * scale;
    for (std::size_t i = 0; i < weights_.size(); ++i)
      weights_[i] += step * gradients_[i];
    const double seconds = since(start);
    compute_s_ += seconds;
    return seconds;
  }

private:
  std::size_t row(int r) const { return static_cast<std::size_t>(r) * d_; }
  const float* weight(int l) const {
    return weights_.data() + shape_.layer_elements() * static_cast<std::size_t>(l);
  }
  float* activation(int l) { return activations_.data() + static_cast<std::size_t>(l) * t_ * d_; }

  // Runs gemm(first_row, rows) over `rows` rows in kPiecesPerGemm pieces, `between` after each.
  template <typename Between, typename Gemm> void by_rows(int rows, Between& between, Gemm&& gemm) {
    const int pieces = std::min(kPiecesPerGemm, rows);
    for (int p = 0; p < pieces; ++p) {
      const int r0 = rows * p / pieces, r1 = rows * (p + 1) / pieces;
      const auto start = Clock::now();
      gemm(r0, r1 - r0);
      compute_s_ += since(start);
      between();
    }
  }

  WorkloadShape shape_;
  int d_, t_;
  std::vector<float> weights_, gradients_, activations_, output_gradient_, grad_a_, grad_b_;
  double compute_s_ = 0;
};

HostStepRunner::HostStepRunner(const CaseContext& ctx, const WorkloadShape& shape,
                               BatchLoader* loader, const StepSync& sync)
    : shape_(shape), overlap_(sync.overlap),
      update_scale_(1.0f / static_cast<float>(gradient_scale_sum(ctx.comm.size()))),
      loader_(loader), chain_(std::make_unique<LayerChain>(shape, gradient_scale(ctx.comm.rank()))),
      sync_(std::make_unique<GradientSync>(
          ctx.comm.get(), chain_->gradients(),
          plan_buckets(shape.layers, shape.layer_elements(), sync.bucket_bytes, sizeof(float)))),
      share_sums_(sync_->buckets().size(), 0.0) {}

HostStepRunner::~HostStepRunner() = default;

StepParts HostStepRunner::run_step(std::uint64_t step, std::string* read_error) {
  StepParts parts;
  const auto start = Clock::now();
  if (loader_ && read_error->empty())
    parts.input_wait_s = loader_->acquire(step, read_error);
  auto between = [&] {
    if (overlap_)
      sync_->progress();
  };
  chain_->forward(between);
  const auto& buckets = sync_->buckets();
  std::vector<double> ready(buckets.size(), 0.0);
  std::size_t next_ready = 0, next_started = 0;
  const double backward_from = chain_->compute_seconds();
  chain_->backward(between, [&](int layer) {
    // A bucket is complete once the lowest layer it covers has its gradient.
    for (; next_ready < buckets.size() && buckets[next_ready].ready_after >= layer; ++next_ready)
      ready[next_ready] = chain_->compute_seconds() - backward_from;
    while (overlap_ && next_started < next_ready)
      sync_->start(next_started++);
  });
  parts.backward_s = chain_->compute_seconds() - backward_from;
  for (; next_started < buckets.size(); ++next_started)
    sync_->start(next_started);
  sync_->wait_all();
  parts.update_s = chain_->update(update_scale_);
  if (loader_) {
    // Handing the buffer back wakes the loader, which shares this core: the time it takes the
    // core from here is the input pipeline's.
    const auto handing = Clock::now();
    loader_->release(step);
    parts.input_wait_s += since(handing);
  }
  parts.step_s = since(start);
  parts.compute_s = chain_->take_compute_seconds();
  parts.exposed_comm_s = sync_->take_mpi_seconds();
  if (parts.backward_s > 0) {
    for (std::size_t b = 0; b < ready.size(); ++b)
      share_sums_[b] += ready[b] / parts.backward_s;
    ++shared_steps_;
  }
  return parts;
}

void HostStepRunner::reset_measurements() {
  std::fill(share_sums_.begin(), share_sums_.end(), 0.0);
  shared_steps_ = 0;
}

std::vector<double> HostStepRunner::bucket_bytes() const {
  std::vector<double> out;
  for (const auto& b : sync_->buckets())
    out.push_back(static_cast<double>(b.count * sizeof(float)));
  return out;
}

std::vector<double> HostStepRunner::bucket_ready_share() const {
  std::vector<double> out;
  for (double sum : share_sums_)
    out.push_back(shared_steps_ > 0 ? sum / static_cast<double>(shared_steps_) : 0.0);
  return out;
}

nlohmann::json HostStepRunner::record_extra(const CaseContext&) {
  return {{"blas", blas_description()}, {"gradient_dtype", "float"}};
}

} // namespace cb
