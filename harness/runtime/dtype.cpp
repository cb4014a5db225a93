#include "runtime/dtype.hpp"

#include "core/error.hpp"

namespace cb {

DType dtype_from_name(std::string_view name) {
  if (name == "float" || name == "fp32" || name == "f32")
    return DType::f32;
  if (name == "double" || name == "fp64" || name == "f64")
    return DType::f64;
  if (name == "int32" || name == "int")
    return DType::i32;
  if (name == "bf16" || name == "bfloat16")
    return DType::bf16;
  if (name == "fp16" || name == "half")
    return DType::f16;
  if (name == "fp8" || name == "e4m3")
    return DType::f8e4m3;
  throw InputError("--dtypes: unknown dtype '" + std::string(name) +
                   "' (allowed: float, double, int32, bf16, fp16, fp8)");
}

std::string_view dtype_name(DType t) {
  switch (t) {
  case DType::f32:
    return "float";
  case DType::f64:
    return "double";
  case DType::i32:
    return "int32";
  case DType::bf16:
    return "bf16";
  case DType::f16:
    return "fp16";
  case DType::f8e4m3:
    return "fp8";
  }
  return "?";
}

std::size_t dtype_size(DType t) {
  switch (t) {
  case DType::f32:
    return 4;
  case DType::f64:
    return 8;
  case DType::i32:
    return 4;
  case DType::bf16:
    return 2;
  case DType::f16:
    return 2;
  case DType::f8e4m3:
    return 1;
  }
  return 1;
}

std::vector<std::string> all_dtype_names() {
  return {"float", "double", "int32", "bf16", "fp16", "fp8"};
}

ReduceOp reduce_op_from_name(std::string_view name) {
  if (name == "sum")
    return ReduceOp::sum;
  if (name == "min")
    return ReduceOp::min;
  if (name == "max")
    return ReduceOp::max;
  throw InputError("--ops: unknown reduction '" + std::string(name) + "' (allowed: sum, min, max)");
}

std::string_view reduce_op_name(ReduceOp op) {
  switch (op) {
  case ReduceOp::sum:
    return "sum";
  case ReduceOp::min:
    return "min";
  case ReduceOp::max:
    return "max";
  }
  return "?";
}

} // namespace cb
