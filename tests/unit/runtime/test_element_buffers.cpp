// The collectives' data check: a wrong element is counted wherever it lies (also across the
// staging chunks), and only a difference beyond the dtype's tolerance counts.
#include <gtest/gtest.h>

#include <vector>

#include "collectives/element_buffers.hpp"
#include "runtime/element_codec.hpp"
#include "runtime/host_backend.hpp"

namespace cb {
namespace {

double pattern(std::size_t i) {
  return 1.0 + static_cast<double>(i % 8);
}

// Overwrites element `index` of a float buffer with `value`.
void poke(Backend& backend, DeviceBuffer& buffer, std::size_t index, float value) {
  backend.upload(buffer, index * sizeof(float), &value, sizeof value);
}

TEST(ElementBuffers, ACorrectBufferHasNoWrongElements) {
  HostBackend backend(0);
  for (DType t : {DType::f32, DType::f64, DType::i32, DType::bf16, DType::f16}) {
    const std::size_t count = 10000;
    auto buffer = backend.allocate(count * dtype_size(t));
    fill_elements(backend, *buffer, 0, count, t, pattern);
    EXPECT_EQ(count_wrong_elements(backend, *buffer, 0, count, t, 0.0, pattern), 0)
        << dtype_name(t);
  }
}

TEST(ElementBuffers, WrongElementsAreCountedAcrossStagingChunks) {
  HostBackend backend(0);
  const std::size_t count = 3u << 20; // 12 MiB of floats: three 4 MiB staging chunks
  auto buffer = backend.allocate(count * sizeof(float));
  fill_elements(backend, *buffer, 0, count, DType::f32, pattern);
  for (std::size_t index : {std::size_t{0}, std::size_t{(1u << 20) + 5}, count - 1})
    poke(backend, *buffer, index, -7.0f);
  EXPECT_EQ(count_wrong_elements(backend, *buffer, 0, count, DType::f32, 0.0, pattern), 3);
  // The same buffer checked from an offset: the first wrong element is no longer in range.
  EXPECT_EQ(count_wrong_elements(backend, *buffer, 1, count - 1, DType::f32, 0.0,
                                 [](std::size_t i) { return pattern(i + 1); }),
            2);
}

TEST(ElementBuffers, OnlyDifferencesBeyondTheToleranceCount) {
  HostBackend backend(0);
  auto buffer = backend.allocate(4 * sizeof(float));
  const std::vector<float> values{100.0f, 100.4f, 101.0f, 99.0f};
  backend.upload(*buffer, 0, values.data(), values.size() * sizeof(float));
  auto hundred = [](std::size_t) { return 100.0; };
  EXPECT_EQ(count_wrong_elements(backend, *buffer, 0, 4, DType::f32, 0.005, hundred), 2);
  EXPECT_EQ(count_wrong_elements(backend, *buffer, 0, 4, DType::f32, 0.0, hundred), 3);
}

} // namespace
} // namespace cb
