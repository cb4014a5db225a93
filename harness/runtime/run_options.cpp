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
#include "core/units.hpp"
#include "results/results_io.hpp"
#include "runtime/case.hpp"
#include "runtime/dtype.hpp"

namespace cb {

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
              "abort the job (exit 3) if one record takes longer (default 600)")
      .option("min-bytes", "SIZE", "collectives: smallest message (default 8)")
      .option("max-bytes", "SIZE", "collectives: largest message (default 64M; --quick 2M)")
      .option("step-factor", "F",
              "collectives: size multiplier between steps, > 1 (default 2; "
              "--quick 8)")
      .option("dtypes", "LIST", "collectives: float,double,int32,bf16,fp16 (default float)")
      .option("ops", "LIST", "collectives: reductions sum,min,max (default sum)")
      .option("placement", "WHICH",
              "collectives: both|out|in, out-of-place and/or in-place "
              "(default both)")
      .flag("cuda-graph",
            "collectives: time each batch of k operations as one captured CUDA graph launch "
            "(nccl-tests -G) instead of k stream launches; cuda backend only")
      .option("target-cv", "FRACTION", "stop sampling at this relative stddev (default 0.01)")
      .option("max-time", "SECONDS", "sampling cap per record; records that hit it are 'noisy'")
      .option("array-bytes", "SIZE", "compute: array size per rank (default 4 x last-level cache)")
      .option("gemm-sizes", "LIST", "compute: square GEMM sizes (default 1024,2048,4096)")
      .option("storage-dir", "DIR",
              "storage: directory of clusterbench's files (default "
              "<tmp>/clusterbench-storage)")
      .option("block-sizes", "LIST", "storage: read sizes, e.g. 4K,64K,1M,16M (default 1M)")
      .option("queue-depth", "N", "storage: reads in flight per rank (default 1)")
      .option("file-bytes", "SIZE", "storage: file size per rank")
      .flag("buffered", "storage: read through the page cache instead of O_DIRECT")
      .flag("cleanup", "storage: remove clusterbench's files afterwards")
      .option("pairs", "HOW",
              "links: rounds (default: all disjoint pairs of a round at once, n-1 rounds) or "
              "sequential (one pair at a time, to isolate congestion)")
      .option("model-params", "COUNT",
              "workload: parameters of the model trained, e.g. 16M (default: a step of "
              "~0.1-1 s on one core; on GPUs 2 transformer layers of hidden 8192, 1.6G)")
      .option("tokens-per-gpu", "COUNT",
              "workload: tokens per GPU per step (default 256; on GPUs 8192)")
      .option("bucket-bytes", "SIZE", "workload: gradient all-reduce bucket (default 25M, as DDP)")
      .option("prefetch", "N", "workload: batches the loader reads ahead (default 2)")
      .option("input-bytes-per-step", "SIZE",
              "workload: input each GPU reads per step from --storage-dir (default 0: none)")
      .option("overlap", "on|off",
              "workload: all-reduce each bucket during backward (on, default) or after it")
      .option("budget", "DURATION",
              "plan the sweep to fit, e.g. 15m, 900s, 1h (fewer sizes at the counts between one "
              "node and the job, then shorter caps); refused when even the smallest plan does not")
      .option(
          "plan-spec", "NAME|FILE",
          "spec whose data-sheet figures the plan's time model uses on cuda (default h200-sxm)");
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
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", max);
    throw InputError("--" + flag + ": must be greater than 0 and at most " + limit + ", got " +
                     shown(*args.get(flag)));
  }
  return v;
}

// Seconds a whole run may be given (a week): past it a figure is a typo, not a plan.
constexpr double kMaxRunSeconds = 7 * 24 * 3600.0;

} // namespace

RunConfig run_config_from(const ArgParser& args) {
  RunConfig c;
  const CaseRegistry& registry = CaseRegistry::instance();
  c.quick = args.has("quick");
  if (c.quick) {
    c.measure = quick_measure_settings();
    c.max_bytes = 2ull << 20;
    c.step_factor = 8;
  }
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
  if (args.has("np")) {
    const long long np = parse_integer(*args.get("np"), "--np");
    if (np < 1 || np > 1'000'000)
      throw InputError("--np: must be 1..1000000, got " + shown(*args.get("np")));
    c.np = static_cast<int>(np);
  }
  c.single_process = args.has("single-process");
  if (args.has("timeout"))
    c.timeout_s = positive_number(args, "timeout", kMaxRunSeconds);
  if (args.has("min-bytes"))
    c.min_bytes = parse_size(*args.get("min-bytes"), "--min-bytes");
  if (args.has("max-bytes"))
    c.max_bytes = parse_size(*args.get("max-bytes"), "--max-bytes");
  if (args.has("min-bytes") && !args.has("max-bytes") && c.min_bytes > c.max_bytes) {
    c.max_bytes = c.min_bytes;
  }
  if (c.min_bytes > c.max_bytes) {
    throw InputError("--min-bytes: " + format_size(c.min_bytes) + " is larger than --max-bytes " +
                     format_size(c.max_bytes));
  }
  if (args.has("step-factor")) {
    c.step_factor = parse_number(*args.get("step-factor"), "--step-factor");
    if (c.step_factor <= 1 || c.step_factor > 1024) {
      throw InputError("--step-factor: must be greater than 1 and at most 1024, got " +
                       shown(*args.get("step-factor")));
    }
  }
  if (args.has("dtypes")) {
    c.dtypes = split_list(*args.get("dtypes"), "--dtypes");
    for (const auto& d : c.dtypes)
      dtype_from_name(d);
  }
  if (args.has("ops")) {
    c.ops = split_list(*args.get("ops"), "--ops");
    for (const auto& o : c.ops)
      reduce_op_from_name(o);
  }
  if (args.has("placement")) {
    const std::string p = *args.get("placement");
    if (p == "both") {
      c.in_place = {false, true};
    } else if (p == "out") {
      c.in_place = {false};
    } else if (p == "in") {
      c.in_place = {true};
    } else {
      throw InputError("--placement: expected both, out or in, got '" + shown(p) + "'");
    }
  }
  c.cuda_graph = args.has("cuda-graph");
  if (args.has("target-cv"))
    c.measure.target_cv = positive_number(args, "target-cv", 10);
  if (args.has("max-time"))
    c.measure.max_time_s = positive_number(args, "max-time", kMaxRunSeconds);
  if (args.has("array-bytes"))
    c.array_bytes = parse_size(*args.get("array-bytes"), "--array-bytes");
  if (args.has("gemm-sizes")) {
    for (const auto& item : split_list(*args.get("gemm-sizes"), "--gemm-sizes")) {
      const long long n = parse_integer(item, "--gemm-sizes");
      if (n < 1 || n > 65536)
        throw InputError("--gemm-sizes: sizes must be 1..65536, got " + shown(item));
      c.gemm_sizes.push_back(static_cast<int>(n));
    }
  }
  c.storage_dir = args.get_or("storage-dir", "");
  if (args.has("block-sizes")) {
    c.block_sizes.clear();
    for (const auto& item : split_list(*args.get("block-sizes"), "--block-sizes")) {
      c.block_sizes.push_back(parse_size(item, "--block-sizes"));
    }
  }
  if (args.has("queue-depth")) {
    const long long qd = parse_integer(*args.get("queue-depth"), "--queue-depth");
    if (qd < 1 || qd > 1024)
      throw InputError("--queue-depth: must be 1..1024, got " + shown(*args.get("queue-depth")));
    c.queue_depth = static_cast<int>(qd);
  }
  if (args.has("file-bytes"))
    c.file_bytes = parse_size(*args.get("file-bytes"), "--file-bytes");
  c.buffered = args.has("buffered");
  c.cleanup = args.has("cleanup");
  if (args.has("model-params")) {
    c.model_params = parse_count(*args.get("model-params"), "--model-params");
    if (!(c.model_params >= 1))
      throw InputError("--model-params: must be at least 1, got " + *args.get("model-params"));
  }
  if (args.has("tokens-per-gpu")) {
    c.tokens_per_gpu = parse_count(*args.get("tokens-per-gpu"), "--tokens-per-gpu");
    if (!(c.tokens_per_gpu >= 1) || c.tokens_per_gpu > 1e9) {
      throw InputError("--tokens-per-gpu: must be 1..1e9, got " + *args.get("tokens-per-gpu"));
    }
  }
  if (args.has("bucket-bytes"))
    c.bucket_bytes = parse_size(*args.get("bucket-bytes"), "--bucket-bytes");
  if (args.has("prefetch")) {
    const long long n = parse_integer(*args.get("prefetch"), "--prefetch");
    if (n < 1 || n > 64)
      throw InputError("--prefetch: must be 1..64 batches, got " + *args.get("prefetch"));
    c.prefetch = static_cast<int>(n);
  }
  if (args.has("input-bytes-per-step")) {
    // 0 means no input reads (parse_size refuses 0, as a size of nothing elsewhere is a mistake).
    const std::string text = *args.get("input-bytes-per-step");
    c.input_bytes_per_step = text.find_first_not_of('0') == std::string::npos && !text.empty()
                                 ? 0
                                 : parse_size(text, "--input-bytes-per-step");
  }
  const std::string overlap = args.get_or("overlap", "on");
  if (overlap != "on" && overlap != "off")
    throw InputError("--overlap: expected on or off, got '" + overlap + "'");
  c.overlap = overlap == "on";
  c.out = args.get_or("out", "");
  c.pairs = args.get_or("pairs", "rounds");
  if (c.pairs != "rounds" && c.pairs != "sequential")
    throw InputError("--pairs: expected rounds or sequential, got '" + c.pairs + "'");
  if (args.has("budget"))
    c.budget_s = parse_duration(*args.get("budget"), "--budget");
  c.plan_spec = args.get_or("plan-spec", "");
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
