#pragma once
// The storage family's directory and files, and the rules that keep a benchmark that writes files
// safe to point at a real filesystem:
// - it writes and deletes only inside its directory, through plain names under an open handle of
//   that directory (openat), never following a link (O_NOFOLLOW): a symbolic link, a hard-linked
//   file or anything but a regular file in the directory is not ours;
// - it never overwrites a file it did not create: any file without a valid clusterbench header
//   stops the run before it starts (exit 2), naming the file (an empty file with one of its own
//   names counts as its own: another rank has just created it, and it holds nothing to lose);
// - it checks free space (statvfs) before writing and says how much it needs: each node for its
//   own files, and the job for the files of every node that shares the directory;
// - --cleanup removes only the files it used, and only after checking they are still its own.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "runtime/run_config.hpp"
#include "runtime/shared_directory.hpp"
#include "storage/block_format.hpp"
#include "storage/storage_options.hpp"

namespace cb {

// $TMPDIR (else /tmp) + "/clusterbench-storage".
std::string default_storage_dir();
// --storage-dir, else default_storage_dir() (clusterbench's own, which it may create: when
// kStorageDir.given(config) is empty).
std::string storage_dir_path(const RunConfig& config);
// Data bytes of each rank's file: --file-bytes, else its declared default (storage_options.hpp).
std::uint64_t storage_file_bytes(const RunConfig& config);
// "clusterbench-rank<R>.dat", R = world rank; and whether a name has that form (or that of a
// checkpoint shard, "clusterbench-ckpt<R>.dat", storage/checkpoint_plan.hpp).
std::string storage_file_name(int rank);
bool is_storage_file_name(const std::string& name);
// R of such a name (nullopt for any other name, and for more than 9 digits).
std::optional<int> storage_file_rank(const std::string& name);
// The seed of rank R's pattern (fixed, so files are reused across runs).
std::uint64_t storage_file_seed(int rank);

// The storage family's read sizes (--block-sizes spells it) and reads in flight per rank
// (--queue-depth), declared once for every case that reads the family's files.
Axis storage_block_axis();
Axis storage_queue_depth_axis();

// The reads one case makes in this run: its block sizes and queue depths.
struct StorageReads {
  std::vector<std::uint64_t> blocks;
  std::vector<std::uint64_t> queue_depths{1};
};
StorageReads storage_reads(const std::string& case_name, const RunConfig& config);

// Block sizes, file size and queue depth: exit 2 (InputError) naming the flag.
void check_storage_options(const RunConfig& config, const StorageReads& reads);
// The options above, then the directory: it exists (the default one is created), is a directory,
// holds nothing but clusterbench's files, and has room for the files of `ranks` (world ranks:
// one node's) beyond those already valid. Throws InputError with one line naming the problem.
// Returns what those files still need there, for the job to sum over the nodes that share the
// directory (runtime/shared_directory.hpp).
DirectoryDemand check_storage_dir(const RunConfig& config, const StorageReads& reads,
                                  const std::vector<int>& ranks = {0});

enum class FileKind { ours_complete, ours_incomplete, foreign };

struct EntryInfo {
  std::string name;
  FileKind kind = FileKind::foreign;
  StorageHeader header;   // when ours
  std::uint64_t size = 0; // bytes on disk
  std::string why;        // when foreign: why it is not ours
};

// How many of the files of `ranks` must still be written: those not already complete files of
// ours of `data_bytes` with the rank's seed among `entries` (the inspected files of the node).
int storage_files_to_write(const std::vector<EntryInfo>& entries, const std::vector<int>& ranks,
                           std::uint64_t data_bytes);
// Those files, and the bytes they still need: a file of ours rewritten at another size already
// holds its own.
struct StorageWrites {
  int files = 0;
  std::uint64_t bytes = 0;
};
StorageWrites storage_writes(const std::vector<EntryInfo>& entries, const std::vector<int>& ranks,
                             std::uint64_t data_bytes);

class StorageDir {
public:
  // Opens the directory; `create`: make it (mode 0700) when missing — only for the default one.
  StorageDir(const std::string& path, bool create);
  const std::string& path() const { return path_; }
  int fd() const { return fd_.get(); }
  std::string file_path(const std::string& name) const { return path_ + "/" + name; }

  // The names in the directory, sorted (one listing; nothing is opened).
  std::vector<std::string> names() const;
  // One entry, by name (ENOENT -> RunError; callers check existence with exists()).
  EntryInfo inspect(const std::string& name) const;
  bool exists(const std::string& name) const;
  // Bytes free to an unprivileged writer; nullopt on a filesystem that keeps no block count
  // (ramfs, some FUSE mounts report zero blocks in all), where no space check can be made.
  std::optional<std::uint64_t> free_bytes() const;

  // Makes `name` a complete file of ours with `data_bytes` of data from `seed`: reused when it
  // already is one, (re)written when it is ours but incomplete or different, refused with
  // InputError when it is not ours. Returns true when it wrote the file.
  bool prepare_file(const std::string& name, std::uint64_t data_bytes, std::uint64_t seed);
  // Deletes `name` if it is a file of ours; never throws. True when it deleted.
  bool remove_if_ours(const std::string& name) const noexcept;

private:
  std::string path_; // resolved (realpath)
  UniqueFd fd_;
};

// --cleanup at the end of a case: deletes those of `names` in the directory at `path` that are
// still files of ours; never throws (a directory that went away holds nothing of ours).
void remove_our_files(const std::string& path, const std::vector<std::string>& names) noexcept;

// The refusal of a file that is not ours: one line naming it and why.
std::string not_ours_message(const StorageDir& dir, const EntryInfo& e);

// A file's full size on disk: header + data.
inline std::uint64_t storage_file_total_bytes(std::uint64_t data_bytes) {
  return kStorageHeaderBytes + data_bytes;
}

} // namespace cb
