// gemm: OpenBLAS sgemm/dgemm at square sizes on every rank at once, one BLAS thread per rank.
// 2mnk flops; a spread of entries of C checked exactly against direct dot products.
#include "compute/compute_case.hpp"
#include "host/blas_gemm.hpp"

namespace cb {

class GemmCase : public ComputeCase {
public:
  std::string name() const override { return "gemm"; }

  std::vector<nlohmann::json> instances(const RunConfig& config) const override {
    if (config.backend != "host")
      return gpu_instances(config);
    std::vector<int> sizes = config.gemm_sizes;
    if (sizes.empty()) {
      sizes = config.quick ? std::vector<int>{512, 1024} : std::vector<int>{1024, 2048, 4096};
    }
    std::vector<nlohmann::json> out;
    for (const char* dtype : {"float", "double"}) {
      for (int n : sizes)
        out.push_back({{"m", n}, {"n", n}, {"k", n}, {"dtype", dtype}});
    }
    return out;
  }

  std::vector<Record> run(const CaseContext& ctx, const nlohmann::json& params) override {
    Record record = ctx.new_record(suite(), name(), params);
    if (const std::string why = why_unsupported(ctx); !why.empty()) {
      CaseContext::skip(record, why);
      return {record};
    }
    if (ComputeKernels* kernels = backend_kernels(ctx)) {
      const std::string precision = params.at("dtype").get<std::string>();
      const int m = params.at("m").get<int>(), n = params.at("n").get<int>(),
                k = params.at("k").get<int>();
      if (auto why = kernels->why_unsupported_gemm(precision, m, n, k); !why.empty()) {
        CaseContext::skip(record, why);
        return {record};
      }
      auto kernel = kernels->gemm(precision, m, n, k);
      measure_backend_kernel(ctx, record, *kernel, "tflops", 1e12, "gemm_" + precision + "_tflops");
      return {record};
    }
    // The host's GEMM is the BLAS library's: without one there is nothing to measure.
    if (!blas_available()) {
      CaseContext::skip(record, blas_description());
      return {record};
    }
    blas_use_one_thread();
    const bool is_double = params.at("dtype").get<std::string>() == "double";
    const int n = params.at("n").get<int>();
    const std::size_t bytes = static_cast<std::size_t>(n) * n * (is_double ? 8 : 4);
    auto a = ctx.backend.allocate(bytes);
    auto b = ctx.backend.allocate(bytes);
    auto c = ctx.backend.allocate(bytes);
    fill_gemm_inputs(is_double, n, a->data(), b->data());
    record.extra["blas"] = blas_description();
    record.extra["blas_threads"] = 1;

    measure_weak(
        ctx, record, [&] { gemm_square(is_double, n, a->data(), b->data(), c->data()); },
        gemm_flops(n, n, n), "gflops");
    set_check(ctx, record,
              static_cast<long long>(count_gemm_errors(is_double, n, c->data(), kCheckedEntries)),
              "entries of C");
    return {record};
  }

private:
  // GPUs (cuBLASLt): every tensor-core precision at 8192^3, then a shape sweep in bf16 (square
  // sizes, and the tall-skinny shapes of transformer layers). --gemm-sizes replaces the squares.
  static std::vector<nlohmann::json> gpu_instances(const RunConfig& config) {
    std::vector<nlohmann::json> out;
    auto add = [&](const char* precision, int m, int n, int k) {
      out.push_back({{"m", m}, {"n", n}, {"k", k}, {"dtype", precision}});
    };
    if (!config.gemm_sizes.empty()) {
      for (const char* precision : {"bf16", "fp16", "tf32", "fp8"}) {
        for (int n : config.gemm_sizes)
          add(precision, n, n, n);
      }
      return out;
    }
    for (const char* precision : {"bf16", "fp16", "tf32", "fp8"})
      add(precision, 8192, 8192, 8192);
    if (config.quick)
      return out;
    for (int n : {2048, 4096, 16384})
      add("bf16", n, n, n);
    add("bf16", 16384, 8192, 1024);
    add("bf16", 8192, 28672, 8192);
    return out;
  }

  static constexpr int kCheckedEntries = 64;
};

CB_REGISTER_CASE(GemmCase);

} // namespace cb
