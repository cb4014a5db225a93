#pragma once
// A family is what its cases share beyond their code: the suite's name and place in the order of
// `run`, `--list` and the report; the report's sentence and plot names; the planner's estimate of
// each case (an operation's seconds and a record's set-up); and what a run cut short says about
// it. Each lives beside its cases (bench/<family>/family.cpp) and registers itself with
// CB_REGISTER_FAMILY, so that harness asks the registry and names no family itself.
//
// The planner's types are declared here, defined in harness/planning: a family's estimate is
// written against them, and linked with the planner (bench/ sits above both).
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cb {

struct CaseContext;
struct HardwareModel;
struct MeasureSettings;
class OptionDeclaration;
struct PhaseShape;
struct RecordEstimate;
struct RunConfig;

enum class PairRounds { none, bandwidth, ping_pong };

// The inter-node link rate per rank a run measured itself for its plan (Family::calibrate_link).
struct LinkCalibration {
  double bytes_per_s = 0; // 0: not measured; `source` says why, and the plan keeps the model's
  std::string source;     // in words, as the plan's header says it
};

// The pair schedule a run asks for, as the planner counts its rounds: the schedule named
// ("" = chosen by the node count) and the fabric's topology file ("" = none).
struct PairScheduleRequest {
  std::string schedule;
  std::string topology;
};

class Family {
public:
  virtual ~Family() = default;
  virtual std::string suite() const = 0;
  // The suite's place in the order of cases, `--list` and the report's sections (smaller first).
  virtual int order() const = 0;
  // The report's "What it measures:" sentence, with how its efficiency is defined.
  virtual std::string report_sentence() const = 0;
  // Whether a plot file of `report --plots` (its stem, "efficiency_links") belongs to this family's
  // section. By default the family's efficiency plot.
  virtual bool draws_plot(const std::string& stem) const { return stem == "efficiency_" + suite(); }

  // The planner (harness/planning/time_model.hpp). Seconds of one operation of `case_name` (one
  // call the engine times), or nullopt for a case the family has no estimate for: the planner then
  // uses its default and says so.
  virtual std::optional<double> operation_seconds(const std::string& case_name,
                                                  const nlohmann::json& params,
                                                  const PhaseShape& shape,
                                                  const HardwareModel& model) const = 0;
  // What a record costs beyond its measurement and the model's record_setup_s (first touch of
  // arrays, a file written before it is read).
  virtual double setup_seconds(const std::string& /*case_name*/, const nlohmann::json& /*params*/,
                               const PhaseShape& /*shape*/, const HardwareModel& /*model*/) const {
    return 0;
  }
  // The share of the case's records of operations shorter than the model's launch_bound_s
  // expected to converge at once; the others sample until their spread settles above the cv
  // target (the engine's settle rule) or the cap. 0: every one settles or reaches the cap.
  virtual double launch_bound_converge_share(const std::string& /*case_name*/,
                                             const PhaseShape& /*shape*/,
                                             const HardwareModel& /*model*/) const {
    return 0;
  }
  // A case that samples by its own rules rather than the engine's measure() (the training step:
  // its own warm-up steps, never fewer than min_samples) rewrites `e`, the engine's estimate of a
  // record of `op_s` operations with `sync_s` per sample.
  virtual void own_sampling(const std::string& /*case_name*/, double /*op_s*/, double /*sync_s*/,
                            const MeasureSettings& /*settings*/, RecordEstimate& /*e*/) const {}
  // Records one instance makes (collectives: one per placement of --in-place).
  virtual int records_per_instance(const std::string& /*case_name*/,
                                   const RunConfig& /*config*/) const {
    return 1;
  }
  // Whether the case's launch-bound records take the profile's fixed window (engine.hpp,
  // window_s) of launch_bound_cap_s rather than its early stop under that cap: for a case of one
  // record a phase, whose chance early stop no other record averages out.
  virtual bool launch_bound_window(const std::string& /*case_name*/) const { return false; }
  // Whether the counts between one node and the whole job keep only some message sizes (the
  // plan's profile, harness/planning/run_plan.hpp).
  virtual bool thins_sizes_between_counts() const { return false; }
  // Whether the case measures pairs in round-robin rounds (the planner counts rounds, not
  // instances), and whether each round is a ping-pong (its latency) or moves bytes.
  virtual PairRounds pair_rounds(const std::string& /*case_name*/) const {
    return PairRounds::none;
  }

  // The family's scalar options (runtime/family_option.hpp), declared beside its cases: `run`
  // parses them and `run --help` lists them under the family's name, in this order.
  virtual std::vector<const OptionDeclaration*> options() const { return {}; }
  // The pair schedule this run asks for (PairRounds cases), for the planner.
  virtual PairScheduleRequest pair_schedule_request(const RunConfig& /*config*/) const {
    return {};
  }
  // Whether the family's estimate across nodes rests on the inter-node link rate (its transfers
  // and collectives cross the network): the run then measures the rate before its sweep when
  // neither --plan-link nor --plan-from gives it.
  virtual bool plans_on_inter_link() const { return false; }
  // That measurement, by the family that measures links: a short transfer between node pairs on
  // the backend's own transport, collective over ctx.comm (the whole job). nullopt from every
  // other family.
  virtual std::optional<LinkCalibration> calibrate_link(const CaseContext& /*ctx*/) const {
    return std::nullopt;
  }

  // Before ranks run as threads of one process (--single-process), in the launching process: an
  // option that cannot run so (InputError naming it).
  virtual void check_threads(const RunConfig& /*config*/, int /*ranks*/) const {}

  // Before the sweep, on rank 0 (families_job_problem): the family's options against the job
  // (`host_of_rank`: the host of each world rank). Throws InputError naming the flag or file.
  virtual void check_job(const RunConfig& /*config*/,
                         const std::vector<std::string>& /*host_of_rank*/) const {}
  // After a run that failed: one line about what the family left unfinished (pairs never measured),
  // or "".
  virtual std::string unfinished_run(const std::string& /*results_path*/) const { return ""; }
};

class FamilyRegistry {
public:
  using Factory = std::unique_ptr<Family> (*)();
  static FamilyRegistry& instance();
  void add(Factory factory);
  // The registered families, in their order.
  const std::vector<std::unique_ptr<Family>>& all() const;
  // The family of `suite`, or nullptr when none is registered (an imported file's own suite).
  const Family* find(const std::string& suite) const;
  // `suite`'s place in the order; suites of no registered family come after every family.
  int order_of(const std::string& suite) const;

private:
  std::vector<std::unique_ptr<Family>> families_;
};

// Every family's check_job, one after the other: the first refusal's line, or "" when all accept.
std::string families_job_problem(const RunConfig& config,
                                 const std::vector<std::string>& host_of_rank);

struct FamilyRegistration {
  explicit FamilyRegistration(FamilyRegistry::Factory f) { FamilyRegistry::instance().add(f); }
};

} // namespace cb

#define CB_REGISTER_FAMILY(Type)                                                                   \
  static const ::cb::FamilyRegistration CB_FAMILY_REG_##Type {                                     \
    []() -> std::unique_ptr<::cb::Family> { return std::make_unique<Type>(); }                     \
  }
