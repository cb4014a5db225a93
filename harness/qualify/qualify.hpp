#pragma once
// The qualification verdict: a results file judged against a spec (figures with sources, or a
// known-good reference run) and against its own fleet (peers in the same run).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qualify/culprits.hpp"
#include "qualify/fleet.hpp"
#include "qualify/spec.hpp"
#include "results/record.hpp"

namespace cb {

enum class Verdict { pass, fail, inconclusive };
std::string_view verdict_name(Verdict v); // PASS, FAIL, INCONCLUSIVE

// Records with fewer samples cannot be trusted to say which side of a threshold they are on.
inline constexpr std::size_t kMinSamplesForVerdict = 3;

// One judged row: a check applied to one record (or to nothing, when the case is missing).
struct CheckRow {
  Expectation check;
  std::optional<std::size_t> record_index;
  std::string record;             // describe_record(), empty when no record matched
  std::optional<double> measured; // in the metric's unit (threshold checks)
  std::optional<double> ratio;    // performance relative to expected: >= fraction passes
  double threshold = 0;           // the figure to reach: fraction x expected (or / for lower)
  Verdict verdict = Verdict::inconclusive;
  std::string note; // why INCONCLUSIVE or FAIL, or "best of N records"
};

struct QualifyReport {
  Spec spec;
  std::string results_path;
  std::vector<CheckRow> rows;
  FleetReport fleet;      // the outliers: evidence, which warns
  CulpritReport culprits; // the parts to pull: what fails the fleet
  // The run's parts are not the spec's (qualify/spec_fit.hpp): judged all the same, said first.
  std::vector<std::string> spec_warnings;
  // The fleet row: FAIL when a culprit is named, PASS when any figure or fleet was judged,
  // INCONCLUSIVE when none could be and the spec requires one; absent otherwise.
  std::optional<Verdict> fleet_verdict;
  Verdict overall = Verdict::inconclusive;
  int passed = 0, failed = 0, inconclusive = 0; // over rows and the fleet row
};

// One record against one threshold check, ignoring selection.
CheckRow judge_record(const Expectation& check, const Record& record, std::size_t index);

// InputError when the spec is for another backend than the run's (qualify/spec_fit.hpp), and
// for a results file's impossible pair-test values. `topology` (qualify --topology) groups the
// nodes by leaf switch for the diagnosis; null without one.
QualifyReport qualify(const ResultsFile& results, const std::string& results_path, const Spec& spec,
                      const Topology* topology = nullptr);

// 0 on PASS; 1 on FAIL, and on INCONCLUSIVE unless it is allowed.
int qualify_exit_code(const QualifyReport& report, bool allow_inconclusive);

} // namespace cb
