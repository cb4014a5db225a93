#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "compute/cache_size.hpp"
#include "compute/compute_case.hpp"

namespace cb {
namespace {

namespace fs = std::filesystem;

TEST(CacheSize, ParsesSysfsSizes) {
  EXPECT_EQ(parse_cache_size("32K"), 32u << 10);
  EXPECT_EQ(parse_cache_size("32768K\n"), 32ull << 20);
  EXPECT_EQ(parse_cache_size("2M"), 2u << 20);
  EXPECT_EQ(parse_cache_size("1G"), 1ull << 30);
  EXPECT_EQ(parse_cache_size("512"), 512u);
  EXPECT_EQ(parse_cache_size(""), 0u);
  EXPECT_EQ(parse_cache_size("K"), 0u);
  EXPECT_EQ(parse_cache_size("12Q"), 0u);
}

void write_cache(const fs::path& dir, const std::string& index, const std::string& type,
                 const std::string& size) {
  fs::create_directories(dir / index);
  std::ofstream(dir / index / "type") << type << "\n";
  std::ofstream(dir / index / "size") << size << "\n";
}

TEST(CacheSize, LargestDataOrUnifiedCacheIsTheLastLevel) {
  const fs::path dir = fs::temp_directory_path() / ("cb-cache-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  write_cache(dir, "index0", "Data", "32K");
  write_cache(dir, "index1", "Instruction", "64M"); // never counted
  write_cache(dir, "index2", "Unified", "1024K");
  write_cache(dir, "index3", "Unified", "32768K");
  EXPECT_EQ(last_level_cache_bytes(dir.string()), 32ull << 20);
  fs::remove_all(dir);
  EXPECT_EQ(last_level_cache_bytes(dir.string()), 0u);
}

TEST(CacheSize, DefaultArraysAreFourTimesTheCacheInWholePages) {
  EXPECT_EQ(default_stream_array_bytes(32ull << 20), 128ull << 20);
  EXPECT_EQ(default_stream_array_bytes(1000), 4096u);
  EXPECT_EQ(default_stream_array_bytes(0), 128ull << 20);
}

TEST(WeakScaling, AggregateIsSumOverRanksOverTheSlowest) {
  // 4 ranks each moving 2 GB in the slowest rank's 0.5 s: 16 GB/s together, 4 GB/s each.
  EXPECT_DOUBLE_EQ(weak_scaling_rate(2e9, 4, 0.5, true), 16.0);
  EXPECT_DOUBLE_EQ(weak_scaling_rate(2e9, 4, 0.5, false), 4.0);
  EXPECT_DOUBLE_EQ(weak_scaling_rate(3e6, 1, 1e-3, true, 1e6), 3000.0);
  EXPECT_EQ(weak_scaling_rate(1, 1, 0, true), 0.0);
}

TEST(WeakScaling, RingAndStorageAccountEveryRanksBytesOnce) {
  // ring_bw: 8 ranks each sending 64 MiB to the right in the slowest rank's 10 ms.
  EXPECT_NEAR(weak_scaling_rate(64.0 * 1048576, 8, 0.010, true), 53.687, 1e-3);
  // seq_read: 2 readers of 256 MiB each, the slower done in 0.2 s; one reader alone in 0.1 s.
  EXPECT_NEAR(weak_scaling_rate(256.0 * 1048576, 2, 0.2, true), 2.684, 1e-3);
  EXPECT_NEAR(weak_scaling_rate(256.0 * 1048576, 2, 0.1, false), 2.684, 1e-3);
}

} // namespace
} // namespace cb
