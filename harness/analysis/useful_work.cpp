#include "analysis/useful_work.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

#include "analysis/least_squares.hpp"
#include "analysis/record_values.hpp"
#include "core/duration.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/units.hpp"
#include "results/params_text.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

// A figure past a day is a typo or a broken clock, not a checkpoint or a start-up.
constexpr double kMaxFigureS = 24 * 3600.0;
// The model's own bound on C and R (goodput.cpp): an extrapolation is held there.
constexpr double kMaxModelS = 7 * 24 * 3600.0;

const char* kWrite = "checkpoint_write";
const char* kStage = "checkpoint_stage";
const char* kRead = "checkpoint_read";
const char* kInit = "communicator_init";

std::string gpus_text(int n) {
  return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

std::string percent(double share) {
  return format_percent_fixed(share);
}

std::string range_text(const std::map<int, double>& s) {
  const int lo = s.begin()->first, hi = s.rbegin()->first;
  return lo == hi ? gpus_text(hi) : std::to_string(lo) + ".." + gpus_text(hi);
}

// The record's figure in seconds, refused naming the file, the record and the field when it is
// not a positive time of at most a day.
std::optional<double> figure_s(const Record& r, const std::string& field, const std::string& source,
                               std::size_t index) {
  const auto it = r.metrics.find(field);
  if (it == r.metrics.end())
    return std::nullopt;
  const double us = it->is_number() ? it->get<double>() : -1;
  if (!(std::isfinite(us) && us > 0 && us * 1e-6 <= kMaxFigureS)) {
    throw InputError(shown(source, 120) + ": record " + std::to_string(index) + " (" + r.suite +
                     "/" + r.case_name + " on " + gpus_text(r.gpus) + "): metrics." + field +
                     " must be a time above 0 and at most a day (86400000000 us), got " +
                     shown(it->dump(), 40));
  }
  return us * 1e-6;
}

// One case's usable records as series, one per configuration (params without the GPU count).
std::vector<MeasuredSeries> series_of(const ResultsFile& results, const std::string& source,
                                      const std::string& suite, const std::string& name) {
  std::map<std::string, MeasuredSeries> by_params;
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    const Record& r = results.records[i];
    if (r.suite != suite || r.case_name != name || !is_usable(r) || r.gpus < 1)
      continue;
    // The cold figure is a restart's; a record without one gives its steady time.
    std::string metric = "time_us";
    std::optional<double> s;
    if (name == kInit && (s = figure_s(r, "cold_time_us", source, i)))
      metric = "cold_time_us";
    else
      s = figure_s(r, "time_us", source, i);
    if (!s)
      continue;
    MeasuredSeries& series = by_params[r.params.dump()];
    if (series.name.empty()) {
      series.label = describe_params(r.params);
      if (const auto it = r.params.find("checkpoint_bytes");
          it != r.params.end() && it->is_number())
        series.checkpoint_bytes = it->get<double>();
    }
    series.name = suite + "/" + name;
    if (metric == "cold_time_us" || series.seconds.empty())
      series.metric = metric;           // a cold figure anywhere in it makes it the cold series
    series.seconds.emplace(r.gpus, *s); // the first record at a count
  }
  std::vector<MeasuredSeries> out;
  for (auto& [key, series] : by_params)
    out.push_back(std::move(series));
  return out;
}

// The configuration measured at the most counts; on a tie the fastest at its largest count.
std::optional<MeasuredSeries> best(std::vector<MeasuredSeries> all) {
  if (all.empty())
    return std::nullopt;
  return *std::min_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
    if (a.seconds.size() != b.seconds.size())
      return a.seconds.size() > b.seconds.size();
    return a.seconds.rbegin()->second < b.seconds.rbegin()->second;
  });
}

// The restore's configuration: among those of the checkpoint's size where there are any.
MeasuredSeries pick_restore(std::vector<MeasuredSeries> reads, const MeasuredSeries& checkpoint,
                            std::vector<std::string>& notes) {
  const auto size = checkpoint.checkpoint_bytes;
  std::vector<MeasuredSeries> same;
  for (const auto& r : reads) {
    if (size && r.checkpoint_bytes == size)
      same.push_back(r);
  }
  if (same.empty()) {
    notes.push_back("the restore (" + reads.front().name +
                    ") was not measured with the checkpoint's size; its own configuration is "
                    "used");
    return *best(std::move(reads));
  }
  return *best(std::move(same));
}

struct PartFigure {
  double seconds = 0;
  BasisItem item;
};

// C or the restore at `gpus`: measured, interpolated, or held beyond the largest count.
PartFigure held_or_interpolated(const MeasuredSeries& s, const std::string& part, int gpus) {
  const std::string what = s.name + " (" + s.label + ")";
  if (auto it = s.seconds.find(gpus); it != s.seconds.end())
    return {it->second, {part, what + " measured at " + gpus_text(gpus)}};
  const auto above = s.seconds.upper_bound(gpus);
  if (above == s.seconds.end()) {
    const auto& [n, v] = *s.seconds.rbegin();
    return {v,
            {part,
             what + " measured at " + gpus_text(n) +
                 ", held: the checkpoint assumed to move no "
                 "faster with more ranks, extrapolated",
             false, true}};
  }
  if (above == s.seconds.begin()) {
    return {above->second,
            {part, what + " measured at " + gpus_text(above->first) + ", held below it"}};
  }
  const auto below = std::prev(above);
  const double t = static_cast<double>(gpus - below->first) / (above->first - below->first);
  return {below->second + t * (above->second - below->second),
          {part, what + " interpolated between " + std::to_string(below->first) + " and " +
                     gpus_text(above->first)}};
}

PartFigure startup_at(const GoodputSources& src, int gpus) {
  if (!src.init) {
    return {0,
            {"start-up",
             "collectives/communicator_init not measured: left out (run --suite collectives "
             "--cases communicator_init)"}};
  }
  const MeasuredSeries& s = *src.init;
  const std::string what =
      s.name + (s.metric == "cold_time_us" ? "'s first (cold) creation" : "'s steady creation");
  if (auto it = s.seconds.find(gpus); it != s.seconds.end())
    return {it->second, {"start-up", what + " measured at " + gpus_text(gpus)}};
  const bool beyond = gpus > s.seconds.rbegin()->first;
  if (!src.init_line) {
    const auto& [n, v] = *s.seconds.rbegin();
    return {v, {"start-up", what + " measured at " + gpus_text(n) + ", held", false, beyond}};
  }
  const auto [a, b] = *src.init_line;
  const std::string line =
      " " + format_figure_compact(a) + " s + " + format_figure_compact(b) + " s x N fitted on ";
  return {std::min(kMaxModelS, a + b * gpus),
          {"start-up", what + line + range_text(s.seconds) + (beyond ? ", extrapolated" : ""),
           false, beyond}};
}

} // namespace

double parse_gpu_mtbf_hours(const std::string& text) {
  const double h = parse_number(text, "--gpu-mtbf-hours");
  if (!(h > 0 && h <= 1e9)) {
    throw InputError("--gpu-mtbf-hours: one GPU's mean time between failures must be greater "
                     "than 0 and at most 1e9 hours, got " +
                     shown(text, 40));
  }
  return h;
}

bool parse_checkpoint_mode(const std::string& text) {
  if (text == "sync" || text == "async")
    return text == "async";
  throw InputError("--checkpoint-mode: sync or async, got " + shown(text, 40));
}

double parse_restart_overhead(const std::string& text) {
  const double s = parse_number(text, "--restart-overhead");
  if (!(s >= 0 && s <= kMaxFigureS)) {
    throw InputError("--restart-overhead: seconds of scheduling and process start, 0 to 86400, "
                     "got " +
                     shown(text, 40));
  }
  return s;
}

void declare_useful_work_flags(ArgParser& args, const std::string& prefix) {
  args.option("gpu-mtbf-hours", "H",
              prefix + "goodput: one GPU's mean time between failures, in hours (default 50677: "
                       "Llama 3's 419 interruptions in 54 days on 16,384 GPUs)")
      .option("checkpoint-mode", "sync|async",
              prefix + "goodput: what a checkpoint blocks for: sync, the save "
                       "(storage/checkpoint_write, the default), or async, the snapshot into "
                       "host memory (storage/checkpoint_stage)")
      .option("restart-overhead", "S",
              prefix + "goodput: seconds of scheduling and process start added to each restart "
                       "(default 0: nothing here measures them)");
}

UsefulWorkSettings read_useful_work_flags(const ArgParser& args) {
  UsefulWorkSettings s;
  if (auto v = args.get("gpu-mtbf-hours"))
    s.gpu_mtbf_hours = parse_gpu_mtbf_hours(*v);
  if (auto v = args.get("checkpoint-mode"))
    s.async = parse_checkpoint_mode(*v);
  if (auto v = args.get("restart-overhead"))
    s.restart_overhead_s = parse_restart_overhead(*v);
  return s;
}

std::vector<std::string> useful_work_flags_given(const ArgParser& args) {
  std::vector<std::string> out;
  for (const char* flag : {"gpu-mtbf-hours", "checkpoint-mode", "restart-overhead"}) {
    if (args.has(flag))
      out.push_back(std::string("--") + flag);
  }
  return out;
}

std::vector<int> GoodputSources::measured_gpus() const {
  std::set<int> all;
  for (const MeasuredSeries* s : {&checkpoint, &restore})
    for (const auto& [n, v] : s->seconds)
      all.insert(n);
  if (init)
    for (const auto& [n, v] : init->seconds)
      all.insert(n);
  return {all.begin(), all.end()};
}

std::optional<GoodputSources> goodput_sources(const ResultsFile& results, const std::string& source,
                                              const UsefulWorkSettings& settings) {
  GoodputSources src;
  src.source = source;
  // Every figure is checked, whichever configuration is used: a bad one is refused either way.
  auto checkpoints =
      series_of(results, source, suite_names::kStorage, settings.async ? kStage : kWrite);
  auto reads = series_of(results, source, suite_names::kStorage, kRead);
  auto inits = series_of(results, source, suite_names::kCollectives, kInit);
  series_of(results, source, suite_names::kStorage, settings.async ? kWrite : kStage);
  if (checkpoints.empty() || reads.empty())
    return std::nullopt;
  src.checkpoint = *best(std::move(checkpoints));
  src.restore = pick_restore(std::move(reads), src.checkpoint, src.notes);
  src.init = best(std::move(inits));
  if (src.init && src.init->seconds.size() >= 2) {
    std::vector<double> ones, n, y;
    for (const auto& [gpus, s] : src.init->seconds) {
      ones.push_back(1);
      n.push_back(gpus);
      y.push_back(s);
    }
    if (auto fit = nonnegative_least_squares({ones, n}, y))
      src.init_line = std::make_pair(fit->coef[0], fit->coef[1]);
  }
  return src;
}

std::string goodput_not_measured(const ResultsFile& results, const UsefulWorkSettings& settings) {
  const std::string checkpoint = settings.async ? kStage : kWrite;
  std::vector<std::string> missing;
  for (const std::string& name : {checkpoint, std::string(kRead)}) {
    const bool found = std::any_of(results.records.begin(), results.records.end(), [&](auto& r) {
      return r.suite == suite_names::kStorage && r.case_name == name && is_usable(r);
    });
    if (!found)
      missing.push_back(name);
  }
  std::string names;
  for (const auto& m : missing)
    names += (names.empty() ? "" : ",") + m;
  return "not measured: the results have no usable storage/" +
         (missing.size() == 2 ? missing[0] + " or storage/" + missing[1] : missing.front()) +
         " records (run --suite storage --cases " + names +
         ", and --suite collectives --cases communicator_init for the restart's start-up)";
}

GoodputAtScale goodput_at_scale(const GoodputSources& src, int gpus,
                                const UsefulWorkSettings& settings) {
  GoodputAtScale g;
  g.gpus = gpus;
  const PartFigure c = held_or_interpolated(src.checkpoint, "checkpoint", gpus);
  PartFigure r = held_or_interpolated(src.restore, "restore", gpus);
  for (const auto& note : src.notes)
    r.item.basis += "; " + note;
  const PartFigure init = startup_at(src, gpus);
  g.checkpoint_s = c.seconds;
  g.restore_s = r.seconds;
  g.init_s = init.seconds;
  g.overhead_s = settings.restart_overhead_s;
  g.basis.gpus = gpus;
  g.basis.items = {c.item, r.item, init.item};
  g.basis.items.push_back(
      {"scheduling",
       settings.restart_overhead_s > 0
           ? "assumed: --restart-overhead " + format_budget(g.overhead_s)
           : "not included (nothing here measures scheduling and process start; "
             "--restart-overhead S adds them)",
       settings.restart_overhead_s > 0});
  g.extrapolated = c.item.extrapolated || r.item.extrapolated || init.item.extrapolated;
  g.measured = src.checkpoint.seconds.count(gpus) && src.restore.seconds.count(gpus) &&
               (!src.init || src.init->seconds.count(gpus));
  GoodputInputs in;
  in.gpus = gpus;
  in.gpu_mtbf_hours = settings.gpu_mtbf_hours;
  in.checkpoint_s = std::min(kMaxModelS, g.checkpoint_s);
  in.restart_s = std::min(kMaxModelS, g.restore_s + g.init_s + g.overhead_s);
  g.estimate = estimate_goodput(in);
  return g;
}

std::string useful_work_text(double efficiency, const GoodputAtScale& g) {
  const GoodputEstimate& e = g.estimate;
  std::string text = percent(efficiency) + " scaling efficiency x " + percent(e.goodput) +
                     " goodput (a checkpoint every " + format_budget(e.interval_s) + " blocking " +
                     format_budget(e.inputs.checkpoint_s) + "; restart " +
                     format_budget(e.inputs.restart_s) + "; a failure every " +
                     format_budget(e.mtbf_s);
  if (!e.progresses)
    text += "; a checkpoint or restart as long as that: no useful progress";
  return text + ") = " + percent(efficiency * e.goodput) + " useful work";
}

nlohmann::json goodput_at_scale_to_json(const GoodputAtScale& g, std::optional<double> efficiency) {
  nlohmann::json out = goodput_to_json(g.estimate);
  out["restore_s"] = g.restore_s;
  out["startup_s"] = g.init_s;
  out["overhead_s"] = g.overhead_s;
  out["measured"] = g.measured;
  out["extrapolated"] = g.extrapolated;
  out["rests_on"] = basis_to_json(g.basis);
  if (efficiency) {
    out["efficiency"] = *efficiency;
    out["useful_work"] = *efficiency * g.estimate.goodput;
  }
  return out;
}

} // namespace cb
