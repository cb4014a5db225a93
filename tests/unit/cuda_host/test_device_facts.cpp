#include <gtest/gtest.h>

#include "cuda/compute_kernels_cuda.hpp"
#include "cuda/device_info.hpp"
#include "cuda/nccl_collectives.hpp"

namespace cb::cuda {
namespace {

TEST(DeviceFacts, UuidInNvidiaSmiForm) {
  const unsigned char bytes[16] = {0x1f, 0x2e, 0x3d, 0x4c, 0x5b, 0x6a, 0x79, 0x88,
                                   0x97, 0xa6, 0xb5, 0xc4, 0xd3, 0xe2, 0xf1, 0x00};
  EXPECT_EQ(format_gpu_uuid(bytes), "GPU-1f2e3d4c-5b6a-7988-97a6-b5c4d3e2f100");
  const unsigned char zero[16] = {};
  EXPECT_EQ(format_gpu_uuid(zero), "GPU-00000000-0000-0000-0000-000000000000");
}

TEST(DeviceFacts, NcclVersionCodes) {
  EXPECT_EQ(format_nccl_version(22809), "2.28.9");
  EXPECT_EQ(format_nccl_version(21903), "2.19.3");
  EXPECT_EQ(format_nccl_version(2804), "2.8.4"); // the old encoding, before 2.9
  EXPECT_EQ(format_nccl_version(21000), "2.10.0");
}

TEST(DeviceFacts, LinkedNcclReportsItsVersion) {
#ifdef CB_HAVE_NCCL
  const std::string v = nccl_version();
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.substr(0, 2), "2.");
#else
  EXPECT_EQ(nccl_version(), "");
#endif
}

#ifdef CB_HAVE_NCCL
TEST(DeviceFacts, NcclTypesAndOps) {
  EXPECT_EQ(*nccl_type(DType::f32), ncclFloat32);
  EXPECT_EQ(*nccl_type(DType::f64), ncclFloat64);
  EXPECT_EQ(*nccl_type(DType::i32), ncclInt32);
  EXPECT_EQ(*nccl_type(DType::bf16), ncclBfloat16);
  EXPECT_EQ(*nccl_type(DType::f16), ncclFloat16);
  EXPECT_FALSE(nccl_type(DType::f8e4m3).has_value());
  EXPECT_EQ(nccl_op(ReduceOp::sum), ncclSum);
  EXPECT_EQ(nccl_op(ReduceOp::min), ncclMin);
  EXPECT_EQ(nccl_op(ReduceOp::max), ncclMax);
}
#endif

TEST(DeviceFacts, StreamArraysAreAtLeastEightL2s) {
  constexpr std::size_t MiB = 1u << 20;
  EXPECT_EQ(stream_array_bytes_for(50 * MiB), 1024 * MiB); // H100: 8 x 50 MiB < 1 GiB
  EXPECT_EQ(stream_array_bytes_for(0), 1024 * MiB);
  EXPECT_EQ(stream_array_bytes_for(200 * MiB), 1600 * MiB);   // 8 x L2 wins
  EXPECT_EQ(stream_array_bytes_for(200 * MiB + 1) % MiB, 0u); // whole MiB
  EXPECT_GE(stream_array_bytes_for(200 * MiB + 1), 8 * (200 * MiB + 1));
}

TEST(DeviceFacts, StreamByteCountsFollowStream) {
  EXPECT_EQ(stream_arrays_moved(StreamKind::copy), 2);
  EXPECT_EQ(stream_arrays_moved(StreamKind::scale), 2);
  EXPECT_EQ(stream_arrays_moved(StreamKind::add), 3);
  EXPECT_EQ(stream_arrays_moved(StreamKind::triad), 3);
  EXPECT_EQ(stream_arrays_moved(StreamKind::read), 1);
  EXPECT_EQ(stream_kind_name(StreamKind::triad), "triad");
}

} // namespace
} // namespace cb::cuda
