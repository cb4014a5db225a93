#include <gtest/gtest.h>

#include "planning/hardware_model.hpp"
#include "planning/run_plan.hpp"
#include "planning/time_model.hpp"

using namespace cb;

TEST(RoundRobin, RoundsForEvenAndOddUnits) {
  EXPECT_EQ(round_robin_rounds(1), 0);
  EXPECT_EQ(round_robin_rounds(2), 1);
  EXPECT_EQ(round_robin_rounds(5), 5);
  EXPECT_EQ(round_robin_rounds(6), 5);
  EXPECT_EQ(round_robin_rounds(128), 127);
}

TEST(EstimateMeasurement, ConvergingRecordTakesMinTimeOrMinSamples) {
  MeasureSettings s; // min_time 0.1 s, 5 samples, batch target 2 ms
  // 1 ms per operation: batch 2, 2 ms samples, 50 samples to reach 0.1 s.
  const RecordEstimate e = estimate_measurement(1e-3, 0, s, false);
  EXPECT_EQ(e.batch, 2);
  EXPECT_EQ(e.samples, 50);
  EXPECT_EQ(e.expect, "converged");
  EXPECT_NEAR(e.sampling_s, 0.1, 1e-9);
  // warm-up 1 op, calibration 1 op + one batch of 2.
  EXPECT_NEAR(e.seconds, 0.1 + 4e-3, 1e-9);
  // A 50 ms operation: 5 samples (min_samples) decide, not min_time.
  EXPECT_EQ(estimate_measurement(50e-3, 0, s, false).samples, 5);
}

TEST(EstimateMeasurement, LaunchBoundRecordRunsToTheFirstSettleCheck) {
  MeasureSettings s;
  const RecordEstimate e = estimate_measurement(10e-6, 0, s, true);
  EXPECT_EQ(e.expect, "settled");
  EXPECT_EQ(e.samples, 160); // the check after twice the 64-sample window
}

TEST(EstimateMeasurement, NeverPastTheCap) {
  MeasureSettings s;
  s.max_time_s = 0.05;
  const RecordEstimate e = estimate_measurement(10e-6, 0, s, true);
  EXPECT_EQ(e.expect, "cap");
  EXPECT_LE(e.sampling_s, 0.05 + 2 * s.batch_time_s);
  // One operation longer than the cap: one sample.
  EXPECT_EQ(estimate_measurement(1.0, 0, s, false).samples, 1);
}

TEST(TimeModel, CollectivesFollowAlphaBeta) {
  const HardwareModel m = cuda_hardware_model(nullptr);
  const PhaseShape node{8, 1, 8};
  const nlohmann::json small{{"bytes", 8}}, big{{"bytes", 1 << 30}};
  const double t_small = operation_seconds("collectives", "all_reduce", small, node, m);
  const double t_big = operation_seconds("collectives", "all_reduce", big, node, m);
  EXPECT_NEAR(t_small, m.alpha_launch_s + 3 * m.alpha_intra_s, 1e-7);
  // 1 GiB x 2(n-1)/n at the bus bandwidth.
  EXPECT_NEAR(t_big, (1 << 30) * 2.0 * 7 / 8 / m.intra_bw, 1e-4);
  // Across nodes, the NIC's bandwidth.
  const PhaseShape two_nodes{16, 2, 8};
  EXPECT_GT(operation_seconds("collectives", "all_reduce", big, two_nodes, m), t_big * 5);
}

TEST(TimeModel, SpecFiguresReplaceTheDefaults) {
  const HardwareModel m = cuda_hardware_model(nullptr);
  EXPECT_NEAR(m.memory_bw, 0.9 * 4800e9, 1e6);
  EXPECT_NEAR(m.intra_bw, 0.8 * 450e9, 1e6);
  const HardwareModel h200 = hardware_model_for("cuda", "h200-sxm");
  EXPECT_NEAR(h200.intra_bw, 431e9, 1e6); // the spec's all-reduce-8gpu figure
  EXPECT_NEAR(h200.memory_bw, 0.9 * 4800e9, 1e6);
}

TEST(TimeModel, TrainingStepIsItsGemmsItsGradientsAndItsInput) {
  const HardwareModel m = host_hardware_model();
  const nlohmann::json step{{"model_params", 16777216}, {"tokens_per_gpu", 256},
                            {"input_bytes_per_step", 0}};
  const PhaseShape one{1, 1, 1}, two{2, 1, 2};
  // The step's GEMMs at their share of the square GEMM's rate.
  const double gemms = 6.0 * 16777216 * 256 / (m.gemm_flops * m.step_gemm_share);
  EXPECT_NEAR(operation_seconds("workload", "data_parallel_step", step, one, m), gemms, 1e-9);
  // Two ranks add the fp32 gradients' all-reduce, 4 bytes x params x 2(n-1)/n at the bus bandwidth.
  EXPECT_NEAR(operation_seconds("workload", "data_parallel_step", step, two, m),
              gemms + 4.0 * 16777216 / m.intra_bw, 1e-9);
  nlohmann::json reading = step;
  reading["input_bytes_per_step"] = 1 << 28;
  EXPECT_NEAR(operation_seconds("workload", "data_parallel_step", reading, two, m),
              gemms + 4.0 * 16777216 / m.intra_bw + 2.0 * (1 << 28) / m.storage_bw_per_node, 1e-9);
}

TEST(TimeModel, CheckpointsMoveEachNodesShardsThroughItsStorage) {
  const HardwareModel m = host_hardware_model();
  const nlohmann::json ckpt{{"checkpoint_bytes", 1 << 30}, {"block_bytes", 1 << 20}};
  const PhaseShape one{1, 1, 1}, eight{8, 2, 4};
  // The save and the restore: each node's share of the checkpoint at the node's checkpoint rate.
  EXPECT_NEAR(operation_seconds("storage", "checkpoint_write", ckpt, one, m),
              double(1 << 30) / m.checkpoint_bw_per_node, 1e-9);
  EXPECT_NEAR(operation_seconds("storage", "checkpoint_read", ckpt, eight, m),
              4.0 * (1 << 30) / 8 / m.checkpoint_bw_per_node, 1e-9);
  // The stage: a rank's shard copied in host memory (read and written).
  EXPECT_NEAR(operation_seconds("storage", "checkpoint_stage", ckpt, eight, m),
              m.alpha_launch_s + 2.0 * (1 << 30) / 8 / m.memory_bw, 1e-9);
  // Set-up fills the rank's shard with its pattern and writes the node's shards once (the
  // restore's checkpoint), as a read's file; the stage fills its state and its snapshot and
  // checks what landed.
  const double fill = double(1 << 30) / 8 / m.checkpoint_fill_bw;
  EXPECT_NEAR(setup_seconds("storage", "checkpoint_read", ckpt, eight, m),
              m.storage_setup_s + fill + 4.0 * (1 << 30) / 8 / m.checkpoint_bw_per_node, 1e-9);
  EXPECT_NEAR(setup_seconds("storage", "checkpoint_stage", ckpt, eight, m), 3 * fill, 1e-9);
  // The save's last checkpoint is read back from storage to be checked: one more node pass.
  EXPECT_NEAR(setup_seconds("storage", "checkpoint_write", ckpt, eight, m),
              setup_seconds("storage", "checkpoint_read", ckpt, eight, m) +
                  4.0 * (1 << 30) / 8 / m.checkpoint_bw_per_node,
              1e-9);
  // Memory the node freed in the case's previous phase comes back at the reuse rate.
  PhaseShape reused = eight;
  reused.memory_reused = true;
  EXPECT_NEAR(setup_seconds("storage", "checkpoint_stage", ckpt, reused, m),
              3.0 * (1 << 30) / 8 / m.checkpoint_fill_reused_bw, 1e-9);
  EXPECT_GT(m.checkpoint_fill_reused_bw, m.checkpoint_fill_bw);
  // A model without the distinction keeps the one rate.
  const HardwareModel gpu = cuda_hardware_model(nullptr);
  EXPECT_DOUBLE_EQ(setup_seconds("storage", "checkpoint_stage", ckpt, reused, gpu),
                   setup_seconds("storage", "checkpoint_stage", ckpt, eight, gpu));
}

TEST(TimeModel, CommunicatorStartUpIsPricedOnEachBackend) {
  const PhaseShape one{1, 1, 1}, node{8, 1, 8}, job{1024, 128, 8};
  const HardwareModel gpu = cuda_hardware_model(nullptr);
  // NCCL's init: 0.2 s and 1 ms per rank, at one rank too (it still bootstraps).
  EXPECT_NEAR(operation_seconds("collectives", "communicator_init", {}, one, gpu), 0.201, 1e-9);
  EXPECT_NEAR(operation_seconds("collectives", "communicator_init", {}, job, gpu), 1.224, 1e-9);
  // MPI's split: a few reductions, microseconds, growing with log2 of the ranks, each step at
  // the latency of the tier it crosses.
  const HardwareModel host = host_hardware_model();
  const double split = operation_seconds("collectives", "communicator_init", {}, node, host);
  EXPECT_NEAR(split, 4 * (host.alpha_launch_s + 3 * host.alpha_intra_s), 1e-12);
  const double across = operation_seconds("collectives", "communicator_init", {}, job, host);
  EXPECT_NEAR(across, 4 * (host.alpha_launch_s + 10 * host.alpha_inter_s), 1e-12);
  EXPECT_LT(across, 0.01);
}
