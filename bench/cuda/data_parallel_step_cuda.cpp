// The cuda backend's workload/data_parallel_step (workload/step_runner.hpp). Each rank drives its
// GPU through one step as a training framework does:
//   - the loader's batch (a pinned --prefetch ring: the ring is registered with
//     cudaHostRegister) is copied to the GPU on a stream of its own; the compute stream waits
//     for it;
//   - forward and backward are cuBLASLt GEMMs on the compute stream (the backend's stream), bf16
//     in with float accumulation, the weight gradients written as float
//     (workload/transformer_shape.hpp: the linear layers of GPT transformer layers);
//   - each --bucket-bytes bucket of float gradients is all-reduced by NCCL on a communication
//     stream as soon as the weight-gradient GEMM that completes it is done (a CUDA event), or all
//     after backward (--overlap off); the compute stream waits for the last one, then applies the
//     SGD update to the bf16 weights.
// The parts are CUDA events on the compute stream, so they add up to the step: input wait = the
// host's wait for its batch + the compute stream's wait for the copy; compute = the GEMMs + the
// update; exposed communication = the compute stream's wait for the all-reduce after backward;
// the step is the host's clock from the batch wait to the end of the update.
//
// The GEMM algorithms are cuBLASLt's fastest heuristic candidate per shape, timed on rank 0 and
// used by every rank: the same algorithm gives the same bits from the same inputs, which the
// gradient check needs (rank r's output gradient is 2^(r mod 4) times its peers', exactly, so the
// all-reduced sum is known from its own values; sampled before and after each bucket's
// all-reduce).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "core/error.hpp"
#include "core/units.hpp"
#include "cuda/cublaslt_on_demand.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/lt_matmul.hpp"
#include "gemm_choice.hpp"
#include "gpu_case.hpp"
#include "runtime/host_backend.hpp"
#include "storage/storage_dir.hpp"
#include "workload/batch_loader.hpp"
#include "workload/bucket_plan.hpp"
#include "workload/gradient_sync.hpp"
#include "workload/step_axes.hpp"
#include "workload/step_runner.hpp"
#include "workload/transformer_shape.hpp"
#include "workload/workload_options.hpp"
#include "workload/workload_shape.hpp"

namespace cb {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr std::size_t kWorkspaceBytes = 64u << 20;
// A learning rate small enough that the weights stay where they are over any number of steps.
constexpr float kLearningRate = 1e-7f;
constexpr int kSamplesPerBucket = 8;
constexpr std::size_t kBf16 = 2;

// The smallest memory of this node's GPUs, 0 when the runtime cannot say.
std::uint64_t smallest_device_memory() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  std::uint64_t smallest = 0;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    const auto bytes = static_cast<std::uint64_t>(prop.totalGlobalMem);
    smallest = smallest == 0 ? bytes : std::min(smallest, bytes);
  }
  return smallest;
}

std::vector<std::uint64_t> layer_elements(const TransformerShape& shape) {
  std::vector<std::uint64_t> out;
  for (const auto& l : shape.layers())
    out.push_back(l.elements());
  return out;
}

std::uint64_t input_batch_bytes(const RunConfig& config) {
  // The storage family's first read size (--block-sizes), as the host step reads with.
  const StorageReads reads = storage_reads("data_parallel_step", config);
  const std::uint64_t block = reads.blocks.empty() ? (1ull << 20) : reads.blocks.front();
  return batch_bytes(kInputBytesPerStep.value(config), block);
}

// Pins the loader's ring for the step's lifetime, so that its copies are DMA from pinned memory.
class PinnedRing {
public:
  PinnedRing(void* p, std::size_t bytes) : p_(bytes > 0 ? p : nullptr) {
    if (p_)
      CB_CUDA(cudaHostRegister(p_, bytes, cudaHostRegisterDefault));
  }
  ~PinnedRing() {
    if (p_)
      cudaHostUnregister(p_);
  }
  PinnedRing(const PinnedRing&) = delete;
  PinnedRing& operator=(const PinnedRing&) = delete;

private:
  void* p_;
};

// One linear layer: its weights (in x out, column-major), gradients (the same, float), saved
// input (in x tokens) and where its output goes, and its three GEMMs:
//   forward          Y (out x T) = W^T X      TN, m = out, n = T, k = in
//   input gradient  dX (in x T)  = W dY       NN, m = in,  n = T, k = out
//   weight gradient dW (in x out) = X dY^T    NT, m = in,  n = out, k = T
struct GpuLayer {
  LinearLayer dims;
  void* w = nullptr;
  float* g = nullptr;
  const void* x = nullptr;
  void* y = nullptr;
  std::unique_ptr<cuda::LtMatmul> forward, input_gradient, weight_gradient;
};

class CudaStepRunner : public StepRunner {
public:
  CudaStepRunner(const CaseContext& ctx, cuda::CudaBackend& backend, const TransformerShape& shape,
                 BatchLoader* loader, const StepSync& sync)
      : backend_(backend), shape_(shape), overlap_(sync.overlap), loader_(loader),
        rank_(ctx.comm.rank()), ranks_(ctx.comm.size()), own_scale_(gradient_scale(rank_)),
        scale_sum_(gradient_scale_sum(ranks_)), made_on_(backend.device_index()) {
    // made_on_ keeps the backend's GPU current for the body too.
    const cudaStream_t compute = backend_.stream();
    const std::vector<LinearLayer> dims = shape.layers();
    const auto t = static_cast<std::size_t>(shape.tokens);
    const auto h = static_cast<std::size_t>(shape.hidden);
    const std::size_t widest = 4 * h;
    const auto params = static_cast<std::size_t>(shape.params());
    params_ = params;

    weights_ = cuda::DeviceMemory(params * kBf16);
    gradients_ = cuda::DeviceMemory(params * sizeof(float));
    std::size_t saved = 0;
    for (const auto& d : dims)
      saved += static_cast<std::size_t>(d.in) * t;
    inputs_ = cuda::DeviceMemory(saved * kBf16);
    qkv_out_ = cuda::DeviceMemory(3 * h * t * kBf16);
    last_out_ = cuda::DeviceMemory(h * t * kBf16);
    output_gradient_ = cuda::DeviceMemory(widest * t * kBf16);
    input_gradient_ = cuda::DeviceMemory(widest * t * kBf16);
    workspace_ = cuda::DeviceMemory(kWorkspaceBytes);
    if (loader_) {
      batch_ = cuda::DeviceMemory(loader_->batch_bytes());
      pinned_ = std::make_unique<PinnedRing>(loader_->ring(), loader_->ring_bytes());
    }

    // Inputs and weights identical on every rank; the output gradient scaled by 2^(r mod 4):
    // the weight gradients are then exactly that multiple of the peers'.
    std::size_t w_at = 0, x_at = 0;
    layers_.resize(dims.size());
    for (std::size_t l = 0; l < dims.size(); ++l) {
      GpuLayer& layer = layers_[l];
      layer.dims = dims[l];
      layer.w = static_cast<char*>(weights_.get()) + w_at * kBf16;
      layer.g = static_cast<float*>(gradients_.get()) + w_at;
      layer.x = static_cast<const char*>(inputs_.get()) + x_at * kBf16;
      const std::size_t n = dims[l].elements();
      cuda::launch_fill_scaled_bf16(layer.w, n, 100 + l,
                                    std::sqrt(3.0f / static_cast<float>(dims[l].in)), compute);
      cuda::launch_fill_scaled_bf16(const_cast<void*>(layer.x),
                                    static_cast<std::size_t>(dims[l].in) * t, 200 + l, 1.0f,
                                    compute);
      w_at += n;
      x_at += static_cast<std::size_t>(dims[l].in) * t;
    }
    for (std::size_t l = 0; l < dims.size(); ++l) {
      GpuLayer& layer = layers_[l];
      // The next layer's input where it takes this output whole; QKV's output (3 hidden) feeds no
      // parameter GEMM directly (attention's score GEMMs are not part of the step).
      if (l + 1 == dims.size())
        layer.y = last_out_.get();
      else if (dims[l + 1].in == dims[l].out)
        layer.y = const_cast<void*>(layers_[l + 1].x);
      else
        layer.y = qkv_out_.get();
    }
    cuda::launch_fill_scaled_bf16(output_gradient_.get(), widest * t, 300,
                                  own_scale_ / static_cast<float>(shape.tokens), compute);

    // The GEMMs, one plan per layer (layers of a shape share their algorithm choice).
    for (auto& layer : layers_) {
      const int in = layer.dims.in, out = layer.dims.out, tk = shape.tokens;
      cuda::MatmulShape f{true, false, out, tk, in, in, in, out, CUDA_R_16BF, CUDA_R_16BF};
      cuda::MatmulShape dx{false, false, in, tk, out, in, static_cast<long long>(widest),
                           static_cast<long long>(widest), CUDA_R_16BF, CUDA_R_16BF};
      cuda::MatmulShape dw{false, true, in, out, tk, in, static_cast<long long>(widest), in,
                           CUDA_R_16BF, CUDA_R_32F};
      layer.forward = std::make_unique<cuda::LtMatmul>(lt_, f, kWorkspaceBytes);
      layer.input_gradient = std::make_unique<cuda::LtMatmul>(lt_, dx, kWorkspaceBytes);
      layer.weight_gradient = std::make_unique<cuda::LtMatmul>(lt_, dw, kWorkspaceBytes);
    }

    for (const auto& layer : layers_) {
      for (const auto* m :
           {layer.forward.get(), layer.input_gradient.get(), layer.weight_gradient.get()})
        ++shape_times_[shape_key(m->shape())].count;
    }
    buckets_ = plan_buckets(layer_elements(shape), sync.bucket_bytes, sizeof(float));
    share_sums_.assign(buckets_.size(), 0.0);
    samples_before_ = cuda::HostMemory(buckets_.size() * kSamplesPerBucket * sizeof(float), true);
    samples_after_ = cuda::HostMemory(buckets_.size() * kSamplesPerBucket * sizeof(float), true);
    gemm_done_.resize(3 * layers_.size() + 1);
    backend_.synchronize();
  }

  ~CudaStepRunner() override {
    // Work still queued must finish before its buffers go (an exception between steps). While an
    // error unwinds, a bucket's all-reduce may wait for a peer that failed: abort the
    // communicators first, or the synchronize below would wait for it until the watchdog.
    if (std::uncaught_exceptions() > 0)
      backend_.abort_communicators();
    cuda::DeviceScope scope(backend_.device_index(), std::nothrow);
    cudaStreamSynchronize(backend_.stream());
    cudaStreamSynchronize(comm_stream_.get());
    cudaStreamSynchronize(input_stream_.get());
  }

  void prepare(const CaseContext& ctx) override {
    cuda::DeviceScope scope(backend_.device_index());
    comm_ = backend_.collectives_on(ctx.comm, comm_stream_.get());
    choose_algorithms(ctx);
  }

  StepParts run_step(std::uint64_t step, std::string* read_error) override {
    cuda::DeviceScope scope(backend_.device_index());
    const cudaStream_t compute = backend_.stream();
    StepParts parts;
    const auto start = Clock::now();
    const unsigned char* batch = nullptr;
    if (loader_ && read_error->empty()) {
      parts.input_wait_s = loader_->acquire(step, read_error);
      if (read_error->empty())
        batch = loader_->batch(step);
    }
    if (batch) {
      CB_CUDA(cudaMemcpyAsync(batch_.get(), batch, loader_->batch_bytes(), cudaMemcpyHostToDevice,
                              input_stream_.get()));
      copied_.record(input_stream_.get());
    }
    step_start_.record(compute);
    if (batch)
      CB_CUDA(cudaStreamWaitEvent(compute, copied_.get(), 0));
    // gemm_done_[0]: the input is there; gemm_done_[i + 1]: GEMM i is done.
    std::size_t g = 0;
    gemm_done_[g++].record(compute);
    void* ws = workspace_.get();
    for (auto& layer : layers_) {
      layer.forward->enqueue(layer.w, layer.x, layer.y, 1, 0, ws, compute);
      gemm_done_[g++].record(compute);
    }
    const std::size_t backward_from = g - 1;
    std::vector<std::size_t> ready_event(buckets_.size(), 0);
    std::size_t next_ready = 0;
    for (std::size_t l = layers_.size(); l-- > 0;) {
      GpuLayer& layer = layers_[l];
      layer.weight_gradient->enqueue(layer.x, output_gradient_.get(), layer.g, 1, 0, ws, compute);
      gemm_done_[g].record(compute);
      // A bucket is complete once the lowest layer it covers has its weight gradient.
      for (; next_ready < buckets_.size() &&
             buckets_[next_ready].ready_after >= static_cast<int>(l);
           ++next_ready) {
        ready_event[next_ready] = g;
        if (overlap_)
          start_bucket(next_ready, gemm_done_[g].get());
      }
      ++g;
      layer.input_gradient->enqueue(layer.w, output_gradient_.get(), input_gradient_.get(), 1, 0,
                                    ws, compute);
      gemm_done_[g++].record(compute);
    }
    const std::size_t backward_done = g - 1;
    if (!overlap_) {
      for (std::size_t b = 0; b < buckets_.size(); ++b)
        start_bucket(b, gemm_done_[backward_done].get());
    }
    comm_done_.record(comm_stream_.get());
    CB_CUDA(cudaStreamWaitEvent(compute, comm_done_.get(), 0));
    comm_waited_.record(compute);
    cuda::launch_sgd_update_bf16(weights_.get(), static_cast<const float*>(gradients_.get()),
                                 params_, -kLearningRate / static_cast<float>(scale_sum_),
                                 compute);
    step_end_.record(compute);
    backend_.wait(step_end_.get());
    if (loader_ && batch) {
      const auto handing = Clock::now();
      loader_->release(step);
      parts.input_wait_s += since(handing);
    }
    parts.step_s = since(start);

    // The parts, from the compute stream's events.
    const double gpu_input = cuda::elapsed_seconds(step_start_, gemm_done_[0]);
    const double gemms = cuda::elapsed_seconds(gemm_done_[0], gemm_done_[backward_done]);
    parts.backward_s = cuda::elapsed_seconds(gemm_done_[backward_from], gemm_done_[backward_done]);
    parts.exposed_comm_s = cuda::elapsed_seconds(gemm_done_[backward_done], comm_waited_);
    const double update = cuda::elapsed_seconds(comm_waited_, step_end_);
    parts.input_wait_s += gpu_input;
    parts.compute_s = gemms + update;
    parts.update_s = update;
    step_gemm_s_.push_back(gemms);
    if (parts.backward_s > 0) {
      for (std::size_t b = 0; b < buckets_.size(); ++b) {
        share_sums_[b] +=
            cuda::elapsed_seconds(gemm_done_[backward_from], gemm_done_[ready_event[b]]) /
            parts.backward_s;
      }
      ++shared_steps_;
    }
    add_gemm_times();
    if (checking_)
      check_buckets();
    return parts;
  }

  void reset_measurements() override {
    // The measured steps carry no sample copies (two small device-to-host copies per bucket on the
    // communication stream, hundreds a step, would be timed as communication); the warm-up steps
    // before them ran the same all-reduces and were checked.
    checking_ = false;
    std::fill(share_sums_.begin(), share_sums_.end(), 0.0);
    shared_steps_ = 0;
    step_gemm_s_.clear();
    for (auto& [key, t] : shape_times_)
      t.seconds = t.flops = 0;
  }

  std::vector<double> bucket_bytes() const override {
    std::vector<double> out;
    for (const auto& b : buckets_)
      out.push_back(static_cast<double>(b.count * sizeof(float)));
    return out;
  }

  std::vector<double> bucket_ready_share() const override {
    std::vector<double> out;
    for (double sum : share_sums_)
      out.push_back(shared_steps_ > 0 ? sum / static_cast<double>(shared_steps_) : 0.0);
    return out;
  }

  long long gradient_values_checked() const override { return checked_; }
  long long gradient_values_wrong() const override { return wrong_; }
  double flops_per_step() const override { return shape_.flops_per_step(); }

  nlohmann::json record_extra(const CaseContext&) override {
    nlohmann::json shapes = nlohmann::json::array();
    for (const auto& [key, t] : shape_times_) {
      shapes.push_back({{"gemm", key},
                        {"per_step", t.count},
                        {"tflops", t.seconds > 0 ? t.flops / t.seconds / 1e12 : 0.0}});
    }
    std::vector<double> gemm_s = step_gemm_s_;
    double median_gemm = 0;
    if (!gemm_s.empty()) {
      std::nth_element(gemm_s.begin(), gemm_s.begin() + gemm_s.size() / 2, gemm_s.end());
      median_gemm = gemm_s[gemm_s.size() / 2];
    }
    double gemm_flops = 0;
    for (const auto& layer : layers_) {
      gemm_flops += layer.forward->shape().flops() + layer.input_gradient->shape().flops() +
                    layer.weight_gradient->shape().flops();
    }
    return {{"gemm_library", "cuBLASLt " + std::string(cuda::cublaslt_library_name())},
            {"precision", "bf16 GEMMs with float accumulation; float weight gradients, "
                          "all-reduced as float by NCCL"},
            {"gradient_dtype", "float"},
            {"gemm_tflops_per_gpu", median_gemm > 0 ? gemm_flops / median_gemm / 1e12 : 0.0},
            {"gemm_shapes", shapes},
            {"gemm_algorithms", "fastest of cuBLASLt's heuristic candidates on rank 0, used by "
                                "every rank"}};
  }

private:
  struct ShapeTime {
    double seconds = 0, flops = 0;
    int count = 0; // GEMMs of the shape per step
  };

  // Bucket b's all-reduce on the communication stream, once `ready` (its last GEMM) is done; on
  // the checked (warm-up) steps with a few of its values sampled before and after.
  void start_bucket(std::size_t b, cudaEvent_t ready) {
    const GradientBucket& bucket = buckets_[b];
    const cudaStream_t stream = comm_stream_.get();
    CB_CUDA(cudaStreamWaitEvent(stream, ready, 0));
    float* first = static_cast<float*>(gradients_.get()) + bucket.offset;
    if (checking_)
      sample(first, bucket.count,
             static_cast<float*>(samples_before_.get()) + b * kSamplesPerBucket, stream);
    comm_->all_reduce(first, first, bucket.count, DType::f32, ReduceOp::sum);
    if (checking_)
      sample(first, bucket.count, static_cast<float*>(samples_after_.get()) + b * kSamplesPerBucket,
             stream);
  }

  // kSamplesPerBucket values spread over the bucket, its first included, in one strided copy.
  static void sample(const float* first, std::uint64_t count, float* out, cudaStream_t stream) {
    const std::uint64_t rows = std::min<std::uint64_t>(kSamplesPerBucket, count);
    const std::uint64_t pitch = std::max<std::uint64_t>(1, (count - 1) / (kSamplesPerBucket - 1));
    CB_CUDA(cudaMemcpy2DAsync(out, sizeof(float), first, pitch * sizeof(float), sizeof(float), rows,
                              cudaMemcpyDeviceToHost, stream));
  }

  void check_buckets() {
    // Every rank's value is the unscaled gradient times its own scale, exactly; their sum carries
    // one rounding per addition, all of one sign, so it is within ranks x epsilon of the exact sum.
    const double tolerance = 4.0 * ranks_ * std::numeric_limits<float>::epsilon();
    const auto* before = static_cast<const float*>(samples_before_.get());
    const auto* after = static_cast<const float*>(samples_after_.get());
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      const std::uint64_t rows = std::min<std::uint64_t>(kSamplesPerBucket, buckets_[b].count);
      for (std::uint64_t i = 0; i < rows; ++i) {
        const double mine = before[b * kSamplesPerBucket + i];
        const double want = mine / own_scale_ * scale_sum_;
        const double got = after[b * kSamplesPerBucket + i];
        ++checked_;
        if (!(std::abs(got - want) <= tolerance * std::abs(want) + 1e-30))
          ++wrong_;
      }
    }
  }

  // Each GEMM's time, summed per shape (gemm_done_ follows the order the GEMMs were enqueued).
  void add_gemm_times() {
    std::size_t g = 0;
    auto add = [&](const cuda::LtMatmul& m) {
      ShapeTime& t = shape_times_[shape_key(m.shape())];
      t.seconds += cuda::elapsed_seconds(gemm_done_[g], gemm_done_[g + 1]);
      t.flops += m.shape().flops();
      ++g;
    };
    for (const auto& layer : layers_)
      add(*layer.forward);
    for (std::size_t l = layers_.size(); l-- > 0;) {
      add(*layers_[l].weight_gradient);
      add(*layers_[l].input_gradient);
    }
  }

  // Rank 0 times each distinct GEMM problem's candidates on the step's own buffers and every
  // rank uses its choice. The trial runs write only outputs the first step writes again.
  void choose_algorithms(const CaseContext& ctx) {
    std::vector<GemmTrial> trials;
    for (auto& layer : layers_) {
      trials.push_back({layer.forward.get(), layer.w, layer.x, layer.y});
      trials.push_back({layer.input_gradient.get(), layer.w, output_gradient_.get(),
                        input_gradient_.get()});
      trials.push_back({layer.weight_gradient.get(), layer.x, output_gradient_.get(), layer.g});
    }
    std::vector<int> choice(trials.size(), 0);
    if (rank_ == 0)
      choice = fastest_candidates(trials, workspace_.get(), backend_.stream());
    ctx.comm.broadcast(choice.data(), static_cast<int>(choice.size() * sizeof(int)));
    for (std::size_t i = 0; i < trials.size(); ++i)
      trials[i].matmul->use(choice[i]);
    backend_.synchronize();
  }

  cuda::CudaBackend& backend_;
  TransformerShape shape_;
  bool overlap_;
  BatchLoader* loader_;
  int rank_, ranks_;
  float own_scale_;
  double scale_sum_;
  std::size_t params_ = 0;
  // The backend's GPU is current while the members below are made (a stream or an event belongs
  // to the device current when it is created), whatever device the caller had current.
  cuda::DeviceScope made_on_;
  cuda::LtHandle lt_;
  cuda::Stream comm_stream_, input_stream_;
  cuda::DeviceMemory weights_, gradients_, inputs_, qkv_out_, last_out_, output_gradient_,
      input_gradient_, workspace_, batch_;
  std::unique_ptr<PinnedRing> pinned_;
  cuda::HostMemory samples_before_, samples_after_;
  std::vector<GpuLayer> layers_;
  std::vector<GradientBucket> buckets_;
  std::unique_ptr<CollectiveComm> comm_;
  cuda::Event copied_, step_start_, comm_done_, comm_waited_, step_end_;
  std::vector<cuda::Event> gemm_done_;
  std::vector<double> share_sums_;
  long long shared_steps_ = 0;
  std::vector<double> step_gemm_s_;
  std::map<std::string, ShapeTime> shape_times_; // by shape_key, with its GEMMs per step
  long long checked_ = 0, wrong_ = 0;
  bool checking_ = true; // until reset_measurements(): the warm-up steps are the checked ones
};

void check_cuda_step(const RunConfig& config, int local_ranks) {
  const TransformerShape shape = transformer_shape(config);
  for (std::uint64_t bucket : step_bucket_sizes(config)) {
    const std::uint64_t buckets = bucket_count(layer_elements(shape), bucket, sizeof(float));
    if (buckets > kMaxBuckets) {
      throw InputError("--bucket-bytes: " + format_size(bucket) + " cuts the " +
                       format_size(static_cast<std::uint64_t>(4 * shape.params())) +
                       " of float gradients into " + std::to_string(buckets) +
                       " buckets; at most " + std::to_string(kMaxBuckets));
    }
  }
  // One GPU per rank (the launcher refuses more ranks than GPUs): the model against one GPU.
  check_transformer_memory(shape, smallest_device_memory(),
                           input_batch_bytes(config) + kWorkspaceBytes);
  // The batches wait in pinned host memory, a --prefetch ring per rank of this node.
  check_input_ring_memory(local_ranks, host_memory_bytes(),
                          input_batch_bytes(config) *
                              static_cast<std::uint64_t>(kPrefetch.value(config)));
}

nlohmann::json cuda_step_params(const RunConfig& config) {
  const TransformerShape shape = transformer_shape(config);
  return {{"model_params", static_cast<std::uint64_t>(shape.params())},
          {"blocks", shape.blocks},
          {"hidden", shape.hidden},
          {"tokens_per_gpu", shape.tokens},
          {"precision", "bf16"}};
}

std::unique_ptr<StepRunner> make_cuda_step(const CaseContext& ctx, const nlohmann::json& params,
                                           BatchLoader* loader) {
  return std::make_unique<CudaStepRunner>(ctx, cuda_backend_of(ctx.backend, ctx.backend_kind()),
                                          transformer_shape(ctx.config), loader, step_sync(params));
}

std::string why_no_cuda_step(const Backend& backend, const Communicator& world) {
  if (std::string why = backend.why_no_collectives(world); !why.empty())
    return why;
  if (std::string why = cuda::cublaslt_load_problem(); !why.empty())
    return "the step's GEMMs are cuBLASLt's: " + why;
  // Registered for the cuda kind: the backend asked is the cuda backend.
  const auto& cuda_backend = cuda_backend_of(backend, BackendKind::cuda);
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                             cuda_backend.device_index()) == cudaSuccess &&
      major < 8) {
    return "the step's bf16 GEMMs need compute capability 8.0 or later";
  }
  return "";
}

[[maybe_unused]] const bool data_parallel_step_registered = [] {
  StepBackendRegistry::instance().add(
      BackendKind::cuda, {&check_cuda_step, &cuda_step_params, &make_cuda_step, &why_no_cuda_step});
  return true;
}();

} // namespace
} // namespace cb
