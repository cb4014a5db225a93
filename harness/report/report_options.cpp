#include "report/report_options.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "core/units.hpp"

namespace cb::report {
namespace {

namespace fs = std::filesystem;

std::vector<int> parse_gpu_counts(const std::string& text, const std::string& flag) {
  std::vector<int> counts;
  for (const auto& item : split_list(text, flag)) {
    const long long n = parse_integer(item, flag);
    if (n < 1 || n > 1'000'000) {
      throw InputError(flag + ": GPU counts must be between 1 and 1000000, got " + item);
    }
    counts.push_back(static_cast<int>(n));
  }
  return counts;
}

} // namespace

void declare_report_flags(ArgParser& args) {
  args.positional("RESULTS.json", "results file to report on")
      .option("html", "FILE", "also write one self-contained HTML page (figures embedded)")
      .option("plots", "DIR", "draw the figures with plots/plot.py into DIR and link them")
      .flag("json", "print the report as JSON instead of Markdown")
      .option("at", "N,N", "GPU counts to predict efficiency and cost at (default 64,1024)")
      .option("model-params", "P", "training step: model parameters (default 7B)")
      .option("tokens-per-gpu", "T", "training step: tokens per GPU per step (default 16384)")
      .option("grad-bytes", "B", "training step: gradient bytes all-reduced (default 2 x params)")
      .option("overlap", "F",
              "training step: share of the all-reduce hidden by compute (default 0)")
      .option("bytes-per-step", "B",
              "training step: input read per GPU per step (default 4 bytes per token)")
      .option("gpu-hours", "H", "GPU-hours of the job at perfect scaling: adds its wall time")
      .option("price", "P", "price per GPU-hour, with --gpu-hours: adds its cost");
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
  if (auto v = args.get("at"))
    r.outlook_gpus = parse_gpu_counts(*v, "--at");
  PredictionConfig& step = r.step;
  step = default_training_step();
  if (auto v = args.get("model-params"))
    step.model_params = parse_count(*v, "--model-params");
  if (auto v = args.get("tokens-per-gpu")) {
    step.tokens_per_gpu = parse_count(*v, "--tokens-per-gpu");
    step.bytes_per_step = 4 * step.tokens_per_gpu; // the default follows the tokens
  }
  if (auto v = args.get("grad-bytes"))
    step.grad_bytes = double(parse_size(*v, "--grad-bytes"));
  if (auto v = args.get("overlap"))
    step.overlap = parse_number(*v, "--overlap");
  if (auto v = args.get("bytes-per-step")) {
    step.bytes_per_step = double(parse_size(*v, "--bytes-per-step"));
  }
  for (int n : r.outlook_gpus)
    step.predict_to = std::max(step.predict_to, n);
  validate_prediction_config(step);

  if (auto v = args.get("gpu-hours")) {
    r.gpu_hours = parse_number(*v, "--gpu-hours");
    if (!(*r.gpu_hours > 0))
      throw InputError("--gpu-hours: must be greater than 0, got " + *v);
  }
  if (auto v = args.get("price")) {
    if (!r.gpu_hours)
      throw InputError("--price: needs --gpu-hours (the job's size)");
    r.price = parse_number(*v, "--price");
    if (!(*r.price > 0))
      throw InputError("--price: must be greater than 0, got " + *v);
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
