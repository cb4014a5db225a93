// The second pass's verdicts and notes, read leniently: an entry of the wrong shape is left out,
// a count that is not one reads 0, the metric falls back to the record's.
#include <gtest/gtest.h>

#include "results/second_pass_record.hpp"

namespace {

using nlohmann::json;

json pass_extra() {
  return {{"second_pass",
           {{"metric", "gbps"},
            {"reference", 10.0},
            {"verdicts",
             {{{"kind", "node"}, {"host", "n3"}, {"gbps", 3.1}},
              {{"kind", "link"}, {"hosts", {"n1", "n2"}}, {"gbps", 4.0}},
              {{"kind", "link"}, {"hosts", {"n1"}}},
              {{"kind", "rack"}, {"host", "r1"}},
              "not an object"}},
            {"better_than_reference", {{"pairs", 3}, {"hosts", {"n4", 7, "n5"}}}},
            {"split", {{"pairs", 4}, {"groups", {{{"hosts", {"n1", "n2"}}}, {{"nodes", {0}}}}}}},
            {"unresolved", {{0, 2}, {2, 5}}},
            {"beyond_cap", {{"end_retests", 0}, {"pair_retests", 2}}}}}};
}

} // namespace

TEST(SecondPassRecord, ReadsVerdictsAndNotesLeavingOutWhatIsMisshapen) {
  const auto pass = cb::second_pass_from_json(pass_extra(), "latency_us");
  ASSERT_TRUE(pass);
  EXPECT_EQ(pass->metric, "gbps");
  EXPECT_DOUBLE_EQ(pass->reference, 10.0);
  ASSERT_EQ(pass->verdicts.size(), 2u); // a one-host link, a rack and a string are left out
  EXPECT_FALSE(pass->verdicts[0].is_link);
  EXPECT_EQ(pass->verdicts[0].host, "n3");
  EXPECT_DOUBLE_EQ(pass->verdicts[0].value, 3.1);
  EXPECT_TRUE(pass->verdicts[1].is_link);
  EXPECT_EQ(pass->verdicts[1].host, "n1");
  EXPECT_EQ(pass->verdicts[1].to_host, "n2");
  EXPECT_EQ(pass->better_pairs, 3u);
  EXPECT_EQ(pass->better_hosts, (std::vector<std::string>{"n4", "n5"}));
  EXPECT_EQ(pass->better_listed, 3u);
  EXPECT_EQ(pass->split_pairs, 4u);
  ASSERT_EQ(pass->split_groups.size(), 1u);
  EXPECT_EQ(pass->unresolved, 2u);
  EXPECT_TRUE(pass->beyond_cap);
}

TEST(SecondPassRecord, FallsBackAndReadsBadCountsAsNone) {
  json extra = pass_extra();
  auto& pass = extra["second_pass"];
  pass.erase("metric");
  pass["reference"] = "ten";
  pass["better_than_reference"]["pairs"] = -3;
  pass["split"]["pairs"] = 2.5;
  pass["unresolved"] = "none";
  pass["beyond_cap"] = {{"end_retests", "x"}};
  const auto read = cb::second_pass_from_json(extra, "latency_us");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->metric, "latency_us");
  EXPECT_DOUBLE_EQ(read->reference, 0.0);
  EXPECT_DOUBLE_EQ(read->verdicts[0].value, 0.0); // no latency_us in the verdict
  EXPECT_EQ(read->better_pairs, 0u);
  EXPECT_EQ(read->split_pairs, 0u);
  EXPECT_EQ(read->unresolved, 0u);
  EXPECT_FALSE(read->beyond_cap);
  EXPECT_FALSE(cb::second_pass_from_json(json{{"second_pass", "x"}}, "gbps"));
  EXPECT_FALSE(cb::second_pass_from_json(json::array(), "gbps"));
}

// A pass that measured its pairs but did not judge them (the host backend's both-ways pair test):
// nothing it lists is read, so a verdict in a hand-edited file is not acted on. Only an explicit
// false says so: a file from before the field was judged.
TEST(SecondPassRecord, APassNotJudgedReadsNoVerdictsAndNoNotes) {
  json extra = pass_extra();
  extra["second_pass"]["judged"] = false;
  extra["second_pass"]["why"] = "both ways at once over the host backend's MPI transport";
  const auto read = cb::second_pass_from_json(extra, "gbps");
  ASSERT_TRUE(read);
  EXPECT_FALSE(read->judged);
  EXPECT_EQ(read->why, "both ways at once over the host backend's MPI transport");
  EXPECT_TRUE(read->verdicts.empty());
  EXPECT_EQ(read->better_pairs, 0u);
  EXPECT_EQ(read->split_pairs, 0u);
  EXPECT_EQ(read->unresolved, 0u);
  for (const json& unclear : {json("false"), json(0), json(true)}) {
    extra["second_pass"]["judged"] = unclear;
    const auto judged = cb::second_pass_from_json(extra, "gbps");
    EXPECT_TRUE(judged->judged) << unclear.dump();
    EXPECT_EQ(judged->verdicts.size(), 2u) << unclear.dump();
  }
}
