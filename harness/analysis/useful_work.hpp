#pragma once
// Useful work = scaling efficiency x goodput, with goodput's inputs read off a results file
// (analysis/goodput.hpp is the model). At N GPUs:
//   C = the checkpoint's blocking time: storage/checkpoint_write's time_us (sync checkpoints, the
//       default) or storage/checkpoint_stage's (async: the snapshot into host memory);
//   R = collectives/communicator_init's cold_time_us (the first communicator of a process, as a
//       restart's is; time_us where a record has no cold figure) + storage/checkpoint_read's
//       time_us (the restore) + --restart-overhead (scheduling and process start, which nothing
//       here measures: 0 unless given);
//   M = --gpu-mtbf-hours x 3600 / N.
// Each figure is the slowest rank's, from the configuration of its case measured at the most GPU
// counts (the fastest at its largest count on a tie; the restore with the checkpoint's size where
// one was measured). At a count not measured, the basis says what was assumed: C and the restore
// interpolated between the counts around it, or beyond the largest held at its figure there (the
// checkpoint assumed to move no faster with more ranks: a shared filesystem's aggregate rate
// does not grow with its clients); the communicator's start-up fitted as a + b N (a, b >= 0) over
// its measured counts, or held where one count was measured.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/goodput.hpp"
#include "analysis/pricing_basis.hpp"
#include "core/args.hpp"
#include "results/record.hpp"

namespace cb {

struct UsefulWorkSettings {
  double gpu_mtbf_hours = kLlama3GpuMtbfHours; // --gpu-mtbf-hours
  bool async = false;                          // --checkpoint-mode async
  double restart_overhead_s = 0;               // --restart-overhead
};

// Throws InputError naming the flag: --gpu-mtbf-hours in (0, 1e9], --checkpoint-mode sync|async,
// --restart-overhead in [0, 1 day].
double parse_gpu_mtbf_hours(const std::string& text);
bool parse_checkpoint_mode(const std::string& text);
double parse_restart_overhead(const std::string& text);
// --gpu-mtbf-hours, --checkpoint-mode and --restart-overhead, as report and cost --from take them.
void declare_useful_work_flags(ArgParser& args, const std::string& prefix = "");
UsefulWorkSettings read_useful_work_flags(const ArgParser& args);
// The flags given, "--gpu-mtbf-hours" first: for "applies with --from only".
std::vector<std::string> useful_work_flags_given(const ArgParser& args);

// One case's figures in seconds per GPU count, from one configuration.
struct MeasuredSeries {
  std::string name;  // "storage/checkpoint_write"
  std::string label; // its params as the report prints them
  std::string metric = "time_us";
  std::map<int, double> seconds;
  std::optional<double> checkpoint_bytes; // params.checkpoint_bytes, where it has one
};

struct GoodputSources {
  std::string source; // the results file
  MeasuredSeries checkpoint, restore;
  std::optional<MeasuredSeries> init;
  // The start-up fitted as a + b N over init's counts (two or more), else nullopt.
  std::optional<std::pair<double, double>> init_line;
  // E.g. the restore's checkpoint size differs: said in the restore's basis at every count.
  std::vector<std::string> notes;
  // The GPU counts any of the three was measured at, ascending.
  std::vector<int> measured_gpus() const;
};

// The figures of `results` for goodput, or nullopt without the checkpoint and restore records
// (goodput_not_measured says which run would answer). Throws InputError naming `source`, the
// record and the field for a figure that is not a positive time of at most a day.
std::optional<GoodputSources> goodput_sources(const ResultsFile& results, const std::string& source,
                                              const UsefulWorkSettings& settings);
// "not measured: the results have no storage/checkpoint_write or storage/checkpoint_read records
// (run --suite storage --cases checkpoint_write,checkpoint_read, and collectives/communicator_init
// for the restart's start-up)".
std::string goodput_not_measured(const ResultsFile& results, const UsefulWorkSettings& settings);

struct GoodputAtScale {
  int gpus = 0;
  double checkpoint_s = 0, restore_s = 0, init_s = 0, overhead_s = 0;
  GoodputEstimate estimate;
  PricingBasis basis; // parts "checkpoint", "restore", "start-up", "scheduling"
  bool extrapolated = false;
  bool measured = false; // every part measured at this count
};

GoodputAtScale goodput_at_scale(const GoodputSources& sources, int gpus,
                                const UsefulWorkSettings& settings);

// "81.0 % scaling efficiency x 94.0 % goodput (a checkpoint every 38m 00s blocking 41s; restart
// 6m 00s; a failure every 6h 06m 00s) = 76.1 % useful work"
std::string useful_work_text(double efficiency, const GoodputAtScale& g);
// {"gpus", "checkpoint_s", "restore_s", "startup_s", "overhead_s", "restart_s", "mtbf_s",
// "interval_s", "goodput", "lost", "progress", "measured", "extrapolated", "rests_on"}, and
// "efficiency" and "useful_work" where an efficiency is given.
nlohmann::json goodput_at_scale_to_json(const GoodputAtScale& g,
                                        std::optional<double> efficiency = std::nullopt);

} // namespace cb
