// The compute family: streaming kernels, the FMA peak and GEMM, each GPU on its own.
#include <algorithm>

#include "planning/hardware_model.hpp"
#include "planning/time_model.hpp"
#include "results/suite_names.hpp"
#include "runtime/family.hpp"

namespace cb {
namespace {

class ComputeFamily final : public Family {
public:
  std::string suite() const override { return suite_names::kCompute; }
  int order() const override { return 0; }
  std::string report_sentence() const override {
    return "aggregate throughput of all GPUs running the kernel at once; E(N) = X(N) / (N · X(1)).";
  }

  // Streaming kernels: bytes moved / memory bandwidth (copy and scale 2x the array, add and triad
  // 3x, read 1x); gemm: 2mnk / the GEMM rate (half for double); fma_peak: its kernels' length.
  std::optional<double> operation_seconds(const std::string& name, const nlohmann::json& params,
                                          const PhaseShape& shape,
                                          const HardwareModel& m) const override {
    const double bytes = array_bytes(params);
    const double bw = memory_share(shape, m);
    if (name == "copy" || name == "scale")
      return 2 * bytes / bw;
    if (name == "add" || name == "triad")
      return 3 * bytes / bw;
    if (name == "read")
      return bytes / bw;
    if (name == "gemm") {
      const double flops = 2 * param_number(params, "m", 1024) * param_number(params, "n", 1024) *
                           param_number(params, "k", 1024);
      return flops / (param_text(params, "dtype") == "double" ? m.gemm_flops / 2 : m.gemm_flops);
    }
    if (name == "fma_peak")
      return m.fma_peak_op_s;
    return std::nullopt;
  }

  // The kernels made and checked, and the STREAM arrays' first touch: three arrays.
  double setup_seconds(const std::string& name, const nlohmann::json& params,
                       const PhaseShape& /*shape*/, const HardwareModel& m) const override {
    if (is_stream(name) && m.first_touch_bw > 0)
      return m.kernel_setup_s + 3 * array_bytes(params) / m.first_touch_bw;
    return m.kernel_setup_s;
  }

  // A kernel on its own device exchanges nothing: batched to the batch time its spread converges
  // (on the idle 2-core VM 11 of 12 fma_peak records at 0.43 ms converged in 6-23 samples).
  double launch_bound_converge_share(const std::string& /*name*/, const PhaseShape& /*shape*/,
                                     const HardwareModel& /*m*/) const override {
    return 1;
  }

private:
  static bool is_stream(const std::string& name) {
    return name == "copy" || name == "scale" || name == "add" || name == "triad" || name == "read";
  }
  static double array_bytes(const nlohmann::json& params) {
    const double bytes = param_number(params, "bytes", 0);
    return bytes > 0 ? bytes : 256e6;
  }
  // One rank's share of its memory: its own, or the node's split between its ranks.
  static double memory_share(const PhaseShape& shape, const HardwareModel& m) {
    if (m.node_memory_bw <= 0)
      return m.memory_bw;
    return std::min(m.memory_bw, m.node_memory_bw / std::max(1, shape.ranks_per_node));
  }
};

} // namespace

CB_REGISTER_FAMILY(ComputeFamily);

} // namespace cb
