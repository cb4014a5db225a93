// clusterbench goodput: the share of a job's time that trains when failures interrupt it, from the
// checkpoint and restart times given (the model alone, analysis/goodput.hpp).
#include <iostream>

#include "analysis/goodput.hpp"
#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace cb {
namespace {

int goodput_main(const std::vector<std::string>& argv) {
  ArgParser args("clusterbench goodput",
                 "clusterbench goodput --gpus N [--gpu-mtbf-hours H] --checkpoint-s C "
                 "--restart-s R [--json]");
  args.option("gpus", "N", "GPUs the job runs on")
      .option("gpu-mtbf-hours", "H",
              "one GPU's mean time between failures, in hours (default 50677: Llama 3's 419 "
              "interruptions in 54 days on 16,384 GPUs)")
      .option("checkpoint-s", "C", "seconds a checkpoint blocks training")
      .option("restart-s", "R",
              "seconds from a failure to training again: scheduling, process start, "
              "communicator start-up, restore")
      .flag("json", "print the figures as JSON")
      .epilog("M = H x 3600 / N; goodput(tau) = tau / (M e^{R/M} (e^{(tau+C)/M} - 1)) for tau\n"
              "seconds of work between checkpoints, failures exponential (Daly 2006); prints\n"
              "tau* that maximises it and goodput(tau*). A checkpoint or restart as long as M\n"
              "or longer: the job cannot make useful progress (said beside the figures).");
  if (!args.parse(argv)) {
    std::cout << args.help();
    return 0;
  }
  GoodputInputs inputs;
  inputs.gpus = parse_integer(args.get_required("gpus", "GPUs the job runs on"), "--gpus");
  if (auto h = args.get("gpu-mtbf-hours"))
    inputs.gpu_mtbf_hours = parse_number(*h, "--gpu-mtbf-hours");
  inputs.checkpoint_s = parse_number(
      args.get_required("checkpoint-s", "seconds a checkpoint blocks training"), "--checkpoint-s");
  inputs.restart_s = parse_number(
      args.get_required("restart-s", "seconds from a failure to training again"), "--restart-s");
  const GoodputEstimate estimate = estimate_goodput(inputs);
  if (args.has("json"))
    std::cout << goodput_to_json(estimate).dump(2) << "\n";
  else
    std::cout << format_goodput(estimate) << "\n";
  return 0;
}

} // namespace
} // namespace cb

CB_REGISTER_COMMAND("goodput",
                    "the share of a job's time that trains, failures and checkpoints "
                    "paid",
                    cb::goodput_main);
