#include "storage/checkpoint_case.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <new>

#include "core/error.hpp"
#include "core/rates.hpp"
#include "storage/block_reader.hpp"
#include "storage/checkpoint_file.hpp"
#include "storage/checkpoint_memory.hpp"
#include "storage/checkpoint_plan.hpp"
#include "storage/read_plan.hpp"
#include "storage/storage_dir.hpp"
#include "storage/storage_outcome.hpp"

namespace cb {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What one rank set up for the record: the shard in memory, and for the saves and restores its
// directory, its file and the reader that restores (and verifies) it.
struct ShardSetup {
  AlignedBytes state{nullptr, std::free};   // the training state: the save's source
  AlignedBytes landing{nullptr, std::free}; // where a restore or a snapshot lands
  std::unique_ptr<StorageDir> dir;
  std::unique_ptr<CheckpointFile> file;
  std::unique_ptr<BlockReader> reader;
  std::unique_ptr<DeviceCheckpoint> device; // the state in device memory, on a backend with one
  std::vector<std::string> notes;
};

// The notes of every rank, each once, into the record (rank 0 keeps it).
void keep_notes(const CaseContext& ctx, Record& record, const std::vector<std::string>& mine) {
  std::string notes;
  for (const auto& note : mine)
    notes += (notes.empty() ? "" : "; ") + note;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& n : ctx.comm.gather_string(notes)) {
    if (!n.empty() && std::find(list.begin(), list.end(), n) == list.end())
      list.push_back(n);
  }
  record.extra["notes"] = list;
  for (const auto& n : list)
    add_storage_reason(record, n.get<std::string>());
}

// Rank 0, from every rank's figures (MLPerf Storage's way): the rate when the first and the last
// rank finished, and the lowest rank's rate; each rank moved `bytes`.
void note_rank_rates(Record& record, double bytes) {
  std::vector<double> rank_bytes, rank_seconds;
  double lowest = 0;
  for (auto& entry : record.per_rank) {
    rank_bytes.push_back(bytes);
    rank_seconds.push_back(entry.value("median_s", 0.0));
    const double rate = entry.value("gbps", 0.0);
    lowest = rank_bytes.size() == 1 ? rate : std::min(lowest, rate);
  }
  const DoneRates rates = done_rates(rank_bytes, rank_seconds);
  record.metrics["first_done_gbps"] = rates.first_done_gbps;
  record.metrics["last_done_gbps"] = rates.last_done_gbps;
  record.metrics["lowest_rank_gbps"] = lowest;
}

} // namespace

std::string CheckpointCase::step_name(CheckpointStep step) {
  switch (step) {
  case CheckpointStep::write:
    return "checkpoint_write";
  case CheckpointStep::read:
    return "checkpoint_read";
  case CheckpointStep::stage:
    break;
  }
  return "checkpoint_stage";
}

CheckpointCase::~CheckpointCase() {
  if (cleanup_)
    remove_our_files(dir_path_, used_files_);
}

std::vector<Axis> CheckpointCase::axes() const {
  if (!uses_files())
    return {};
  return {storage_block_axis()};
}

std::vector<nlohmann::json> CheckpointCase::instances(const RunConfig& config) const {
  std::uint64_t total = 0;
  try {
    total = run_checkpoint_bytes(config);
  } catch (const InputError&) {
    // check_input refused it before any rank started; nothing runs.
  }
  std::vector<nlohmann::json> out = BenchmarkCase::instances(config);
  for (auto& p : out) {
    p["checkpoint_bytes"] = total;
    if (uses_files())
      p["io"] = kBuffered.value(config) ? "buffered" : "direct";
  }
  return out;
}

void CheckpointCase::run(CaseRun& run, const nlohmann::json& params) {
  const CaseContext& ctx = run.context();
  Record& record = run.record();
  const RunConfig& config = ctx.config;
  const int ranks = ctx.comm.size();
  const int world_rank = ctx.members[static_cast<std::size_t>(ctx.comm.rank())];
  const auto total = params.at("checkpoint_bytes").get<std::uint64_t>();
  const std::size_t block =
      uses_files() ? params.at("block_bytes").get<std::size_t>() : kStorageChunkBytes;
  const std::uint64_t shard = checkpoint_shard_bytes(total, ranks, block);
  const std::uint64_t seed = checkpoint_seed(world_rank);
  const std::string file = checkpoint_file_name(world_rank);
  record.extra["shard_bytes"] = shard;
  record.extra["memory"] = "host"; // the state saved and restored is in host memory
  if (uses_files() && ctx.comm.rank() == 0)
    record.extra["dir"] = storage_dir_path(config);

  // Set-up on every rank, then one decision for all, as the reads do.
  ShardSetup s;
  std::string problem;
  try {
    s.state = aligned_bytes(shard);
    fill_checkpoint_state(seed, s.state.get(), shard);
    s.device = make_device_checkpoint(ctx.backend, ctx.backend_kind(), step_, s.state.get(), shard, block);
    if (step_ != CheckpointStep::write)
      s.landing = aligned_bytes(shard);
    if (uses_files()) {
      const bool is_default = !kStorageDir.given(config);
      s.dir = std::make_unique<StorageDir>(storage_dir_path(config), is_default);
      // Makes the shard a complete file of ours (the restore's checkpoint, the save's target).
      s.dir->prepare_file(file, shard, seed);
      cleanup_ = kCleanup.value(config);
      dir_path_ = s.dir->path();
      if (std::find(used_files_.begin(), used_files_.end(), file) == used_files_.end())
        used_files_.push_back(file);
      if (step_ == CheckpointStep::write) {
        s.file =
            std::make_unique<CheckpointFile>(*s.dir, file, shard, seed, kBuffered.value(config));
        s.file->mark(false); // until the last save is whole
        s.notes = s.file->notes();
      } else {
        s.reader = std::make_unique<BlockReader>(s.dir->fd(), s.dir->path(), file, block, 1,
                                                 kBuffered.value(config));
        s.reader->use_pread(); // one block at a time into the restore's memory
        s.notes = s.reader->notes();
      }
    }
  } catch (const Error& e) {
    problem = e.what();
  } catch (const std::bad_alloc&) {
    problem = "cannot allocate the shard's " + std::to_string(shard) + " bytes of host memory";
  }
  if (const std::string why = ctx.first_problem(problem); !why.empty()) {
    fail_storage_setup(record, why);
    return;
  }
  if (s.device)
    record.extra["memory"] = s.device->memory();
  if (uses_files()) {
    const bool direct = s.file ? s.file->direct() : s.reader->direct();
    record.extra["direct"] = direct;
    record.extra["io_engine"] = s.reader ? s.reader->engine() : "pwrite";
    if (!direct)
      record.params["io"] = "buffered"; // what was measured (the reason is in extra.notes)
  }

  const std::vector<std::uint64_t> offsets =
      uses_files() ? sequential_offsets(shard, block, kStorageHeaderBytes)
                   : std::vector<std::uint64_t>{};
  std::string io_error;
  auto timed = [&](int k) {
    double seconds = 0;
    for (int i = 0; i < k && io_error.empty(); ++i) {
      if (step_ == CheckpointStep::write) {
        io_error = s.file->drop_data(); // the previous checkpoint goes, untimed
        if (!io_error.empty())
          break;
        const auto start = std::chrono::steady_clock::now();
        io_error = s.device ? s.device->save(*s.file) : s.file->write(s.state.get(), block);
        seconds += seconds_since(start);
        continue;
      }
      // A restore or snapshot lands on memory cleared first, so stale bytes cannot pass for it.
      if (s.device)
        s.device->clear_landing();
      else
        std::memset(s.landing.get(), 0, shard);
      if (s.reader)
        s.reader->drop_cache();
      const auto start = std::chrono::steady_clock::now();
      if (s.device)
        io_error = s.reader ? s.device->restore(*s.reader, offsets) : s.device->stage();
      else if (s.reader)
        io_error = s.reader->read_into(offsets, s.landing.get());
      else
        std::memcpy(s.landing.get(), s.state.get(), shard);
      seconds += seconds_since(start);
    }
    return seconds;
  };
  const auto bytes = static_cast<double>(shard);
  run.measure_timed(timed, [&](double seconds, bool whole) {
    return nlohmann::json{{"time_us", seconds * 1e6},
                          {"gbps", weak_scaling_rate(bytes, ranks, seconds, whole)}};
  });
  // The host memory the step moved, once touched: the state a save writes, the landing a restore
  // or a snapshot fills (from GPU memory, pinned staging buffers of their own: none of ours).
  const unsigned char* moved = step_ == CheckpointStep::write ? s.state.get() : s.landing.get();
  note_io_pages(ctx, record, s.device ? nullptr : moved, shard);
  keep_notes(ctx, record, s.notes);
  if (s.file && io_error.empty()) {
    try {
      s.file->mark(true);
    } catch (const Error& e) {
      io_error = e.what();
    }
  }
  if (const std::string why = ctx.first_problem(io_error); !why.empty()) {
    fail_storage_io(record, why);
    return;
  }

  // The save read back from the device; the restore and the snapshot checked where they landed.
  std::string verify_error;
  ChunkCheck check;
  if (step_ == CheckpointStep::write) {
    s.file->drop_cache();
    BlockReader verifier(s.dir->fd(), s.dir->path(), file, block, 1, kBuffered.value(config));
    check = verifier.verify_all(shard, seed, &verify_error);
  } else {
    if (s.device) // copied back once, untimed
      s.device->landed_bytes(s.landing.get());
    check = check_storage_chunks(seed, 0, s.landing.get(), shard);
  }
  if (!note_verification(run, check, verify_error, shard))
    return;

  if (ctx.comm.rank() == 0)
    note_rank_rates(record, bytes);
}

} // namespace cb
