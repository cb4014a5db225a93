// data_parallel_step: one step of data-parallel training, measured whole and in parts, at every
// GPU count of the sweep with the same work per GPU (weak scaling). Each rank
//   - takes its batch from a loader thread that reads it from the storage directory
//     (--input-bytes-per-step per step, --prefetch batches ahead; batch_loader.hpp),
//   - runs forward and backward as chains of GEMMs: OpenBLAS on the host (host_step.hpp), or a
//     GPU backend's step registered with workload/step_runner.hpp (cuBLASLt and NCCL on cuda),
//   - all-reduces the gradients in --bucket-bytes buckets, each started as soon as backward has
//     produced it (--overlap on), or all after backward (--overlap off),
//   - waits for them and applies the update (SGD) before the next step.
// Per step and per rank: step_s, compute_s, exposed_comm_s, input_wait_s (step_parts.hpp). The
// samples are each step's time on its slowest rank; the median step among them gives the
// record's step_s and its parts, those of the critical rank (the most compute and input wait: the
// one the others waited for) in that step, and slowest_rank_step_s, the samples' median;
// E(N) = step_s(1) / step_s(N). The record also carries the buckets' sizes and when backward
// completed each (bucket_sizes, bucket_ready_share, backward_s), which the all-reduce timeline of
// the report's prediction needs (harness/analysis/bucket_timeline.hpp).
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <numeric>

#include "core/error.hpp"
#include "core/rates.hpp"
#include "core/units.hpp"
#include "host/blas_gemm.hpp"
#include "runtime/case.hpp"
#include "runtime/host_backend.hpp"
#include "storage/storage_dir.hpp"
#include "workload/batch_loader.hpp"
#include "workload/bucket_plan.hpp"
#include "workload/host_step.hpp"
#include "workload/step_axes.hpp"
#include "workload/step_parts.hpp"
#include "workload/step_runner.hpp"
#include "workload/workload_options.hpp"
#include "workload/workload_shape.hpp"

namespace cb {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void add_reason(Record& record, const std::string& why) {
  if (why.empty())
    return;
  record.reason = record.reason.empty() ? why : record.reason + "; " + why;
}

class DataParallelStepCase : public BenchmarkCase {
public:
  // A GPU backend's gradient all-reduces are its collectives (NCCL's).
  DataParallelStepCase()
      : BenchmarkCase("workload", "data_parallel_step", CaseTraits{.uses_collectives = true}) {}
  ~DataParallelStepCase() override {
    if (!cleanup_ || used_file_.empty())
      return;
    try {
      const StorageDir dir(dir_path_, false);
      dir.remove_if_ours(used_file_);
    } catch (...) {
      // The directory went away: nothing of ours is left to remove.
    }
  }

  std::optional<DirectoryDemand> check_input(const RunConfig& config,
                                             const std::vector<int>& node_ranks) const override {
    const int local_ranks = static_cast<int>(node_ranks.size());
    const std::uint64_t batch = batch_bytes(kInputBytesPerStep.value(config), first_block(config));
    std::optional<DirectoryDemand> demand;
    if (batch > 0) {
      try {
        demand = check_storage_dir(storage_config(config), storage_reads_of(config), node_ranks);
      } catch (const InputError& e) {
        throw InputError("--input-bytes-per-step: " + format_size(batch) + " per GPU for " +
                         std::to_string(local_ranks) + " rank(s) here: " + e.what());
      }
    }
    const BackendKind backend = step_backend(config);
    if (backend != BackendKind::host) {
      if (const StepBackend* step = StepBackendRegistry::instance().find(backend))
        step->check_input(config, local_ranks);
      return demand;
    }
    const WorkloadShape shape = workload_shape(config);
    check_workload_memory(shape, local_ranks, host_memory_bytes(),
                          batch * static_cast<std::uint64_t>(kPrefetch.value(config)));
    for (std::uint64_t bucket : step_bucket_sizes(config)) {
      const std::uint64_t buckets =
          bucket_count(shape.layers, shape.layer_elements(), bucket, sizeof(float));
      if (buckets > kMaxBuckets) {
        throw InputError("--bucket-bytes: " + format_size(bucket) + " cuts the " +
                         format_size(shape.gradient_bytes()) + " of gradients into " +
                         std::to_string(buckets) + " buckets; at most " +
                         std::to_string(kMaxBuckets));
      }
    }
    return demand;
  }

  std::vector<Axis> axes() const override { return {step_bucket_axis(), step_overlap_axis()}; }

  std::vector<nlohmann::json> instances(const RunConfig& config) const override {
    const std::uint64_t block = first_block(config);
    const std::uint64_t batch = batch_bytes(kInputBytesPerStep.value(config), block);
    nlohmann::json p;
    const BackendKind backend = step_backend(config);
    if (backend == BackendKind::host) {
      const WorkloadShape shape = workload_shape(config);
      p = {{"model_params", static_cast<std::uint64_t>(shape.params())},
           {"layers", shape.layers},
           {"width", shape.width},
           {"tokens_per_gpu", shape.tokens}};
    } else if (const StepBackend* step = StepBackendRegistry::instance().find(backend)) {
      p = step->params(config);
    } else {
      p = nlohmann::json::object(); // why_not_on says why; one skipped record
    }
    p["input_bytes_per_step"] = batch;
    if (batch > 0) {
      p["prefetch"] = kPrefetch.value(config);
      p["block_bytes"] = batch_block_bytes(kInputBytesPerStep.value(config), block);
      p["io"] = kBuffered.value(config) ? "buffered" : "direct";
    }
    // One step per bucket size and overlap mode, the model and input the same in each.
    std::vector<nlohmann::json> out = BenchmarkCase::instances(config);
    for (auto& instance : out)
      instance.update(p);
    return out;
  }

  std::string why_not_on(const Backend& backend, BackendKind kind,
                         const Communicator& world) const override {
    if (kind != BackendKind::host) {
      const StepBackend* step = StepBackendRegistry::instance().find(kind);
      if (!step) {
        return "data_parallel_step has no version for the " + backend.name() +
               " backend in this build";
      }
      return step->why_not(backend, world);
    }
    if (!blas_available())
      return blas_description();
    return backend.why_no_collectives(world);
  }

  void run(CaseRun& run, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    Record& record = run.record();
    const RunConfig& config = ctx.config;
    const bool on_host = ctx.backend_kind() == BackendKind::host;
    if (on_host)
      blas_use_one_thread();
    const int rank = ctx.comm.rank(), ranks = ctx.comm.size();
    const int world_rank = ctx.members[static_cast<std::size_t>(rank)];

    // Set-up on every rank, then one decision for all (as the storage family does).
    std::unique_ptr<BatchLoader> loader;
    std::unique_ptr<StepRunner> runner;
    std::string problem;
    int wrote = 0;
    try {
      const auto batch = params.at("input_bytes_per_step").get<std::uint64_t>();
      if (batch > 0)
        loader = open_loader(config, params, world_rank, batch, &wrote);
      if (on_host) {
        runner = std::make_unique<HostStepRunner>(ctx, workload_shape(config), loader.get(),
                                                  step_sync(params));
      } else {
        runner = StepBackendRegistry::instance()
                     .find(ctx.backend_kind())
                     ->make(ctx, params, loader.get());
      }
    } catch (const Error& e) {
      problem = e.what();
    } catch (const std::bad_alloc&) {
      problem = "out of memory setting up the model";
    }
    if (const std::string why = ctx.first_problem(problem); !why.empty()) {
      record.status = RecordStatus::failed;
      record.check = DataCheck::skipped;
      record.reason = why;
      return;
    }

    runner->prepare(ctx);

    // Warm-up steps, then measured steps until the engine's stopping rule (on rank 0, broadcast)
    // says stop, never before min_samples. A read error anywhere ends the steps on every rank.
    const MeasureSettings& settings = config.measure;
    std::string read_error;
    std::uint64_t step = 0;
    // Every rank runs every warm-up step, even after its own read error: a step is whole on
    // every rank (its all-reduces included, StepRunner::run_step), so the ranks stay in step
    // until the first agreement below. A rank that stopped early would leave the others waiting
    // in a gradient all-reduce it never posts.
    for (int i = 0; i < kWarmupSteps; ++i)
      runner->run_step(step++, &read_error);
    runner->reset_measurements();
    std::vector<StepParts> mine;
    Measurement m;
    // The device's clocks and throttling over the measured steps: a step's GEMM rate is the
    // rate at the clocks a sustained load holds, which a reader must see beside it.
    const nlohmann::json state_before = ctx.backend.state();
    const auto sampling = Clock::now();
    bool stopped_by_error = false;
    while (true) {
      const long long errors_before = ctx.comm.sum(static_cast<long long>(!read_error.empty()));
      if (errors_before > 0) {
        stopped_by_error = true;
        break;
      }
      const StepParts parts = runner->run_step(step++, &read_error);
      mine.push_back(parts);
      m.samples_s.push_back(ctx.comm.max(parts.step_s));
      int decision = 0;
      if (rank == 0) {
        const bool enough = static_cast<int>(m.samples_s.size()) >= settings.min_samples;
        const StopDecision d = stopping_rule(m.samples_s, since(sampling), settings);
        decision = enough || m.samples_s.size() >= static_cast<std::size_t>(settings.max_samples)
                       ? static_cast<int>(d)
                       : 0;
      }
      decision = ctx.comm.broadcast_int(decision);
      if (decision != static_cast<int>(StopDecision::keep_going)) {
        m.converged = decision == static_cast<int>(StopDecision::converged);
        break;
      }
    }
    const nlohmann::json state_after = ctx.backend.state();
    if (stopped_by_error || ctx.comm.sum(static_cast<long long>(!read_error.empty())) > 0) {
      record.status = RecordStatus::failed;
      record.check = DataCheck::fail;
      record.reason = "input read failed mid-step: " + ctx.first_problem(read_error);
      return;
    }

    // The record's parts: those of the critical rank in the median step(s) of the samples, so
    // that they add up to the record's step_s as that step's did. The samples are the same on
    // every rank (max over ranks per step), so every rank picks the same middle steps.
    const std::vector<StepParts> sent = steps_to_send(mine, m.samples_s);
    const std::vector<std::vector<StepParts>> of_rank = gather_steps(ctx, sent);
    if (rank == 0) {
      for (const auto& parts : of_rank)
        m.rank_median_s.push_back(parts[0].step_s);
    }
    const double tokens = params.at("tokens_per_gpu").get<double>();
    ctx.finish_record(record, m, [&](double seconds, bool whole) {
      return nlohmann::json{{"time_us", seconds * 1e6},
                            {"tokens_per_s", weak_scaling_rate(tokens, ranks, seconds, whole, 1)}};
    });
    ctx.note_device_state(record, state_before, state_after);

    check_step(run, *runner, loader.get(), wrote);
    const nlohmann::json backend_extra = runner->record_extra(ctx);
    std::vector<StepParts> slowest_parts;
    int slowest_rank = 0;
    for (std::size_t k = 1; rank == 0 && k < sent.size(); ++k) {
      // The rank the others waited for: the most compute and input wait. In a synchronous step
      // every other rank spends that difference waiting in the all-reduce, which would make its
      // parts blame communication for a slow disk or a slow core.
      std::size_t r = 0;
      for (std::size_t q = 1; q < of_rank.size(); ++q) {
        const StepParts& a = of_rank[q][k];
        const StepParts& b = of_rank[r][k];
        if (a.compute_s + a.input_wait_s > b.compute_s + b.input_wait_s)
          r = q;
      }
      slowest_parts.push_back(of_rank[r][k]);
      slowest_rank = ctx.members[r];
    }
    if (rank != 0)
      return;
    // The step and its parts are the critical rank's, so that they add up; the slowest rank's
    // step (the samples' median, max over ranks per step) ends a few milliseconds later at most
    // (its optimizer update and hand-back to its loader after the same all-reduce).
    const StepParts parts = median_step(slowest_parts);

    write_step_figures(record, *runner, of_rank, parts, params, ranks);
    record.extra["parts_of_rank"] = slowest_rank;
    record.extra["steps_measured"] = mine.size();
    for (const auto& [key, value] : backend_extra.items())
      record.extra[key] = value;
  }

private:
  // A rank's own median step, then its parts in the middle step(s) of the samples (the same
  // steps on every rank: the samples are the max over ranks per step).
  static std::vector<StepParts> steps_to_send(const std::vector<StepParts>& mine,
                                              const std::vector<double>& samples_s) {
    std::vector<std::size_t> order(samples_s.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return samples_s[a] < samples_s[b]; });
    const std::size_t steps = order.size();
    std::vector<std::size_t> middle = {order[steps / 2]};
    if (steps % 2 == 0)
      middle.insert(middle.begin(), order[steps / 2 - 1]);
    std::vector<StepParts> sent = {median_step(mine)};
    for (std::size_t k : middle)
      sent.push_back(mine[k]);
    return sent;
  }

  // One gather of at most 3 steps' parts per rank, not one collective per number: on rank 0 each
  // rank's [0 = median, 1.. = middle] steps; elsewhere empty.
  static std::vector<std::vector<StepParts>> gather_steps(const CaseContext& ctx,
                                                          const std::vector<StepParts>& sent) {
    std::vector<std::vector<StepParts>> of_rank;
    for (const auto& values : ctx.comm.gather_vectors(pack_steps(sent))) {
      of_rank.push_back(unpack_steps(values));
      if (of_rank.back().size() != sent.size())
        throw RunError("data_parallel_step: a rank sent " + std::to_string(of_rank.back().size()) +
                       " steps' parts, not " + std::to_string(sent.size()));
    }
    return of_rank;
  }

  // The step's checks, on every rank alike (the sums are collective): the all-reduced gradients
  // and the input that arrived, with what the reader said of its files.
  static void check_step(CaseRun& run, StepRunner& runner, BatchLoader* loader, int wrote) {
    const CaseContext& ctx = run.context();
    Record& record = run.record();
    const long long wrong = ctx.comm.sum(runner.gradient_values_wrong());
    const long long checked = ctx.comm.sum(runner.gradient_values_checked());
    const long long bad_input = ctx.comm.sum(loader ? loader->bad_chunks() : 0LL);
    const long long input_checked = ctx.comm.sum(loader ? loader->checked_chunks() : 0LL);
    const std::string first_bad_input = ctx.first_problem(loader ? loader->first_problem() : "");
    record.extra["gradient_values_checked"] = checked;
    record.extra["gradient_values_wrong"] = wrong;
    // A wrong gradient is said first; corrupt input below, beside what the reader said.
    run.check(wrong != 0 || bad_input != 0,
              wrong == 0 ? ""
                         : std::to_string(wrong) + " of " + std::to_string(checked) +
                               " checked all-reduced gradient values wrong");
    if (loader) {
      record.extra["input_chunks_checked"] = input_checked;
      record.extra["input_chunks_bad"] = bad_input;
      record.extra["files_written"] = ctx.comm.sum(static_cast<long long>(wrote));
      record.extra["io_engine"] = loader->reader().engine();
      record.extra["direct"] = loader->reader().direct();
      if (!loader->reader().direct())
        record.params["io"] = "buffered";
      std::string notes;
      for (const auto& n : loader->reader().notes())
        notes += (notes.empty() ? "" : "; ") + n;
      add_reason(record, ctx.first_problem(notes));
      if (bad_input != 0) {
        add_reason(record, std::to_string(bad_input) +
                               " corrupt input block(s); first: " + first_bad_input);
      }
    }
  }

  // Rank 0's figures of a finished step record: each rank's own median step and GEMM rate, the
  // critical rank's parts (`parts`) as the record's metrics, E(N) against the one-GPU step of the
  // same instance, and the gradient buckets.
  void write_step_figures(Record& record, const StepRunner& runner,
                          const std::vector<std::vector<StepParts>>& of_rank,
                          const StepParts& parts, const nlohmann::json& params, int ranks) {
    const double flops = runner.flops_per_step();
    for (std::size_t r = 0; r < record.per_rank.size(); ++r) {
      auto& entry = record.per_rank[r];
      const StepParts& p = of_rank[r][0];
      entry["step_s"] = p.step_s;
      entry["compute_s"] = p.compute_s;
      entry["exposed_comm_s"] = p.exposed_comm_s;
      entry["input_wait_s"] = p.input_wait_s;
      entry["utilization"] = p.utilization();
      // The GPU's own GEMM rate in the step: every rank does the same work, so the slowest GPU
      // is the one with the lowest rate (its utilization is the highest: the others wait for it).
      // A rank whose compute timer read nothing has no rate; a 0 would name it the slowest. The
      // GEMMs' time alone: the update is no GEMM work.
      if (p.gemm_s() > 0)
        entry["gflops"] = flops / p.gemm_s() / 1e9;
    }
    record.metrics["step_s"] = parts.step_s;
    record.metrics["slowest_rank_step_s"] = record.stats.median;
    record.metrics["compute_s"] = parts.compute_s;
    record.metrics["backward_s"] = parts.backward_s;
    record.metrics["update_s"] = parts.update_s;
    record.metrics["exposed_comm_s"] = parts.exposed_comm_s;
    record.metrics["input_wait_s"] = parts.input_wait_s;
    record.metrics["unaccounted_s"] = parts.unaccounted_s();
    record.metrics["utilization"] = parts.utilization();
    record.metrics["parts_gap"] = parts.gap();
    record.metrics["gemm_gflops_per_gpu"] = parts.gemm_s() > 0 ? flops / parts.gemm_s() / 1e9 : 0.0;
    // E(N) against the one-GPU step of the same instance (bucket size, overlap): the sweep runs
    // every instance at one count before the next count.
    double& step1 = step1_s_[params.dump()];
    if (ranks == 1)
      step1 = parts.step_s;
    if (step1 > 0)
      record.metrics["efficiency"] = step1 / parts.step_s;
    record.extra["largest_loss"] = largest_loss(parts);
    record.extra["warmup_steps"] = kWarmupSteps;
    record.extra["flops_per_step"] = flops;
    record.extra["buckets"] = runner.bucket_bytes().size();
    record.extra["bucket_sizes"] = runner.bucket_bytes();
    record.extra["bucket_ready_share"] = runner.bucket_ready_share();
    double gradient_bytes = 0;
    for (double b : runner.bucket_bytes())
      gradient_bytes += b;
    record.extra["gradient_bytes"] = gradient_bytes;
  }

  // The storage family's first read size (--block-sizes) and queue depth (--queue-depth).
  static StorageReads family_reads(const RunConfig& config) {
    StorageReads reads = storage_reads("data_parallel_step", config);
    if (reads.blocks.empty())
      reads.blocks = {1ull << 20};
    if (reads.queue_depths.empty())
      reads.queue_depths = {1};
    return reads;
  }
  static std::uint64_t first_block(const RunConfig& config) {
    return family_reads(config).blocks.front();
  }

  // The storage family's settings for this workload's files: its file size, or one batch when a
  // batch is larger; blocks of the batch's block size.
  static RunConfig storage_config(const RunConfig& config) {
    RunConfig c = config;
    const std::uint64_t batch = batch_bytes(kInputBytesPerStep.value(config), first_block(config));
    kFileBytes.set(c, workload_file_bytes(storage_file_bytes(config), batch));
    return c;
  }
  static StorageReads storage_reads_of(const RunConfig& config) {
    StorageReads reads = family_reads(config);
    reads.blocks = {batch_block_bytes(kInputBytesPerStep.value(config), reads.blocks.front())};
    reads.queue_depths = {reads.queue_depths.front()};
    return reads;
  }

  std::unique_ptr<BatchLoader> open_loader(const RunConfig& config, const nlohmann::json& params,
                                           int world_rank, std::uint64_t batch, int* wrote) {
    const RunConfig storage = storage_config(config);
    const bool is_default = !kStorageDir.given(config);
    StorageDir dir(storage_dir_path(config), is_default);
    const std::string file = storage_file_name(world_rank);
    const std::uint64_t seed = storage_file_seed(world_rank);
    const std::uint64_t file_bytes = storage_file_bytes(storage);
    *wrote = dir.prepare_file(file, file_bytes, seed) ? 1 : 0;
    cleanup_ = kCleanup.value(config);
    dir_path_ = dir.path();
    used_file_ = file;
    const auto block = params.at("block_bytes").get<std::uint64_t>();
    auto reader = std::make_unique<BlockReader>(
        dir.fd(), dir.path(), file, block,
        static_cast<int>(storage_reads_of(config).queue_depths.front()), kBuffered.value(config));
    return std::make_unique<BatchLoader>(std::move(reader), file_bytes, batch, block, seed,
                                         static_cast<int>(kPrefetch.value(config)));
  }

  bool cleanup_ = false;
  std::string dir_path_;
  std::string used_file_;
  std::map<std::string, double> step1_s_; // rank 0: per instance, its step on one GPU, for E(N)
};

CB_REGISTER_CASE(DataParallelStepCase);

} // namespace
} // namespace cb
