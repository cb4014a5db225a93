#pragma once
// What the compute cases share: every rank of the group runs the kernel at the same time (weak
// scaling), so the record's figure is the aggregate Σ work / the slowest rank's time and each
// rank's own rate goes to per_rank.
#include <string>
#include <utility>

#include "core/rates.hpp"
#include "runtime/case.hpp"
#include "runtime/compute_kernels.hpp"

namespace cb {

class ComputeCase : public BenchmarkCase {
protected:
  explicit ComputeCase(std::string name) : BenchmarkCase("compute", std::move(name)) {}

  // The array bytes per rank of the memory-bandwidth cases (STREAM's kernels and read), a default
  // worked out on the machine; --array-bytes spells it.
  static Axis array_bytes_axis();
  // The array bytes an instance runs with on a GPU backend: its own when the axis was set, else
  // the device's default (a multiple of its L2).
  std::size_t device_array_bytes(const CaseContext& ctx, ComputeKernels& kernels,
                                 const nlohmann::json& params) const;
  // Empty when the backend runs this family's kernels, else the reason the record is skipped.
  static std::string why_unsupported(const CaseContext& ctx);
  // Times one_op on every rank at once; metrics {time_us, <metric>} with `work` per rank per op.
  static void measure_weak(CaseRun& run, const std::function<void()>& one_op, double work,
                           const std::string& metric);
  // The backend's own kernels (GPU), or nullptr when this family's host kernels run.
  static ComputeKernels* backend_kernels(const CaseContext& ctx) { return ctx.backend.compute(); }
  // Times a backend kernel on every rank at once and checks it after timing. Metrics: time_us,
  // `metric` (work per op / seconds / unit) and, where the data sheet knows `peak_figure` (in the
  // same unit), fraction_of_peak per device.
  static void measure_backend_kernel(CaseRun& run, TimedKernel& kernel, const std::string& metric,
                                     double unit, const std::string& peak_figure);
  // Sums the wrong-value count over the group and checks the record with it.
  static void set_check(CaseRun& run, long long wrong_here, const std::string& what);
};

} // namespace cb
