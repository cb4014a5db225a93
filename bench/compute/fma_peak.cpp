// fma_peak: GFLOP/s of independent vectorised FMA chains on every rank at once, float and double.
// The instruction set is the widest the CPU runs (chosen at run time); 2 flops per FMA per lane.
#include "compute/compute_case.hpp"
#include "host/fma_kernels.hpp"

namespace cb {

class FmaPeakCase : public ComputeCase {
public:
  FmaPeakCase() : ComputeCase("fma_peak") {}

  std::vector<Axis> axes() const override {
    // GPUs: half precision too (half2/bfloat162 FMAs).
    return {Axis::words("dtype", {"float", "double", "fp16", "bf16"})
                .defaults("float,double")
                .on_gpu("float,double,fp16,bf16")
                .described("precisions (the host's vector FMAs have float and double)")};
  }

  void run(CaseRun& run, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    if (auto why = why_unsupported(ctx); !why.empty())
      return run.skip(why);
    if (ComputeKernels* kernels = backend_kernels(ctx)) {
      const std::string dtype = params.at("dtype").get<std::string>();
      const DType t = dtype_from_name(dtype);
      if (auto why = kernels->why_unsupported_fma(t); !why.empty())
        return run.skip(why);
      auto kernel = kernels->fma_peak(t);
      measure_backend_kernel(run, *kernel, "tflops", 1e12, "fma_" + dtype + "_tflops");
      return;
    }
    const std::string precision = params.at("dtype").get<std::string>();
    if (precision != "float" && precision != "double")
      return run.skip("the host's FMA kernels are float and double only, not " + precision);
    Record& record = run.record();
    const bool is_double = precision == "double";
    const FmaIsa isa = best_fma_isa();
    const int lanes = fma_lanes(isa, is_double);
    record.extra["isa"] = fma_isa_name(isa);
    record.extra["accumulators"] = kFmaAccumulators;
    record.extra["lanes"] = lanes;
    record.extra["iterations"] = kIterations;

    // The last operation's chains are kept for the check; the copy out is 96 values at most.
    std::vector<double> out64;
    std::vector<float> out32;
    auto one_op = [&] {
      if (is_double) {
        out64 = fma_chains_f64(isa, kIterations);
      } else {
        out32 = fma_chains_f32(isa, kIterations);
      }
    };
    measure_weak(run, one_op, fma_flops(kIterations, kFmaAccumulators, lanes), "gflops");
    const std::size_t wrong =
        is_double ? count_fma_errors(out64, kIterations) : count_fma_errors(out32, kIterations);
    set_check(run, static_cast<long long>(wrong), "chain values");
  }

private:
  // About 1.5 M vector FMAs per operation: a fraction of a millisecond to a few milliseconds.
  static constexpr long kIterations = 1L << 17;
};

CB_REGISTER_CASE(FmaPeakCase);

} // namespace cb
