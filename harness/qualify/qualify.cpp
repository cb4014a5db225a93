#include "qualify/qualify.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "qualify/record_match.hpp"
#include "qualify/spec_fit.hpp"

namespace cb {
namespace {

// Which row of a group `select: best` keeps: a PASS beats an INCONCLUSIVE beats a FAIL; within a
// verdict the higher ratio wins.
int verdict_preference(Verdict v) {
  switch (v) {
  case Verdict::pass:
    return 2;
  case Verdict::inconclusive:
    return 1;
  case Verdict::fail:
    return 0;
  }
  return 0;
}

bool better_row(const CheckRow& a, const CheckRow& b) {
  const int pa = verdict_preference(a.verdict);
  const int pb = verdict_preference(b.verdict);
  if (pa != pb)
    return pa > pb;
  return a.ratio.value_or(-1) > b.ratio.value_or(-1);
}

double threshold_of(const Expectation& check) {
  return lower_is_better(check.metric) ? check.expected / check.fraction
                                       : check.expected * check.fraction;
}

CheckRow missing_row(const Expectation& check, const std::string& why) {
  CheckRow row;
  row.check = check;
  row.threshold = threshold_of(check);
  row.verdict = Verdict::inconclusive;
  row.note = why;
  return row;
}

// Why no record matched: the suite was not run, the case was not (with the cases the file has,
// so that a misspelt name shows beside the right one), or the case ran but not with the check's
// parameters, GPU or node counts.
std::string why_nothing_matched(const Expectation& check, const ResultsFile& results) {
  std::set<std::string> cases;
  for (const Record& r : results.records) {
    if (check.suite.empty() || r.suite == check.suite)
      cases.insert(r.case_name);
  }
  if (cases.empty())
    return "no matching record (no " + check.suite + " record in the file: suite not run)";
  if (!check.case_name.empty() && !cases.count(check.case_name)) {
    constexpr std::size_t kNamed = 8;
    std::string named;
    std::size_t n = 0;
    for (const std::string& name : cases) {
      if (n++ == kNamed) {
        named += ", ...";
        break;
      }
      named += (named.empty() ? "" : ", ") + shown(name, 40);
    }
    return "no matching record (case not run; the file's " + check.suite + " cases: " + named + ")";
  }
  return "no matching record (the case ran, not with these params, GPUs or nodes)";
}

std::vector<CheckRow> judge_threshold(const Expectation& check, const ResultsFile& results) {
  // Group the matching records by (gpus, nodes): each GPU count is judged on its own.
  std::map<std::pair<int, int>, std::vector<CheckRow>> groups;
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    const Record& r = results.records[i];
    if (!record_matches(check, r))
      continue;
    groups[{r.gpus, r.nodes}].push_back(judge_record(check, r, i));
  }
  if (groups.empty())
    return {missing_row(check, why_nothing_matched(check, results))};
  std::vector<CheckRow> rows;
  for (auto& [key, candidates] : groups) {
    if (check.select == Selection::each) {
      for (auto& row : candidates)
        rows.push_back(std::move(row));
      continue;
    }
    auto best = std::min_element(candidates.begin(), candidates.end(), better_row);
    CheckRow row = std::move(*best);
    if (candidates.size() > 1) {
      const std::string best_of = "best of " + std::to_string(candidates.size()) + " records";
      row.note = row.note.empty() ? best_of : row.note + "; " + best_of;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

CheckRow judge_data(const Expectation& check, const ResultsFile& results) {
  CheckRow row;
  row.check = check;
  int verified = 0;
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    const Record& r = results.records[i];
    if (!record_matches(check, r) || r.check == DataCheck::skipped)
      continue;
    ++verified;
    if (r.check == DataCheck::fail)
      failures.push_back(describe_record(r));
  }
  row.measured = verified - static_cast<int>(failures.size());
  row.threshold = verified;
  if (verified == 0) {
    row.verdict = Verdict::inconclusive;
    row.note = "no matching record verified its data";
  } else if (!failures.empty()) {
    row.verdict = Verdict::fail;
    row.note = std::to_string(failures.size()) + " of " + std::to_string(verified) +
               " records failed their data check, first: " + failures.front();
    row.record = failures.front();
  } else {
    row.verdict = Verdict::pass;
    row.note = std::to_string(verified) + " records verified";
  }
  return row;
}

// The check's ratio at the record's 95th-percentile (slowest) and 5th-percentile (fastest)
// sample (unknown with too few samples to judge at all), scaled from the ratio at its median:
// per-op time is what was sampled, and a throughput figure goes as 1 / time, a latency figure as
// time.
struct NoisyTails {
  bool known = false;
  double worst_ratio = 0, best_ratio = 0;
};
NoisyTails noisy_tails(const Expectation& check, const Record& r, double measured) {
  NoisyTails t;
  // A link matrix's samples are one median per pair, not repeated timings of one figure: their
  // spread is the links' differences, which says nothing about how settled the judged link is.
  if (check.measure == Measure::matrix_min || r.extra.contains("matrix"))
    return t;
  const Stats& st = r.stats;
  if (r.samples_s.size() < kMinSamplesForVerdict || !(st.median > 0 && st.p05 > 0 && st.p95 > 0) ||
      !(measured > 0)) {
    return t;
  }
  auto ratio_at = [&](double seconds) {
    if (lower_is_better(check.metric)) {
      const double figure = measured * seconds / st.median;
      return check.expected / figure;
    }
    return measured * st.median / seconds / check.expected;
  };
  t.known = true;
  t.worst_ratio = ratio_at(st.p95);
  t.best_ratio = ratio_at(st.p05);
  return t;
}

void count(QualifyReport& report, Verdict v) {
  switch (v) {
  case Verdict::pass:
    ++report.passed;
    break;
  case Verdict::fail:
    ++report.failed;
    break;
  case Verdict::inconclusive:
    ++report.inconclusive;
    break;
  }
}

} // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
  case Verdict::pass:
    return "PASS";
  case Verdict::fail:
    return "FAIL";
  case Verdict::inconclusive:
    return "INCONCLUSIVE";
  }
  return "INCONCLUSIVE";
}

CheckRow judge_record(const Expectation& check, const Record& r, std::size_t index) {
  CheckRow row;
  row.check = check;
  row.record_index = index;
  row.record = describe_record(r);
  row.threshold = threshold_of(check);
  auto with_reason = [&](const std::string& what) {
    return r.reason.empty() ? what : what + ": " + r.reason;
  };
  if (r.status == RecordStatus::failed) {
    row.verdict = Verdict::fail;
    row.note = with_reason("the case failed");
    return row;
  }
  if (r.status == RecordStatus::skipped) {
    row.verdict = Verdict::inconclusive;
    row.note = with_reason("skipped");
    return row;
  }
  std::string why;
  row.measured = measure_record(check, r, &why);
  if (!row.measured) {
    row.verdict = Verdict::inconclusive;
    row.note = why;
    return row;
  }
  const double m = *row.measured;
  if (lower_is_better(check.metric)) {
    row.ratio = m > 0 ? check.expected / m : 0.0;
  } else {
    row.ratio = m / check.expected;
  }
  if (r.check == DataCheck::fail) {
    // A wrong answer delivered fast is not up to spec.
    row.verdict = Verdict::fail;
    row.note = "data check failed";
    return row;
  }
  if (r.status == RecordStatus::noisy) {
    // A noisy record still decides where even its slow and fast tails (the 5th and 95th
    // percentile sample) fall on the same side of the floor: a GPU whose clocks swing under its
    // power cap is judged, one that straddles the floor is not.
    const NoisyTails tails = noisy_tails(check, r, m);
    const double floor = check.fraction;
    if (tails.known && tails.worst_ratio >= floor) {
      row.verdict = Verdict::pass;
      row.note = with_reason("noisy, but its slowest 5 % of samples clear the floor");
    } else if (tails.known && tails.best_ratio < floor) {
      row.verdict = Verdict::fail;
      row.note = with_reason("noisy, but its fastest 5 % of samples miss the floor");
    } else {
      row.verdict = Verdict::inconclusive;
      row.note = with_reason("noisy");
    }
    return row;
  }
  if (r.samples_s.size() < kMinSamplesForVerdict) {
    row.verdict = Verdict::inconclusive;
    row.note = std::to_string(r.samples_s.size()) + " sample" +
               (r.samples_s.size() == 1 ? "" : "s") + " (fewer than " +
               std::to_string(kMinSamplesForVerdict) + ")";
    return row;
  }
  row.verdict = *row.ratio >= check.fraction ? Verdict::pass : Verdict::fail;
  return row;
}

QualifyReport qualify(const ResultsFile& results, const std::string& results_path, const Spec& spec,
                      const Topology* topology) {
  if (const std::string problem = backend_mismatch(results, results_path, spec); !problem.empty())
    throw InputError(problem);
  QualifyReport report;
  report.spec = spec;
  report.results_path = results_path;
  report.spec_warnings = device_mismatch(results, spec);
  for (const auto& check : spec.checks) {
    if (check.kind == CheckKind::data) {
      report.rows.push_back(judge_data(check, results));
      continue;
    }
    for (auto& row : judge_threshold(check, results))
      report.rows.push_back(std::move(row));
  }
  for (const auto& row : report.rows)
    count(report, row.verdict);

  report.fleet = analyze_fleet(results, spec.fleet);
  report.culprits = find_culprits(results, results_path, topology, spec.fleet.min_peers);
  // A culprit fails the fleet; outliers are its evidence, and those it does not explain warn.
  if (!report.culprits.culprits.empty()) {
    report.fleet_verdict = Verdict::fail;
  } else if (report.fleet.fleets_examined > 0 || report.culprits.judged()) {
    report.fleet_verdict = Verdict::pass;
  } else if (spec.fleet.required) {
    report.fleet_verdict = Verdict::inconclusive;
  }
  if (report.fleet_verdict)
    count(report, *report.fleet_verdict);

  if (report.failed > 0) {
    report.overall = Verdict::fail;
  } else if (report.inconclusive > 0 || report.passed == 0) {
    // Nothing judged is not a pass.
    report.overall = Verdict::inconclusive;
  } else {
    report.overall = Verdict::pass;
  }
  return report;
}

int qualify_exit_code(const QualifyReport& report, bool allow_inconclusive) {
  switch (report.overall) {
  case Verdict::pass:
    return 0;
  case Verdict::fail:
    return 1;
  case Verdict::inconclusive:
    // Its own code, as check's: CI can show "could not judge" as a warning and keep 1 for a
    // part that failed.
    return allow_inconclusive ? 0 : 4;
  }
  return 1;
}

} // namespace cb
