#pragma once
// The figures the planner's time model uses for one backend: bandwidths, latencies and rates per
// device, and the fixed costs the engine adds around a measurement. On the cuda backend they come
// from a qualification spec's data-sheet figures (harness/specs/*.json, by check id) times the share
// real kernels reach; on the host backend from figures measured on a small virtual machine.
// Every figure says where it came from (`sources`), and `plan --json` prints them.
#include <map>
#include <string>

namespace cb {

struct Spec;

struct HardwareModel {
  std::string backend;     // host | cuda
  std::string description; // where the figures come from, one line
  // Per device (bytes/s, flop/s).
  double memory_bw = 0;            // streaming copy, read + write counted
  double node_memory_bw = 0;       // shared by the ranks of a node (0: each device has its own)
  double first_touch_bw = 0;       // allocating and initialising arrays (page faults on the host)
  double fma_flops = 0;            // fp32 FMA peak as reached
  double gemm_flops = 0;           // dense GEMM as reached (bf16 on GPUs, fp32 on the host)
  // The training step's GEMMs (forward and backward of its layers) as a share of gemm_flops.
  double step_gemm_share = 1;
  double fma_peak_op_s = 0;        // one call of compute/fma_peak (its kernels' length)
  double host_link_bw = 0;         // host <-> device (PCIe); host backend: memory
  double storage_bw_per_node = 0;  // sequential reads, the node's share of its storage
  double storage_latency_s = 0;    // one small random read
  double checkpoint_bw_per_node = 0; // a checkpoint's shards written or read back, per node
  // Collectives, alpha-beta (Hockney): T = alpha_launch + steps(n) alpha_step + bytes factor / bw.
  double intra_bw = 0;             // bus bandwidth inside a node per device
  double inter_bw = 0;             // per device across nodes (one NIC rail per GPU)
  // Where inter_bw comes from, as the plan's header says it: "--plan-link 100mbit", "measured in
  // FILE: ...", or the model's "assumed: ...". The one figure no data sheet of a GPU gives.
  std::string link_source;
  double alpha_launch_s = 0;       // a collective's fixed cost (launch, setup)
  double alpha_intra_s = 0;        // per step inside a node
  double alpha_inter_s = 0;        // per step across nodes
  // The engine's own costs: one barrier + gather + broadcast per sample, per log2 step.
  double sync_step_intra_s = 0;
  double sync_step_inter_s = 0;
  double record_setup_s = 0; // buffers, fills, verification and the results write, per record
  double kernel_setup_s = 0; // a compute record's own beyond that (its kernels made and checked)
  // A checkpoint's state filled with its verifiable pattern (storage/checkpoint_*), per rank.
  double checkpoint_fill_bw = 0;
  // The same when the node freed that memory in the case's previous phase a moment before; 0: the
  // same rate. On a VM that reports free memory to its host (virtio-balloon free page reporting),
  // huge pages freed seconds ago fault in at the host's cost, those freed just now at the guest's.
  double checkpoint_fill_reused_bw = 0;
  double links_setup_s = 0;  // a links record's own set-up (its fabric of buffers and peers)
  double links_setup_intra_s = 0; // the same for a record within one node
  // Each direction's share of one direction's rate when a node pair moves both ways at once
  // (pair_bw direction=bi across nodes): 1 for full-duplex links and transports.
  double inter_both_ways_share = 1;
  // The share of launch-bound ping-pong rounds (pair_latency) that reach the cv target within
  // their first samples; the others run until their spread settles or the cap.
  double ping_pong_converge_share = 0;
  // The share of launch-bound collective records on one rank (nothing exchanged) that converge at
  // once; the others settle or reach the cap, as with more ranks.
  double lone_collective_converge_share = 0;
  // The same share for launch-bound collective records on several ranks.
  double collective_converge_share = 0;
  // Whether the ping-pong of a pair is started from each end in turn (two measurements per round,
  // as the backend's pair_latency does), or once.
  bool ping_pong_both_orders = true;
  // Whether the backend's ping-pong samples average latency_settings()' longer batch (host), and
  // what a ping-pong sample costs beyond its batch and the engine's sync (ranks that poll for
  // their replies, sharing cores with the others).
  bool ping_pong_latency_batch = false;
  double ping_pong_sample_extra_s = 0;
  double storage_setup_s = 0; // a storage record's own: create, write, sync and evict the file
  // Operations shorter than this are launch-bound: their spread is expected to settle above the
  // target rather than converge (engine.hpp, the settle rule), so they are planned to run until
  // it settles.
  double launch_bound_s = 0;
  std::map<std::string, std::string> sources; // figure -> where it comes from
};

// The host backend's figures (documented in the .cpp).
HardwareModel host_hardware_model();
// The cuda backend's: data-sheet figures from `spec` where it has them (hbm-copy, fma-fp32,
// gemm-bf16, h2d-pinned, nvlink-p2p, all-reduce-8gpu), else the H200 figures this file states.
HardwareModel cuda_hardware_model(const Spec* spec);

} // namespace cb
