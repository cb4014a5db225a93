#pragma once
// The inter-node link rate per rank measured by the run itself, before its sweep, for its plan:
// what --plan-link would have said, when neither it nor --plan-from is given and the job spans
// nodes (Family::calibrate_link, answered by the links family).
//
// One round of one-way transfers between node pairs, all at once, on the transport pair_bw uses
// (host: MPI_Send/MPI_Recv; cuda: NCCL send/recv, every GPU i of a node with GPU i of its partner,
// the rails): node a sends to node a + K/2 of K nodes. A 1 MiB transfer first (connections made,
// the rate roughly known from the receivers' median), then the size that takes ~50 ms at that
// rate (1 MiB .. 64 MiB, repeated where 64 MiB is quicker), timed three times; each receiver's
// median rate, the node pair's slowest rail, the median over node pairs. One round whatever the
// node count (every pair at once): 0.35-0.56 s on 2 and 6 emulated nodes; at scale add what
// setting up the transport costs (on cuda the job's NCCL communicator, which the sweep then keeps
// instead of making its own). The data is checked: wrong words, or a rate no link has, leave the
// plan on the model's figure and its source says why. Rank 0 gathers one figure per rank (8
// bytes a rank) twice and broadcasts.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/family.hpp"

namespace cb {

struct CaseContext;

// (sender, receiver) ranks of ctx.comm: node a's ranks with node a + K/2's, K the nodes in
// `node_of_rank` (each comm rank's node index; a node's ranks in rank order). rails: local rank i
// with local rank i (as many as the smaller node has); else each node's first rank alone. An odd
// node out sits the round out.
std::vector<std::pair<int, int>> calibration_pairs(const std::vector<int>& node_of_rank,
                                                   bool rails);

// The transfer size for the timed samples: what takes about kCalibrationSampleS at the rate the
// probe of `probe_bytes` in `probe_s` showed, as a power of two in [probe_bytes, max_bytes].
std::size_t calibration_bytes(std::size_t probe_bytes, double probe_s, std::size_t max_bytes);

// The plan's rate from each rank's measured rate (bytes/s; 0 where the rank received nothing):
// per node pair its slowest receiving rank, then the median over node pairs. 0 when none.
double calibration_median(const std::vector<std::pair<int, int>>& pairs,
                          const std::vector<int>& node_of_rank,
                          const std::vector<double>& rate_of_rank, int& node_pairs);

inline constexpr double kCalibrationSampleS = 0.05;
// The rates --plan-link accepts (1 Mbit/s .. 100 TB/s, core/units.cpp): outside them a measured
// figure is a broken clock or transfer, not a link.
inline constexpr double kCalibrationMinBytesPerS = 125e3;
inline constexpr double kCalibrationMaxBytesPerS = 1e14;
inline constexpr std::size_t kCalibrationProbeBytes = std::size_t{1} << 20;
inline constexpr std::size_t kCalibrationMaxBytes = std::size_t{64} << 20;

// The measurement, collective over ctx.comm (the whole job, across nodes). Every rank gets the
// same answer; bytes_per_s 0 with the reason in `source` when it could not measure.
LinkCalibration calibrate_inter_link(const CaseContext& ctx);

} // namespace cb
