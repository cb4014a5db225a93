#pragma once
// A case's parameters as one line of text, the way every command prints them (report, check,
// compare, fit, the headline): "bytes=64M dtype=float op=sum out-of-place".
#include <nlohmann/json.hpp>
#include <string>

namespace cb {

// Keys in the params' own order. Sizes in binary units (4K, 64M) for a non-negative integer whose
// key has "bytes" as one of its '_'-separated words ("bytes", "block_bytes",
// "input_bytes_per_step"; not "io_kbytes"); in_place as the words nccl-tests prints,
// "in-place" / "out-of-place"; strings unquoted; anything else as JSON. Empty for an object with no
// keys and for anything that is not an object.
std::string describe_params(const nlohmann::json& params);

} // namespace cb
