#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "verdict_test_data.hpp"
#include "verdicts/google_benchmark_json.hpp"
#include "verdicts/verdict_input.hpp"

using namespace cb;
using cb::testing::verdict_fixture;
using nlohmann::json;

namespace {

json entry(const std::string& run_name, const std::string& type, double real_time,
           const std::string& unit) {
  json e = {{"name", run_name},       {"run_name", run_name},  {"run_type", type},
            {"real_time", real_time}, {"cpu_time", real_time}, {"time_unit", unit},
            {"iterations", 100}};
  if (type == "aggregate") {
    e["name"] = run_name + "_mean";
    e["aggregate_name"] = "mean";
  }
  return e;
}

json document(json benchmarks) {
  return {{"context",
           {{"date", "2026-11-02"},
            {"host_name", "ci-3"},
            {"executable", "./bench"},
            {"library_version", "v1.7.1"}}},
          {"benchmarks", std::move(benchmarks)}};
}

std::string error_of(const json& j) {
  try {
    results_from_google_benchmark(j, "bench.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(GoogleBenchmarkJson, IsRecognisedByContextAndBenchmarks) {
  EXPECT_TRUE(is_google_benchmark_json(document(json::array())));
  EXPECT_FALSE(is_google_benchmark_json(json{{"benchmarks", json::array()}}));
  EXPECT_FALSE(is_google_benchmark_json(json{{"schema", "clusterbench.results"}}));
  EXPECT_FALSE(is_google_benchmark_json(json::array()));
}

TEST(GoogleBenchmarkJson, RepetitionsBecomeSamplesAndAggregatesAreIgnored) {
  const json j =
      document({entry("BM_A/8", "iteration", 10, "ns"), entry("BM_A/8", "iteration", 12, "ns"),
                entry("BM_B", "iteration", 3, "ms"), entry("BM_A/8", "iteration", 11, "ns"),
                entry("BM_A/8", "aggregate", 999, "ns")});
  const ResultsFile f = results_from_google_benchmark(j, "bench.json");
  ASSERT_EQ(f.records.size(), 2u);
  const Record& a = f.records[0];
  EXPECT_EQ(a.suite, kGoogleBenchmarkSuite);
  EXPECT_EQ(a.case_name, "BM_A/8");
  EXPECT_EQ(a.gpus, 1);
  ASSERT_EQ(a.samples_s.size(), 3u);
  EXPECT_DOUBLE_EQ(a.samples_s[0], 10e-9);
  EXPECT_DOUBLE_EQ(a.samples_s[1], 12e-9);
  EXPECT_DOUBLE_EQ(a.stats.median, 11e-9);
  EXPECT_DOUBLE_EQ(a.metrics["time_us"].get<double>(), 11e-3);
  EXPECT_EQ(f.records[1].case_name, "BM_B");
  EXPECT_DOUBLE_EQ(f.records[1].samples_s[0], 3e-3);
  EXPECT_EQ(f.run["hosts"][0]["host"], "ci-3");
  EXPECT_EQ(f.run["versions"]["google_benchmark"], "v1.7.1");
}

TEST(GoogleBenchmarkJson, EveryTimeUnitConverts) {
  const json j = document({entry("s", "iteration", 2, "s"), entry("ms", "iteration", 2, "ms"),
                           entry("us", "iteration", 2, "us"), entry("ns", "iteration", 2, "ns")});
  const ResultsFile f = results_from_google_benchmark(j, "bench.json");
  EXPECT_DOUBLE_EQ(f.records[0].samples_s[0], 2.0);
  EXPECT_DOUBLE_EQ(f.records[1].samples_s[0], 2e-3);
  EXPECT_DOUBLE_EQ(f.records[2].samples_s[0], 2e-6);
  EXPECT_DOUBLE_EQ(f.records[3].samples_s[0], 2e-9);
}

TEST(GoogleBenchmarkJson, WithoutRunTypeAggregatesAreKnownByAggregateName) {
  json plain = entry("BM_old", "iteration", 5, "ns");
  plain.erase("run_type");
  json aggregate = entry("BM_old", "aggregate", 50, "ns");
  aggregate.erase("run_type");
  const ResultsFile f = results_from_google_benchmark(document({plain, aggregate}), "b.json");
  ASSERT_EQ(f.records.size(), 1u);
  EXPECT_EQ(f.records[0].samples_s.size(), 1u);
}

TEST(GoogleBenchmarkJson, FailedBenchmarksAreMarkedFailed) {
  json failing = entry("BM_Broken", "iteration", 0, "ns");
  failing["error_occurred"] = true;
  failing["error_message"] = "out of memory";
  const ResultsFile f = results_from_google_benchmark(document({failing}), "b.json");
  ASSERT_EQ(f.records.size(), 1u);
  EXPECT_EQ(f.records[0].status, RecordStatus::failed);
  EXPECT_EQ(f.records[0].reason, "out of memory");
}

TEST(GoogleBenchmarkJson, BadEntriesNameTheFileEntryAndField) {
  json bad_unit = entry("BM", "iteration", 1, "fortnights");
  EXPECT_EQ(error_of(document({bad_unit})),
            "bench.json: benchmarks[0]: field 'time_unit' is 'fortnights', allowed ns|us|ms|s");
  json no_time = entry("BM", "iteration", 1, "ns");
  no_time.erase("real_time");
  EXPECT_EQ(error_of(document({entry("ok", "iteration", 1, "ns"), no_time})),
            "bench.json: benchmarks[1]: field 'real_time' must be a number");
  EXPECT_EQ(error_of(document({json{{"run_type", "iteration"}}})),
            "bench.json: benchmarks[0]: field 'name' must be a string");
  EXPECT_EQ(error_of(document(json::object())), "bench.json: field 'benchmarks' must be an array");
  json negative = entry("BM", "iteration", -1, "ns");
  EXPECT_EQ(error_of(document({negative})),
            "bench.json: benchmarks[0]: field 'real_time' must not be negative");
  // Fields of the wrong type are named, not left to the JSON library's "type must be boolean".
  json string_flag = entry("BM", "iteration", 1, "ns");
  string_flag["error_occurred"] = "yes";
  EXPECT_EQ(error_of(document({string_flag})),
            "bench.json: benchmarks[0]: field 'error_occurred' must be a boolean");
  json dated = document({entry("BM", "iteration", 1, "ns")});
  dated["context"]["date"] = 5;
  EXPECT_EQ(error_of(dated), "bench.json: field 'context.date' must be a string");
  // Figures no benchmark measured: held to a results file's bounds, naming the benchmark.
  const std::string zero = error_of(document({entry("BM_Zero", "iteration", 0, "ns")}));
  EXPECT_NE(zero.find("benchmark 'BM_Zero'"), std::string::npos) << zero;
  EXPECT_NE(zero.find("samples_s[0]"), std::string::npos) << zero;
  const std::string huge = error_of(document({entry("BM_Huge", "iteration", 1e300, "ns")}));
  EXPECT_NE(huge.find("samples_s[0]"), std::string::npos) << huge;
  json negative_rate = entry("BM_Rate", "iteration", 1, "ns");
  negative_rate["bytes_per_second"] = -1e300;
  const std::string rate = error_of(document({negative_rate}));
  EXPECT_NE(rate.find("metrics.gbps"), std::string::npos) << rate;
}

TEST(VerdictInput, ReadsBothFormatsAndRejectsOthers) {
  const ResultsFile gbench = load_verdict_input(verdict_fixture("gbench_baseline.json"));
  EXPECT_EQ(gbench.records.size(), 3u);
  EXPECT_EQ(gbench.records[0].samples_s.size(), 10u);
  const ResultsFile results = load_verdict_input(verdict_fixture("baseline.json"));
  EXPECT_EQ(results.records.size(), 10u);

  const std::string other = (std::filesystem::temp_directory_path() /
                             ("cb-verdict-input-" + std::to_string(::getpid()) + ".json"))
                                .string();
  std::ofstream(other) << R"({"hello": 1})";
  try {
    load_verdict_input(other);
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(other + ": neither a clusterbench results file"),
              std::string::npos);
  }
  std::filesystem::remove(other);
  EXPECT_THROW(load_verdict_input(verdict_fixture("malformed.json")), InputError);
  EXPECT_THROW(load_verdict_input(verdict_fixture("schema_v2.json")), InputError);
  EXPECT_THROW(load_verdict_input(verdict_fixture("does_not_exist.json")), InputError);
}
