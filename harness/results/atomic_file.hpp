#pragma once
// A file replaced atomically: written under a temporary name beside its target and renamed over
// it by commit(), after fsync, so a reader or a crash sees the old file or the new one, never a
// part of either. Destroyed before commit, the temporary is removed and the target left alone.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/unique_fd.hpp"

namespace cb {

// What a replaced file must survive. Results survive the machine going down (fsync before the
// rename); a note that only says how far a running job got need only survive the job dying, and
// skipping the fsync saves a disk flush per note (a pair test writes one per round: a thousand
// at 1,024 nodes, each a round trip to the server on a network filesystem).
enum class Durability { machine_crash, process_crash };

class AtomicFile {
public:
  // `target` is the file to replace, already resolved through symbolic links and checked by
  // check_output_target; `shown_name` names it in errors. InputError when its directory is
  // missing or not writable.
  AtomicFile(std::string target, std::string shown_name);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // RunError when the bytes cannot be written (a full disk).
  void write(std::string_view bytes);
  // Appends the first `length` bytes of the file open as `source` (read with pread, so its
  // offset is left alone).
  void copy_from(int source, std::uint64_t length);
  std::uint64_t size() const { return size_; }

  // fsync (unless only a process crash need be survived), then rename over the target. Returns
  // the descriptor of the file now at the target, open for reading, for a writer that builds its
  // next version from this one.
  UniqueFd commit(Durability durability = Durability::machine_crash);

private:
  void fail_write(int err);
  std::string target_;
  std::string shown_;
  std::string tmp_;
  UniqueFd fd_;
  std::uint64_t size_ = 0;
  bool committed_ = false;
};

} // namespace cb
