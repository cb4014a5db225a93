#include "storage/storage_case.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/error.hpp"
#include "core/rates.hpp"
#include "storage/block_reader.hpp"
#include "storage/read_plan.hpp"
#include "storage/storage_dir.hpp"
#include "storage/storage_outcome.hpp"

namespace cb {

StorageReadCase::~StorageReadCase() {
  if (cleanup_)
    remove_our_files(dir_path_, used_files_);
}

std::optional<DirectoryDemand>
StorageReadCase::check_input(const RunConfig& config, const std::vector<int>& node_ranks) const {
  return check_storage_dir(config, storage_reads(name(), config), node_ranks);
}

std::vector<nlohmann::json> StorageReadCase::instances(const RunConfig& config) const {
  const std::uint64_t file_bytes = storage_file_bytes(config);
  std::vector<nlohmann::json> out = BenchmarkCase::instances(config);
  for (auto& p : out) {
    const auto block = p.at("block_bytes").get<std::uint64_t>();
    p["bytes"] = file_bytes / block * block;
    p["file_bytes"] = file_bytes;
    p["io"] = kBuffered.value(config) ? "buffered" : "direct";
  }
  return out;
}

void StorageReadCase::run(CaseRun& run, const nlohmann::json& params) {
  // Reads land in host memory on every backend: on a GPU node this is the storage half of the
  // input pipeline (storage/read_to_gpu adds the copy on to the GPU).
  const CaseContext& ctx = run.context();
  Record& record = run.record();
  const RunConfig& config = ctx.config;
  const auto block = params.at("block_bytes").get<std::size_t>();
  const auto file_bytes = params.at("file_bytes").get<std::uint64_t>();
  const auto read_bytes = params.at("bytes").get<std::uint64_t>();
  const int world_rank = ctx.members[static_cast<std::size_t>(ctx.comm.rank())];
  const std::uint64_t seed = storage_file_seed(world_rank);
  const std::string file = storage_file_name(world_rank);

  // Set-up on every rank, then one decision for all: a rank that cannot read fails the record on
  // every rank instead of leaving the others waiting in the engine.
  std::unique_ptr<StorageDir> dir;
  std::unique_ptr<BlockReader> reader;
  int wrote = 0;
  std::string problem;
  try {
    const bool is_default = !kStorageDir.given(config);
    dir = std::make_unique<StorageDir>(storage_dir_path(config), is_default);
    wrote = dir->prepare_file(file, file_bytes, seed) ? 1 : 0;
    cleanup_ = kCleanup.value(config);
    dir_path_ = dir->path();
    if (std::find(used_files_.begin(), used_files_.end(), file) == used_files_.end()) {
      used_files_.push_back(file);
    }
    reader =
        std::make_unique<BlockReader>(dir->fd(), dir->path(), file, block,
                                      params.at("queue_depth").get<int>(), kBuffered.value(config));
  } catch (const Error& e) {
    problem = e.what();
  }
  if (const std::string why = ctx.first_problem(problem); !why.empty()) {
    fail_storage_setup(record, why);
    return;
  }
  record.extra["files_written"] = ctx.comm.sum(static_cast<long long>(wrote));
  record.extra["dir"] = dir->path();
  record.extra["io_engine"] = reader->engine();
  record.extra["direct"] = reader->direct();
  note_io_pages(ctx, record, reader->buffers(), reader->buffers_bytes());
  // What was measured, not what was asked for: a buffered read after O_DIRECT was refused must not
  // be held against O_DIRECT reads of another run (the reason is in extra.notes).
  if (!reader->direct())
    record.params["io"] = "buffered";

  const std::vector<std::uint64_t> offsets =
      random_ ? random_offsets(file_bytes, block, kStorageHeaderBytes, seed)
              : sequential_offsets(file_bytes, block, kStorageHeaderBytes);
  std::string read_error;
  auto timed = [&](int k) {
    double seconds = 0;
    for (int i = 0; i < k && read_error.empty(); ++i) {
      reader->drop_cache(); // buffered reads only; outside the timed pass
      const auto start = std::chrono::steady_clock::now();
      read_error = reader->read_pass(offsets);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return seconds;
  };
  const int ranks = ctx.comm.size();
  const auto bytes = static_cast<double>(read_bytes);
  run.measure_timed(timed, [&](double seconds, bool whole) {
    // Every rank reads `bytes` of its own file at once.
    return nlohmann::json{{"time_us", seconds * 1e6},
                          {"gbps", weak_scaling_rate(bytes, ranks, seconds, whole)}};
  });

  // What the reader could not do as asked, from every rank (the same on one filesystem), to rank 0,
  // which keeps the record.
  std::string notes;
  for (const auto& note : reader->notes())
    notes += (notes.empty() ? "" : "; ") + note;
  const auto all_notes = ctx.comm.gather_string(notes);
  nlohmann::json note_list = nlohmann::json::array();
  for (const auto& n : all_notes) {
    if (!n.empty() && std::find(note_list.begin(), note_list.end(), n) == note_list.end()) {
      note_list.push_back(n);
    }
  }
  record.extra["notes"] = note_list;
  for (const auto& n : note_list)
    add_storage_reason(record, n.get<std::string>());

  if (const std::string why = ctx.first_problem(read_error); !why.empty()) {
    fail_storage_io(record, why);
    return;
  }
  // Every block of the file, read again untimed and checked chunk by chunk.
  std::string verify_error;
  const ChunkCheck check = reader->verify_all(file_bytes, seed, &verify_error);
  if (!note_verification(run, check, verify_error, file_bytes))
    return;

  if (ctx.comm.rank() == 0) {
    std::vector<double> rank_bytes, rank_seconds;
    for (auto& entry : record.per_rank) {
      rank_bytes.push_back(bytes);
      rank_seconds.push_back(entry.value("median_s", 0.0));
      entry["file"] = dir->path() + "/" + storage_file_name(entry.value("rank", 0));
    }
    const DoneRates rates = done_rates(rank_bytes, rank_seconds);
    record.metrics["first_done_gbps"] = rates.first_done_gbps;
    record.metrics["last_done_gbps"] = rates.last_done_gbps;
  }
}

} // namespace cb
