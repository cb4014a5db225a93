#pragma once
// Writing and checking a collective's buffers element by element, in any dtype, through a bounded
// host staging buffer (device memory is reached only by the backend's upload and download).
#include <cstddef>
#include <functional>

#include "runtime/backend.hpp"
#include "runtime/dtype.hpp"

namespace cb {

// Elements [base, base + count) of `buffer` get value_of(0 .. count-1), encoded as `t`.
void fill_elements(Backend& backend, DeviceBuffer& buffer, std::size_t base, std::size_t count,
                   DType t, const std::function<double(std::size_t)>& value_of);

// How many of elements [base, base + count) differ from expected_of(0 .. count-1) by more than
// `tolerance` relative to the expected value (0: exact).
long long count_wrong_elements(Backend& backend, const DeviceBuffer& buffer, std::size_t base,
                               std::size_t count, DType t, double tolerance,
                               const std::function<double(std::size_t)>& expected_of);

} // namespace cb
