#include "compute/stream_case.hpp"

#include "compute/cache_size.hpp"
#include "core/error.hpp"
#include "runtime/axis_values.hpp"
#include "core/units.hpp"

namespace cb {

std::vector<nlohmann::json> StreamCase::instances(const RunConfig& config) const {
  std::vector<std::uint64_t> sizes;
  for (const auto& v : axis_values(name(), array_bytes_axis(), config))
    sizes.push_back(v.get<std::uint64_t>());
  if (sizes.empty())
    sizes.push_back(default_stream_array_bytes(last_level_cache_bytes()));
  std::vector<nlohmann::json> out;
  for (std::uint64_t bytes : sizes)
    out.push_back({{"bytes", bytes / sizeof(double) * sizeof(double)}, {"dtype", "double"}});
  return out;
}

void StreamCase::run(CaseRun& run, const nlohmann::json& params) {
  const CaseContext& ctx = run.context();
  if (auto why = why_unsupported(ctx); !why.empty())
    return run.skip(why);
  if (ComputeKernels* kernels = backend_kernels(ctx))
    return run_on_backend(run, *kernels);
  const auto bytes = params.at("bytes").get<std::size_t>();
  auto a = ctx.backend.allocate(bytes);
  auto b = ctx.backend.allocate(bytes);
  auto c = ctx.backend.allocate(bytes);
  const StreamArrays arrays{static_cast<double*>(a->data()), static_cast<double*>(b->data()),
                            static_cast<double*>(c->data()), bytes / sizeof(double)};
  init_stream_arrays(arrays); // first touch by the rank that uses the pages, never timed

  // Arrays larger than the cache are written with non-temporal stores: the destination is not
  // read for ownership first, so the memory moves the bytes STREAM counts and no more.
  const std::uint64_t llc = last_level_cache_bytes();
  const bool streaming = llc == 0 || bytes > llc;
  Record& record = run.record();
  record.extra["stores"] = streaming ? "non-temporal" : "cached";
  record.extra["llc_bytes"] = llc;
  record.extra["bytes_per_call"] = stream_bytes_per_call(kernel_, bytes);
  record.extra["arrays_counted"] = stream_arrays_touched(kernel_);

  measure_weak(
      run, [&] { run_stream_kernel(kernel_, arrays, streaming); },
      stream_bytes_per_call(kernel_, bytes), "gbps");
  set_check(run, static_cast<long long>(count_stream_errors(kernel_, arrays)), "elements");
}

void StreamCase::run_on_backend(CaseRun& run, ComputeKernels& kernels) {
  const std::size_t bytes = device_array_bytes(run.context(), kernels, run.record().params);
  run.record().params["bytes"] = bytes;
  const StreamKind kind = stream_kind();
  if (auto why = kernels.why_unsupported_stream(kind, DType::f64); !why.empty())
    return run.skip(why);
  auto kernel = kernels.stream(kind, DType::f64, bytes);
  measure_backend_kernel(run, *kernel, "gbps", 1e9, "memory_gbps");
}

StreamKind StreamCase::stream_kind() const {
  switch (kernel_) {
  case StreamKernel::copy:
    return StreamKind::copy;
  case StreamKernel::scale:
    return StreamKind::scale;
  case StreamKernel::add:
    return StreamKind::add;
  case StreamKernel::triad:
    return StreamKind::triad;
  }
  return StreamKind::copy;
}

} // namespace cb
