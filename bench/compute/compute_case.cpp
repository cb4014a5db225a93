#include "compute/compute_case.hpp"

namespace cb {

double weak_scaling_rate(double work, int ranks, double seconds, bool whole, double unit) {
  if (seconds <= 0)
    return 0;
  return (whole ? ranks : 1) * work / seconds / unit;
}

std::string ComputeCase::why_unsupported(const CaseContext& ctx) {
  // The kernels here are CPU code on host memory; another backend brings its own kernels.
  if (ctx.backend.name() == "host")
    return "";
  return "the compute kernels of the " + ctx.backend.name() + " backend are not built in";
}

void ComputeCase::measure_weak(const CaseContext& ctx, Record& record,
                               const std::function<void()>& one_op, double work,
                               const std::string& metric) {
  const int ranks = ctx.comm.size();
  ctx.measure_into(record, one_op, [&](double seconds, bool whole) {
    return nlohmann::json{{"time_us", seconds * 1e6},
                          {metric, weak_scaling_rate(work, ranks, seconds, whole)}};
  });
}

void ComputeCase::set_check(const CaseContext& ctx, Record& record, long long wrong_here,
                            const std::string& what) {
  const long long wrong = ctx.comm.sum(wrong_here);
  record.extra["wrong_values"] = wrong;
  record.check = wrong == 0 ? "pass" : "fail";
  if (wrong != 0) {
    const std::string why = std::to_string(wrong) + " wrong " + what + " after timing";
    record.reason = record.reason.empty() ? why : why + "; " + record.reason;
  }
}

} // namespace cb
