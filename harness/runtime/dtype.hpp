#pragma once
// Element types and reduction operators of the benchmarks, by the names users type.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cb {

enum class DType { f32, f64, i32, bf16, f16, f8e4m3 };
enum class ReduceOp { sum, min, max };

DType dtype_from_name(std::string_view name); // float|double|int32|bf16|fp16|fp8 (InputError)
std::string_view dtype_name(DType t);
std::size_t dtype_size(DType t);
std::vector<std::string> all_dtype_names();

ReduceOp reduce_op_from_name(std::string_view name); // sum|min|max (InputError)
std::string_view reduce_op_name(ReduceOp op);

} // namespace cb
