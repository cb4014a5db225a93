#include "compute/compute_case.hpp"

#include "runtime/axis_values.hpp"

namespace cb {

Axis ComputeCase::array_bytes_axis() {
  return Axis::sizes("bytes", sizeof(double), 1ull << 40)
      .computed_default("host 4 x the last-level cache; GPU the device's own (a multiple of its L2)")
      .spelled("array-bytes")
      .described("array size per rank");
}

std::size_t ComputeCase::device_array_bytes(const CaseContext& ctx, ComputeKernels& kernels,
                                            const nlohmann::json& params) const {
  if (axis_setting_for(name(), array_bytes_axis(), ctx.config) && params.contains("bytes"))
    return params.at("bytes").get<std::size_t>();
  return kernels.default_array_bytes();
}

std::string ComputeCase::why_unsupported(const CaseContext& ctx) {
  // The host kernels here are CPU code on host memory; another backend brings its own kernels.
  if (ctx.backend_kind() == BackendKind::host || ctx.backend.compute() != nullptr)
    return "";
  return "the " + ctx.backend.name() + " backend has no compute kernels";
}

void ComputeCase::measure_weak(CaseRun& run, const std::function<void()>& one_op, double work,
                               const std::string& metric) {
  const int ranks = run.context().comm.size();
  run.measure(one_op, [&](double seconds, bool whole) {
    return nlohmann::json{{"time_us", seconds * 1e6},
                          {metric, weak_scaling_rate(work, ranks, seconds, whole)}};
  });
}

void ComputeCase::measure_backend_kernel(CaseRun& run, TimedKernel& kernel,
                                         const std::string& metric, double unit,
                                         const std::string& peak_figure) {
  const CaseContext& ctx = run.context();
  const int ranks = ctx.comm.size();
  const double work = kernel.work_per_op();
  const double peak = ctx.backend.compute()->peak(peak_figure);
  run.record().extra["work_per_op"] = work;
  run.measure_timed([&](int k) { return kernel.run(k); },
                    [&](double seconds, bool whole) {
                      const double rate = weak_scaling_rate(work, ranks, seconds, whole, unit);
                      nlohmann::json m{{"time_us", seconds * 1e6}, {metric, rate}};
                      // Per device: the aggregate is shared by `ranks` devices.
                      if (peak > 0)
                        m["fraction_of_peak"] = rate / (whole ? ranks : 1) / peak;
                      return m;
                    });
  if (peak > 0)
    run.record().extra["datasheet_peak"] = {{peak_figure, peak}};
  const std::string wrong = kernel.verify();
  // Counted per device: a device whose results are wrong is one wrong value here.
  set_check(run, wrong.empty() ? 0 : 1, "device results (" + wrong + ")");
}

void ComputeCase::set_check(CaseRun& run, long long wrong_here, const std::string& what) {
  const long long wrong = run.context().comm.sum(wrong_here);
  run.record().extra["wrong_values"] = wrong;
  run.check(wrong != 0, std::to_string(wrong) + " wrong " + what + " after timing");
}

} // namespace cb
