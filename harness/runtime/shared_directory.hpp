#pragma once
// A directory that several nodes see as one (a parallel or network filesystem: Lustre, GPFS,
// NFS). Each node checks its own files' room in it; on a shared directory that is not enough:
// 1,024 nodes that each find room for their own 2 GiB would together write 2 TiB into a
// filesystem the whole cluster depends on. So the job finds out which nodes share rank 0's
// directory (rank 0 creates a probe file there, every node looks for it: one create and one
// lookup per node, no listing) and checks the sum of their files against its free space.
#include <cstdint>
#include <optional>
#include <string>

#include "runtime/communicator.hpp"

namespace cb {

// What one node must still write into a directory before its cases can run.
struct DirectoryDemand {
  std::string flag;             // the flag that names the directory ("--storage-dir")
  std::string path;             // the directory, as this node resolves it
  std::uint64_t bytes = 0;      // bytes this node's ranks must still write there
  long long files = 0;          // files they must write
  std::uint64_t file_bytes = 0; // bytes of each (on disk)
};

// "clusterbench-probe-" and 16 hexadecimal digits: the only other name clusterbench creates in
// such a directory, for a moment (a probe left by a killed run is an empty file of this name).
bool is_directory_probe_name(const std::string& name);

// Collective over `world`. `mine`: this node's demand, given by one rank per node (the others
// pass nullopt; rank 0 must be such a rank). Rank 0 places a probe in its directory; each node
// that finds it there shares rank 0's directory, and their demands are summed. Rank 0 returns
// why the job does not fit when two or more nodes share the directory and their files need more
// than it has free, else "" (as every other rank does). Nothing is checked when rank 0 has no
// demand or cannot create the probe (a node's own check has then said why).
std::string shared_directory_problem(const Communicator& world,
                                     const std::optional<DirectoryDemand>& mine);

// The message for `nodes` nodes that share `path` and need `need` bytes for `files` files of
// `file_bytes` each where `free` bytes are free (pure; tested on its own).
std::string shared_directory_message(const DirectoryDemand& first, long long nodes,
                                     std::uint64_t need, long long files, std::uint64_t free);

} // namespace cb
