#include "runtime/shared_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/unique_fd.hpp"
#include "core/units.hpp"

namespace cb {
namespace {

constexpr const char* kProbePrefix = "clusterbench-probe-";
constexpr std::size_t kProbeDigits = 16;
constexpr int kProbeNameBytes = 64; // broadcast as a fixed block

UniqueFd open_directory(const std::string& path) {
  return UniqueFd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

// A fresh probe name in `dir`, created empty (never following a link, never replacing a file),
// or "" when it cannot be.
std::string create_probe(int dir) {
  std::random_device entropy;
  for (int attempt = 0; attempt < 4; ++attempt) {
    const std::uint64_t value = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
    char name[kProbeNameBytes];
    std::snprintf(name, sizeof name, "%s%016llx", kProbePrefix,
                  static_cast<unsigned long long>(value));
    const UniqueFd probe(
        ::openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (probe.valid())
      return name;
    if (errno != EEXIST)
      return "";
  }
  return "";
}

bool sees_probe(const std::string& path, const char* name) {
  const UniqueFd dir = open_directory(path);
  struct stat st {};
  return dir.valid() && ::fstatat(dir.get(), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISREG(st.st_mode);
}

} // namespace

bool is_directory_probe_name(const std::string& name) {
  const std::string prefix = kProbePrefix;
  if (name.size() != prefix.size() + kProbeDigits || name.compare(0, prefix.size(), prefix) != 0)
    return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string shared_directory_message(const DirectoryDemand& first, long long nodes,
                                     std::uint64_t need, long long files, std::uint64_t free) {
  return first.flag + ": '" + first.path + "' is one directory shared by " + std::to_string(nodes) +
         " nodes, whose " + std::to_string(files) + " file(s) of " +
         approximate_size(first.file_bytes) + " need " + approximate_size(need) +
         " free in all; it has " + approximate_size(free) +
         " (use --file-bytes, fewer nodes, or a directory on each node's " + "own disk)";
}

std::string shared_directory_problem(const Communicator& world,
                                     const std::optional<DirectoryDemand>& mine) {
  const bool root = world.rank() == 0;
  UniqueFd root_dir;
  char probe[kProbeNameBytes] = {};
  if (root && mine) {
    root_dir = open_directory(mine->path);
    if (root_dir.valid()) {
      const std::string name = create_probe(root_dir.get());
      std::snprintf(probe, sizeof probe, "%s", name.c_str());
    }
  }
  world.broadcast(probe, kProbeNameBytes);
  if (probe[0] == '\0')
    return "";
  probe[kProbeNameBytes - 1] = '\0';
  const bool sharing = mine && (root || sees_probe(mine->path, probe));
  // Every rank has looked once these sums return: the probe can go.
  const long long nodes = world.sum(sharing ? 1LL : 0LL);
  const long long bytes = world.sum(sharing ? static_cast<long long>(mine->bytes) : 0LL);
  const long long files = world.sum(sharing ? mine->files : 0LL);
  if (!root)
    return "";
  ::unlinkat(root_dir.get(), probe, 0);
  if (nodes < 2)
    return ""; // only rank 0's node writes there: its own check has counted it
  struct statvfs s {};
  if (::fstatvfs(root_dir.get(), &s) != 0 || s.f_blocks == 0)
    return ""; // no block count to check against (a node's own check says the same)
  const std::uint64_t free =
      static_cast<std::uint64_t>(s.f_bavail) * static_cast<std::uint64_t>(s.f_frsize);
  const auto need = static_cast<std::uint64_t>(bytes);
  return need > free ? shared_directory_message(*mine, nodes, need, files, free) : "";
}

} // namespace cb
