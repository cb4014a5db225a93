#include "report/report_options.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "analysis/workload_flags.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace cb::report {
namespace {

namespace fs = std::filesystem;

int parse_gpu_count(const std::string& text, const std::string& flag) {
  const long long n = parse_integer(text, flag);
  if (n < 1 || n > 1'000'000) {
    throw InputError(flag + ": GPU counts must be between 1 and 1000000, got " + shown(text));
  }
  return static_cast<int>(n);
}

std::vector<int> parse_gpu_counts(const std::string& text, const std::string& flag) {
  std::vector<int> counts;
  for (const auto& item : split_list(text, flag))
    counts.push_back(parse_gpu_count(item, flag));
  return counts;
}

} // namespace

void declare_report_flags(ArgParser& args) {
  args.positional("RESULTS.json", "results file to report on")
      .option("html", "FILE", "also write one self-contained HTML page (figures embedded)")
      .option("plots", "DIR", "draw the figures with plots/plot.py into DIR and link them")
      .flag("json", "print the report as JSON instead of Markdown")
      .option("predict-to", "N",
              "predict the training step and each part's efficiency up to N GPUs (default "
              "1024, or the largest --at count)")
      .option("at", "N,N",
              "GPU counts the headline gives efficiency and cost at (default 64 and --predict-to; "
              "none beyond --predict-to)")
      .option("model-params", "P", "training step: model parameters (default 7B)")
      .option("tokens-per-gpu", "T", "training step: tokens per GPU per step (default 16384)")
      .option("grad-bytes", "B", "training step: gradient bytes all-reduced (default 2 x params)")
      .option("overlap", "F",
              "training step: share of the all-reduce hidden by compute (default 0)")
      .option("bytes-per-step", "B", bytes_per_step_help("training step: "))
      .option("gpu-hours", "H", "GPU-hours of the job at perfect scaling: adds its wall time")
      .option("price", "P", "price per GPU-hour, with --gpu-hours: adds its cost")
      .option("plan-link", "RATE", plan_link_help());
  declare_useful_work_flags(args);
}

ReportCommandOptions read_report_flags(const ArgParser& args) {
  ReportCommandOptions o;
  o.results_path = args.positional_value("RESULTS.json");
  o.html_path = args.get("html");
  o.plots_dir = args.get("plots");
  o.json = args.has("json");
  if (o.html_path && o.html_path->empty())
    throw InputError("--html: give a file name");
  if (o.plots_dir && o.plots_dir->empty())
    throw InputError("--plots: give a folder");

  ReportOptions& r = o.report;
  PredictionConfig& step = r.step;
  step = default_training_step();
  read_workload_flags(args, step);
  read_plan_link(args, step);
  r.step_given = args.has("model-params") || args.has("tokens-per-gpu");
  const auto at = args.get("at");
  if (at)
    r.outlook_gpus = parse_gpu_counts(*at, "--at");
  if (auto v = args.get("predict-to")) {
    step.predict_to = parse_gpu_count(*v, "--predict-to");
    if (!at)
      r.outlook_gpus = default_outlook_gpus(step.predict_to);
    for (int n : r.outlook_gpus) {
      if (n > step.predict_to) {
        throw InputError("--at: " + std::to_string(n) + " GPUs lies beyond --predict-to " +
                         std::to_string(step.predict_to) + "; raise --predict-to or drop it");
      }
    }
  } else {
    // Without --predict-to the prediction reaches as far as the counts asked for.
    for (int n : r.outlook_gpus)
      step.predict_to = std::max(step.predict_to, n);
  }
  validate_prediction_config(step);
  r.goodput = read_useful_work_flags(args);

  if (auto v = args.get("gpu-hours")) {
    r.gpu_hours = parse_number(*v, "--gpu-hours");
    // The bounds of `clusterbench cost`: past them no figure of the job is finite.
    if (!(*r.gpu_hours > 0 && *r.gpu_hours <= 1e12))
      throw InputError("--gpu-hours: must be greater than 0 and at most 1e12, got " + shown(*v));
  }
  if (auto v = args.get("price")) {
    if (!r.gpu_hours)
      throw InputError("--price: needs --gpu-hours (the job's size)");
    r.price = parse_number(*v, "--price");
    if (!(*r.price > 0 && *r.price <= 1e6))
      throw InputError("--price: must be greater than 0 and at most 1e6, got " + shown(*v));
  }
  return o;
}

void check_writable_file(const std::string& path, const std::string& flag) {
  std::error_code ec;
  const fs::path target(path);
  if (fs::is_directory(target, ec)) {
    throw InputError(flag + " " + path + ": is a folder; give a file name");
  }
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) {
    throw InputError(flag + " " + path + ": folder '" + dir.string() + "' does not exist");
  }
  // Creating a file is the only test that also holds for root and read-only file systems.
  const fs::path probe =
      dir / ("." + target.filename().string() + ".probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw InputError(flag + " " + path + ": cannot write there (" + std::strerror(errno) + ")");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

void prepare_folder(const std::string& path, const std::string& flag) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec || !fs::is_directory(path, ec)) {
    throw InputError(flag + " " + path + ": cannot create the folder" +
                     (ec ? " (" + ec.message() + ")" : ""));
  }
  check_writable_file((fs::path(path) / "report").string(), flag);
}

} // namespace cb::report
