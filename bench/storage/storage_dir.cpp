#include "storage/storage_dir.hpp"

#include "runtime/axis_values.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "core/error.hpp"
#include "core/units.hpp"
#include "runtime/shared_directory.hpp"

namespace cb {
namespace {

constexpr std::uint64_t kMaxBufferBytesPerRank = 1ull << 30;
constexpr std::size_t kWriteChunk = 4u << 20;

std::string errno_text(int err) {
  return std::strerror(err);
}

// pwrite of the whole buffer (short writes and EINTR retried); RunError naming the file.
void write_all(int fd, const unsigned char* data, std::size_t bytes, std::uint64_t offset,
               const std::string& path) {
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, data, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      CB_RUN_ERROR("writing " + path + ": " + errno_text(n < 0 ? errno : EIO));
    data += n;
    bytes -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
}

std::string link_target(int dir_fd, const std::string& name) {
  char target[PATH_MAX];
  const ssize_t n = ::readlinkat(dir_fd, name.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string("?");
}

// Classifies an open regular file by its header and size.
EntryInfo classify_open_file(int fd, const std::string& name, const struct stat& st) {
  EntryInfo info;
  info.name = name;
  info.size = static_cast<std::uint64_t>(st.st_size);
  if (st.st_nlink > 1) {
    info.why = "it has " + std::to_string(st.st_nlink) + " hard links";
    return info;
  }
  if (!is_storage_file_name(name)) {
    info.why = "its name is not one clusterbench gives its files";
    return info;
  }
  if (info.size == 0) {
    // Just created by another rank, header not yet written: nothing in it to lose.
    info.kind = FileKind::ours_incomplete;
    return info;
  }
  std::unique_ptr<unsigned char[]> block(new unsigned char[kStorageHeaderBytes]());
  const ssize_t n = ::pread(fd, block.get(), kStorageHeaderBytes, 0);
  if (n != static_cast<ssize_t>(kStorageHeaderBytes)) {
    info.why = "it is too short for a clusterbench header";
    return info;
  }
  auto header = decode_storage_header(block.get(), &info.why);
  if (!header)
    return info;
  info.header = *header;
  info.why.clear();
  const bool whole = info.size == storage_file_total_bytes(header->data_bytes);
  info.kind = header->complete && whole ? FileKind::ours_complete : FileKind::ours_incomplete;
  return info;
}

} // namespace

std::string not_ours_message(const StorageDir& dir, const EntryInfo& e) {
  return "--storage-dir: '" + dir.file_path(e.name) + "' is not a clusterbench file (" + e.why +
         "); clusterbench writes only in a directory that holds nothing but its own files — "
         "choose an empty or new directory";
}

std::string default_storage_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp && *tmp ? tmp : "/tmp";
  while (base.size() > 1 && base.back() == '/')
    base.pop_back();
  return base + "/clusterbench-storage";
}

std::string storage_dir_path(const RunConfig& config) {
  return kStorageDir.given(config).value_or(default_storage_dir());
}

std::uint64_t storage_file_bytes(const RunConfig& config) {
  return kFileBytes.value(config);
}

std::string storage_file_name(int rank) {
  return "clusterbench-rank" + std::to_string(rank) + ".dat";
}

bool is_storage_file_name(const std::string& name) {
  // A rank's read file or its checkpoint shard (storage/checkpoint_plan.hpp): prefixes of one
  // length, so storage_file_rank finds R at the same place in both.
  const std::string prefix = "clusterbench-rank", shard_prefix = "clusterbench-ckpt",
                    suffix = ".dat";
  if (name.size() <= prefix.size() + suffix.size())
    return false;
  if (name.compare(0, prefix.size(), prefix) != 0 &&
      name.compare(0, shard_prefix.size(), shard_prefix) != 0)
    return false;
  if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
         (digits.size() == 1 || digits[0] != '0');
}

std::optional<int> storage_file_rank(const std::string& name) {
  if (!is_storage_file_name(name))
    return std::nullopt;
  // "clusterbench-rank" or "clusterbench-ckpt", then ".dat"
  const std::string digits = name.substr(17, name.size() - 17 - 4);
  if (digits.size() > 9)
    return std::nullopt; // past any rank count: not a rank of this job
  return std::stoi(digits);
}

std::uint64_t storage_file_seed(int rank) {
  // A fixed odd constant times (rank + 1): distinct per rank, the same in every run.
  return 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(rank + 1);
}

Axis storage_block_axis() {
  return Axis::sizes("block_bytes", 1, 1ull << 40)
      .defaults("1M")
      .spelled("block-sizes")
      .described("read sizes, e.g. 4K,64K,1M,16M");
}

Axis storage_queue_depth_axis() {
  return Axis::integers("queue_depth", 1, 1024)
      .defaults("1")
      .spelled("queue-depth")
      .described("reads in flight per rank");
}

StorageReads storage_reads(const std::string& case_name, const RunConfig& config) {
  StorageReads reads;
  for (const auto& v : axis_values(case_name, storage_block_axis(), config))
    reads.blocks.push_back(v.get<std::uint64_t>());
  reads.queue_depths.clear();
  for (const auto& v : axis_values(case_name, storage_queue_depth_axis(), config))
    reads.queue_depths.push_back(v.get<std::uint64_t>());
  return reads;
}

void check_storage_options(const RunConfig& config, const StorageReads& reads) {
  const std::uint64_t file_bytes = storage_file_bytes(config);
  if (file_bytes == 0 || file_bytes % kStorageChunkBytes != 0) {
    throw InputError("--file-bytes: must be a positive multiple of 4K (whole checksummed blocks), "
                     "got " +
                     format_size(file_bytes));
  }
  if (reads.blocks.empty())
    throw InputError("--block-sizes: at least one size is needed");
  std::uint64_t largest = 0;
  for (std::uint64_t block : reads.blocks) {
    if (block == 0)
      throw InputError("--block-sizes: a block size must be greater than 0");
    if (!kBuffered.value(config) && block % 4096 != 0) {
      throw InputError("--block-sizes: " + format_size(block) +
                       " is not a multiple of 4K, "
                       "which O_DIRECT reads need (or pass --buffered)");
    }
    if (block > file_bytes) {
      throw InputError("--block-sizes: " + format_size(block) + " is larger than the file of " +
                       format_size(file_bytes) + " per rank (--file-bytes)");
    }
    largest = std::max(largest, block);
  }
  std::uint64_t depth = 1;
  for (std::uint64_t d : reads.queue_depths)
    depth = std::max(depth, d);
  const auto buffers = largest * depth;
  if (buffers > kMaxBufferBytesPerRank) {
    throw InputError("--queue-depth: " + std::to_string(depth) + " reads of " +
                     format_size(largest) + " need " + format_size(buffers) +
                     " of buffers per rank; at most " + format_size(kMaxBufferBytesPerRank));
  }
}

StorageWrites storage_writes(const std::vector<EntryInfo>& entries, const std::vector<int>& ranks,
                             std::uint64_t data_bytes) {
  std::map<std::string, const EntryInfo*> by_name;
  for (const EntryInfo& e : entries)
    by_name[e.name] = &e;
  const std::uint64_t total = storage_file_total_bytes(data_bytes);
  StorageWrites writes;
  for (int r : ranks) {
    const auto it = by_name.find(storage_file_name(r));
    const bool reusable = it != by_name.end() && it->second->kind == FileKind::ours_complete &&
                          it->second->header.data_bytes == data_bytes &&
                          it->second->header.seed == storage_file_seed(r);
    if (reusable)
      continue;
    ++writes.files;
    // A file of ours rewritten in place already holds its blocks (prepare_file counts them too).
    const std::uint64_t held = it != by_name.end() ? it->second->size : 0;
    writes.bytes += total > held ? total - held : 0;
  }
  return writes;
}

int storage_files_to_write(const std::vector<EntryInfo>& entries, const std::vector<int>& ranks,
                           std::uint64_t data_bytes) {
  return storage_writes(entries, ranks, data_bytes).files;
}

DirectoryDemand check_storage_dir(const RunConfig& config, const StorageReads& reads,
                                  const std::vector<int>& ranks) {
  check_storage_options(config, reads);
  const bool is_default = !kStorageDir.given(config);
  const StorageDir dir(storage_dir_path(config), is_default);
  const std::uint64_t data_bytes = storage_file_bytes(config);
  // Headers are read only of this node's files: on a directory every node shares, each node
  // reading every rank's header would be nodes x ranks opens on one metadata server. A file of
  // another rank's name is that rank's node's to check; one of a rank outside the job is never
  // written nor removed.
  const std::set<int> mine(ranks.begin(), ranks.end());
  std::vector<EntryInfo> entries;
  for (const std::string& name : dir.names()) {
    if (is_directory_probe_name(name))
      continue; // another node's probe (shared_directory.hpp), there for a moment
    if (const std::optional<int> rank = storage_file_rank(name); rank && !mine.count(*rank))
      continue;
    EntryInfo e = dir.inspect(name);
    if (e.kind == FileKind::foreign)
      throw InputError(not_ours_message(dir, e));
    entries.push_back(std::move(e));
  }
  const StorageWrites writes = storage_writes(entries, ranks, data_bytes);
  const int to_write = writes.files;
  const std::uint64_t need = writes.bytes;
  const std::optional<std::uint64_t> free = dir.free_bytes();
  if (free && need > *free) {
    throw InputError("--storage-dir: '" + dir.path() + "' needs " + approximate_size(need) +
                     " free for " + std::to_string(to_write) + " file(s) of " +
                     approximate_size(storage_file_total_bytes(data_bytes)) + ", has " +
                     approximate_size(*free) + " (use --file-bytes or another directory)");
  }
  return {"--storage-dir", dir.path(), need, to_write, storage_file_total_bytes(data_bytes)};
}

StorageDir::StorageDir(const std::string& path, bool create) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT && create) {
      if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
        throw InputError("--storage-dir: cannot create '" + path + "': " + errno_text(errno));
      }
    } else if (errno == ENOENT) {
      throw InputError("--storage-dir: '" + path + "' does not exist");
    } else {
      throw InputError("--storage-dir: '" + path + "': " + errno_text(errno));
    }
  } else if (!S_ISDIR(st.st_mode)) {
    throw InputError("--storage-dir: '" + path + "' is not a directory");
  }
  char resolved[PATH_MAX];
  if (!::realpath(path.c_str(), resolved)) {
    throw InputError("--storage-dir: '" + path + "': " + errno_text(errno));
  }
  path_ = resolved;
  fd_ = UniqueFd(::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd_.valid())
    throw InputError("--storage-dir: '" + path_ + "': " + errno_text(errno));
  if (::faccessat(fd_.get(), ".", W_OK, 0) != 0) {
    throw InputError("--storage-dir: cannot write in '" + path_ + "': " + errno_text(errno));
  }
}

bool StorageDir::exists(const std::string& name) const {
  struct stat st {};
  return ::fstatat(fd_.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

EntryInfo StorageDir::inspect(const std::string& name) const {
  EntryInfo info;
  info.name = name;
  struct stat st {};
  if (::fstatat(fd_.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    CB_RUN_ERROR("cannot stat " + file_path(name) + ": " + errno_text(errno));
  }
  if (S_ISLNK(st.st_mode)) {
    info.why = "a symbolic link to " + link_target(fd_.get(), name) + "; links are never followed";
    return info;
  }
  if (S_ISDIR(st.st_mode)) {
    info.why = "a directory";
    return info;
  }
  if (!S_ISREG(st.st_mode)) {
    info.why = "not a regular file";
    return info;
  }
  const UniqueFd file(
      ::openat(fd_.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!file.valid()) {
    info.why = "cannot be opened: " + errno_text(errno);
    return info;
  }
  if (::fstat(file.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    info.why = "not a regular file";
    return info;
  }
  return classify_open_file(file.get(), name, st);
}

std::vector<std::string> StorageDir::names() const {
  const int dup_fd = ::dup(fd_.get());
  if (dup_fd < 0)
    CB_RUN_ERROR("dup: " + errno_text(errno));
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(dup_fd), ::closedir);
  if (!dir) {
    ::close(dup_fd);
    CB_RUN_ERROR("cannot list " + path_ + ": " + errno_text(errno));
  }
  ::rewinddir(dir.get());
  std::vector<std::string> names;
  while (const dirent* d = ::readdir(dir.get())) {
    const std::string name = d->d_name;
    if (name != "." && name != "..")
      names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::uint64_t> StorageDir::free_bytes() const {
  struct statvfs s {};
  if (::fstatvfs(fd_.get(), &s) != 0)
    CB_RUN_ERROR("statvfs " + path_ + ": " + errno_text(errno));
  if (s.f_blocks == 0)
    return std::nullopt;
  return static_cast<std::uint64_t>(s.f_bavail) * static_cast<std::uint64_t>(s.f_frsize);
}

bool StorageDir::prepare_file(const std::string& name, std::uint64_t data_bytes,
                              std::uint64_t seed) {
  const std::string path = file_path(name);
  // Decide and write through one descriptor, so nothing can be swapped in between.
  bool created = false;
  UniqueFd file(::openat(fd_.get(), name.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!file.valid() && errno == ENOENT) {
    file = UniqueFd(::openat(fd_.get(), name.c_str(),
                             O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    created = file.valid();
  }
  if (!file.valid()) {
    if (errno == ELOOP) {
      throw InputError(not_ours_message(
          *this, {name, FileKind::foreign, {}, 0, "a symbolic link; links are never followed"}));
    }
    CB_RUN_ERROR("cannot open " + path + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(file.get(), &st) != 0)
    CB_RUN_ERROR("cannot stat " + path + ": " + errno_text(errno));
  std::uint64_t existing = 0;
  if (!created) {
    if (!S_ISREG(st.st_mode)) {
      throw InputError(
          not_ours_message(*this, {name, FileKind::foreign, {}, 0, "not a regular file"}));
    }
    const EntryInfo info = classify_open_file(file.get(), name, st);
    if (info.kind == FileKind::foreign)
      throw InputError(not_ours_message(*this, info));
    if (info.kind == FileKind::ours_complete && info.header.data_bytes == data_bytes &&
        info.header.seed == seed) {
      return false; // reused as it is
    }
    existing = info.size;
  }

  const std::uint64_t total = storage_file_total_bytes(data_bytes);
  const std::optional<std::uint64_t> free = free_bytes();
  if (free && total > *free + existing) {
    if (created)
      ::unlinkat(fd_.get(), name.c_str(), 0);
    CB_RUN_ERROR("--storage-dir: writing " + path + " needs " + format_size(total) + ", " +
                 format_size(*free + existing) + " available");
  }
  // Header first, marked incomplete, then the size: at every moment the file is recognisably ours
  // (to this run's other ranks too), and one cut short by a crash is rewritten, never reused.
  std::unique_ptr<unsigned char[]> buffer(new unsigned char[kWriteChunk]);
  encode_storage_header({data_bytes, seed, false}, buffer.get());
  write_all(file.get(), buffer.get(), kStorageHeaderBytes, 0, path);
  if (::ftruncate(file.get(), static_cast<off_t>(total)) != 0) {
    CB_RUN_ERROR("sizing " + path + ": " + errno_text(errno));
  }
  for (std::uint64_t done = 0; done < data_bytes;) {
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kWriteChunk, data_bytes - done));
    for (std::size_t off = 0; off < n; off += kStorageChunkBytes) {
      fill_storage_chunk(seed, (done + off) / kStorageChunkBytes, buffer.get() + off);
    }
    write_all(file.get(), buffer.get(), n, kStorageHeaderBytes + done, path);
    done += n;
  }
  if (::fdatasync(file.get()) != 0)
    CB_RUN_ERROR("syncing " + path + ": " + errno_text(errno));
  encode_storage_header({data_bytes, seed, true}, buffer.get());
  write_all(file.get(), buffer.get(), kStorageHeaderBytes, 0, path);
  if (::fdatasync(file.get()) != 0)
    CB_RUN_ERROR("syncing " + path + ": " + errno_text(errno));
  // The pages just written are not the measurement's to keep.
  ::posix_fadvise(file.get(), 0, 0, POSIX_FADV_DONTNEED);
  return true;
}

void remove_our_files(const std::string& path, const std::vector<std::string>& names) noexcept {
  if (names.empty())
    return;
  try {
    const StorageDir dir(path, false);
    for (const auto& name : names)
      dir.remove_if_ours(name);
  } catch (...) {
    // The directory went away: nothing of ours is left to remove.
  }
}

bool StorageDir::remove_if_ours(const std::string& name) const noexcept {
  try {
    if (!exists(name))
      return false;
    const EntryInfo info = inspect(name);
    if (info.kind == FileKind::foreign)
      return false;
    return ::unlinkat(fd_.get(), name.c_str(), 0) == 0;
  } catch (...) {
    return false;
  }
}

} // namespace cb
