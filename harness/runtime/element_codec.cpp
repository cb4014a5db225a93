#include "runtime/element_codec.hpp"

#include <cmath>
#include <cstring>

namespace cb {
namespace {

std::uint16_t float_to_bf16(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if (std::isnan(f))
    return 0x7fc0;
  const std::uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

float bf16_to_float(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::uint16_t float_to_fp16(float f) {
  // Values used here are small normal numbers or zero; handle sign, normals, zero and overflow.
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  std::uint32_t mantissa = bits & 0x7fffff;
  if (exponent <= 0)
    return sign; // underflow to zero
  if (exponent >= 31)
    return static_cast<std::uint16_t>(sign | 0x7c00); // infinity
  std::uint32_t half = (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // round to nearest even
  return static_cast<std::uint16_t>(sign | half);
}

float fp16_to_float(std::uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa ? NAN : INFINITY;
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return sign ? -value : value;
}

std::uint8_t float_to_e4m3(float f) {
  // OCP FP8 E4M3: bias 7, no infinities, max 448. Exhaustive nearest search: 256 codes, host only.
  std::uint8_t best = 0;
  float best_err = INFINITY;
  for (int code = 0; code < 256; ++code) {
    if ((code & 0x7f) == 0x7f)
      continue; // NaN
    const int sign = code >> 7, exponent = (code >> 3) & 0xf, mantissa = code & 7;
    float v = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -9)
                            : std::ldexp(static_cast<float>(8 | mantissa), exponent - 10);
    if (sign)
      v = -v;
    const float err = std::fabs(v - f);
    if (err < best_err) {
      best_err = err;
      best = static_cast<std::uint8_t>(code);
    }
  }
  return best;
}

float e4m3_to_float(std::uint8_t code) {
  const int sign = code >> 7, exponent = (code >> 3) & 0xf, mantissa = code & 7;
  float v = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -9)
                          : std::ldexp(static_cast<float>(8 | mantissa), exponent - 10);
  return sign ? -v : v;
}

} // namespace

void encode_element(DType t, double value, void* dst) {
  switch (t) {
  case DType::f32: {
    const float v = static_cast<float>(value);
    std::memcpy(dst, &v, sizeof v);
    return;
  }
  case DType::f64:
    std::memcpy(dst, &value, sizeof value);
    return;
  case DType::i32: {
    const auto v = static_cast<std::int32_t>(std::llround(value));
    std::memcpy(dst, &v, sizeof v);
    return;
  }
  case DType::bf16: {
    const std::uint16_t v = float_to_bf16(static_cast<float>(value));
    std::memcpy(dst, &v, sizeof v);
    return;
  }
  case DType::f16: {
    const std::uint16_t v = float_to_fp16(static_cast<float>(value));
    std::memcpy(dst, &v, sizeof v);
    return;
  }
  case DType::f8e4m3:
    *static_cast<std::uint8_t*>(dst) = float_to_e4m3(static_cast<float>(value));
    return;
  }
}

double decode_element(DType t, const void* src) {
  switch (t) {
  case DType::f32: {
    float v;
    std::memcpy(&v, src, sizeof v);
    return v;
  }
  case DType::f64: {
    double v;
    std::memcpy(&v, src, sizeof v);
    return v;
  }
  case DType::i32: {
    std::int32_t v;
    std::memcpy(&v, src, sizeof v);
    return v;
  }
  case DType::bf16: {
    std::uint16_t v;
    std::memcpy(&v, src, sizeof v);
    return bf16_to_float(v);
  }
  case DType::f16: {
    std::uint16_t v;
    std::memcpy(&v, src, sizeof v);
    return fp16_to_float(v);
  }
  case DType::f8e4m3:
    return e4m3_to_float(*static_cast<const std::uint8_t*>(src));
  }
  return 0;
}

double check_tolerance(DType t, int terms) {
  const double n = terms < 1 ? 1 : terms;
  switch (t) {
  case DType::f32:
  case DType::f64:
  case DType::i32:
    return 0.0; // small integers: exact
  case DType::bf16:
    return n * 0x1p-8;
  case DType::f16:
    return n * 0x1p-11;
  case DType::f8e4m3:
    return n * 0x1p-4;
  }
  return 0.0;
}

} // namespace cb
