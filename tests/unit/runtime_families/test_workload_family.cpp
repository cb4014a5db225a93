#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>

#include "core/error.hpp"
#include "storage/storage_dir.hpp"
#include "temp_dir.hpp"
#include "workload/batch_loader.hpp"
#include "workload/bucket_plan.hpp"
#include "workload/gradient_sync.hpp"
#include "workload/step_parts.hpp"
#include "workload/transformer_shape.hpp"
#include "workload/workload_options.hpp"
#include "workload/workload_shape.hpp"

namespace cb {
namespace {

TEST(BucketPlan, CoversEveryElementOnceFromTheLastLayerDown) {
  // 4 layers of 1000 elements, buckets of 1200 floats.
  const auto buckets = plan_buckets(4, 1000, 1200 * 4, 4);
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(bucket_count(4, 1000, 1200 * 4, 4), 4u);
  std::uint64_t end = 4000;
  std::uint64_t total = 0;
  for (const auto& b : buckets) {
    EXPECT_EQ(b.offset + b.count, end); // contiguous, backwards
    EXPECT_LE(b.count, 1200u);
    end = b.offset;
    total += b.count;
  }
  EXPECT_EQ(total, 4000u);
  EXPECT_EQ(end, 0u);
  // [2800, 4000) ends in layer 3 but starts in layer 2: ready after layer 2's backward.
  EXPECT_EQ(buckets[0].offset, 2800u);
  EXPECT_EQ(buckets[0].ready_after, 2);
  EXPECT_EQ(buckets[1].offset, 1600u);
  EXPECT_EQ(buckets[1].ready_after, 1);
  EXPECT_EQ(buckets[2].ready_after, 0);
  EXPECT_EQ(buckets[3].offset, 0u);
  EXPECT_EQ(buckets[3].count, 400u);
  EXPECT_EQ(buckets[3].ready_after, 0);
}

TEST(BucketPlan, OneBucketWhenTheGradientsFitAndOneElementAtLeast) {
  const auto whole = plan_buckets(2, 100, 25ull << 20, 4);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(whole[0].count, 200u);
  EXPECT_EQ(whole[0].ready_after, 0);
  // A bucket smaller than one element still holds one.
  EXPECT_EQ(plan_buckets(1, 3, 1, 4).size(), 3u);
  EXPECT_EQ(bucket_count(1, 3, 1, 4), 3u);
  EXPECT_TRUE(plan_buckets(0, 100, 1024, 4).empty());
}

TEST(BucketPlan, LayersOfDifferentSizesEachBucketReadyAfterTheLayerOfItsFirstElement) {
  // Layers of 300, 100 and 400 elements (from 0, 300, 400), buckets of 250 floats: [550, 800) in
  // layer 2, [300, 550) from layer 1, [50, 300) and [0, 50) in layer 0.
  const auto buckets = plan_buckets(std::vector<std::uint64_t>{300, 100, 400}, 250 * 4, 4);
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(bucket_count(std::vector<std::uint64_t>{300, 100, 400}, 250 * 4, 4), 4u);
  EXPECT_EQ(buckets[0].offset, 550u);
  EXPECT_EQ(buckets[0].ready_after, 2);
  EXPECT_EQ(buckets[1].offset, 300u);
  EXPECT_EQ(buckets[1].ready_after, 1);
  EXPECT_EQ(buckets[2].offset, 50u);
  EXPECT_EQ(buckets[2].ready_after, 0);
  EXPECT_EQ(buckets[3].count, 50u);
  // Equal layers: the same buckets as the uniform plan.
  const auto uniform = plan_buckets(4, 1000, 1200 * 4, 4);
  const auto general = plan_buckets(std::vector<std::uint64_t>(4, 1000), 1200 * 4, 4);
  ASSERT_EQ(general.size(), uniform.size());
  for (std::size_t i = 0; i < uniform.size(); ++i) {
    EXPECT_EQ(general[i].offset, uniform[i].offset);
    EXPECT_EQ(general[i].count, uniform[i].count);
    EXPECT_EQ(general[i].ready_after, uniform[i].ready_after);
  }
}

TEST(TransformerShape, GpuDefaultIsTwoLayersOfHidden8192And8192Tokens) {
  RunConfig config;
  const TransformerShape s = transformer_shape(config);
  EXPECT_EQ(s.hidden, 8192);
  EXPECT_EQ(s.blocks, 2);
  EXPECT_EQ(s.tokens, 8192);
  EXPECT_DOUBLE_EQ(s.params(), 2 * 12.0 * 8192 * 8192);
  EXPECT_DOUBLE_EQ(s.flops_per_step(), 6 * s.params() * 8192);
  const auto layers = s.layers();
  ASSERT_EQ(layers.size(), 8u);
  EXPECT_EQ(layers[0].out, 3 * 8192); // QKV
  EXPECT_EQ(layers[1].in, 8192);      // attention output
  EXPECT_EQ(layers[2].out, 4 * 8192); // MLP up
  EXPECT_EQ(layers[3].in, 4 * 8192);  // MLP down
  std::uint64_t elements = 0;
  for (const auto& l : layers)
    elements += l.elements();
  EXPECT_EQ(static_cast<double>(elements), s.params());
  // 2 B weights + 4 B gradients per parameter, then bf16 activations: (7 h 2 + 4 h + 8 h) T.
  const double h = 8192, t = 8192;
  EXPECT_DOUBLE_EQ(static_cast<double>(s.memory_bytes()),
                   6 * s.params() + 2 * (7 * h * 2 + 4 * h + 8 * h) * t);
}

TEST(TransformerShape, SmallModelsNarrowTheHiddenSizeLargeOnesAddLayers) {
  RunConfig config;
  kModelParams.set(config, 12.0 * 1024 * 1024); // one layer of hidden 1024
  kTokensPerGpu.set(config, 512);
  TransformerShape s = transformer_shape(config);
  EXPECT_EQ(s.hidden, 1024);
  EXPECT_EQ(s.blocks, 1);
  EXPECT_EQ(s.tokens, 512);
  kModelParams.set(config, 7e9);
  s = transformer_shape(config);
  EXPECT_EQ(s.hidden, 8192);
  EXPECT_EQ(s.blocks, 9); // 7e9 / 805 M
  kModelParams.set(config, 1);
  EXPECT_EQ(transformer_shape(config).hidden, kHiddenMultiple);
}

TEST(TransformerShape, AModelTooLargeForTheGpuNamesTheFlag) {
  RunConfig config;
  const TransformerShape s = transformer_shape(config);
  const std::uint64_t h200 = 141ull << 30;
  EXPECT_NO_THROW(check_transformer_memory(s, h200, 64ull << 20));
  EXPECT_NO_THROW(check_transformer_memory(s, 0, 0)); // unknown: nothing to hold it against
  kModelParams.set(config, 70e9);
  try {
    check_transformer_memory(transformer_shape(config), h200, 64ull << 20);
    FAIL() << "a 70 B model fit on one GPU";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--model-params: 87 transformer layer(s)", 0), 0u)
        << e.what();
  }
}

TEST(WorkloadShape, HostDefaultIsFourLayersOf2048And256Tokens) {
  RunConfig config;
  const WorkloadShape s = workload_shape(config);
  EXPECT_EQ(s.width, 2048);
  EXPECT_EQ(s.layers, 4);
  EXPECT_EQ(s.tokens, 256);
  EXPECT_DOUBLE_EQ(s.params(), 4.0 * 2048 * 2048);
  EXPECT_EQ(s.gradient_bytes(), 4ull * 2048 * 2048 * 4);
  EXPECT_DOUBLE_EQ(s.flops_per_step(), 6.0 * s.params() * 256);
  // Three 25 MiB buckets over 64 MiB of gradients: something to overlap.
  EXPECT_EQ(bucket_count(s.layers, s.layer_elements(), 25ull << 20, 4), 3u);
}

TEST(WorkloadShape, SmallModelsNarrowTheLayersLargeOnesAddLayers) {
  RunConfig config;
  kModelParams.set(config, 1e6);
  kTokensPerGpu.set(config, 64);
  WorkloadShape s = workload_shape(config);
  EXPECT_EQ(s.width, 448); // floor(sqrt(1e6 / 4) / 64) * 64
  EXPECT_EQ(s.layers, 5);  // round(1e6 / 448^2)
  EXPECT_EQ(s.tokens, 64);
  kModelParams.set(config, 1e8);
  s = workload_shape(config);
  EXPECT_EQ(s.width, 2048);
  EXPECT_EQ(s.layers, 24); // round(1e8 / 2048^2)
  kModelParams.set(config, 10);
  s = workload_shape(config);
  EXPECT_EQ(s.width, 64);
  EXPECT_EQ(s.layers, 1);
}

TEST(WorkloadShape, AModelTooLargeForMemoryNamesTheFlag) {
  RunConfig config;
  const WorkloadShape s = workload_shape(config);
  EXPECT_NO_THROW(check_workload_memory(s, 2, 24ull << 30, 0));
  try {
    check_workload_memory(s, 2, 256ull << 20, 0);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--model-params:", 0), 0u) << e.what();
  }
  // The input ring counts too, and is named as the cause.
  try {
    check_workload_memory(s, 1, 1ull << 30, 1ull << 30);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--input-bytes-per-step:", 0), 0u) << e.what();
  }
}

TEST(WorkloadShape, AGpuStepsPinnedRingCountsEveryRankOfTheNode) {
  EXPECT_NO_THROW(check_input_ring_memory(8, 64ull << 30, 4ull << 30)); // 32 of 48 usable GiB
  EXPECT_NO_THROW(check_input_ring_memory(8, 64ull << 30, 0));
  try {
    check_input_ring_memory(8, 64ull << 30, 8ull << 30); // 64 GiB for 8 ranks
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--input-bytes-per-step:", 0), 0u) << what;
    EXPECT_NE(what.find("8 rank(s) here"), std::string::npos) << what;
  }
}

TEST(WorkloadShape, BatchesAreWholeBlocksAndTheFileHoldsAtLeastOne) {
  EXPECT_EQ(batch_bytes(0, 1 << 20), 0u);
  EXPECT_EQ(batch_block_bytes(0, 1 << 20), 0u);
  // Smaller than a block: one block of the batch rounded to 4 KiB.
  EXPECT_EQ(batch_block_bytes(10000, 1 << 20), 12288u);
  EXPECT_EQ(batch_bytes(10000, 1 << 20), 12288u);
  // Larger: whole blocks.
  EXPECT_EQ(batch_block_bytes(3u << 20, 1 << 20), 1u << 20);
  EXPECT_EQ(batch_bytes((3u << 20) + 1, 1 << 20), 4u << 20);
  EXPECT_EQ(workload_file_bytes(64u << 20, 4u << 20), 64u << 20);
  EXPECT_EQ(workload_file_bytes(64u << 20, 128u << 20), 128u << 20);
  EXPECT_EQ(workload_file_bytes(64u << 20, 0), 0u);
}

TEST(StepParts, MediansGapAndTheLargestLoss) {
  const std::vector<StepParts> steps = {
      {1.0, 0.6, 0.3, 0.1}, {1.2, 0.6, 0.5, 0.1}, {0.9, 0.5, 0.3, 0.1}};
  const StepParts m = median_step(steps);
  EXPECT_DOUBLE_EQ(m.step_s, 1.0);
  EXPECT_DOUBLE_EQ(m.compute_s, 0.6);
  EXPECT_DOUBLE_EQ(m.exposed_comm_s, 0.3);
  EXPECT_DOUBLE_EQ(m.input_wait_s, 0.1);
  EXPECT_DOUBLE_EQ(m.utilization(), 0.6);
  EXPECT_NEAR(m.gap(), 0.0, 1e-12);
  EXPECT_EQ(largest_loss(m), "exposed_comm");
  // The parts of one step, not a median of each: long compute in one step and a long wait in
  // another do not make a median step with both.
  const std::vector<StepParts> mixed = {
      {1.0, 0.9, 0.1, 0}, {1.1, 0.5, 0.6, 0}, {1.05, 0.95, 0.1, 0}, {2.0, 1.0, 1.0, 0}};
  const StepParts even = median_step(mixed);
  EXPECT_DOUBLE_EQ(even.step_s, (1.05 + 1.1) / 2);
  EXPECT_DOUBLE_EQ(even.compute_s, (0.95 + 0.5) / 2);
  EXPECT_DOUBLE_EQ(even.exposed_comm_s, (0.1 + 0.6) / 2);
  EXPECT_NEAR(even.gap(), 0.0, 1e-12);
  EXPECT_EQ(largest_loss({1.0, 0.5, 0.1, 0.4}), "input_wait");
  const StepParts slack{1.0, 0.5, 0.1, 0.1};
  EXPECT_NEAR(slack.unaccounted_s(), 0.3, 1e-12);
  EXPECT_NEAR(slack.gap(), 0.3, 1e-12);
  EXPECT_EQ(largest_loss(slack), "unaccounted");
  // Under 1 % of the step together: nothing lost worth naming.
  EXPECT_EQ(largest_loss({1.0, 0.995, 0.002, 0.001}), "none");
  EXPECT_DOUBLE_EQ(median_step({}).step_s, 0.0);
  // The update is carried with its step, and the GEMMs' time is compute without it.
  const std::vector<StepParts> updated = {{1.0, 0.8, 0.2, 0, 0.4, 0.1},
                                          {1.2, 0.9, 0.3, 0, 0.5, 0.3}};
  const StepParts u = median_step(updated);
  EXPECT_DOUBLE_EQ(u.update_s, 0.2);
  EXPECT_DOUBLE_EQ(u.gemm_s(), 0.85 - 0.2);
  EXPECT_DOUBLE_EQ(u.backward_s, 0.45);
}

TEST(StepParts, PackedStepsComeBackFieldForField) {
  const std::vector<StepParts> steps = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
  const std::vector<double> packed = pack_steps(steps);
  ASSERT_EQ(packed.size(), 2 * kStepPartsFields);
  EXPECT_DOUBLE_EQ(packed[6], 7);
  const std::vector<StepParts> back = unpack_steps(packed);
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_DOUBLE_EQ(back[i].step_s, steps[i].step_s);
    EXPECT_DOUBLE_EQ(back[i].compute_s, steps[i].compute_s);
    EXPECT_DOUBLE_EQ(back[i].exposed_comm_s, steps[i].exposed_comm_s);
    EXPECT_DOUBLE_EQ(back[i].input_wait_s, steps[i].input_wait_s);
    EXPECT_DOUBLE_EQ(back[i].backward_s, steps[i].backward_s);
    EXPECT_DOUBLE_EQ(back[i].update_s, steps[i].update_s);
  }
  EXPECT_TRUE(unpack_steps({}).empty());
  EXPECT_THROW(unpack_steps({1, 2, 3}), std::invalid_argument);
}

TEST(GradientSync, ScalesArePowersOfTwoAndTheirSumIsKnown) {
  EXPECT_FLOAT_EQ(gradient_scale(0), 1);
  EXPECT_FLOAT_EQ(gradient_scale(3), 8);
  EXPECT_FLOAT_EQ(gradient_scale(4), 1);
  EXPECT_DOUBLE_EQ(gradient_scale_sum(1), 1);
  EXPECT_DOUBLE_EQ(gradient_scale_sum(2), 3);
  EXPECT_DOUBLE_EQ(gradient_scale_sum(4), 15);
  EXPECT_DOUBLE_EQ(gradient_scale_sum(6), 18);
}

TEST(BatchLoader, BatchOffsetsFollowTheHeaderBatchAfterBatch) {
  const auto first = batch_offsets(0, 3 * 4096, 4096);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0], kStorageHeaderBytes);
  EXPECT_EQ(first[2], kStorageHeaderBytes + 2 * 4096);
  const auto third = batch_offsets(2, 8192, 8192);
  ASSERT_EQ(third.size(), 1u);
  EXPECT_EQ(third[0], kStorageHeaderBytes + 2 * 8192);
}

constexpr std::uint64_t kFileData = 1 << 20;
constexpr std::uint64_t kSeed = 7;
constexpr const char* kFile = "clusterbench-rank0.dat";

std::unique_ptr<BatchLoader> loader_over(const StorageDir& dir, std::uint64_t batch, int slots) {
  auto reader = std::make_unique<BlockReader>(dir.fd(), dir.path(), kFile, 64 << 10, 2, true);
  return std::make_unique<BatchLoader>(std::move(reader), kFileData, batch, 64 << 10, kSeed, slots);
}

TEST(BatchLoader, DeliversEveryStepInOrderAndChecksWhatArrived) {
  test::TempDir tmp;
  StorageDir dir(tmp.str(), false);
  dir.prepare_file(kFile, kFileData, kSeed);
  auto loader = loader_over(dir, 256 << 10, 2); // 4 batches in the file, so steps wrap around
  for (std::uint64_t step = 0; step < 10; ++step) {
    std::string error;
    EXPECT_GE(loader->acquire(step, &error), 0.0);
    EXPECT_EQ(error, "");
    loader->release(step);
  }
  EXPECT_GE(loader->checked_chunks(), 40); // 4 blocks of 64 KiB per batch, one chunk each
  EXPECT_EQ(loader->bad_chunks(), 0);
}

TEST(BatchLoader, ACorruptBlockIsCountedWithWhere) {
  test::TempDir tmp;
  StorageDir dir(tmp.str(), false);
  dir.prepare_file(kFile, kFileData, kSeed);
  {
    // One byte of the first chunk of the second 64 KiB block of the data.
    std::fstream f(tmp.path() / kFile, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(kStorageHeaderBytes + (64 << 10) + 100));
    f.put('\x5a');
  }
  auto loader = loader_over(dir, 256 << 10, 1);
  std::string error;
  loader->acquire(0, &error); // the batch's counts are final once it is handed over
  EXPECT_EQ(error, "");
  EXPECT_EQ(loader->bad_chunks(), 1);
  EXPECT_NE(loader->first_problem().find(std::to_string(kStorageHeaderBytes + (64 << 10))),
            std::string::npos)
      << loader->first_problem();
}

TEST(BatchLoader, AReadErrorStopsTheLoaderAndReachesTheStepThatWaits) {
  test::TempDir tmp;
  StorageDir dir(tmp.str(), false);
  dir.prepare_file(kFile, kFileData, kSeed);
  auto reader = std::make_unique<BlockReader>(dir.fd(), dir.path(), kFile, 64 << 10, 1, true);
  // Cut short under the open reader: batch 1 (bytes 256 KiB to 512 KiB of data) is not there.
  ASSERT_EQ(::truncate((tmp.path() / kFile).c_str(),
                       static_cast<off_t>(kStorageHeaderBytes + (256 << 10))),
            0);
  BatchLoader loader(std::move(reader), kFileData, 256 << 10, 64 << 10, kSeed, 1);
  std::string error;
  loader.acquire(0, &error);
  EXPECT_EQ(error, "");
  loader.release(0);
  loader.acquire(1, &error);
  EXPECT_NE(error.find("short read"), std::string::npos) << error;
  // A later step does not wait for a loader that has stopped.
  std::string later;
  loader.acquire(2, &later);
  EXPECT_FALSE(later.empty());
}

} // namespace
} // namespace cb
