#pragma once
// A benchmark case says *what* to run; the engine (engine.hpp) decides *how* to time it.
//
// Each case is one file that registers itself with CB_REGISTER_CASE and declares its parameters as
// axes (runtime/axis.hpp). For every GPU count of the sweep, the ranks taking part call
// instances() (the parameter sets, by default every combination of the axes' values; the same on
// every rank) and run() for each, collectively; run() returns the records, which rank 0 keeps;
// the console printer of the case's suite formats them (runtime/console_printer.hpp).
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "results/record.hpp"
#include "runtime/axis.hpp"
#include "runtime/backend.hpp"
#include "runtime/communicator.hpp"
#include "runtime/engine.hpp"
#include "runtime/run_config.hpp"
#include "runtime/shared_directory.hpp"
#include "runtime/topology.hpp"

namespace cb {

class Watchdog;

// Adds to a rank's identity `entry` the names an operator finds its GPU by, where `device` (the
// backend's device()) has them: nvidia-smi's index (nvml_index) and the PCI bus id. The CUDA
// ordinal ("device") is 0 on every rank that sees one GPU, and need not be nvidia-smi's order.
void add_gpu_names(const nlohmann::json& device, nlohmann::json& entry);

// Everything a case needs to run at one GPU count.
struct CaseContext {
  Backend& backend;
  const Communicator& comm; // the ranks taking part at this count
  const RunConfig& config;
  const NodeLayout& layout; // of the whole job
  std::vector<int> members; // world ranks taking part, in comm rank order
  Placement placement;
  const std::vector<nlohmann::json>& world_devices; // backend.device() of every world rank
  Watchdog* watchdog = nullptr; // the run's, armed for this record; none in tests

  // A record long by design (a pair test's rounds) calls this after each part: the watchdog's
  // --timeout then bounds a part, not the whole record (runtime/watchdog.hpp).
  void progressing() const;
  // A record with the identity fields filled in: suite, case, params, gpus, nodes, tier.
  Record new_record(const std::string& suite, const std::string& name,
                    const nlohmann::json& params) const;
  // Times `one_op` with the engine and fills samples, stats, status and per-rank figures.
  // `metrics(seconds_per_op, whole)` gives the metrics for the whole group (whole = true) or for
  // one rank's own time (whole = false).
  Measurement measure_into(Record& record, const std::function<void()>& one_op,
                           const std::function<nlohmann::json(double, bool)>& metrics) const;
  // The same, for an operation that times itself: timed_batch(k) returns this rank's seconds.
  Measurement measure_timed_into(Record& record, const std::function<double(int)>& timed_batch,
                                 const std::function<nlohmann::json(double, bool)>& metrics) const;
  // The device's state (power, clocks, temperature, throttling) read before and after a
  // measurement, kept in the record; a record taken while any rank throttled says so in its
  // reason (collective: every member calls it).
  void note_device_state(Record& record, const nlohmann::json& before,
                         const nlohmann::json& after) const;
  // Fills samples, stats, status and per-rank figures from a finished measurement (collective:
  // every member calls it).
  void finish_record(Record& record, const Measurement& m,
                     const std::function<nlohmann::json(double, bool)>& metrics) const;
  // Collectives, after measuring (collective: every member calls it): beside each rank's median
  // in per_rank its p99_s and shortest_share, the raw own samples (at most kRankSamplesCap) of
  // the few ranks ranks_to_keep picks, and, where `name_straggler` (every rank waits for every
  // other), record.straggler when find_straggler names a rank (runtime/straggler.hpp). Rank 0
  // chooses; only the chosen ranks send their samples.
  void add_rank_timing(Record& record, const Measurement& m, bool name_straggler) const;
  // Marks a record skipped with a reason (the same decision on every rank).
  static void skip(Record& record, const std::string& reason);
  // The first non-empty message of the group, prefixed with its rank ("rank 3: ..."), or "" when
  // every member's is empty (collective: every member calls it with its own).
  std::string first_problem(const std::string& mine) const;
};

class BenchmarkCase {
public:
  virtual ~BenchmarkCase() = default;
  virtual std::string suite() const = 0;
  virtual std::string name() const = 0;
  // The case's parameters: name, type, defaults, --quick values, the family flag, help. `run
  // --list`, `run --help`, --axis and the expansion below all read them.
  virtual std::vector<Axis> axes() const { return {}; }
  // The parameter sets of this run: every combination of the axes' values (the first axis
  // outermost), as the settings and defaults give them (runtime/axis_values.hpp). A case whose
  // sets are not a plain product (derived fields, extra shapes) overrides it, starting from
  // axis_product. Pure: it reads the flags and the machine, never fails (check_axis_settings
  // has checked the values before any rank started).
  virtual std::vector<nlohmann::json> instances(const RunConfig& config) const;
  virtual std::vector<Record> run(const CaseContext& ctx, const nlohmann::json& params) = 0;
  // For a case that measures each operation once per GPU count and skips instances that repeat
  // one (collectives: sizes rounded up to whole elements per rank): the operation an instance
  // measures on `ranks` ranks, as its record will say it; the planner counts repeats as skipped.
  // nullopt (the default): every instance is measured, repeated values of an axis included.
  virtual std::optional<nlohmann::json> operation_at(const nlohmann::json& /*params*/,
                                                     int /*ranks*/) const {
    return std::nullopt;
  }
  // Checks the case's options against the machine before anything is measured or written: in the
  // launching process before mpirun (so bad input is one line), and on every rank before the
  // results file is opened, by one rank per node. `node_ranks`: the world ranks of this node,
  // which share its memory and disks (their files are named by them). Throws InputError.
  // Returns what those ranks must still write into a directory other nodes may share (the job
  // sums it over the nodes that do: runtime/shared_directory.hpp), or nullopt.
  virtual std::optional<DirectoryDemand> check_input(const RunConfig& /*config*/,
                                                     const std::vector<int>& /*node_ranks*/) const {
    return std::nullopt;
  }
  // Why the case cannot run at all on this backend in this job (the same answer on every rank;
  // `world` tells MPI ranks from threads), or "" when it can. The sweep then writes one skipped
  // record with the reason instead of one per instance.
  virtual std::string why_not_on(const Backend& /*backend*/, const Communicator& /*world*/) const {
    return "";
  }
  // The fewest ranks the case needs (pairs need 2); smaller counts of the sweep are not run.
  virtual int min_gpus() const { return 1; }
  // Cases that run the backend's collectives (the backend prepares its communicators first).
  virtual bool uses_collectives() const { return false; }
  // Cases that measure every pair in one record run once, at the largest count of the sweep.
  virtual bool largest_count_only() const { return false; }
};

class CaseRegistry {
public:
  using Factory = std::unique_ptr<BenchmarkCase> (*)();
  static CaseRegistry& instance();
  void add(Factory factory);
  // Fresh instances of every registered case, ordered by suite (compute, links, collectives,
  // storage) then registration.
  std::vector<std::unique_ptr<BenchmarkCase>> create_all() const;
  std::vector<std::string> suites() const;
  std::vector<std::string> case_names(const std::string& suite) const;

private:
  std::vector<Factory> factories_;
};

struct CaseRegistration {
  explicit CaseRegistration(CaseRegistry::Factory f) { CaseRegistry::instance().add(f); }
};

} // namespace cb

#define CB_REGISTER_CASE(Type)                                                                     \
  static const ::cb::CaseRegistration CB_CASE_REG_##Type {                                         \
    []() -> std::unique_ptr<::cb::BenchmarkCase> { return std::make_unique<Type>(); }              \
  }
