#include "cuda/compute_kernels_cuda.hpp"

#include <cstdio>
#include <vector>

#include "core/error.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/datasheet.hpp"
#include "cuda/device_info.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/gemm_lt.hpp"

namespace cb::cuda {
namespace {

constexpr int kThreads = 256;
constexpr double kScalar = 3.0;
// Initial values of STREAM's arrays and what each kernel leaves in its output (every kernel reads
// only arrays it does not write, so repeated passes leave the same values).
constexpr double kA = 1.0, kB = 2.0, kC = 0.5;

double expected_output(StreamKind kind) {
  switch (kind) {
  case StreamKind::copy:
    return kA; // c = a
  case StreamKind::scale:
    return kScalar * kC; // b = s c
  case StreamKind::add:
    return kA + kB; // c = a + b
  case StreamKind::triad:
    return kB + kScalar * kC; // a = b + s c
  case StreamKind::read:
    return kA; // sum(a) / n
  }
  return 0;
}

std::string mismatch_text(unsigned long long wrong, std::size_t n, double value) {
  char text[160];
  std::snprintf(text, sizeof text, "%llu of %zu elements differ from %g", wrong, n, value);
  return text;
}

// Counts the elements of p that are not `value`, on the device.
unsigned long long count_wrong(DType t, const void* p, std::size_t n, double value,
                               cudaStream_t stream) {
  DeviceMemory count(sizeof(unsigned long long));
  CB_CUDA(cudaMemsetAsync(count.get(), 0, sizeof(unsigned long long), stream));
  launch_count_not_equal(t, p, n, value, static_cast<unsigned long long*>(count.get()), stream);
  unsigned long long wrong = 0;
  CB_CUDA(cudaMemcpyAsync(&wrong, count.get(), sizeof wrong, cudaMemcpyDeviceToHost, stream));
  CB_CUDA(cudaStreamSynchronize(stream));
  return wrong;
}

class StreamKernel : public TimedKernel {
public:
  StreamKernel(CudaBackend& backend, StreamKind kind, DType t, std::size_t array_bytes)
      : backend_(backend), kind_(kind), t_(t) {
    DeviceScope scope(backend.device_index());
    const std::size_t size = dtype_size(t);
    // Whole 16-byte vectors: the kernels move 16 bytes per load.
    elements_ = array_bytes / 16 * 16 / size;
    if (elements_ == 0)
      CB_RUN_ERROR("stream array of " + std::to_string(array_bytes) + " bytes");
    blocks_ = kind == StreamKind::read ? read_blocks(t, backend.device_index()) : 0;
    const cudaStream_t s = backend.stream();
    a_ = DeviceMemory(elements_ * size);
    launch_fill_constant(t, a_.get(), elements_, kA, s);
    if (kind == StreamKind::read) {
      partial_ = DeviceMemory(static_cast<std::size_t>(blocks_) * sizeof(double));
    } else {
      b_ = DeviceMemory(elements_ * size);
      c_ = DeviceMemory(elements_ * size);
      launch_fill_constant(t, b_.get(), elements_, kB, s);
      launch_fill_constant(t, c_.get(), elements_, kC, s);
    }
    CB_CUDA(cudaStreamSynchronize(s));
  }
  double run(int k) override {
    return backend_.time_batch(k, [this] {
      if (kind_ == StreamKind::read) {
        launch_read(t_, a_.get(), elements_, static_cast<double*>(partial_.get()), blocks_,
                    backend_.stream());
      } else {
        launch_stream(kind_, t_, a_.get(), b_.get(), c_.get(), elements_, kScalar,
                      backend_.stream());
      }
    });
  }
  double work_per_op() const override {
    return static_cast<double>(stream_arrays_moved(kind_)) * static_cast<double>(elements_) *
           static_cast<double>(dtype_size(t_));
  }
  std::string verify() override {
    const cudaStream_t s = backend_.stream();
    const double want = expected_output(kind_);
    if (kind_ == StreamKind::read) {
      std::vector<double> partial(static_cast<std::size_t>(blocks_));
      CB_CUDA(cudaMemcpyAsync(partial.data(), partial_.get(), partial.size() * sizeof(double),
                              cudaMemcpyDeviceToHost, s));
      CB_CUDA(cudaStreamSynchronize(s));
      double sum = 0;
      for (double v : partial)
        sum += v;
      const double expected = want * static_cast<double>(elements_);
      if (sum == expected)
        return {};
      char text[160];
      std::snprintf(text, sizeof text, "sum of the array is %.17g, expected %.17g", sum, expected);
      return text;
    }
    const void* out = kind_ == StreamKind::copy || kind_ == StreamKind::add ? c_.get()
                      : kind_ == StreamKind::scale                          ? b_.get()
                                                                            : a_.get();
    const unsigned long long wrong = count_wrong(t_, out, elements_, want, s);
    return wrong == 0 ? std::string() : mismatch_text(wrong, elements_, want);
  }

private:
  CudaBackend& backend_;
  StreamKind kind_;
  DType t_;
  std::size_t elements_ = 0;
  int blocks_ = 0;
  DeviceMemory a_, b_, c_, partial_;
};

class FmaKernel : public TimedKernel {
public:
  // b = 0.5, c = 1: every chain converges to exactly 2 in every type, so the check is exact.
  static constexpr double kB = 0.5, kC = 1.0, kLimit = 2.0;
  static constexpr int kIterations = 8192;

  FmaKernel(CudaBackend& backend, DType t) : backend_(backend), t_(t) {
    DeviceScope scope(backend.device_index());
    blocks_ = fma_blocks(t, kThreads, backend.device_index());
    values_ = static_cast<std::size_t>(blocks_) * kThreads * kFmaChains * lanes();
    out_ = DeviceMemory(values_ * dtype_size(t));
  }
  double run(int k) override {
    return backend_.time_batch(k, [this] {
      launch_fma_peak(t_, out_.get(), kIterations, kB, kC, blocks_, kThreads, backend_.stream());
    });
  }
  double work_per_op() const override {
    return 2.0 * fma_count(t_, kIterations, blocks_, kThreads);
  }
  std::string verify() override {
    const unsigned long long wrong =
        count_wrong(t_, out_.get(), values_, kLimit, backend_.stream());
    if (wrong != 0)
      return mismatch_text(wrong, values_, kLimit);
    // The timed results converge, so they cannot tell whether every chain ran every step. A
    // counting launch can: with b = c = 1 each chain ends at exactly its step count (256 is exact
    // even in bf16), so a dropped chain or iteration shows.
    launch_fma_peak(t_, out_.get(), kCountingSteps, 1.0, 1.0, blocks_, kThreads, backend_.stream());
    const unsigned long long miscounted =
        count_wrong(t_, out_.get(), values_, kCountingSteps, backend_.stream());
    return miscounted == 0 ? std::string() : mismatch_text(miscounted, values_, kCountingSteps);
  }

private:
  static constexpr int kCountingSteps = 256;
  int lanes() const { return t_ == DType::f16 || t_ == DType::bf16 ? 2 : 1; }
  CudaBackend& backend_;
  DType t_;
  int blocks_ = 0;
  std::size_t values_ = 0;
  DeviceMemory out_;
};

} // namespace

std::size_t stream_array_bytes_for(std::size_t l2_bytes) {
  constexpr std::size_t kMiB = 1u << 20;
  const std::size_t bytes = std::max<std::size_t>(8 * l2_bytes, 1024 * kMiB);
  return (bytes + kMiB - 1) / kMiB * kMiB;
}

CudaComputeKernels::CudaComputeKernels(CudaBackend& backend) : backend_(backend) {
  const nlohmann::json d = describe_device(backend.device_index());
  const std::string cc = d.value("compute_capability", "0.0");
  compute_capability_ =
      std::stoi(cc.substr(0, cc.find('.'))) * 10 + std::stoi(cc.substr(cc.find('.') + 1));
  l2_bytes_ = d.value("l2_bytes", 0ull);
  datasheet_ = find_datasheet(d.value("name", ""));
}

std::string CudaComputeKernels::why_unsupported_stream(StreamKind, DType t) const {
  if (t != DType::f32 && t != DType::f64) {
    return "the GPU stream kernels run on float and double arrays, not " +
           std::string(dtype_name(t));
  }
  return {};
}

std::string CudaComputeKernels::why_unsupported_fma(DType t) const {
  if (t == DType::bf16 && compute_capability_ < 80) {
    return "bf16 FMA needs compute capability 8.0 or later";
  }
  if (t != DType::f32 && t != DType::f64 && t != DType::f16 && t != DType::bf16) {
    return "no GPU FMA kernel for " + std::string(dtype_name(t)) + " (float, double, fp16, bf16)";
  }
  return {};
}

std::string CudaComputeKernels::why_unsupported_gemm(const std::string& precision, int m, int n,
                                                     int k) const {
  if (std::string why = gemm_unsupported_reason(precision, compute_capability_); !why.empty())
    return why;
  return gemm_shape_problem(precision, m, n, k);
}

std::unique_ptr<TimedKernel> CudaComputeKernels::stream(StreamKind kind, DType t,
                                                        std::size_t array_bytes) {
  return std::make_unique<StreamKernel>(backend_, kind, t, array_bytes);
}

std::unique_ptr<TimedKernel> CudaComputeKernels::fma_peak(DType t) {
  return std::make_unique<FmaKernel>(backend_, t);
}

std::unique_ptr<TimedKernel> CudaComputeKernels::gemm(const std::string& precision, int m, int n,
                                                      int k) {
  CudaBackend& backend = backend_;
  return std::make_unique<LtGemm>(precision, m, n, k, backend.device_index(), backend.stream(),
                                  [&backend](int count, const std::function<void()>& one) {
                                    return backend.time_batch(count, one);
                                  });
}

std::size_t CudaComputeKernels::default_array_bytes() const {
  return stream_array_bytes_for(l2_bytes_);
}

double CudaComputeKernels::peak(const std::string& figure) const {
  return datasheet_ ? datasheet_figure(*datasheet_, figure) : 0.0;
}

} // namespace cb::cuda
