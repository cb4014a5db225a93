#include <gtest/gtest.h>

#include "results/params_text.hpp"

using namespace cb;

TEST(ParamsText, SizesInBinaryUnitsForKeysNamingBytes) {
  const auto params = nlohmann::json::parse(
      R"({"bytes": 67108864, "block_bytes": 4096, "input_bytes_per_step": 2097152, "n": 3})");
  EXPECT_EQ(describe_params(params), "block_bytes=4K bytes=64M input_bytes_per_step=2M n=3");
  // A size that is no whole number of KiB stays in bytes.
  EXPECT_EQ(describe_params({{"bytes", 1000}}), "bytes=1000");
  // "kbytes" is not the word "bytes": a count of KiB printed as a size would be wrong.
  EXPECT_EQ(describe_params({{"io_kbytes", 4096}, {"bytesize", 1024}}),
            "bytesize=1024 io_kbytes=4096");
}

TEST(ParamsText, SignedAndUnsignedSizesAlike) {
  // Read from a file a non-negative integer is unsigned; built in code it is signed.
  EXPECT_EQ(describe_params({{"bytes", 33554432u}}), "bytes=32M");
  EXPECT_EQ(describe_params({{"bytes", 33554432}}), "bytes=32M");
  EXPECT_EQ(describe_params(nlohmann::json::parse(R"({"bytes": 33554432})")), "bytes=32M");
  // A negative size is no size: shown as written, never wrapped around to 16E.
  EXPECT_EQ(describe_params({{"bytes", -1024}}), "bytes=-1024");
  EXPECT_EQ(describe_params({{"bytes", 1.5}}), "bytes=1.5");
}

TEST(ParamsText, InPlaceInWords) {
  EXPECT_EQ(describe_params({{"bytes", 2097152u}, {"dtype", "float"}, {"in_place", false}}),
            "bytes=2M dtype=float out-of-place");
  EXPECT_EQ(describe_params({{"in_place", true}, {"op", "sum"}}), "in-place op=sum");
  // Only a boolean is a placement; other flags keep their key.
  EXPECT_EQ(describe_params({{"in_place", 1}, {"verify", false}}), "in_place=1 verify=false");
}

TEST(ParamsText, StringsUnquotedOtherValuesAsJson) {
  EXPECT_EQ(describe_params({{"dtype", "bf16"}, {"io", "direct"}}), "dtype=bf16 io=direct");
  EXPECT_EQ(describe_params({{"root", nullptr}, {"ranks", {0, 2}}}), "ranks=[0,2] root=null");
}

TEST(ParamsText, NothingForAnEmptyObjectOrANonObject) {
  EXPECT_EQ(describe_params(nlohmann::json::object()), "");
  EXPECT_EQ(describe_params(nlohmann::json()), "");
  EXPECT_EQ(describe_params(nlohmann::json::array({1, 2})), "");
  EXPECT_EQ(describe_params("bytes=4K"), "");
  EXPECT_EQ(describe_params(4096), "");
}
