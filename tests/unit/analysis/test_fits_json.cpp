#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/fits_json.hpp"
#include "analysis_test_data.hpp"
#include "results/results_io.hpp"

using namespace cb;
using test::make_record;

namespace {

ResultsFile scaling_results() {
  ResultsFile f;
  f.run = {{"id", "t"}};
  for (int n : {1, 2, 4, 8, 16}) {
    f.records.push_back(make_record("compute", "triad", {{"bytes", 1 << 26}}, n,
                                    {{"gbps", usl_throughput(0.02, 0.001, 100, n)}}));
  }
  for (int n : {2, 4}) {
    for (double bytes : {1e3, 1e6}) {
      f.records.push_back(
          test::all_reduce_record(bytes, n, test::ring_time(5e-6, 1e-10, bytes, n)));
    }
  }
  f.records.push_back(make_record("links", "p2p", {}, 2, {{"latency_us", 2.0}}));
  return f;
}

} // namespace

TEST(FitsJson, CurvesCarryTheLayoutPlotsRead) {
  const auto analysis = analyse_scaling(scaling_results());
  EXPECT_TRUE(analysis.has_fits());
  const auto j = scaling_analysis_to_json(analysis);
  ASSERT_EQ(j["curves"].size(), 4u); // triad, all_reduce at 2 sizes, p2p latency
  const auto& triad = j["curves"][0];
  EXPECT_EQ(triad["suite"], "compute");
  EXPECT_EQ(triad["case"], "triad");
  EXPECT_EQ(triad["metric"], "gbps");
  EXPECT_EQ(triad["gpus"], (std::vector<int>{1, 2, 4, 8, 16}));
  EXPECT_EQ(triad["values"].size(), 5u);
  EXPECT_EQ(triad["efficiency"][0], 1.0);
  EXPECT_EQ(triad["efficiency_base_gpus"], 1);
  EXPECT_NEAR(triad["usl"]["alpha"].get<double>(), 0.02, 1e-8);
  EXPECT_NEAR(triad["usl"]["beta"].get<double>(), 0.001, 1e-10);
  EXPECT_NEAR(triad["usl"]["gamma"].get<double>(), 100, 1e-6);
  EXPECT_EQ(triad["usl"]["method"], "nls");
  EXPECT_TRUE(triad["usl"]["n_peak"].is_number());
  EXPECT_EQ(triad["usl_linearised"]["method"], "linearised");
  EXPECT_TRUE(triad["amdahl"]["serial_fraction"].is_number());
  EXPECT_TRUE(triad["usl"]["warnings"].is_array());

  // Two GPU counts: efficiency but no scaling law, with the reason.
  const auto& all_reduce = j["curves"][1];
  EXPECT_EQ(all_reduce["metric"], "busbw_gbps");
  EXPECT_TRUE(all_reduce["usl"]["alpha"].is_null());
  EXPECT_FALSE(all_reduce["usl"]["warnings"].empty());
  EXPECT_EQ(all_reduce["efficiency"][0], 1.0);

  // Latency: the curve is kept for plots, no scaling law.
  const auto& latency = j["curves"][3];
  EXPECT_EQ(latency["metric"], "latency_us");
  EXPECT_FALSE(latency.contains("usl"));
  EXPECT_TRUE(latency["efficiency"][0].is_null());

  ASSERT_EQ(j["alpha_beta"]["ring_all_reduce"].size(), 1u);
  EXPECT_NEAR(j["alpha_beta"]["ring_all_reduce"][0]["alpha_us"].get<double>(), 5, 1e-6);
  EXPECT_NEAR(j["alpha_beta"]["ring_all_reduce"][0]["bandwidth_gbps"].get<double>(), 10, 1e-6);
  EXPECT_EQ(j["alpha_beta"]["per_gpu_count"].size(), 2u);
}

TEST(FitsJson, StoreKeepsOtherKeysAndSurvivesTheSchemaRoundTrip) {
  ResultsFile f = scaling_results();
  f.fits = {{"note", "kept"}, {"curves", "replaced"}};
  store_fits(f, analyse_scaling(f));
  EXPECT_EQ(f.fits["note"], "kept");
  EXPECT_TRUE(f.fits["curves"].is_array());
  const ResultsFile back = results_from_json(results_to_json(f), "round-trip");
  EXPECT_EQ(back.fits, f.fits);
}

TEST(FitsJson, NothingFittable) {
  ResultsFile f;
  f.records.push_back(make_record("compute", "copy", {}, 1, {{"gbps", 1.0}}));
  f.records.push_back(make_record("compute", "copy", {}, 2, {{"gbps", 2.0}}));
  EXPECT_FALSE(analyse_scaling(f).has_fits());
  EXPECT_FALSE(analyse_scaling(ResultsFile{}).has_fits());
}

TEST(FitsJson, FailedFitsAreNullsNotNumbers) {
  UslFit fit;
  fit.warnings.push_back("needs at least 3 points");
  const auto j = usl_to_json(fit);
  for (const char* key : {"alpha", "beta", "gamma", "n_peak", "r2"})
    EXPECT_TRUE(j[key].is_null()) << key;
  AmdahlFit amdahl;
  EXPECT_TRUE(amdahl_to_json(amdahl)["serial_fraction"].is_null());
}

// What `fit` stores for curves the laws cannot describe: the numbers and why not to trust them.
TEST(FitsJson, WeakFitsCarryTheirWarnings) {
  ResultsFile f;
  f.run = {{"id", "t"}};
  // Super-linear (efficiency 1.1 to 1.3) and measured at three counts only.
  const std::vector<std::pair<int, double>> points{{1, 10}, {2, 22}, {4, 52}};
  for (const auto& [n, gbps] : points)
    f.records.push_back(make_record("compute", "copy", {{"bytes", 1 << 26}}, n, {{"gbps", gbps}}));
  store_fits(f, analyse_scaling(f));
  const auto& curve = f.fits["curves"][0];
  const auto warnings = curve["usl"]["warnings"].get<std::vector<std::string>>();
  auto has = [&](const std::string& text) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("held at their lower bound 0")) << curve["usl"].dump();
  EXPECT_TRUE(has("3 informative GPU counts for 3 parameters")) << curve["usl"].dump();
  EXPECT_TRUE(curve["usl"]["alpha"].is_number()); // a warning beside the number, not instead
  const auto amdahl = curve["amdahl"]["warnings"].get<std::vector<std::string>>();
  ASSERT_FALSE(amdahl.empty()) << curve["amdahl"].dump();
  EXPECT_NE(amdahl[0].find("superlinear"), std::string::npos);
  // The section survives the schema round trip with its warnings.
  const std::string path = ::testing::TempDir() + "/cb-weak-fits.json";
  write_results_atomic(f, path);
  EXPECT_EQ(load_results(path).fits["curves"][0]["usl"]["warnings"], curve["usl"]["warnings"]);
}
