// read_to_gpu: each rank reads its own file into pinned host buffers and on to its GPU, double-
// buffered (the read of block k+1 overlaps the copy of block k), beside the same reads into pinned
// memory alone (target host), so the cost of the GPU hop shows. GPUDirect Storage (cuFile) is
// measured only in builds that found cufile.h; other builds record it as skipped with the reason.
#include <filesystem>

#include "core/collective_math.hpp"
#include "core/error.hpp"
#include "cuda/storage_to_gpu.hpp"
#include "gpu_case.hpp"
#include "storage/storage_dir.hpp"

namespace cb {
namespace {

// The GPU reads' own directory beside the storage family's: <storage dir>-gpu, so neither family
// ever finds the other's files in its directory.
std::filesystem::path gpu_storage_dir(const RunConfig& config) {
  std::filesystem::path base = storage_dir_path(config);
  base = base.lexically_normal();
  if (!base.has_filename())
    base = base.parent_path();
  return base.parent_path() / (base.filename().string() + "-gpu");
}

class ReadToGpuCase : public GpuCase {
public:
  ReadToGpuCase() : GpuCase("storage", "read_to_gpu") {}

protected:
  // Block sizes (the storage family's --block-sizes) outermost, then where the reads land.
  std::vector<Axis> axes() const override {
    return {storage_block_axis(),
            Axis::words("target", {"host", "gpu", "gpu_direct"})
                .defaults("host,gpu,gpu_direct")
                .described("where the reads land: host memory, the GPU through a pinned "
                           "buffer, or the GPU by GPUDirect Storage")};
  }
  std::vector<nlohmann::json> gpu_instances(const RunConfig& config) const override {
    return BenchmarkCase::instances(config);
  }

  void run_gpu(CaseRun& run, cuda::CudaBackend& backend, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    const std::string target = params.at("target");
    if (target == "gpu_direct") {
#ifdef CB_HAVE_CUFILE
      return run.skip("GPUDirect Storage reads are not measured by this case yet");
#else
      return run.skip("built without cuFile (cufile.h not found at build time): GPUDirect "
                      "Storage not measured");
#endif
    }
    Record& record = run.record();
    const std::size_t block = params.at("block_bytes").get<std::size_t>();
    const std::uint64_t file_bytes = storage_file_bytes(ctx.config);
    const std::filesystem::path dir = gpu_storage_dir(ctx.config);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
      throw InputError("--storage-dir: cannot create " + dir.string() + ": " + ec.message());
    const int world_rank = ctx.members[static_cast<std::size_t>(ctx.comm.rank())];
    const cuda::ReadFile file = cuda::prepare_read_file(
        (dir / ("rank" + std::to_string(world_rank) + ".bin")).string(), file_bytes / block * block,
        static_cast<std::uint64_t>(world_rank) + 1);
    cuda::StorageToGpu reader(file, block, backend.device_index(), backend.stream(),
                              kBuffered.value(ctx.config));
    const bool to_gpu = target == "gpu";
    const double bytes = static_cast<double>(reader.bytes_per_pass());
    const int ranks = ctx.comm.size();
    run.measure_timed(
        [&](int k) {
          double seconds = 0;
          for (int i = 0; i < k; ++i)
            seconds += reader.pass(to_gpu);
          return seconds;
        },
        [&](double s, bool whole) {
          return nlohmann::json{{"time_us", s * 1e6},
                                {"gbps", gbps(bytes * (whole ? ranks : 1), s)}};
        });
    record.params["file_bytes"] = reader.bytes_per_pass();
    record.extra["direct_io"] = reader.direct();
    record.extra["directory"] = dir.string();
    if (!reader.note().empty())
      record.reason = reader.note();
    long long wrong = 0;
    if (to_gpu)
      wrong = reader.verify().empty() ? 0 : 1;
    wrong = ctx.comm.sum(wrong);
    run.check(wrong != 0, std::to_string(wrong) + " ranks' GPU copies differ from their files");
    if (kCleanup.value(ctx.config))
      std::filesystem::remove(file.path, ec);
  }
};

} // namespace

CB_REGISTER_CASE(ReadToGpuCase);

} // namespace cb
