// check and qualify reports as JUnit testcases and Prometheus series.
#include <gtest/gtest.h>

#include "exporters/check_junit.hpp"
#include "exporters/exported_parts.hpp"
#include "exporters/qualify_junit.hpp"
#include "exporters/qualify_prometheus.hpp"
#include "prom_lookup.hpp"

namespace cb {
namespace {

using test::family;
using test::label;

CaseCheck judged(const std::string& name, CaseOutcome outcome, double change) {
  CaseCheck c;
  c.key.suite = "collectives";
  c.key.case_name = name;
  c.key.params = {{"bytes", 67108864}};
  c.key.gpus = 8;
  c.quantity = "time_s";
  c.baseline_runs = std::vector<double>(5, 1e-3);
  c.current_runs = std::vector<double>(5, 1e-3 * (1 + change));
  c.baseline_median = 1e-3;
  c.current_median = 1e-3 * (1 + change);
  c.worse_by = change; // a time: worse when it grows
  c.test.test = RunTest::welch;
  c.test.baseline_runs = c.test.current_runs = 5;
  c.test.change = change;
  c.test.p_value = outcome == CaseOutcome::regression ? 1e-8 : 0.4;
  c.test.detectable = 0.031;
  c.outcome = outcome;
  return c;
}

std::size_t count_of(const JUnitSuite& suite, JUnitResult result) {
  return suite.count(result);
}

TEST(CheckJUnit, OneFailedTestcasePerRegressedCase) {
  CheckReport report;
  report.cases = {judged("all_reduce", CaseOutcome::regression, 0.10),
                  judged("all_gather", CaseOutcome::unchanged, 0.01),
                  judged("broadcast", CaseOutcome::inconclusive, 0.08),
                  judged("reduce", CaseOutcome::regression, 0.20),
                  judged("alltoall", CaseOutcome::improvement, -0.2)};
  report.missing_in_current.push_back({judged("gather", CaseOutcome::unchanged, 0).key, ""});
  report.verdict = CheckVerdict::regression;
  report.baseline_files = {"base-1.json", "base-2.json"};
  report.current_files = {"current-1.json"};
  CheckContext context{{}, false};
  const JUnitSuite suite = check_junit_suite(report, context);
  ASSERT_EQ(suite.cases.size(), 6u);
  EXPECT_EQ(count_of(suite, JUnitResult::failure), 2u);
  EXPECT_EQ(count_of(suite, JUnitResult::skipped), 2u); // inconclusive, missing
  EXPECT_EQ(suite.cases[0].classname, "collectives.all_reduce");
  EXPECT_EQ(suite.cases[0].type, "regression");
  EXPECT_NE(suite.cases[0].message.find("+10.0 %"), std::string::npos) << suite.cases[0].message;
  EXPECT_NE(suite.cases[0].details.find(
                "time 1.00 ms -> 1.10 ms (+10.0 %, p 1.0e-08, runs 5/5, detectable 3.1 %)"),
            std::string::npos)
      << suite.cases[0].details;
  EXPECT_NE(suite.cases[2].message.find("INCONCLUSIVE"), std::string::npos);
  EXPECT_EQ(suite.cases[5].result, JUnitResult::skipped);
  EXPECT_NE(suite.cases[5].message.find("only in the baseline"), std::string::npos);
  const std::string xml = check_junit_xml(report, context);
  EXPECT_NE(xml.find("tests=\"6\" failures=\"2\" errors=\"0\" skipped=\"2\""), std::string::npos);
}

Expectation expectation(const std::string& id, const std::string& metric) {
  Expectation e;
  e.id = id;
  e.suite = "collectives";
  e.case_name = "all_reduce";
  e.metric = metric;
  e.expected = 400;
  e.fraction = 0.9;
  e.source = "data sheet";
  return e;
}

CheckRow row(const std::string& id, Verdict v, double measured) {
  CheckRow r;
  r.check = expectation(id, "busbw_gbps");
  r.record = "collectives/all_reduce bytes=64M gpus=8";
  r.measured = measured;
  r.threshold = 360;
  r.ratio = measured / 400;
  r.verdict = v;
  return r;
}

Suspect suspect(const std::string& host, int device) {
  Suspect s;
  s.kind = FleetKind::gpu;
  s.who = {host, device, device, "GPU-" + std::to_string(device), ""};
  s.outliers = 2;
  s.worst_ratio = 0.5;
  s.label = "host " + host + " GPU " + std::to_string(device);
  return s;
}

QualifyReport qualify_report(std::size_t suspects) {
  QualifyReport report;
  report.spec.name = "h200-sxm";
  report.results_path = "run.json";
  report.rows = {row("busbw", Verdict::pass, 410), row("busbw_8", Verdict::fail, 300),
                 row("busbw_16", Verdict::inconclusive, 380)};
  for (std::size_t i = 0; i < suspects; ++i) {
    report.fleet.suspects.push_back(suspect("n" + std::to_string(i / 8), static_cast<int>(i % 8)));
    FleetCulprit culprit;
    culprit.kind = "gpu";
    culprit.host = "n" + std::to_string(i / 8);
    culprit.gpu = static_cast<int>(i % 8);
    culprit.factor = 0.5;
    report.culprits.culprits.push_back(culprit);
  }
  report.fleet.fleets_examined = 4;
  report.fleet_verdict = suspects ? Verdict::fail : Verdict::pass;
  report.overall = Verdict::fail;
  report.passed = 1;
  report.failed = 2;
  report.inconclusive = 1;
  return report;
}

TEST(QualifyJUnit, ATestcasePerCheckAndPerCulprit) {
  const auto suites = qualify_junit_suites(qualify_report(3));
  ASSERT_EQ(suites.size(), 2u);
  ASSERT_EQ(suites[0].cases.size(), 4u); // three rows and the fleet
  EXPECT_EQ(suites[0].cases[0].result, JUnitResult::passed);
  EXPECT_EQ(suites[0].cases[1].result, JUnitResult::failure);
  EXPECT_NE(suites[0].cases[1].message.find("FAIL: busbw_8"), std::string::npos)
      << suites[0].cases[1].message;
  EXPECT_EQ(suites[0].cases[2].result, JUnitResult::skipped);
  EXPECT_EQ(suites[0].cases[3].name, "fleet");
  EXPECT_EQ(suites[0].cases[3].result, JUnitResult::failure);
  ASSERT_EQ(suites[1].cases.size(), 3u);
  EXPECT_EQ(suites[1].count(JUnitResult::failure), 3u);
  EXPECT_EQ(suites[1].cases[0].classname, "qualify.culprits.gpu");
  EXPECT_EQ(suites[1].cases[0].name, "host n0 GPU 0");
}

TEST(QualifyJUnit, CulpritsPastTheCapAreOneTestcase) {
  const std::size_t named = kMaxExportedSuspects + 40;
  const auto suites = qualify_junit_suites(qualify_report(named));
  ASSERT_EQ(suites[1].cases.size(), kMaxExportedSuspects + 1);
  EXPECT_NE(suites[1].cases.back().message.find("40 more parts named"), std::string::npos);
}

TEST(QualifyPrometheus, VerdictChecksAndCulprits) {
  const PromDocument doc = qualify_prometheus(qualify_report(2), ResultsFile{});
  const PromFamily* verdict = family(doc, "clusterbench_qualify_verdict");
  ASSERT_NE(verdict, nullptr);
  ASSERT_EQ(verdict->samples.size(), 3u);
  for (const auto& s : verdict->samples)
    EXPECT_EQ(s.value, label(s, "verdict") == "FAIL" ? 1 : 0);
  const PromFamily* pass = family(doc, "clusterbench_qualify_check_pass");
  ASSERT_NE(pass, nullptr);
  ASSERT_EQ(pass->samples.size(), 3u);
  EXPECT_EQ(pass->samples[0].value, 1);
  EXPECT_EQ(pass->samples[1].value, 0);
  EXPECT_EQ(label(pass->samples[1], "check"), "busbw_8");
  const PromFamily* measured = family(doc, "clusterbench_qualify_check_measured_bus_bandwidth_gbs");
  ASSERT_NE(measured, nullptr);
  EXPECT_EQ(measured->samples[1].value, 300);
  const PromFamily* ratio = family(doc, "clusterbench_qualify_check_ratio");
  ASSERT_NE(ratio, nullptr);
  EXPECT_DOUBLE_EQ(ratio->samples[1].value, 0.75);
  const PromFamily* culprits = family(doc, "clusterbench_qualify_suspect_ratio");
  ASSERT_NE(culprits, nullptr);
  ASSERT_EQ(culprits->samples.size(), 2u);
  EXPECT_EQ(label(culprits->samples[1], "Hostname"), "n0");
  EXPECT_EQ(label(culprits->samples[1], "gpu"), "1");
  EXPECT_EQ(label(culprits->samples[1], "UUID"), "GPU-1");
  const PromFamily* named = family(doc, "clusterbench_qualify_culprit_factor");
  ASSERT_NE(named, nullptr);
  ASSERT_EQ(named->samples.size(), 2u);
  EXPECT_EQ(label(named->samples[1], "kind"), "gpu");
  EXPECT_EQ(label(named->samples[1], "gpu"), "1");
  EXPECT_EQ(named->samples[1].value, 0.5);
  EXPECT_EQ(family(doc, "clusterbench_qualify_culprits")->samples[0].value, 2);
  EXPECT_EQ(doc.dropped(), 0u);
}

TEST(QualifyPrometheus, CulpritsAreCappedButCounted) {
  const PromDocument doc = qualify_prometheus(qualify_report(kMaxExportedSuspects * 2), {});
  EXPECT_EQ(family(doc, "clusterbench_qualify_suspect_ratio")->samples.size(),
            kMaxExportedSuspects);
  EXPECT_EQ(family(doc, "clusterbench_qualify_suspects")->samples[0].value,
            static_cast<double>(kMaxExportedSuspects * 2));
}

} // namespace
} // namespace cb
