// clusterbench cost: what a training job costs at a given scaling efficiency, the efficiency given
// or predicted from measured results.
#include <cctype>
#include <cmath>
#include <iostream>

#include "analysis/cost.hpp"
#include "analysis/measured_step.hpp"
#include "analysis/prediction.hpp"
#include "analysis/pricing_basis.hpp"
#include "analysis/useful_work.hpp"
#include "analysis/workload_flags.hpp"
#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/units.hpp"
#include "results/results_io.hpp"

namespace cb {
namespace {

PredictionConfig prediction_config(const ArgParser& args) {
  args.get_required("model-params", "the model's parameter count, needed with --from");
  args.get_required("tokens-per-gpu", "tokens per GPU per step, needed with --from");
  PredictionConfig config;
  read_workload_flags(args, config);
  read_plan_link(args, config);
  return config;
}

// The efficiency at N GPUs taken from a results file, and where it came from.
struct EfficiencyFromResults {
  double efficiency = 0;
  // The training step measured in the file (workload/data_parallel_step), when it priced.
  std::optional<StepValidation> measured;
  std::string measured_how;
  // Else the step predicted from the parts for the workload given.
  std::optional<StepTime> step;
  std::vector<std::string> warnings;
  bool input_left_out = false;
  PricingBasis basis;
  // Goodput at N from the file's checkpoint and start-up records, or why not (useful_work.hpp).
  std::optional<GoodputAtScale> goodput;
  std::string goodput_missing;
};

void add_goodput(EfficiencyFromResults& out, const UsefulWorkSettings& settings,
                 const std::string& path, const ResultsFile& results, int gpus) {
  if (auto sources = goodput_sources(results, path, settings))
    out.goodput = goodput_at_scale(*sources, gpus, settings);
  else
    out.goodput_missing = goodput_not_measured(results, settings);
}

// The job's cost at efficiency x goodput: "at 76.1 % useful work (efficiency x goodput):
// 95.23 h (3.97 days), $23,809.52, 31.3 % over the ideal $10,000.00".
std::string useful_cost_text(const CostEstimate& useful) {
  return "at " + format_percent_fixed(useful.inputs.efficiency) +
         " useful work (efficiency x goodput): " + format_fixed(useful.wall_hours, 2) + " h (" +
         format_fixed(useful.wall_days, 2) + " days), " + format_money(useful.cost) + ", " +
         format_percent_fixed(useful.overhead_fraction) + " over the ideal " +
         format_money(useful.ideal_cost);
}

// A run that measured the training step prices its own workload at the efficiency it measured,
// unless a workload is given with --model-params/--tokens-per-gpu. nullopt without such records.
std::optional<EfficiencyFromResults> from_measured_step(const ArgParser& args,
                                                        const ResultsFile& results, int gpus) {
  const std::string path = *args.get("from");
  PredictionConfig link;
  read_plan_link(args, link);
  auto measured = validate_step(results, path, gpus, link.plan_link);
  if (!measured)
    return std::nullopt;
  for (const char* flag : {"grad-bytes", "overlap", "bytes-per-step"}) {
    if (args.has(flag)) {
      throw InputError(std::string("--") + flag + ": the measured training step in " + path +
                       " has its own; give --model-params and --tokens-per-gpu to price "
                       "another workload");
    }
  }
  EfficiencyFromResults out;
  const auto e = step_efficiency_at(*measured, gpus, &out.measured_how);
  if (!e && measured->model && !out.measured_how.empty())
    throw InputError("--gpus: " + out.measured_how); // across nodes with nothing measured there
  if (!e) {
    throw InputError(
        "--gpus: " + path + " measured the training step up to " +
        std::to_string(measured->workload.largest().gpus) + " GPUs and it cannot be predicted at " +
        std::to_string(gpus) +
        (measured->model_problem.empty() ? std::string() : ": " + measured->model_problem));
  }
  out.efficiency = *e;
  out.basis = measured_step_basis(*measured, gpus);
  out.measured = std::move(measured);
  return out;
}

EfficiencyFromResults from_prediction(const ArgParser& args, const ResultsFile& results, int gpus) {
  const std::string path = *args.get("from");
  PredictionConfig config = prediction_config(args);
  config.predict_to = gpus;
  const TrainingStepModel model = build_training_step_model(results, config, path);
  if (std::string why = unpriced_across_nodes(model, gpus); !why.empty())
    throw InputError("--gpus: " + why);
  EfficiencyFromResults out;
  out.step = predict_step(model, gpus);
  out.warnings = model.warnings;
  out.input_left_out = model.input_left_out;
  out.efficiency = out.step->efficiency;
  out.basis = predicted_basis(model, gpus);
  // The predicted efficiency is judged by the same bounds as a given one, naming its source.
  if (!(out.efficiency >= 1e-6 && out.efficiency <= 1)) {
    throw InputError("--from " + shown(path, 120) + ": the predicted efficiency at " +
                     std::to_string(gpus) + " GPUs is " + std::to_string(out.efficiency) +
                     ", outside [1e-06, 1]");
  }
  return out;
}

void print_json(const CostEstimate& estimate, const std::optional<EfficiencyFromResults>& from,
                const std::string& path) {
  nlohmann::json out = cost_to_json(estimate);
  if (from && from->step) {
    const StepTime& step = *from->step;
    out["prediction"] = {{"from", path},
                         {"gpus", step.gpus},
                         {"step_s", step.step_s},
                         {"compute_s", step.compute_s},
                         {"all_reduce_s", step.all_reduce_s},
                         {"input_s", step.input_s},
                         {"dominant", step.dominant},
                         {"extrapolated", step.extrapolated},
                         {"input_left_out", from->input_left_out},
                         {"warnings", from->warnings}};
  }
  if (from && from->measured) {
    out["measured_step"] = {{"from", path},
                            {"workload", from->measured->workload.params},
                            {"workload_text", from->measured->workload.describe()},
                            {"gpus", estimate.inputs.gpus},
                            {"efficiency", estimate.inputs.efficiency},
                            {"efficiency_from", from->measured_how}};
  }
  if (from)
    out["rests_on"] = basis_to_json(from->basis);
  if (from && from->goodput) {
    out["goodput"] = goodput_at_scale_to_json(*from->goodput, estimate.inputs.efficiency);
    CostInputs useful = estimate.inputs;
    useful.efficiency *= from->goodput->estimate.goodput;
    out["useful_work_cost"] = cost_to_json(estimate_cost(useful));
  } else if (from) {
    out["goodput"] = {{"not_measured", from->goodput_missing}};
  }
  std::cout << out.dump(2) << "\n";
}

void print_text(const CostEstimate& estimate, const std::optional<EfficiencyFromResults>& from,
                const std::string& path) {
  if (from && from->measured) {
    std::cout << "efficiency from the training step measured in " << shown(path, 120) << " ("
              << from->measured->workload.describe()
              << "): " << static_cast<int>(std::lround(estimate.inputs.efficiency * 1000)) / 10.0
              << " % at " << estimate.inputs.gpus << " GPUs, " << from->measured_how << "\n";
  }
  if (from && from->step) {
    const StepTime& step = *from->step;
    // The path is the user's: shown() keeps it to one line however long it is.
    const std::string figures =
        "step " + format_fixed(step.step_s * 1e3, 3) + " ms on " + std::to_string(step.gpus) +
        " GPUs (compute " + format_fixed(step.compute_s * 1e3, 3) + ", all-reduce " +
        format_fixed(step.all_reduce_s * 1e3, 3) + " ms, " +
        (from->input_left_out ? "input not measured"
                              : "input " + format_fixed(step.input_s * 1e3, 3) + " ms") +
        "; ";
    std::cout << "predicted from " << shown(path, 120) << ": " << figures << step.dominant
              << " dominates" << (step.extrapolated ? ", extrapolated" : "") << ")\n";
    for (const auto& w : from->warnings)
      std::cout << "warning: " << w << "\n";
  }
  if (from)
    std::cout << "rests on: " << describe_basis(from->basis) << "\n";
  std::cout << format_cost(estimate) << "\n";
  if (from && from->goodput) {
    const GoodputAtScale& g = *from->goodput;
    CostInputs useful = estimate.inputs;
    useful.efficiency *= g.estimate.goodput;
    std::cout << "on " << g.gpus << " GPUs: " << useful_work_text(estimate.inputs.efficiency, g)
              << "\ngoodput rests on: " << describe_basis(g.basis) << "\n"
              << useful_cost_text(estimate_cost(useful)) << "\n";
  } else if (from) {
    std::cout << "goodput: " << from->goodput_missing << "\n";
  }
}

int cost_main(const std::vector<std::string>& argv) {
  ArgParser args("clusterbench cost",
                 "clusterbench cost --gpu-hours H --price P --gpus N (--efficiency E | --from "
                 "RESULTS.json --model-params P --tokens-per-gpu T [--grad-bytes B] [--overlap F] "
                 "[--bytes-per-step B]) [--plan-link RATE] [--utilization U] [--json]");
  args.option("gpu-hours", "H", "GPU-hours of work at perfect scaling")
      .option("price", "P", "price per GPU-hour")
      .option("gpus", "N", "GPUs the job runs on")
      .option("efficiency", "E", "scaling efficiency at N GPUs, in (0, 1]")
      .option("from", "RESULTS.json",
              "the efficiency at N GPUs from measured results: the training step's where the "
              "run measured it (workload suite), else predicted from the parts for --model-params")
      .option("model-params", "P", "with --from: model parameters (7e9, 7B)")
      .option("tokens-per-gpu", "T", "with --from: tokens per GPU per step")
      .option("grad-bytes", "B",
              "with --from: gradient bytes all-reduced per step (default 2 x params)")
      .option("overlap", "F", "with --from: share of the all-reduce hidden behind compute, [0, 1]")
      .option("bytes-per-step", "B", bytes_per_step_help("with --from: "))
      .option("plan-link", "RATE", "with --from: " + plan_link_help())
      .option("utilization", "U", "share of billed GPU time doing useful work, in (0, 1]")
      .flag("json", "print the figures as JSON");
  declare_useful_work_flags(args, "with --from: ");
  args.epilog("wall_hours = H / (N E); cost = N wall_hours P; ideal_cost = H P;\n"
              "overhead_fraction = cost / ideal_cost - 1; cost_per_useful_gpu_hour = P / U.\n"
              "With --from and checkpoint records: goodput at N (docs/GOODPUT.md) and the job\n"
              "at useful work = efficiency x goodput.");
  if (!args.parse(argv)) {
    std::cout << args.help();
    return 0;
  }
  CostInputs inputs;
  inputs.gpu_hours =
      parse_number(args.get_required("gpu-hours", "GPU-hours of work"), "--gpu-hours");
  inputs.price_per_gpu_hour =
      parse_number(args.get_required("price", "price per GPU-hour"), "--price");
  const long long gpus = parse_integer(args.get_required("gpus", "GPUs the job runs on"), "--gpus");
  if (gpus < 1 || gpus > 1'000'000'000) {
    throw InputError("--gpus: must be 1..1000000000, got " + std::to_string(gpus));
  }
  inputs.gpus = static_cast<int>(gpus);
  if (auto u = args.get("utilization"))
    inputs.utilization = parse_number(*u, "--utilization");

  const bool from = args.has("from");
  if (from == args.has("efficiency")) {
    throw InputError("--efficiency: give either --efficiency E or --from RESULTS.json");
  }
  if (!from) {
    for (const char* flag : {"model-params", "tokens-per-gpu", "grad-bytes", "overlap",
                             "bytes-per-step", "plan-link"}) {
      if (args.has(flag))
        throw InputError(std::string("--") + flag + ": applies with --from only");
    }
    if (const auto given = useful_work_flags_given(args); !given.empty())
      throw InputError(given.front() + ": applies with --from only");
  }
  const UsefulWorkSettings goodput_settings = read_useful_work_flags(args);
  std::optional<EfficiencyFromResults> from_results;
  if (from) {
    // Loaded once for both uses: a whole-cluster file takes seconds and gigabytes to load.
    const ResultsFile results = load_results(*args.get("from"));
    if (!args.has("model-params") && !args.has("tokens-per-gpu"))
      from_results = from_measured_step(args, results, inputs.gpus);
    if (!from_results)
      from_results = from_prediction(args, results, inputs.gpus);
    inputs.efficiency = from_results->efficiency;
    add_goodput(*from_results, goodput_settings, *args.get("from"), results, inputs.gpus);
  } else {
    inputs.efficiency = parse_number(*args.get("efficiency"), "--efficiency");
  }
  const CostEstimate estimate = estimate_cost(inputs);
  const std::string path = args.get_or("from", "");
  if (args.has("json"))
    print_json(estimate, from_results, path);
  else
    print_text(estimate, from_results, path);
  return 0;
}

} // namespace
} // namespace cb

CB_REGISTER_COMMAND("cost", "what a job costs at the scaling efficiency measured or given",
                    cb::cost_main);
