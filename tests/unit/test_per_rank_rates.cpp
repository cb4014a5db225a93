// A rank's rates that its median_s gives are left out of the written entries and computed again
// by the loader (results/per_rank_rates.hpp); a list that contradicts the record is refused.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "results/per_rank_rates.hpp"
#include "results/results_io.hpp"
#include "results/results_text.hpp"

using namespace cb;
using nlohmann::json;

namespace {

constexpr double kBytes = 1048576;

// An all_reduce of 1 MiB on 4 ranks, each entry written as the engine writes it: median_s to 6
// digits and its rates from that median_s; tokens_per_s is a per-rank share (a quarter of the
// whole), which no reader can derive from the record's figure alone.
Record collective_record() {
  Record r;
  r.suite = "collectives";
  r.case_name = "all_reduce";
  r.params = {{"bytes", kBytes}, {"dtype", "float"}, {"op", "sum"}, {"in_place", false}};
  r.gpus = 4;
  r.nodes = 1;
  r.ranks_per_node = 4;
  r.samples_s = {1.02e-4, 1.1e-4, 0.97e-4, 1.05e-4, 1.01e-4};
  r.stats = summarize(r.samples_s);
  const double median = r.stats.median;
  r.metrics = {{"time_us", median * 1e6},
               {"algbw_gbps", kBytes / median / 1e9},
               {"busbw_gbps", 1.5 * kBytes / median / 1e9},
               {"tokens_per_s", 4 * 1000 / median}};
  r.per_rank = json::array();
  for (int rank = 0; rank < 4; ++rank) {
    const double own = round_significant(median * (0.9 + 0.0371 * rank), 6);
    r.per_rank.push_back({{"rank", rank},
                          {"median_s", own},
                          {"p99_s", own * 1.1},
                          {"algbw_gbps", round_significant(kBytes / own / 1e9, 6)},
                          {"busbw_gbps", round_significant(1.5 * kBytes / own / 1e9, 6)},
                          {"tokens_per_s", round_significant(1000 / own, 6)}});
  }
  r.check = DataCheck::pass;
  return r;
}

json written(const Record& r) {
  std::string text;
  append_record_json(text, r, InvalidUtf8::refuse);
  return json::parse(text);
}

std::string refusal(const json& j) {
  try {
    record_from_json(j, "r.json: records[0]");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(PerRankRates, RatesOfTheMedianAreLeftOutAndComeBackAsWritten) {
  const Record r = collective_record();
  EXPECT_EQ(derivable_rank_rates(r), (std::vector<std::string>{"algbw_gbps", "busbw_gbps"}));
  for (const json& j : {written(r), record_to_json(r)}) {
    EXPECT_EQ(j["per_rank_derived"], json({"algbw_gbps", "busbw_gbps"}));
    for (const json& entry : j["per_rank"]) {
      EXPECT_FALSE(entry.contains("algbw_gbps")) << entry;
      EXPECT_FALSE(entry.contains("busbw_gbps")) << entry;
      EXPECT_TRUE(entry.contains("tokens_per_s")) << entry; // a share, not the record's rate
    }
    EXPECT_EQ(record_from_json(j, "r.json").per_rank, r.per_rank);
  }
  // The two writers write the same bytes.
  EXPECT_EQ(written(r).dump(), record_to_json(r).dump());
}

TEST(PerRankRates, ARateThatOneRankDoesNotFollowStaysInEveryEntry) {
  Record r = collective_record();
  r.per_rank[2]["busbw_gbps"] = r.per_rank[2]["busbw_gbps"].get<double>() * 1.001;
  EXPECT_EQ(derivable_rank_rates(r), std::vector<std::string>{"algbw_gbps"});
  const json j = written(r);
  EXPECT_TRUE(j["per_rank"][0].contains("busbw_gbps"));
  EXPECT_EQ(record_from_json(j, "r.json").per_rank, r.per_rank);
  // One entry: nothing is derived (every figure of it is the record's own).
  Record alone = collective_record();
  alone.per_rank.erase(alone.per_rank.begin() + 1, alone.per_rank.end());
  EXPECT_TRUE(derivable_rank_rates(alone).empty());
  // An entry without a positive median_s: nothing is derived.
  r.per_rank[1]["median_s"] = 0.0;
  EXPECT_TRUE(derivable_rank_rates(r).empty());
  EXPECT_FALSE(written(r).contains("per_rank_derived"));
}

TEST(PerRankRates, AListThatContradictsTheRecordIsRefusedNamingIt) {
  const json good = written(collective_record());
  auto spoiled = [&](const std::function<void(json&)>& spoil) {
    json j = good;
    spoil(j);
    return refusal(j);
  };
  const std::vector<std::pair<std::function<void(json&)>, std::string>> cases = {
      {[](json& j) { j["per_rank_derived"] = {"gbps"}; }, "not among the record's metrics"},
      {[](json& j) {
         j["per_rank_derived"] = {"time_us", "median_s"};
       },
       "no rate"},
      {[](json& j) { j["per_rank"][1]["algbw_gbps"] = 3.0; }, "per_rank[1] has 'algbw_gbps'"},
      {[](json& j) { j["per_rank"][3].erase("median_s"); }, "per_rank[3] has no positive"},
      {[](json& j) { j["per_rank"][0]["median_s"] = 1e-300; }, "out of bounds"},
      {[](json& j) { j.erase("per_rank"); }, "without per_rank entries"},
      {[](json& j) { j["per_rank_derived"] = json::array(); }, "array of 1 to 64"},
      {[](json& j) {
         j["metrics"]["host"] = 1.0; // an identity dressed as a metric
         j["per_rank_derived"] = {"host"};
       },
       "no rate"},
      {[](json& j) {
         j["metrics"]["latency_us"] = 3.0; // a time: lower is better
         j["per_rank_derived"] = {"latency_us"};
       },
       "no rate"},
      {[](json& j) { j["metrics"]["algbw_gbps"] = 0.0; }, "not positive"},
      {[](json& j) { j["per_rank_derived"] = {"gbps\n\u001b[31m"}; }, "not among"},
  };
  for (const auto& [spoil, why] : cases) {
    const std::string error = spoiled(spoil);
    EXPECT_NE(error.find("per_rank_derived"), std::string::npos) << why << ": " << error;
    EXPECT_NE(error.find(why), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  EXPECT_EQ(refusal(good), "");
}
