#include "collectives/element_buffers.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/element_codec.hpp"

namespace cb {
namespace {

constexpr std::size_t kChunkBytes = 4u << 20; // staging chunk for fill and verify

} // namespace

void fill_elements(Backend& backend, DeviceBuffer& buffer, std::size_t base, std::size_t count,
                   DType t, const std::function<double(std::size_t)>& value_of) {
  const std::size_t size = dtype_size(t);
  std::vector<unsigned char> stage(std::min(count * size, kChunkBytes));
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(count - done, stage.size() / size);
    for (std::size_t i = 0; i < n; ++i)
      encode_element(t, value_of(done + i), &stage[i * size]);
    backend.upload(buffer, (base + done) * size, stage.data(), n * size);
    done += n;
  }
}

long long count_wrong_elements(Backend& backend, const DeviceBuffer& buffer, std::size_t base,
                               std::size_t count, DType t, double tolerance,
                               const std::function<double(std::size_t)>& expected_of) {
  const std::size_t size = dtype_size(t);
  std::vector<unsigned char> stage(std::min(count * size, kChunkBytes));
  long long wrong = 0;
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(count - done, stage.size() / size);
    backend.download(stage.data(), buffer, (base + done) * size, n * size);
    for (std::size_t i = 0; i < n; ++i) {
      const double got = decode_element(t, &stage[i * size]);
      const double want = expected_of(done + i);
      if (std::fabs(got - want) > tolerance * std::fabs(want))
        ++wrong;
    }
    done += n;
  }
  return wrong;
}

} // namespace cb
