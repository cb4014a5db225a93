#include "runtime/run_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/duration.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/units.hpp"
#include "results/results_io.hpp"
#include "runtime/case.hpp"
#include "runtime/dtype.hpp"
#include "runtime/family.hpp"
#include "runtime/family_option.hpp"

namespace cb {

namespace {

// Every axis with a family flag, once per flag, in the registry's order (compute, links,
// collectives, storage, workload), with the suite it belongs to.
struct FlaggedAxis {
  std::string suite;
  Axis axis;
};

std::vector<FlaggedAxis> flagged_axes() {
  std::vector<FlaggedAxis> out;
  for (const auto& c : CaseRegistry::instance().create_all()) {
    for (const auto& a : c->axes()) {
      if (a.flag.empty())
        continue;
      const bool known = std::any_of(out.begin(), out.end(),
                                     [&](const FlaggedAxis& f) { return f.axis.flag == a.flag; });
      if (!known)
        out.push_back({c->suite(), a});
    }
  }
  return out;
}

// LOW:HIGH:FACTOR of a range default ("8:64M:2"), as typed.
struct RangeText {
  std::string low, high, factor;
};

RangeText range_text(const std::string& text) {
  RangeText r;
  const auto a = text.find(':');
  const auto b = text.find(':', a + 1);
  r.low = text.substr(0, a);
  r.high = text.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  r.factor = b == std::string::npos ? "2" : text.substr(b + 1);
  return r;
}

std::string with_quick(const std::string& value, const std::string& quick) {
  return quick == value ? value : value + "; --quick " + quick;
}

// The three flags nccl-tests users know (-b/-e/-f) spell one range axis: its declaration is the
// one whose family flag is --min-bytes.
void add_range_flags(ArgParser& p, const FlaggedAxis& f) {
  const RangeText all = range_text(f.axis.default_text(false, false));
  const RangeText quick = range_text(f.axis.default_text(false, true));
  p.option("min-bytes", "SIZE", "smallest message (default " + with_quick(all.low, quick.low) + ")")
      .option("max-bytes", "SIZE",
              "largest message (default " + with_quick(all.high, quick.high) + ")")
      .option("step-factor", "F",
              "size multiplier between steps, > 1 (default " +
                  with_quick(all.factor, quick.factor) + ")");
}

// Each family's flags under its name, in the families' order: the axes its cases let a flag spell,
// then its scalar options, each help line generated from the declaration.
void add_family_flags(ArgParser& p) {
  const std::vector<FlaggedAxis> axes = flagged_axes();
  for (const auto& family : FamilyRegistry::instance().all()) {
    const std::vector<const OptionDeclaration*> options = family->options();
    const bool has_axes = std::any_of(
        axes.begin(), axes.end(), [&](const FlaggedAxis& f) { return f.suite == family->suite(); });
    if (!has_axes && options.empty())
      continue;
    p.heading(family->suite() + " options");
    for (const auto& f : axes) {
      if (f.suite != family->suite())
        continue;
      if (f.axis.flag == "min-bytes")
        add_range_flags(p, f);
      else
        p.option(f.axis.flag, "LIST",
                 f.axis.help + ", " + f.axis.type_summary() + " (default " +
                     f.axis.default_summary() + ")");
    }
    for (const OptionDeclaration* o : options) {
      if (o->kind() == OptionKind::flag)
        p.flag(o->name(), o->help_line());
      else
        p.option(o->name(), o->placeholder(), o->help_line());
    }
  }
}

} // namespace

ArgParser run_argument_parser(const std::string& command) {
  ArgParser p("clusterbench " + command, "clusterbench " + command + " [options]");
  p.option("suite", "LIST",
           "families to run: compute,links,collectives,storage,workload (default: all)")
      .option("cases", "LIST", "cases within them, e.g. all_reduce,broadcast (default: all)")
      .option("gpus", "LIST|auto",
              "GPU counts to sweep, e.g. 1,2,4 (default auto: powers of two, "
              "filling a node first, then whole nodes)")
      .option("backend", "NAME", "auto|host|cuda (default auto: cuda when a GPU is visible)")
      .flag("quick", "a short profile: fewer sizes, shorter sampling (smoke tests, CI)")
      .option("out", "FILE", "results file (default results/<UTC timestamp>-<host>.json)")
      .option("np", "N",
              "ranks to launch when not started under MPI (default: one per device: "
              "physical cores on the host backend, GPUs on cuda)")
      .flag("single-process",
            "one process drives every local device, a thread per device, without mpirun or MPI "
            "(a quick single-node check; --np sets the threads)")
      .option("timeout", "SECONDS",
              "abort the job (exit 3) if a record makes no progress for this long: a pair test's "
              "round, any other record whole (default 600)")
      .option("axis", "[CASE.]NAME=VALUES",
              "set an axis of every selected case that has it (or of CASE only), e.g. "
              "dtype=float,double or bytes=1K:1G:4 (LOW:HIGH[:FACTOR]); repeatable; see --list")
      .flag("list", "print every selected case with its axes, defaults and the instances this "
                    "run would make, and exit");
  p.option("target-cv", "FRACTION",
           "stop sampling when the spread of the batch times (MAD / median) falls to this "
           "(default 0.01)")
      .option("max-time", "SECONDS", "sampling cap per record; records that hit it are 'noisy'")
      .option("budget", "DURATION",
              "plan the sweep to fit, e.g. 15m, 900s, 1h (fewer sizes at the counts between one "
              "node and the job, then shorter caps); refused when even the smallest plan does not")
      .option("plan-spec", "NAME|FILE",
              "spec whose data-sheet figures the plan's time model uses on cuda (default h200-sxm)")
      .option("plan-link", "RATE",
              "inter-node bandwidth per rank the plan assumes, e.g. 400gbit, 25gbit, 1gbit or "
              "50GB (per second; default: --plan-from's, else measured by run before its sweep "
              "when the job spans nodes, else the backend model's, host 1 GB/s, cuda 45 GB/s)")
      .option("plan-from", "RESULTS.json",
              "an earlier run's results of this cluster: the plan takes its link rate across "
              "nodes from it (pair_bw direction=uni, else ring_bw; --plan-link wins)");
  add_family_flags(p);
  p.epilog(
      "Not started under MPI, run re-executes itself through mpirun with one rank per device and\n"
      "prints the command; under mpirun or srun it runs as it is; with --single-process it runs\n"
      "its ranks as threads of this process. Exit codes: 0 ok, 1 a data check failed, 2 bad\n"
      "input, 3 the run failed (finished records are kept).");
  return p;
}

namespace {

std::vector<std::string> checked_list(const ArgParser& args, const std::string& flag,
                                      const std::vector<std::string>& allowed,
                                      const std::string& what) {
  std::vector<std::string> items = split_list(*args.get(flag), "--" + flag);
  for (const auto& item : items) {
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
      throw InputError("--" + flag + ": unknown " + what + " '" + shown(item) +
                       "' (allowed: " + join(allowed, ", ") + ")");
    }
  }
  return items;
}

// In (0, max]: the bound keeps a figure such as --timeout 1e308 from overflowing the clocks it
// is turned into.
double positive_number(const ArgParser& args, const std::string& flag, double max) {
  const double v = parse_number(*args.get(flag), "--" + flag);
  if (v <= 0 || v > max) {
    throw InputError("--" + flag + ": must be greater than 0 and at most " +
                     format_figure_compact(max, 6) + ", got " + shown(*args.get(flag)));
  }
  return v;
}

// Seconds a whole run may be given (a week): past it a figure is a typo, not a plan.
constexpr double kMaxRunSeconds = 7 * 24 * 3600.0;

// --min-bytes/--max-bytes/--step-factor as one range setting of the axis they spell; the parts
// not given come from its default (for this profile). A --min-bytes above the default largest
// size alone moves the largest size up to it.
void collect_range_setting(const ArgParser& args, const FlaggedAxis& f, RunConfig& c) {
  if (!args.has("min-bytes") && !args.has("max-bytes") && !args.has("step-factor"))
    return;
  const RangeText d = range_text(f.axis.default_text(false, c.quick));
  std::uint64_t low = parse_size(d.low, "--min-bytes"), high = parse_size(d.high, "--max-bytes");
  std::string factor = d.factor;
  if (args.has("min-bytes"))
    low = parse_size(*args.get("min-bytes"), "--min-bytes");
  if (args.has("max-bytes"))
    high = parse_size(*args.get("max-bytes"), "--max-bytes");
  if (args.has("min-bytes") && !args.has("max-bytes") && low > high)
    high = low;
  if (low > high) {
    throw InputError("--min-bytes: " + format_size(low) + " is larger than --max-bytes " +
                     format_size(high));
  }
  if (args.has("step-factor")) {
    const double v = parse_number(*args.get("step-factor"), "--step-factor");
    if (v <= 1 || v > 1024) {
      throw InputError("--step-factor: must be greater than 1 and at most 1024, got " +
                       shown(*args.get("step-factor")));
    }
    factor = *args.get("step-factor");
  }
  const std::string flag = args.has("min-bytes")   ? "--min-bytes"
                           : args.has("max-bytes") ? "--max-bytes"
                                                   : "--step-factor";
  c.axis_settings.push_back({flag, "", "", std::to_string(low) + ":" + std::to_string(high) +
                                               ":" + factor, "--min-bytes"});
}

// The family flags and every --axis, in the order given; their values are checked once every
// flag is read (check_axis_settings), against the cases the run selects.
void collect_axis_settings(const ArgParser& args, RunConfig& c) {
  for (const auto& f : flagged_axes()) {
    if (f.axis.flag == "min-bytes") {
      collect_range_setting(args, f, c);
    } else if (args.has(f.axis.flag)) {
      c.axis_settings.push_back({"--" + f.axis.flag, "", "", *args.get(f.axis.flag), ""});
    }
  }
  for (const auto& text : args.get_all("axis"))
    c.axis_settings.push_back(parse_axis_flag(text));
}

// Every family's options given, each parsed by its declaration (one line naming the flag for a bad
// value).
void collect_family_options(const ArgParser& args, RunConfig& c) {
  for (const auto& family : FamilyRegistry::instance().all()) {
    for (const OptionDeclaration* o : family->options()) {
      if (args.has(o->name()))
        c.options[o->name()] = o->parse(o->kind() == OptionKind::flag ? "" : *args.get(o->name()));
    }
  }
}

} // namespace

RunConfig run_config_from(const ArgParser& args) {
  RunConfig c;
  const CaseRegistry& registry = CaseRegistry::instance();
  c.quick = args.has("quick");
  if (c.quick)
    c.measure = quick_measure_settings();
  if (args.has("suite"))
    c.suites = checked_list(args, "suite", registry.suites(), "suite");
  if (args.has("cases")) {
    std::vector<std::string> known;
    for (const auto& suite : registry.suites()) {
      if (!c.wants_suite(suite))
        continue;
      for (const auto& name : registry.case_names(suite))
        known.push_back(name);
    }
    c.cases = checked_list(args, "cases", known, "case for the chosen suites");
  }
  if (args.has("gpus")) {
    c.gpus = *args.get("gpus");
    if (c.gpus != "auto") {
      // Syntax and order now; the upper bound once the world size is known.
      parse_gpu_counts_syntax(c.gpus);
    }
  }
  c.backend = args.get_or("backend", "auto");
  c.backend_kind = backend_kind_named(c.backend);
  if (args.has("np")) {
    const long long np = parse_integer(*args.get("np"), "--np");
    if (np < 1 || np > 1'000'000)
      throw InputError("--np: must be 1..1000000, got " + shown(*args.get("np")));
    c.np = static_cast<int>(np);
  }
  c.single_process = args.has("single-process");
  if (args.has("timeout"))
    c.timeout_s = positive_number(args, "timeout", kMaxRunSeconds);
  collect_axis_settings(args, c);
  collect_family_options(args, c);
  if (args.has("target-cv"))
    c.measure.target_cv = positive_number(args, "target-cv", 10);
  if (args.has("max-time"))
    c.measure.max_time_s = positive_number(args, "max-time", kMaxRunSeconds);
  c.out = args.get_or("out", "");
  if (args.has("budget"))
    c.budget_s = parse_duration(*args.get("budget"), "--budget");
  c.plan_spec = args.get_or("plan-spec", "");
  if (args.has("plan-link")) {
    c.plan_link_text = *args.get("plan-link");
    c.plan_link_bps = parse_link_rate(c.plan_link_text, "--plan-link");
    c.plan_link_source = "--plan-link " + shown(c.plan_link_text, 40);
  }
  c.plan_from = args.get_or("plan-from", "");
  if (args.has("plan-from") && c.plan_from.empty())
    throw InputError("--plan-from: expected a results file, got an empty name");
  // Last: every axis value is checked against the cases this run selected.
  std::vector<std::unique_ptr<BenchmarkCase>> selected;
  for (auto& bc : registry.create_all()) {
    if (c.wants_case(bc->suite(), bc->name()))
      selected.push_back(std::move(bc));
  }
  check_axis_settings(c, selected);
  return c;
}

void check_output_path(const std::string& path, bool is_default) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (is_default)
    fs::create_directories(dir, ec);
  // Never a device, FIFO, socket or directory (the rule every written file follows).
  check_output_target(path, "--out");
  refuse_foreign_file(path, "--out", OwnFile::results);
  if (!fs::is_directory(dir, ec)) {
    throw InputError("--out: directory '" + dir.string() + "' does not exist");
  }
  // A file really created and removed: access(W_OK) says yes to root on a read-only mount or in
  // /proc, where the results could never be written.
  std::string probe = (dir / ("." + target.filename().string() + ".probe-XXXXXX")).string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) {
    throw InputError("--out: cannot write in '" + dir.string() + "' (" + std::strerror(errno) +
                     ")");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

} // namespace cb
