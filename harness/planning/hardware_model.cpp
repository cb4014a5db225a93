#include "planning/hardware_model.hpp"

#include "qualify/spec.hpp"

namespace cb {
namespace {

// The expected figure of a spec's check, or `fallback` when the spec has no such check.
double figure(const Spec* spec, const std::string& id, double fallback, std::string& source) {
  if (spec) {
    for (const auto& check : spec->checks) {
      if (check.id == id && check.expected > 0) {
        source = spec->name + " check " + id + " (" + check.source.substr(0, 80) + ")";
        return check.expected;
      }
    }
  }
  return fallback;
}

} // namespace

HardwareModel host_hardware_model() {
  HardwareModel m;
  m.backend = "host";
  m.description =
      "host backend: figures measured with clusterbench run --quick on an idle 2-core VM";
  // Measured with ci/plan-vs-measured (the quick sweep, 2 ranks) on the project's 2-core VM, idle
  // (load average below 1): copy 28-29 GB/s on one rank, 54 GB/s summed over two.
  m.memory_bw = 28e9;
  m.node_memory_bw = 56e9;
  // Page faults and the first fill of the STREAM arrays: three 134 MB arrays in 0.24-0.29 s beyond
  // the record's other costs (~1.6 GB/s; 0.2 GB/s under a load average of 9).
  m.first_touch_bw = 1.6e9;
  // A checkpoint's state filled with its pattern: 235 MB in ~0.4 s beyond the file's own costs
  // (checkpoint_write and _read on one rank); 2 x 235 MB in 1.1-1.2 s for checkpoint_stage's state
  // and snapshot, counted as three passes. Those buffers are huge pages (storage/io_memory), and
  // this VM reports free memory to its host: a huge page freed a few seconds before faults in at
  // 0.45-0.7 GB/s, one freed just before at ~7 GB/s. checkpoint_stage on two ranks, right after
  // one rank freed the same bytes: three passes at 2.6-3.4 GB/s.
  m.checkpoint_fill_bw = 0.6e9;
  m.checkpoint_fill_reused_bw = 3e9;
  m.fma_flops = 117e9; // fma_peak's fp32 figure on one core
  m.fma_peak_op_s = 0.43e-3;
  m.gemm_flops = 100e9; // OpenBLAS sgemm at 512 and 1024 on one core: 98-104 GFLOP/s
  // The training step's GEMMs (width 2048, forward and backward): 75-77 GFLOP/s per rank.
  m.step_gemm_share = 0.75;
  m.host_link_bw = m.memory_bw;
  m.storage_bw_per_node = 1.3e9; // seq_read: 64 MiB in 44 ms on one rank (1.5 GB/s), ~1.6 on two
  m.storage_latency_s = 100e-6;
  // checkpoint_write 2.2-2.7 GB/s, checkpoint_read 2.5-2.9 GB/s (235 MB shards, on one and two
  // ranks): faster than seq_read's one block at a time.
  m.checkpoint_bw_per_node = 2.6e9;
  // MPI through shared memory on one node; TCP between nodes (emulated cluster, 1-10 Gb/s).
  m.intra_bw = 8e9; // plain MPI_Allreduce loop on 2 ranks at 2 MiB: ~8 GB/s busbw
  m.inter_bw = 1e9;
  m.link_source = "assumed: the host model's 1 GB/s per rank (no --plan-link or --plan-from)";
  m.alpha_launch_s = 0.2e-6;
  m.alpha_intra_s = 0.3e-6;
  m.alpha_inter_s = 30e-6;
  m.sync_step_intra_s = 1e-6;
  m.sync_step_inter_s = 40e-6;
  // Measured with ci/plan-vs-measured on the idle 2-core VM, outside each record's sampling: 2-4 ms
  // per collective record (allocation, fills, verification, the fsync'd results write; 20-70 ms
  // under a load average of 6-24), 45-60 ms more per compute record, 0.15-0.3 s per storage read
  // record with its file written and evicted. A links record's fabric (8 MiB buffers, the
  // shared-memory window) on 6 emulated nodes, idle: ring_bw's phase minus its three link-bound
  // transfers left 0.01-0.16 s at 100-300 Mbit/s (0.4 s was seen under load 9); 25 ms on one node.
  m.record_setup_s = 4e-3;
  m.kernel_setup_s = 0.045;
  m.links_setup_s = 0.06;
  m.links_setup_intra_s = 0.025;
  // Both ways at once between two emulated nodes, MPI over TCP: pair_bw direction=bi summed
  // 1.00x one direction's rate on 6 nodes at 100 and 300 Mbit/s (0.0120 vs 0.0120 GB/s, 0.0360
  // vs 0.0358) and on 2 nodes at 100 Mbit/s, as did ring_bw's 2 ranks in a 2-node job; a ring of
  // 4 or 6 (each node sending to one neighbour, receiving from the other) kept the full rate each
  // way. (ring_bw's 2 ranks inside a 6-node job once reached the full rate: not explained.)
  m.inter_both_ways_share = 0.5;
  // 8-byte ping-pongs across 6 emulated nodes at 100 Mbit/s, each sample averaging 10 ms of them
  // (latency_settings): in 13 runs 98 of 130 sub-rounds reached the 2 % target in their first 5
  // to 7 samples, the others ran to the cap (the record's extra.sub_rounds). A sample took 30 ms
  // (5 in 0.15 s, the median sub-round's sampling): 15 ms of ping-pongs and 15 ms more than the
  // engine's sync, which 6 ranks polling on 2 cores spend waiting for a core. (With 1 ms samples
  // before: 45 of 116 sub-rounds ran to the cap, and the phase took 0.41-1.67 x its plan.)
  m.ping_pong_latency_batch = true;
  m.ping_pong_sample_extra_s = 0.015;
  m.ping_pong_converge_share = 0.75;
  m.storage_setup_s = 0.12;
  // Ranks sharing a few cores with the OS rarely reach a 1-2 % spread below ~1 ms per operation:
  // on that VM nearly every collective record of the quick sweep ended noisy. They are planned to
  // run until their spread settles (or the cap).
  m.launch_bound_s = 1e-3;
  // Launch-bound collective records of the quick sweep that converged in their first samples
  // (ci/plan-vs-measured, 2 ranks, 3 runs on the idle 2-core VM): on one rank 201 of 210, on two
  // 156 of 210; the others settled or reached the cap. On one rank the plan takes all: the few
  // at the cap (0.2 s, 15x a converged record) make the mean, not the typical phase. A loaded
  // machine converges far less (130 of 350 one-rank records in 5 runs at load averages 6-24, 8
  // of 70 in two of them): its run takes longer than the plan.
  m.lone_collective_converge_share = 1;
  m.collective_converge_share = 0.74;
  m.sources["all"] = m.description;
  return m;
}

HardwareModel cuda_hardware_model(const Spec* spec) {
  HardwareModel m;
  m.backend = "cuda";
  m.description = spec ? "cuda backend: data-sheet figures of spec " + spec->name
                       : "cuda backend: NVIDIA H200 SXM data-sheet figures";
  std::string src = "H200 SXM data sheet";
  // Streaming kernels reach ~90 % of HBM (RRZE gpu-benches, as the specs say).
  m.memory_bw = 0.9e9 * figure(spec, "hbm-copy", 4800, src);
  m.sources["memory_bw"] = src + " x 0.9";
  m.first_touch_bw = m.memory_bw / 2; // cudaMalloc + a fill kernel
  m.checkpoint_fill_bw = m.first_touch_bw;
  m.fma_peak_op_s = 1e-3; // its kernels are sized to about that
  src = "H200 SXM data sheet";
  m.fma_flops = 0.9e12 * figure(spec, "fma-fp32", 67, src);
  m.sources["fma_flops"] = src + " x 0.9";
  src = "H200 SXM data sheet";
  m.gemm_flops = 0.7e12 * figure(spec, "gemm-bf16", 989, src); // sustained at the power cap
  m.sources["gemm_flops"] = src + " x 0.7";
  src = "PCIe Gen5 x16";
  m.host_link_bw = 0.85e9 * figure(spec, "h2d-pinned", 63, src);
  m.sources["host_link_bw"] = src + " x 0.85";
  src = "NVLink per direction";
  // NCCL's all-reduce bus bandwidth inside an HGX node; the spec's own floor when it has one.
  m.intra_bw = 1e9 * figure(spec, "all-reduce-8gpu", 0.8 * figure(spec, "nvlink-p2p", 450, src),
                            src);
  m.sources["intra_bw"] = src;
  // Not in the specs: one 400 Gb/s NIC per GPU (ConnectX-7 / rail-optimised HGX designs), of which
  // NCCL's bus bandwidth reaches ~90 %.
  m.inter_bw = 0.9 * 50e9;
  m.sources["inter_bw"] = "one 400 Gb/s NIC per GPU x 0.9 (not in the spec)";
  m.link_source = "assumed: one 400 Gb/s NIC per GPU at 90 %, 45 GB/s per rank (not in the spec; "
                  "no --plan-link or --plan-from)";
  // NCCL latencies: ~10 us for a small all-reduce in a node, ~2-5 us more per tree level across
  // nodes (nccl-tests small-message rows on HGX systems).
  m.alpha_launch_s = 8e-6;
  m.alpha_intra_s = 1e-6;
  m.alpha_inter_s = 4e-6;
  m.sources["alpha"] = "NCCL small-message latencies on HGX nodes (nccl-tests)";
  // Local NVMe, read by every GPU of the node through the page cache or O_DIRECT.
  m.storage_bw_per_node = 10e9;
  m.storage_latency_s = 80e-6;
  m.checkpoint_bw_per_node = m.storage_bw_per_node;
  m.sources["storage_bw_per_node"] = "local NVMe RAID, 10 GB/s per node (not in the spec)";
  m.sync_step_intra_s = 3e-6;
  m.sync_step_inter_s = 15e-6;
  m.record_setup_s = 10e-3; // device allocation, fills and verification through the device
  m.links_setup_s = 50e-3;
  m.links_setup_intra_s = m.links_setup_s;
  m.storage_setup_s = 0.1;
  m.launch_bound_s = 50e-6;
  // bench/cuda/pair_transport_cuda.cpp: one order per GPU pair. No GPU measurement of how many
  // ping-pong rounds converge yet: every one is planned to settle or reach the cap.
  m.ping_pong_both_orders = false;
  m.ping_pong_converge_share = 0;
  // No GPU measurement of one-rank collectives' convergence yet: planned to settle or cap.
  m.lone_collective_converge_share = 0;
  return m;
}

} // namespace cb
