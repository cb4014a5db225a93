#pragma once
// A benchmark case says *what* to run; the engine (engine.hpp) decides *how* to time it.
//
// Each case is one file that registers itself with CB_REGISTER_CASE and declares its parameters as
// axes (runtime/axis.hpp). For every GPU count of the sweep, the ranks taking part call
// instances() (the parameter sets, by default every combination of the axes' values; the same on
// every rank) and run() for each, collectively; the sweep makes each record and hands it to run()
// in a CaseRun (runtime/case_run.hpp), and rank 0 keeps the records; the console printer of the
// case's suite formats them (runtime/console_printer.hpp).
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/record.hpp"
#include "runtime/axis.hpp"
#include "runtime/backend.hpp"
#include "runtime/case_context.hpp"
#include "runtime/case_run.hpp"
#include "runtime/communicator.hpp"
#include "runtime/run_config.hpp"
#include "runtime/shared_directory.hpp"

namespace cb {

// How the sweep schedules a case, fixed for the case's life.
struct CaseTraits {
  // The fewest ranks the case needs (pairs need 2); smaller counts of the sweep are not run.
  int min_gpus = 1;
  // Cases that run the backend's collectives (the backend prepares its communicators first).
  bool uses_collectives = false;
  // Cases that measure every pair in one record run once, at the largest count of the sweep.
  bool largest_count_only = false;
};

class BenchmarkCase {
public:
  virtual ~BenchmarkCase() = default;
  std::string suite() const { return suite_; }
  std::string name() const { return name_; }
  const CaseTraits& traits() const { return traits_; }
  int min_gpus() const { return traits_.min_gpus; }
  bool uses_collectives() const { return traits_.uses_collectives; }
  bool largest_count_only() const { return traits_.largest_count_only; }

  // The case's parameters: name, type, defaults, --quick values, the family flag, help. `run
  // --list`, `run --help`, --axis and the expansion below all read them.
  virtual std::vector<Axis> axes() const { return {}; }
  // The parameter sets of this run: every combination of the axes' values (the first axis
  // outermost), as the settings and defaults give them (runtime/axis_values.hpp). A case whose
  // sets are not a plain product (derived fields, extra shapes) overrides it, starting from
  // axis_product. Pure: it reads the flags and the machine, never fails (check_axis_settings
  // has checked the values before any rank started).
  virtual std::vector<nlohmann::json> instances(const RunConfig& config) const;
  // Runs one instance on every rank of run.context().comm, collectively: the record is made
  // (run.record()); the case skips it, measures it or fails it, and checks its data.
  virtual void run(CaseRun& run, const nlohmann::json& params) = 0;
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
  // Why the case cannot run at all on this backend (of `kind`) in this job (the same answer on
  // every rank; `world` tells MPI ranks from threads), or "" when it can. The sweep then writes
  // one skipped record with the reason instead of one per instance.
  virtual std::string why_not_on(const Backend& /*backend*/, BackendKind /*kind*/,
                                 const Communicator& /*world*/) const {
    return "";
  }

protected:
  // suite and name: the record's and the command line's (--suite, --cases); fixed at creation.
  BenchmarkCase(std::string suite, std::string name, CaseTraits traits = {})
      : suite_(std::move(suite)), name_(std::move(name)), traits_(traits) {}

private:
  std::string suite_;
  std::string name_;
  CaseTraits traits_;
};

// One instance of `c` on the ranks of ctx.comm, collectively: the record made (its identity
// filled in), the case run on it, its records in order (one the case left unended marked failed,
// on rank 0). The sweep runs every instance through it.
std::vector<Record> run_instance(BenchmarkCase& c, const CaseContext& ctx,
                                 const nlohmann::json& params);

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
