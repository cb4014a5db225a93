#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "qualify/record_match.hpp"
#include "qualify/reference_spec.hpp"
#include "qualify/spec.hpp"
#include "qualify/spec_locator.hpp"
#include "qualify/spec_metrics.hpp"
#include "results/results_io.hpp"
#include "test_support.hpp"

using namespace cb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json minimal_spec() {
  return {{"schema", "clusterbench.spec"},
          {"schema_version", 1},
          {"name", "t"},
          {"checks",
           {{{"id", "copy"},
             {"suite", "compute"},
             {"case", "copy"},
             {"metric", "gbps"},
             {"expected", 100},
             {"fraction", 0.5},
             {"source", "a data sheet"}}}}};
}

std::string spec_error(const json& j) {
  try {
    spec_from_json(j, "my.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(Spec, EveryBundledSpecLoadsAndCarriesSources) {
  const auto dir = test::source_path("harness/specs");
  const auto names = available_spec_names(dir);
  for (const char* expected : {"a100-sxm-80gb", "b200", "h100-sxm", "h200-sxm", "host-cpu"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const auto& name : names) {
    const Spec spec = load_spec_file(dir + "/" + name + ".json");
    EXPECT_EQ(spec.name, name);
    EXPECT_FALSE(spec.checks.empty()) << name;
    for (const auto& c : spec.checks) {
      EXPECT_FALSE(c.source.empty()) << name << " " << c.id;
      if (c.kind == CheckKind::threshold) {
        EXPECT_GT(c.expected, 0) << name << " " << c.id;
        EXPECT_GT(c.fraction, 0) << name << " " << c.id;
        EXPECT_LE(c.fraction, 1) << name << " " << c.id;
      }
    }
  }
}

TEST(Spec, H200CarriesTheIssueFigures) {
  const Spec spec = load_spec_file(test::source_path("harness/specs/h200-sxm.json"));
  auto find = [&](const std::string& id) -> const Expectation& {
    for (const auto& c : spec.checks) {
      if (c.id == id)
        return c;
    }
    throw std::runtime_error("no check " + id);
  };
  EXPECT_DOUBLE_EQ(find("hbm-copy").expected, 4800);
  EXPECT_DOUBLE_EQ(find("hbm-copy").fraction, 0.85);
  EXPECT_EQ(find("hbm-copy").measure, Measure::per_gpu);
  EXPECT_DOUBLE_EQ(find("gemm-bf16").expected, 989);
  EXPECT_DOUBLE_EQ(find("gemm-bf16").fraction, 0.65); // sustained, under the 700 W power cap
  EXPECT_DOUBLE_EQ(find("h2d-pinned").expected * find("h2d-pinned").fraction, 63 * 0.80);
  const auto& ar = find("all-reduce-8gpu");
  EXPECT_DOUBLE_EQ(ar.expected, 431);
  EXPECT_EQ(ar.params["bytes"].get<long long>(), 17179869184LL);
  EXPECT_NE(ar.source.find("azurehpc-health-checks"), std::string::npos);
  EXPECT_DOUBLE_EQ(spec.fleet.robust_z, -3.5);
  EXPECT_DOUBLE_EQ(spec.fleet.fraction_of_median, 0.90);
}

TEST(Spec, RoundTripsThroughJson) {
  const Spec spec = spec_from_json(minimal_spec(), "my.json");
  const Spec again = spec_from_json(spec_to_json(spec), "again.json");
  ASSERT_EQ(again.checks.size(), 1u);
  EXPECT_EQ(again.checks[0].id, "copy");
  EXPECT_DOUBLE_EQ(again.checks[0].fraction, 0.5);
  EXPECT_EQ(again.checks[0].select, Selection::best);
}

TEST(Spec, BadSpecsNameFileCheckAndField) {
  json j = minimal_spec();
  j["checks"][0].erase("expected");
  EXPECT_EQ(spec_error(j), "my.json: checks[0] (copy): missing field 'expected'");

  j = minimal_spec();
  j["checks"][0]["fraction"] = 1.5;
  EXPECT_EQ(spec_error(j), "my.json: checks[0] (copy): field 'fraction' must be in (0, 1]");

  j = minimal_spec();
  j["checks"][0]["measure"] = "per_node";
  EXPECT_NE(spec_error(j).find("allowed value|per_gpu|matrix_min"), std::string::npos);

  j = minimal_spec();
  j["checks"][0]["metrc"] = "gbps";
  EXPECT_EQ(spec_error(j), "my.json: checks[0]: unknown field 'metrc'");

  j = minimal_spec();
  j["checks"][0]["params"] = {{"bytes", {{"least", 4}}}};
  EXPECT_NE(spec_error(j).find("params.bytes: a range allows only 'min' and 'max'"),
            std::string::npos);

  j = minimal_spec();
  j["schema"] = "clusterbench.results";
  EXPECT_NE(spec_error(j).find("field 'schema' is 'clusterbench.results'"), std::string::npos);

  j = minimal_spec();
  j["checks"].push_back(j["checks"][0]);
  EXPECT_EQ(spec_error(j), "my.json: checks[1]: duplicate id 'copy'");

  j = minimal_spec();
  j["fleet"] = {{"robust_z", 3.5}};
  EXPECT_NE(spec_error(j).find("fleet: field 'robust_z' must be negative"), std::string::npos);

  j = minimal_spec();
  j["checks"] = json::array();
  EXPECT_EQ(spec_error(j), "my.json: field 'checks' is empty; a spec needs one check at least");

  j = minimal_spec();
  j["backend"] = "gpu";
  EXPECT_EQ(spec_error(j), "my.json: field 'backend' is 'gpu', allowed cuda|host");
  j = minimal_spec();
  j["devices"] = "H200";
  EXPECT_EQ(spec_error(j), "my.json: field 'devices' must be an array of 1 to 64 device names");
  j["devices"] = json::array();
  EXPECT_EQ(spec_error(j), "my.json: field 'devices' must be an array of 1 to 64 device names");
  j["devices"] = {"H200", ""};
  EXPECT_EQ(spec_error(j), "my.json: field 'devices' must hold names of 1 to 128 bytes");
  j["devices"] = {"H200", 7};
  EXPECT_EQ(spec_error(j), "my.json: field 'devices' must hold names of 1 to 128 bytes");
}

TEST(Spec, BackendAndDevicesRoundTripAndEveryBundledSpecSaysThem) {
  json j = minimal_spec();
  j["backend"] = "cuda";
  j["devices"] = {"H200", "GH200"};
  const Spec again = spec_from_json(spec_to_json(spec_from_json(j, "my.json")), "again.json");
  EXPECT_EQ(again.backend, "cuda");
  EXPECT_EQ(again.devices, (std::vector<std::string>{"H200", "GH200"}));
  EXPECT_FALSE(spec_to_json(spec_from_json(minimal_spec(), "my.json")).contains("backend"));
  for (const std::string& name : available_spec_names(specs_directory())) {
    const Spec spec = load_spec_file(resolve_spec_argument(name));
    EXPECT_FALSE(spec.backend.empty()) << name;
    EXPECT_EQ(spec.devices.empty(), spec.backend == "host") << name;
  }
}

TEST(Spec, UnknownSuiteOrMetricIsRejectedNamingFileCheckAndField) {
  json j = minimal_spec();
  j["checks"][0]["metric"] = "bogus_metric";
  EXPECT_EQ(spec_error(j), "my.json: checks[0] (copy): field 'metric' is 'bogus_metric', which "
                           "compute records do not carry; allowed "
                           "gbps|tflops|gflops|time_us|fraction_of_peak");

  // A real metric of another suite: compute records never carry a bus bandwidth.
  j = minimal_spec();
  j["checks"][0]["metric"] = "busbw_gbps";
  EXPECT_NE(spec_error(j).find("field 'metric' is 'busbw_gbps', which compute records"),
            std::string::npos);

  j = minimal_spec();
  j["checks"][0]["suite"] = "memory";
  EXPECT_EQ(spec_error(j), "my.json: checks[0] (copy): field 'suite' is 'memory', allowed "
                           "collectives|compute|links|storage");

  // Data checks name no metric, but a suite they name must exist too.
  j = minimal_spec();
  j["checks"] = {{{"id", "data"}, {"kind", "data"}, {"suite", "colectives"}, {"source", "x"}}};
  EXPECT_EQ(spec_error(j), "my.json: checks[0] (data): field 'suite' is 'colectives', allowed "
                           "collectives|compute|links|storage");
}

TEST(Spec, MetricsOfEverySuiteLoad) {
  const std::vector<std::pair<std::string, std::string>> accepted = {
      {"collectives", "busbw_gbps"},  {"collectives", "algbw_gbps"}, {"collectives", "time_us"},
      {"compute", "tflops"},          {"compute", "gflops"},         {"links", "latency_us"},
      {"links", "min_gbps"},          {"links", "per_gpu_gbps"},     {"storage", "iops"},
      {"storage", "first_done_gbps"}, {"storage", "latency_us"}};
  for (const auto& [suite, metric] : accepted) {
    json j = minimal_spec();
    j["checks"][0]["suite"] = suite;
    j["checks"][0]["metric"] = metric;
    EXPECT_EQ(spec_error(j), "") << suite << " " << metric;
  }
  json j = minimal_spec();
  j["checks"] = {{{"id", "data"}, {"kind", "data"}, {"suite", "storage"}, {"source", "x"}}};
  EXPECT_EQ(spec_error(j), "");
}

// What the code writes per suite: the table must allow each for its suite (a spec naming one would
// otherwise stop loading), and nothing else (a check of it could never be judged).
TEST(SpecMetrics, TableAllowsEveryMetricTheCasesAndImportersWrite) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> written = {
      // bench/collectives/collective_case.cpp (time_us, algbw_gbps, busbw_gbps; node_link_gbps
      // across nodes); harness/imports nccl-tests (the same three) and OSU (min/max_time_us too);
      // communicator_init.cpp (time_us and the first creation's cold_time_us).
      {"collectives",
       {"time_us", "algbw_gbps", "busbw_gbps", "node_link_gbps", "min_time_us", "max_time_us",
        "cold_time_us"}},
      // bench/compute/compute_case.cpp: host STREAM kernels gbps, host fma_peak and gemm gflops;
      // on a GPU backend (kernels/cuda) gbps and tflops, with fraction_of_peak of the data sheet.
      {"compute", {"time_us", "gbps", "gflops", "tflops", "fraction_of_peak"}},
      // bench/links/links_case.cpp matrices (pair_bw gbps, pair_latency latency_us, each with its
      // min_pair_/max_pair_ figures), ring_bw gbps; bench/cuda host_device_copy (per_gpu_gbps),
      // device_local_copy (read_write_gbps), p2p_matrix (min/max_gbps, pairs, fraction_of_peak);
      // the OSU importer's point-to-point latency_us and gbps.
      {"links",
       {"time_us", "gbps", "latency_us", "min_pair_gbps", "max_pair_gbps", "min_pair_latency_us",
        "max_pair_latency_us", "per_gpu_gbps", "read_write_gbps", "min_gbps", "max_gbps", "pairs",
        "fraction_of_peak"}},
      // bench/storage/storage_case.cpp (gbps, first_done_gbps, last_done_gbps) and
      // bench/cuda/storage_to_gpu_case.cpp (gbps); the fio importer adds iops and latency_us.
      {"storage",
       {"time_us", "gbps", "first_done_gbps", "last_done_gbps", "iops", "latency_us",
        "lowest_rank_gbps"}},
  };
  for (const auto& [suite, metrics] : written) {
    const auto& allowed = spec_suite_metrics(suite);
    for (const auto& metric : metrics) {
      EXPECT_NE(std::find(allowed.begin(), allowed.end(), metric), allowed.end())
          << suite << " " << metric;
      json j = minimal_spec();
      j["checks"][0]["suite"] = suite;
      j["checks"][0]["metric"] = metric;
      EXPECT_EQ(spec_error(j), "") << suite << " " << metric;
    }
    // Nothing more either: a metric allowed for a suite that never writes it is never judged.
    EXPECT_EQ(allowed.size(), metrics.size()) << suite << ": " << join_allowed(allowed);
  }
}

TEST(SpecMetrics, FixtureRecordsCarryOnlyListedMetrics) {
  // The qualify fixtures are records as `clusterbench run` writes them on an H200 node: every
  // metric they carry must be one a spec may name, or a spec could not judge it.
  int records = 0;
  for (const char* name : {"h200_clean.json", "h200_slow_gpu.json", "h200_inconclusive.json"}) {
    const ResultsFile f = load_results(test::source_path("tests/fixtures/qualify/") + name);
    for (const auto& r : f.records) {
      const auto& allowed = spec_suite_metrics(r.suite);
      EXPECT_FALSE(allowed.empty()) << name << ": suite " << r.suite;
      for (const auto& [metric, value] : r.metrics.items()) {
        EXPECT_NE(std::find(allowed.begin(), allowed.end(), metric), allowed.end())
            << name << ": " << r.suite << "/" << r.case_name << " metric " << metric;
      }
      ++records;
    }
  }
  EXPECT_GT(records, 0);
  EXPECT_EQ(spec_suites(),
            (std::vector<std::string>{"collectives", "compute", "links", "storage"}));
  EXPECT_TRUE(spec_suite_metrics("bogus").empty());
}

TEST(Spec, DataChecksNeedNoFigure) {
  json j = minimal_spec();
  j["checks"] = {{{"id", "data"}, {"kind", "data"}, {"source", "verification"}}};
  const Spec spec = spec_from_json(j, "my.json");
  EXPECT_EQ(spec.checks[0].kind, CheckKind::data);
  EXPECT_TRUE(spec.checks[0].suite.empty());
}

TEST(Spec, MetricDirectionAndUnit) {
  EXPECT_TRUE(lower_is_better("time_us"));
  EXPECT_TRUE(lower_is_better("latency_us"));
  EXPECT_TRUE(lower_is_better("median_s"));
  EXPECT_FALSE(lower_is_better("gbps"));
  EXPECT_FALSE(lower_is_better("busbw_gbps"));
  EXPECT_FALSE(lower_is_better("tflops"));
  EXPECT_EQ(metric_unit("busbw_gbps"), "GB/s");
  EXPECT_EQ(metric_unit("tflops"), "TFLOP/s");
  EXPECT_EQ(metric_unit("latency_us"), "us");
}

TEST(SpecLocator, EnvironmentOverridesAndNamesResolve) {
  const fs::path dir = fs::temp_directory_path() / ("cb-specs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "mine.json") << minimal_spec().dump();
  ::setenv("CLUSTERBENCH_SPECS_DIR", dir.c_str(), 1);
  EXPECT_EQ(specs_directory(), dir.string());
  EXPECT_EQ(resolve_spec_argument("mine"), (dir / "mine.json").string());
  try {
    resolve_spec_argument("h900");
    ADD_FAILURE() << "unknown spec accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--spec: unknown spec 'h900'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("mine"), std::string::npos);
  }
  ::unsetenv("CLUSTERBENCH_SPECS_DIR");
  fs::remove_all(dir);
  // Without the variable a test binary (not installed) falls back to the source tree.
  EXPECT_EQ(fs::path(resolve_spec_argument("h200-sxm")).filename(), "h200-sxm.json");
  EXPECT_THROW(resolve_spec_argument("no/such/spec.json"), InputError);
}

TEST(RecordMatch, ConstraintsCompareValuesListsAndRanges) {
  const json four_g = 4294967296LL;
  EXPECT_TRUE(constraint_matches(4294967296LL, &four_g));
  EXPECT_TRUE(constraint_matches(4294967296.0, &four_g));
  EXPECT_FALSE(constraint_matches(4294967295LL, &four_g));
  EXPECT_TRUE(constraint_matches(json({{"min", 1 << 30}}), &four_g));
  EXPECT_FALSE(constraint_matches(json({{"max", 1 << 30}}), &four_g));
  const json bf16 = "bf16";
  EXPECT_TRUE(constraint_matches(json::array({"fp16", "bf16"}), &bf16));
  EXPECT_FALSE(constraint_matches("fp16", &bf16));
  EXPECT_FALSE(constraint_matches(json({{"min", 1}}), &bf16));
  EXPECT_FALSE(constraint_matches("bf16", nullptr));
  EXPECT_TRUE(params_match({{"dtype", "bf16"}}, {{"dtype", "bf16"}, {"m", 8192}}));
  EXPECT_FALSE(params_match({{"dtype", "bf16"}, {"memory", "pinned"}}, {{"dtype", "bf16"}}));
}

TEST(RecordMatch, MeasuresValuePerGpuAndSlowestLink) {
  Record r = test::gpu_record("compute", "copy", {100, 110, 90, 100});
  Expectation e;
  e.suite = "compute";
  e.case_name = "copy";
  e.metric = "gbps";
  e.gpus = 4;
  EXPECT_TRUE(record_matches(e, r));
  EXPECT_DOUBLE_EQ(*measure_record(e, r, nullptr), 360);
  e.measure = Measure::per_gpu;
  EXPECT_DOUBLE_EQ(*measure_record(e, r, nullptr), 90);
  e.gpus = json({{"min", 8}});
  EXPECT_FALSE(record_matches(e, r));

  e.measure = Measure::matrix_min;
  std::string why;
  EXPECT_FALSE(measure_record(e, r, &why));
  EXPECT_EQ(why, "no link matrix (extra.matrix)");
  r.extra["matrix"] = {{nullptr, 370, 371}, {372, nullptr, 250}, {369, 373, 1}};
  EXPECT_DOUBLE_EQ(*measure_record(e, r, nullptr), 250); // the diagonal is not a link

  e.measure = Measure::value;
  e.metric = "busbw_gbps";
  EXPECT_FALSE(measure_record(e, r, &why));
  EXPECT_EQ(why, "no metric 'busbw_gbps'");
}

TEST(RecordMatch, DescribesAndPicksThePrimaryMetric) {
  Record r = test::gpu_record("compute", "copy", {1, 1});
  r.params = {{"bytes", 1 << 30}, {"dtype", "float"}};
  EXPECT_EQ(describe_record(r), "compute/copy bytes=1G dtype=float gpus=2");
  // The params as every command prints them (results/params_text.hpp).
  r.params = {{"bytes", 67108864u}, {"in_place", false}};
  EXPECT_EQ(describe_record(r), "compute/copy bytes=64M out-of-place gpus=2");
  r.params = nlohmann::json::object();
  EXPECT_EQ(describe_record(r), "compute/copy gpus=2");
  EXPECT_EQ(primary_metric({{"time_us", 3}, {"algbw_gbps", 1}, {"busbw_gbps", 2}}), "busbw_gbps");
  EXPECT_EQ(primary_metric({{"time_us", 3}, {"gbps", 1}}), "gbps");
  EXPECT_EQ(primary_metric({{"latency_us", 3}}), "latency_us");
  EXPECT_EQ(primary_metric({{"widgets", 3}}), "");
}

TEST(Spec, FiguresThatWouldWrapOrAreAbsurdAreRefused) {
  json j = minimal_spec();
  j["schema_version"] = 4294967297ULL; // 1 once wrapped to 32 bits
  EXPECT_NE(spec_error(j).find("field 'schema_version' must be 1"), std::string::npos);
  j = minimal_spec();
  j["fleet"] = {{"min_peers", 4294967299ULL}}; // 3 once wrapped
  EXPECT_NE(spec_error(j).find("'min_peers' must be an integer in 3..1000000"), std::string::npos);
  j = minimal_spec();
  j["checks"][0]["expected"] = 1e300;
  EXPECT_NE(spec_error(j).find("field 'expected' must be in (0, 1e12]"), std::string::npos);
  j = minimal_spec();
  j["checks"][0]["id"] = std::string(10000, 'x') + "\n";
  j["checks"][0]["suite"] = "nope";
  const std::string error = spec_error(j);
  EXPECT_LT(error.size(), 300u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(Spec, ANumberOverflowInASpecFileIsBadInputNamingTheFile) {
  const fs::path path = fs::temp_directory_path() / ("cb-spec-" + std::to_string(::getpid()));
  json j = minimal_spec();
  std::ofstream(path) << std::string(j.dump()).replace(j.dump().find("\"copy\""), 6, "[1e400]");
  try {
    load_spec_file(path.string());
    ADD_FAILURE() << "loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
  fs::remove(path);
}

TEST(Spec, ASchemaOfTheWrongTypeIsNeitherAResultsFileNorASpec) {
  EXPECT_FALSE(is_results_document({{"schema", 18446744073709551615ULL}}));
  EXPECT_FALSE(is_results_document(json::array()));
  EXPECT_TRUE(is_results_document({{"schema", "clusterbench.results"}}));
  json j = minimal_spec();
  j["schema"] = 5;
  EXPECT_NE(spec_error(j).find("field 'schema' must be a string"), std::string::npos);
}
