#include "planning/time_model.hpp"

#include <algorithm>
#include <cmath>

#include "core/collective_math.hpp"

namespace cb {
namespace {

double log2_steps(int n) {
  return n > 1 ? std::ceil(std::log2(static_cast<double>(n))) : 0.0;
}

double number(const nlohmann::json& params, const char* key, double fallback) {
  const auto it = params.find(key);
  return it != params.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string text(const nlohmann::json& params, const char* key) {
  const auto it = params.find(key);
  return it != params.end() && it->is_string() ? it->get<std::string>() : "";
}

bool is_stream(const std::string& name) {
  return name == "copy" || name == "scale" || name == "add" || name == "triad" || name == "read";
}

double array_bytes(const nlohmann::json& params) {
  return number(params, "bytes", 0) > 0 ? number(params, "bytes", 0) : 256e6;
}

// One rank's share of its memory: its own, or the node's split between its ranks.
double memory_share(const PhaseShape& shape, const HardwareModel& m) {
  if (m.node_memory_bw <= 0)
    return m.memory_bw;
  return std::min(m.memory_bw, m.node_memory_bw / std::max(1, shape.ranks_per_node));
}

double compute_seconds(const std::string& name, const nlohmann::json& params,
                       const PhaseShape& shape, const HardwareModel& m) {
  const double bytes = array_bytes(params);
  const double bw = memory_share(shape, m);
  if (name == "copy" || name == "scale")
    return 2 * bytes / bw;
  if (name == "add" || name == "triad")
    return 3 * bytes / bw;
  if (name == "read")
    return bytes / bw;
  if (name == "gemm") {
    const double flops =
        2 * number(params, "m", 1024) * number(params, "n", 1024) * number(params, "k", 1024);
    return flops / (text(params, "dtype") == "double" ? m.gemm_flops / 2 : m.gemm_flops);
  }
  // fma_peak's kernels: ~0.2 ms per call on the host (measured), about 1 ms on GPUs.
  return m.backend == "host" ? 0.25e-3 : 1e-3;
}

double links_seconds(const std::string& name, const nlohmann::json& params,
                     const PhaseShape& shape, const HardwareModel& m) {
  const double bytes = number(params, "bytes", 8 << 20);
  const bool inter = shape.nodes > 1;
  // The host backend's pair copies inside a node go through memory.
  const double link_bw = inter ? m.inter_bw : (m.backend == "host" ? m.memory_bw / 2 : m.intra_bw);
  const double step = inter ? m.alpha_inter_s : m.alpha_intra_s;
  if (name == "pair_latency")
    return 2 * (step + m.alpha_launch_s);
  if (name == "pair_bw" && inter && text(params, "direction") == "bi")
    return step + bytes / (link_bw * m.inter_both_ways_share); // bytes each way
  if (name == "host_to_device" || name == "device_to_host")
    return bytes / m.host_link_bw;
  if (name == "device_local_copy")
    return 2 * bytes / m.memory_bw;
  return step + bytes / link_bw; // pair_bw, ring_bw, p2p_matrix
}

double collective_seconds(const std::string& name, const nlohmann::json& params,
                          const PhaseShape& shape, const HardwareModel& m) {
  if (name == "communicator_init") // MPI's split: a few reductions; NCCL's init ~0.2 s and more
    return m.backend == "host" ? 4 * (m.alpha_launch_s + log2_steps(shape.ranks) * m.alpha_inter_s)
                               : 0.2 + shape.ranks * 1e-3;
  const double bytes = number(params, "bytes", 8);
  if (shape.ranks <= 1)
    return m.alpha_launch_s + bytes / m.memory_bw; // a local copy at most
  const Collective kind = collective_from_name(name);
  const bool inter = shape.nodes > 1;
  const double bw = inter ? m.inter_bw : m.intra_bw;
  const double step = inter ? m.alpha_inter_s : m.alpha_intra_s;
  const double steps =
      kind == Collective::alltoall ? shape.ranks - 1.0 : log2_steps(shape.ranks);
  return m.alpha_launch_s + steps * step + bytes * busbw_factor(kind, shape.ranks) / bw;
}

// A checkpoint shard's bytes on each rank: the checkpoint shared equally (storage/checkpoint_plan).
double checkpoint_shard(const nlohmann::json& params, const PhaseShape& shape) {
  return number(params, "checkpoint_bytes", 0) / std::max(1, shape.ranks);
}

double storage_seconds(const std::string& name, const nlohmann::json& params,
                       const PhaseShape& shape, const HardwareModel& m) {
  // The stage is a copy in host memory; the save and the restore move each node's shards through
  // its storage, as a read does.
  if (name == "checkpoint_stage")
    return m.alpha_launch_s + checkpoint_shard(params, shape) / m.memory_bw;
  if (name == "checkpoint_write" || name == "checkpoint_read")
    return checkpoint_shard(params, shape) * shape.ranks_per_node / m.storage_bw_per_node;
  const double bytes = number(params, "bytes", 64 << 20);
  double s = bytes * shape.ranks_per_node / m.storage_bw_per_node;
  if (name == "rand_read") {
    const double blocks = bytes / std::max(1.0, number(params, "block_bytes", 1 << 20));
    s += blocks * m.storage_latency_s / std::max(1.0, number(params, "queue_depth", 1));
  }
  if (name == "read_to_gpu")
    s += bytes / m.host_link_bw;
  return s;
}

// One data-parallel training step (bench/workload): forward and backward GEMMs (6 flops per
// parameter per token), the fp32 gradients' all-reduce counted in full (an upper bound: the
// buckets overlap part of it with backward), and the step's input read from the node's storage.
double workload_seconds(const nlohmann::json& params, const PhaseShape& shape,
                        const HardwareModel& m) {
  const double model_params = number(params, "model_params", 0);
  double s = 6 * model_params * number(params, "tokens_per_gpu", 256) / m.gemm_flops;
  if (shape.ranks > 1) {
    const double bw = shape.nodes > 1 ? m.inter_bw : m.intra_bw;
    s += 4 * model_params * busbw_factor(Collective::all_reduce, shape.ranks) / bw;
  }
  const double input = number(params, "input_bytes_per_step", 0);
  if (input > 0 && m.storage_bw_per_node > 0)
    s += input * shape.ranks_per_node / m.storage_bw_per_node;
  return s;
}

} // namespace

double operation_seconds(const std::string& suite, const std::string& name,
                         const nlohmann::json& params, const PhaseShape& shape,
                         const HardwareModel& model) {
  if (suite == "compute")
    return compute_seconds(name, params, shape, model);
  if (suite == "links")
    return links_seconds(name, params, shape, model);
  if (suite == "collectives")
    return collective_seconds(name, params, shape, model);
  if (suite == "storage")
    return storage_seconds(name, params, shape, model);
  if (suite == "workload")
    return workload_seconds(params, shape, model);
  return 1e-3;
}

double setup_seconds(const std::string& suite, const std::string& name,
                     const nlohmann::json& params, const PhaseShape& shape,
                     const HardwareModel& model) {
  if (suite == "compute" && is_stream(name) && model.first_touch_bw > 0)
    return 3 * array_bytes(params) / model.first_touch_bw;
  if (suite == "storage" && name == "checkpoint_stage" && model.first_touch_bw > 0)
    return 2 * checkpoint_shard(params, shape) / model.first_touch_bw; // the state and its snapshot
  if (suite == "storage" && name.rfind("checkpoint_", 0) == 0 && model.storage_bw_per_node > 0) {
    return model.storage_setup_s +
           checkpoint_shard(params, shape) * shape.ranks_per_node / model.storage_bw_per_node;
  }
  if (suite == "storage" && model.storage_bw_per_node > 0) {
    return model.storage_setup_s + number(params, "file_bytes", number(params, "bytes", 0)) *
                                       shape.ranks_per_node / model.storage_bw_per_node;
  }
  if (suite == "links")
    return model.links_setup_s;
  return 0;
}

double sync_seconds(const PhaseShape& shape, const HardwareModel& model) {
  const double intra = log2_steps(shape.ranks_per_node) * model.sync_step_intra_s;
  const double inter = log2_steps(shape.nodes) * model.sync_step_inter_s;
  return 3 * (intra + inter);
}

RecordEstimate estimate_measurement(double op_s, double sync_s, const MeasureSettings& s,
                                    bool launch_bound, double sample_extra_s) {
  RecordEstimate e;
  const int k = batch_for(op_s, s);
  e.batch = k;
  const double warmup = s.warmup_batches * (sync_s + op_s);
  const double calibration = sync_s + op_s + (k > 1 ? sync_s + k * op_s : 0.0);
  const double sample = k * op_s + sync_s + sample_extra_s;
  // Converging: min_samples and min_time.
  long long n = std::max<long long>(s.min_samples,
                                    static_cast<long long>(std::ceil(s.min_time_s / sample)));
  e.expect = "converged";
  if (launch_bound && s.settle && s.settle_every > 0) {
    // The window looks at the spreads of prefixes, which swing while the prefixes are short:
    // evenly spread noise settles at the check after twice the window (160 samples with nvbench's
    // 64 and 16; tests/unit/runtime/test_engine_rules.cpp).
    const long long first_check = (2 * s.settle_window / s.settle_every + 2) * s.settle_every;
    if (first_check > n) {
      n = first_check;
      e.expect = "settled";
    }
  }
  n = std::min<long long>(n, s.max_samples);
  const long long at_cap =
      std::max<long long>(1, static_cast<long long>(std::ceil(s.max_time_s / sample)));
  if (at_cap < n) {
    n = at_cap;
    e.expect = "cap";
  }
  e.samples = static_cast<int>(n);
  e.sampling_s = static_cast<double>(n) * sample;
  e.seconds = warmup + calibration + e.sampling_s;
  return e;
}

} // namespace cb
