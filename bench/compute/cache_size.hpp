#pragma once
// The last-level cache, which decides the STREAM array size: each array must be at least four times
// the cache so that the kernels measure memory, not cache (STREAM's run rule).
#include <cstdint>
#include <string>
#include <string_view>

namespace cb {

// "32768K", "1M", "512" (sysfs cache size syntax) -> bytes; 0 when the text is not a size.
std::uint64_t parse_cache_size(std::string_view text);

// The largest data or unified cache listed under `cache_dir` (index*/size); 0 when none is
// readable.
std::uint64_t
last_level_cache_bytes(const std::string& cache_dir = "/sys/devices/system/cpu/cpu0/cache");

// 4 x the last-level cache, whole pages; 128 MiB when the cache size is unknown.
std::uint64_t default_stream_array_bytes(std::uint64_t llc_bytes);

} // namespace cb
