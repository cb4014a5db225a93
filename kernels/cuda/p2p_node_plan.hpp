#pragma once
// The P2P matrix across the processes of one node, as data (host code, unit-tested without a GPU).
// Each rank of the node owns its GPU's buffers; a source rank maps its peer's destination buffer
// (CUDA IPC between processes, the raw pointer and peer access between threads of one process)
// and pushes into it on its own stream. What is decided here: which ranks of the communicator
// are the node's, whether the node can measure at all, which pairs push in which step, which
// pairs a failed mapping leaves out, and the matrix assembled from every source rank's own times.
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cuda/p2p_plan.hpp"

namespace cb::cuda {

// The comm ranks on the node of comm rank 0, ascending; node_of_member[i] is comm rank i's node.
// Only they measure: the matrix is one node's (at most its GPUs, never the job's).
std::vector<int> first_node_members(const std::vector<int>& node_of_member);

// Why the node's ranks cannot measure the matrix, "" when they can. compute_modes: each node
// rank's own GPU's cudaComputeMode (0 default, 1 exclusive thread, 2 prohibited, 3 exclusive
// process), in node rank order. Every process uses only its own GPU's context (a peer's buffer is
// mapped, not opened in a context of the peer's GPU), so only a mode that forbids contexts at all
// refuses.
std::string why_no_p2p_matrix(const std::vector<int>& compute_modes);

// One step of the schedule: pairs of node ranks whose copies run at once, src pushing into dst
// (both ways: each end into the other).
struct P2pStep {
  int round = 0; // the schedule's round the step belongs to
  std::vector<DevicePair> pairs;
  bool operator==(const P2pStep&) const = default;
};

using RankPairs = std::vector<std::pair<int, int>>; // one round: unordered pairs, first < second

// --pairs sequential: one pair of n ranks per round, every unordered pair once.
std::vector<RankPairs> sequential_rounds(int n);
// The steps of `rounds`: both ways one step per round; one way two, (a, b) then (b, a).
std::vector<P2pStep> p2p_steps(const std::vector<RankPairs>& rounds, bool bidirectional);

// The step without the pairs a source could not map: unmapped[src][dst] is "" when src mapped
// dst's buffer, else why not (both ways, both ends must have). Each pair left out is appended to
// `skipped` as {src, dst, reason}.
P2pStep runnable_step(const P2pStep& step, const std::vector<std::vector<std::string>>& unmapped,
                      bool bidirectional, nlohmann::json& skipped);

// The rank `me` pushes into in `step`, -1 when none (one way: the source; both ways: either end).
int push_target(const P2pStep& step, int me, bool bidirectional);
// Whether me's destination buffer is written in `step`.
bool receives_in(const P2pStep& step, int me, bool bidirectional);

// Whether a peer's buffer is reached by its raw pointer (threads of one process: the pointer is
// valid here, and an IPC handle cannot be opened in the process that made it) or through an IPC
// handle. MPI ranks are separate processes even where their pids are equal (each container its
// own pid namespace), so the pids decide only between threads.
bool same_process(long long my_pid, long long peer_pid, bool ranks_are_threads);

// A source rank's own time for one push, as it sends it to the node's first rank.
struct PushTime {
  int src = 0, dst = 0, round = 0;
  double seconds = 0; // per copy: the median of its own samples
  bool operator==(const PushTime&) const = default;
};
std::string push_times_text(const std::vector<PushTime>& pushes);
std::vector<PushTime> push_times_from_text(const std::string& text); // RunError when malformed

// The node's matrix from every source rank's pushes: one way, bytes / seconds of each ordered
// pair; both ways, the pair's two pushes ran at once, 2 x bytes over the slower of them, in both
// cells. pair_seconds and pair_rounds ([src, dst, round]) list each measured pair once.
struct NodeMatrix {
  std::map<std::pair<int, int>, double> gbps;
  std::vector<double> pair_seconds;
  nlohmann::json pair_rounds = nlohmann::json::array();
};
NodeMatrix assemble_p2p_matrix(const std::vector<PushTime>& pushes, std::size_t bytes,
                               bool bidirectional);

// A 64-byte IPC handle as text the communicator carries, and back (RunError when malformed).
std::string hex_of_bytes(const std::string& bytes);
std::string bytes_of_hex(const std::string& hex);

} // namespace cb::cuda
