#include "analysis/workload_flags.hpp"

#include <cstdint>
#include <string_view>

#include "core/error.hpp"
#include "core/units.hpp"

namespace cb {

std::string bytes_per_step_help(const std::string& lead) {
  return lead +
         "input bytes each GPU reads per step, timed by storage/seq_read (default 4 per token of "
         "--tokens-per-gpu, left out with a warning where storage was not measured; 0 = none)";
}

double parse_bytes_per_step(const std::string& text) {
  const std::string_view flag = "--bytes-per-step";
  const auto digits = text.find_first_not_of("0123456789");
  const std::string number = text.substr(0, digits);
  // parse_size refuses 0; here 0 means "no input reads". Its unit, if any, is still checked.
  const bool zero = !number.empty() && number.find_first_not_of('0') == std::string::npos;
  try {
    const std::uint64_t bytes = parse_size(zero ? "1" + text.substr(number.size()) : text, flag);
    return zero ? 0 : static_cast<double>(bytes);
  } catch (const InputError& e) {
    if (std::string_view(e.what()).find("too large") != std::string_view::npos)
      throw;
    throw InputError(std::string(flag) +
                     ": expected 0 (no input reads) or a size such as 64K, 1M or 2G, got '" +
                     shown(text) + "'");
  }
}

std::string plan_link_help() {
  return "inter-node bandwidth per rank to assume where no inter-node all_reduce was measured, "
         "e.g. 400gbit or 50GB; without it a step beyond one node is not priced from intra-node "
         "figures";
}

void read_plan_link(const ArgParser& args, PredictionConfig& config) {
  if (auto v = args.get("plan-link")) {
    config.plan_link.bytes_per_s = parse_link_rate(*v, "--plan-link");
    config.plan_link.text = *v;
  }
}

void read_workload_flags(const ArgParser& args, PredictionConfig& config) {
  if (auto v = args.get("model-params"))
    config.model_params = parse_count(*v, "--model-params");
  if (auto v = args.get("tokens-per-gpu"))
    config.tokens_per_gpu = parse_count(*v, "--tokens-per-gpu");
  if (auto v = args.get("grad-bytes"))
    config.grad_bytes = static_cast<double>(parse_size(*v, "--grad-bytes"));
  if (auto v = args.get("overlap"))
    config.overlap = parse_number(*v, "--overlap");
  if (auto v = args.get("bytes-per-step")) {
    config.bytes_per_step = parse_bytes_per_step(*v);
    config.input_required = config.bytes_per_step > 0;
  } else {
    config.bytes_per_step = kInputBytesPerToken * config.tokens_per_gpu;
    config.input_required = false;
  }
}

} // namespace cb
