#pragma once
// Where the pair tests are, kept beside the results file (RESULTS.pairs-progress.json) while a pair
// test runs, so that a run which ends in the middle of its rounds (a node dropped out, the
// watchdog fired) can say which pairs were never measured. Rank 0 rewrites it before each round:
// a few fields and the tier's host names, O(nodes) per round. A finished pair test removes it.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cb {

class PairProgress {
public:
  // Empty results_path: keeps nothing (the sweep writes no file either).
  PairProgress(const std::string& results_path, std::string record, std::string schedule,
               std::vector<std::string> node_hosts);
  // Before measured round `round` of `rounds` of a tier ("intra", "inter", "retest", or "screen":
  // the screen's round, whose count is not known ahead).
  void at(const std::string& tier, int round, int rounds);
  // The pair test finished: nothing is missing.
  void finished();

private:
  std::string path_;
  nlohmann::json state_;
};

std::string pair_progress_path(const std::string& results_path);

// After a run that failed: one line naming the pair test that was cut short and the pairs it never
// measured (the rest of the schedule from the round it was in), or "" when no pair test was
// running. The full list of missing node pairs is added to the progress file, which stays.
std::string describe_unfinished_pairs(const std::string& results_path);

} // namespace cb
