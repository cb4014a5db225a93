#include <gtest/gtest.h>

#include <vector>

#include "host/stream_kernels.hpp"

namespace cb {
namespace {

struct Arrays {
  explicit Arrays(std::size_t n, std::size_t offset = 0)
      : a(n + offset), b(n + offset),
        c(n + offset), view{a.data() + offset, b.data() + offset, c.data() + offset, n} {}
  std::vector<double> a, b, c;
  StreamArrays view;
};

TEST(StreamAccounting, BytesPerCallFollowStream) {
  EXPECT_EQ(stream_bytes_per_call(StreamKernel::copy, 1000), 2000.0);
  EXPECT_EQ(stream_bytes_per_call(StreamKernel::scale, 1000), 2000.0);
  EXPECT_EQ(stream_bytes_per_call(StreamKernel::add, 1000), 3000.0);
  EXPECT_EQ(stream_bytes_per_call(StreamKernel::triad, 1000), 3000.0);
  EXPECT_EQ(stream_bytes_per_call(StreamKernel::triad, std::size_t{128} << 20), 3.0 * (128 << 20));
}

TEST(StreamAccounting, Names) {
  EXPECT_EQ(stream_kernel_name(StreamKernel::copy), "copy");
  EXPECT_EQ(stream_kernel_name(StreamKernel::scale), "scale");
  EXPECT_EQ(stream_kernel_name(StreamKernel::add), "add");
  EXPECT_EQ(stream_kernel_name(StreamKernel::triad), "triad");
}

class StreamKernelTest
    : public ::testing::TestWithParam<std::tuple<StreamKernel, bool, std::size_t>> {};

TEST_P(StreamKernelTest, WritesTheKnownValueEverywhereAndIsIdempotent) {
  const auto [kernel, streaming, offset] = GetParam();
  Arrays arrays(1003, offset); // odd length and (with offset 1) an unaligned start: tails run
  init_stream_arrays(arrays.view);
  EXPECT_GT(count_stream_errors(kernel, arrays.view), 0u) << "the initial values must differ";
  for (int i = 0; i < 3; ++i)
    run_stream_kernel(kernel, arrays.view, streaming);
  EXPECT_EQ(count_stream_errors(kernel, arrays.view), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    AllKernels, StreamKernelTest,
    ::testing::Combine(::testing::Values(StreamKernel::copy, StreamKernel::scale, StreamKernel::add,
                                         StreamKernel::triad),
                       ::testing::Bool(), ::testing::Values(0u, 1u)));

TEST(StreamKernels, ExpectedValuesAreStreamArithmetic) {
  Arrays s(16);
  init_stream_arrays(s.view);
  run_stream_kernel(StreamKernel::triad, s.view, false);
  EXPECT_EQ(s.a[5], 2.0 + kStreamScalar * 0.5); // a = b + q c with b = 2, c = 0.5
  init_stream_arrays(s.view);
  run_stream_kernel(StreamKernel::scale, s.view, true);
  EXPECT_EQ(s.b[5], kStreamScalar * 0.5);
}

TEST(StreamKernels, AWrongElementIsCounted) {
  Arrays s(100);
  init_stream_arrays(s.view);
  run_stream_kernel(StreamKernel::add, s.view, false);
  s.c[42] = 0;
  s.c[99] += 1e-9;
  EXPECT_EQ(count_stream_errors(StreamKernel::add, s.view), 2u);
}

} // namespace
} // namespace cb
