// A results file as `clusterbench run` writes it for a whole cluster (default 128 nodes x 8 GPUs,
// the cuda backend's default sweep): the planner's GPU counts 1, 2, 4, 8, 16, ... every GPU, the
// collectives' full size sweep within one node, at one node and at the whole job and sizes 16x
// apart in between, the compute, storage and GPU-link cases at every count, and the pair tests
// once at the whole job (node pairs i <-> i across nodes, GPU pairs within each node, as their
// rounds measure them), each record with its per-rank entries as the engine writes them. The
// figures follow the data sheet with a few percent of noise, so fits and qualify have real work.
#pragma once

#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "results/record.hpp"

namespace cb::perf {

struct ClusterShape {
  int nodes = 128;
  int gpus_per_node = 8;
};

using RecordSink = std::function<void(Record&&)>;

// The run header (hosts and their devices) and the records, handed to `each` one at a time so
// that a file of any size is written in the memory of one record. The same (shape, seed) always
// gives the same file.
nlohmann::json synthetic_cluster_run(const ClusterShape& shape);
void synthetic_cluster_records(const ClusterShape& shape, std::uint64_t seed,
                               const RecordSink& each);

} // namespace cb::perf
