// A pair test's record fields (results/pair_test_record.hpp): the round trip, and every
// impossible value refused naming the file and the field.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "results/pair_test_record.hpp"

namespace {

using nlohmann::json;

json screen_extra() {
  return {{"schedule", "screen"},
          {"matrix_of", "nodes"},
          {"matrix_members", {"a", "b", "c", "d"}},
          {"matrix_metric", "gbps"},
          {"observations",
           {{"layout", "one entry per one-way figure"},
            {"src", {0, 1, 2, 3}},
            {"dst", {1, 2, 3, 0}},
            {"rail", {0, 1, 0, 1}},
            {"round", {0, 0, 1, 1}},
            {"value", {400.0, 398.5, 133.0, 401.0}}}},
          {"screen",
           {{"groups", "sqrt"},
            {"group_of_node", {0, 0, 1, 1}},
            {"group_names", {"group0", "group1"}},
            {"tests", 6},
            {"rounds", 2},
            {"k_inside", 4},
            {"k_across", 2},
            {"k_confirm", 2},
            {"notes", {"one note"}}}}};
}

std::string refusal(const json& extra) {
  try {
    cb::pair_test_from_json(extra, "run.json");
  } catch (const cb::InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(PairTestRecord, AScreenRecordRoundTrips) {
  const cb::PairTestRecord r = cb::pair_test_from_json(screen_extra(), "run.json");
  EXPECT_EQ(r.schedule, "screen");
  ASSERT_EQ(r.observations.size(), 4u);
  EXPECT_EQ(r.observations[2].src, 2u);
  EXPECT_EQ(r.observations[2].dst, 3u);
  EXPECT_EQ(r.observations[3].rail, 1u);
  EXPECT_EQ(r.observations[3].round, 1u);
  EXPECT_DOUBLE_EQ(r.observations[2].value, 133.0);
  ASSERT_TRUE(r.screen);
  EXPECT_EQ(r.screen->group_of_node, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(r.screen->k_inside, 4);
  EXPECT_FALSE(r.has_matrix());
  const cb::PairTestRecord again = cb::pair_test_from_json(cb::pair_test_to_json(r), "again.json");
  EXPECT_EQ(cb::pair_test_to_json(again), cb::pair_test_to_json(r));
  EXPECT_EQ(again.observations.size(), 4u);
  EXPECT_EQ(again.screen->group_names, r.screen->group_names);
}

TEST(PairTestRecord, AMatrixAndItsRetestsRoundTrip) {
  json extra = {{"schedule", "rounds"},
                {"matrix_of", "nodes"},
                {"matrix_members", {"a", "b", "c"}},
                {"matrix_metric", "latency_us"},
                {"matrix", {{nullptr, 5.0, 6.0}, {5.5, nullptr, 5.2}, {9.0, 5.1, nullptr}}},
                {"second_pass",
                 {{"end_retests", {{{"node", 2}, {"partner", 0}, {"latency_us", 8.5}}}},
                  {"pair_retests", {{{"nodes", {1, 2}}, {"latency_us", 5.3}}}}}}};
  const cb::PairTestRecord r = cb::pair_test_from_json(extra, "run.json");
  EXPECT_TRUE(r.lower_is_better());
  EXPECT_TRUE(std::isnan(r.cell(1, 1)));
  EXPECT_DOUBLE_EQ(r.cell(2, 0), 9.0);
  ASSERT_EQ(r.retests.size(), 2u);
  EXPECT_EQ(r.retests[0].a, 2u);
  EXPECT_DOUBLE_EQ(r.retests[1].value, 5.3);
  const cb::PairTestRecord again = cb::pair_test_from_json(cb::pair_test_to_json(r), "again.json");
  EXPECT_EQ(cb::pair_test_to_json(again), cb::pair_test_to_json(r));
}

TEST(PairTestRecord, ImpossibleValuesNameTheFileAndField) {
  json extra = screen_extra();
  extra["observations"]["dst"] = {1, 2, 3};
  EXPECT_NE(refusal(extra).find("run.json: extra.observations: src, dst, rail, round and value of "
                                "different lengths"),
            std::string::npos)
      << refusal(extra);
  extra = screen_extra();
  extra["observations"]["src"][1] = 4;
  EXPECT_NE(refusal(extra).find("run.json: extra.observations.src: index 4 out of range"),
            std::string::npos)
      << refusal(extra);
  extra = screen_extra();
  extra["observations"]["value"][0] = -1.0;
  EXPECT_NE(refusal(extra).find("run.json: extra.observations.value: a negative"),
            std::string::npos)
      << refusal(extra);
  extra = screen_extra();
  extra["screen"]["group_of_node"] = {0, 0, 1};
  EXPECT_NE(refusal(extra).find("extra.screen.group_of_node"), std::string::npos);
  extra = screen_extra();
  extra["screen"]["group_of_node"] = {0, 0, 1, 2};
  EXPECT_NE(refusal(extra).find("extra.screen.group_of_node: index 2 out of range"),
            std::string::npos)
      << refusal(extra);
  extra = screen_extra();
  extra["matrix"] = {{nullptr, 1.0}, {1.0, nullptr}};
  EXPECT_NE(refusal(extra).find("extra.matrix: not 4 rows"), std::string::npos) << refusal(extra);
  extra = screen_extra();
  extra["matrix_metric"] = "furlongs";
  EXPECT_NE(refusal(extra).find("extra.matrix_metric"), std::string::npos);
  extra = screen_extra();
  extra["observations"]["dst"][0] = 0;
  EXPECT_NE(refusal(extra).find("to itself"), std::string::npos);
  // A round past the screen's rounds (2 here), or past the figures when no screen says how many:
  // a number sizing per-round tables (2^31 of them hung qualify) is refused.
  extra = screen_extra();
  extra["observations"]["round"][0] = 2;
  EXPECT_NE(refusal(extra).find("extra.observations.round: index 2 out of range"),
            std::string::npos)
      << refusal(extra);
  extra["observations"]["round"][0] = 2147483648LL;
  extra["screen"]["rounds"] = 4000000000LL;
  EXPECT_NE(refusal(extra).find("extra.observations.round"), std::string::npos) << refusal(extra);
  extra.erase("screen");
  extra["observations"]["round"][0] = 3;
  EXPECT_EQ(refusal(extra), "");
  extra["observations"]["round"][0] = 4;
  EXPECT_NE(refusal(extra).find("extra.observations.round"), std::string::npos) << refusal(extra);
  extra = screen_extra();
  extra["matrix_members"] = {"a", 5, "c", "d"};
  EXPECT_NE(refusal(extra).find("extra.matrix_members"), std::string::npos);
  extra["matrix_members"] = {"a", json::object(), "c", "d"};
  EXPECT_NE(refusal(extra).find("a member without a host or a rank"), std::string::npos);
}

// A pair test writes each member as its leader rank's identity: its host, or only its rank when
// the run header holds the host.
TEST(PairTestRecord, MembersMayBeRankIdentities) {
  json extra = screen_extra();
  extra["matrix_members"] = {{{"rank", 0}, {"host", "a"}, {"device", 0}},
                             {{"rank", 8}},
                             "c",
                             {{"rank", 24}, {"host", "d"}}};
  const cb::PairTestRecord r = cb::pair_test_from_json(extra, "run.json");
  EXPECT_EQ(r.members, (std::vector<std::string>{"a", "", "c", "d"}));
  EXPECT_EQ(r.member_ranks, (std::vector<int>{0, 8, -1, 24}));
  const cb::PairTestRecord again = cb::pair_test_from_json(cb::pair_test_to_json(r), "again.json");
  EXPECT_EQ(again.members, r.members);
  EXPECT_EQ(again.member_ranks, r.member_ranks);
}
