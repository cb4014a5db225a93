#include "cli/launch_flags.hpp"

#include <algorithm>
#include <climits>

#include "core/error.hpp"
#include "core/units.hpp"
#include "runtime/run_options.hpp"
#include "runtime/topology.hpp"

namespace cb {

int count_flag(const ArgParser& parser, const std::string& name, int fallback) {
  const auto text = parser.get(name);
  if (!text)
    return fallback;
  const long long value = parse_integer(*text, "--" + name);
  if (value < 1 || value > 1'000'000)
    throw InputError("--" + name + " must be from 1 to 1000000, got " + shown(*text, 40));
  return static_cast<int>(value);
}

void check_launched_run_flags(const std::vector<std::string>& flags, long long ranks) {
  // Checked here, as `run` checks them: a typo found now costs nothing, one found once the job
  // starts costs the wait in the queue and the nodes' time.
  ArgParser parser = run_argument_parser();
  if (!parser.parse(flags))
    throw InputError("-- --help: the run's help is clusterbench run --help");
  const RunConfig config = run_config_from(parser);
  // The launcher starts the ranks: --np would be ignored, and --single-process would start
  // threads for every GPU in each of them.
  for (const char* launched : {"np", "single-process"}) {
    if (parser.has(launched))
      throw InputError(std::string("run flag --") + launched +
                       ": the job starts one rank per GPU itself (--nodes x --gpus-per-node)");
  }
  if (!config.gpus.empty() && config.gpus != "auto")
    parse_gpu_counts(config.gpus, static_cast<int>(std::min<long long>(ranks, INT_MAX)));
}

} // namespace cb
