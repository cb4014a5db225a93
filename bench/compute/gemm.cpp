// gemm: OpenBLAS sgemm/dgemm at square sizes on every rank at once, one BLAS thread per rank.
// 2mnk flops; a spread of entries of C checked exactly against direct dot products.
#include <algorithm>

#include "compute/compute_case.hpp"
#include "host/blas_gemm.hpp"
#include "runtime/axis_values.hpp"

namespace cb {

class GemmCase : public ComputeCase {
public:
  GemmCase() : ComputeCase("gemm") {}

  // Precision outermost, then square sizes. GPUs (cuBLASLt) default to every tensor-core
  // precision at 8192^3, and, outside --quick with sizes left alone, a bf16 shape sweep.
  std::vector<Axis> axes() const override {
    return {Axis::words("dtype", {"float", "double", "bf16", "fp16", "tf32", "fp8"})
                .defaults("float,double")
                .on_gpu("bf16,fp16,tf32,fp8")
                .described("precisions (the host's BLAS has float and double)"),
            Axis::integers("size", 1, 65536)
                .defaults("1024,2048,4096", "512,1024")
                .on_gpu("8192")
                .spelled("gemm-sizes")
                .described("square GEMM sizes m=n=k (on GPUs, with neither axis set, a bf16 shape "
                           "sweep follows)")};
  }

  std::vector<nlohmann::json> instances(const RunConfig& config) const override {
    std::vector<nlohmann::json> out;
    for (const auto& p : axis_product(name(), axes(), config)) {
      const int n = p.at("size").get<int>();
      out.push_back({{"m", n}, {"n", n}, {"k", n}, {"dtype", p.at("dtype")}});
    }
    const auto declared = axes();
    const bool set = std::any_of(declared.begin(), declared.end(), [&](const Axis& a) {
      return axis_setting_for(name(), a, config) != nullptr;
    });
    if (config.backend_kind == BackendKind::host || config.quick || set)
      return out;
    // The shapes of a transformer layer's GEMMs, in bf16: more square sizes and tall-skinny.
    auto add = [&](int m, int n, int k) {
      out.push_back({{"m", m}, {"n", n}, {"k", k}, {"dtype", "bf16"}});
    };
    for (int n : {2048, 4096, 16384})
      add(n, n, n);
    add(16384, 8192, 1024);
    add(8192, 28672, 8192);
    return out;
  }

  void run(CaseRun& run, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    if (const std::string why = why_unsupported(ctx); !why.empty())
      return run.skip(why);
    if (ComputeKernels* kernels = backend_kernels(ctx)) {
      const std::string precision = params.at("dtype").get<std::string>();
      const int m = params.at("m").get<int>(), n = params.at("n").get<int>(),
                k = params.at("k").get<int>();
      if (auto why = kernels->why_unsupported_gemm(precision, m, n, k); !why.empty())
        return run.skip(why);
      auto kernel = kernels->gemm(precision, m, n, k);
      measure_backend_kernel(run, *kernel, "tflops", 1e12, "gemm_" + precision + "_tflops");
      return;
    }
    // The host's GEMM is the BLAS library's: without one there is nothing to measure.
    if (!blas_available())
      return run.skip(blas_description());
    const std::string precision = params.at("dtype").get<std::string>();
    if (precision != "float" && precision != "double")
      return run.skip("the host's BLAS GEMM has float and double only, not " + precision);
    Record& record = run.record();
    blas_use_one_thread();
    const bool is_double = precision == "double";
    const int n = params.at("n").get<int>();
    const std::size_t bytes = static_cast<std::size_t>(n) * n * (is_double ? 8 : 4);
    auto a = ctx.backend.allocate(bytes);
    auto b = ctx.backend.allocate(bytes);
    auto c = ctx.backend.allocate(bytes);
    fill_gemm_inputs(is_double, n, a->data(), b->data());
    record.extra["blas"] = blas_description();
    record.extra["blas_threads"] = 1;

    measure_weak(
        run, [&] { gemm_square(is_double, n, a->data(), b->data(), c->data()); },
        gemm_flops(n, n, n), "gflops");
    set_check(run,
              static_cast<long long>(count_gemm_errors(is_double, n, c->data(), kCheckedEntries)),
              "entries of C");
  }

private:
  static constexpr int kCheckedEntries = 64;
};

CB_REGISTER_CASE(GemmCase);

} // namespace cb
