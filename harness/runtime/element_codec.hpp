#pragma once
// Host-side conversion between doubles and device element types, for filling buffers with a
// known pattern and checking results. bf16/fp16/fp8 round to nearest even like the hardware.
#include <cstddef>
#include <cstdint>

#include "runtime/dtype.hpp"

namespace cb {

void encode_element(DType t, double value, void* dst);
double decode_element(DType t, const void* src);
// Largest relative error a correct result may carry for the type after a reduction over `terms`
// values (0 for exact types: the patterns are small integers).
double check_tolerance(DType t, int terms);

} // namespace cb
