#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/element_codec.hpp"

using namespace cb;

TEST(ElementCodec, ExactTypesRoundTrip) {
  unsigned char buf[8];
  for (DType t : {DType::f32, DType::f64, DType::i32}) {
    for (double v : {0.0, 1.0, 8.0, 4096.0, 123456.0}) {
      encode_element(t, v, buf);
      EXPECT_EQ(decode_element(t, buf), v) << dtype_name(t);
    }
  }
}

TEST(ElementCodec, HalfTypesHoldSmallIntegersAndRoundToNearest) {
  unsigned char buf[2];
  for (DType t : {DType::bf16, DType::f16}) {
    for (double v : {0.0, 1.0, 2.0, 7.0, 8.0, 64.0, 256.0}) {
      encode_element(t, v, buf);
      EXPECT_EQ(decode_element(t, buf), v) << dtype_name(t);
    }
  }
  encode_element(DType::bf16, 257.0, buf); // 257 is not representable: nearest even is 256
  EXPECT_EQ(decode_element(DType::bf16, buf), 256.0);
  encode_element(DType::f16, 2049.0, buf);
  EXPECT_EQ(decode_element(DType::f16, buf), 2048.0);
  encode_element(DType::f16, 1.5, buf);
  EXPECT_EQ(decode_element(DType::f16, buf), 1.5);
  // Bit patterns: bf16 1.0 = 0x3f80, fp16 1.0 = 0x3c00.
  encode_element(DType::bf16, 1.0, buf);
  EXPECT_EQ(buf[0] | (buf[1] << 8), 0x3f80);
  encode_element(DType::f16, 1.0, buf);
  EXPECT_EQ(buf[0] | (buf[1] << 8), 0x3c00);
}

TEST(ElementCodec, Fp8E4m3) {
  unsigned char b;
  for (double v : {0.0, 1.0, 2.0, 8.0, 16.0, 448.0}) {
    encode_element(DType::f8e4m3, v, &b);
    EXPECT_EQ(decode_element(DType::f8e4m3, &b), v);
  }
  encode_element(DType::f8e4m3, 1.0, &b);
  EXPECT_EQ(b, 0x38);
}

TEST(ElementCodec, ToleranceIsZeroForExactTypes) {
  EXPECT_EQ(check_tolerance(DType::f32, 64), 0.0);
  EXPECT_EQ(check_tolerance(DType::i32, 64), 0.0);
  EXPECT_GT(check_tolerance(DType::bf16, 8), 0.0);
}
