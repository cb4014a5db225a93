// Record states are types inside the tools and the schema's words outside: every word converts
// both ways, an unknown word is refused, JSON carries the word (never the enum's number), and a
// results file written by an earlier version loads with the states it says.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.hpp"
#include "results/results_io.hpp"

using namespace cb;

TEST(RecordState, EveryWordConvertsBothWays) {
  for (const char* w : {"ok", "noisy", "skipped", "failed"}) {
    const auto s = record_status_from(w);
    ASSERT_TRUE(s) << w;
    EXPECT_STREQ(to_string(*s), w);
  }
  for (const char* w : {"pass", "fail", "skipped"}) {
    const auto c = data_check_from(w);
    ASSERT_TRUE(c) << w;
    EXPECT_STREQ(to_string(*c), w);
  }
  EXPECT_FALSE(record_status_from("OK"));
  EXPECT_FALSE(record_status_from("pass"));
  EXPECT_FALSE(data_check_from("noisy"));
  EXPECT_FALSE(data_check_from(""));
}

TEST(RecordState, JsonCarriesTheWord) {
  const nlohmann::json j = {{"status", RecordStatus::noisy}, {"check", DataCheck::fail}};
  EXPECT_EQ(j.dump(), R"({"check":"fail","status":"noisy"})");
  EXPECT_EQ(j["status"].get<RecordStatus>(), RecordStatus::noisy);
  EXPECT_EQ(j["check"].get<DataCheck>(), DataCheck::fail);
  EXPECT_THROW(nlohmann::json("fine").get<RecordStatus>(), InputError);
  EXPECT_THROW(nlohmann::json(1).get<DataCheck>(), InputError);
  std::ostringstream text;
  text << RecordStatus::skipped << " " << DataCheck::pass;
  EXPECT_EQ(text.str(), "skipped pass");
}

TEST(RecordState, AFileWrittenBeforeLoadsWithItsStates) {
  // A real run's file from before the states were typed (host backend, 2 ranks, --quick).
  const std::string path =
      std::string(CB_SOURCE_DIR) + "/tests/fixtures/imports/measured_host_np2_quick.json";
  std::ifstream in(path);
  const nlohmann::json raw = nlohmann::json::parse(in);
  const ResultsFile loaded = load_results(path);
  ASSERT_EQ(loaded.records.size(), raw["records"].size());
  std::size_t noisy = 0;
  for (std::size_t i = 0; i < loaded.records.size(); ++i) {
    const nlohmann::json written = record_to_json(loaded.records[i]);
    EXPECT_EQ(written["status"], raw["records"][i]["status"]) << i;
    EXPECT_EQ(written["check"], raw["records"][i]["check"]) << i;
    noisy += loaded.records[i].status == RecordStatus::noisy;
  }
  EXPECT_GT(noisy, 0u); // the file holds more than one state
}
