#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "results/json_file.hpp"

using namespace cb;

namespace {

std::string parse_error(const std::string& text) {
  try {
    parse_json_text(text, "in.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(JsonTreeBuilder, BuildsTheTreeNlohmannBuilds) {
  const std::string text =
      R"({"a": [1, -2, 3.5, "x", null, true, {"b": {}}, []], "c": {"d": [[]]}, "e": 18446744073709551615})";
  EXPECT_EQ(parse_json_text(text, "in.json"), nlohmann::json::parse(text));
  EXPECT_EQ(parse_json_text("7", "in.json"), nlohmann::json(7));
  EXPECT_EQ(parse_json_text("[]", "in.json"), nlohmann::json::array());
}

TEST(JsonTreeBuilder, ARepeatedKeyIsRefusedAtAnyDepth) {
  EXPECT_EQ(parse_error(R"({"a": 1, "a": 2})"),
            "in.json: key 'a' appears twice in one object; which of its values is meant cannot "
            "be told, so the file is refused");
  EXPECT_NE(parse_error(R"({"x": [{"k": 1}, {"k": 1, "m": {"z": 1, "z": 1}}]})").find("key 'z'"),
            std::string::npos);
  // The same key in different objects is no repetition.
  EXPECT_EQ(parse_error(R"({"k": {"k": 1}, "l": [{"k": 1}, {"k": 2}]})"), "");
}

TEST(JsonTreeBuilder, SyntaxErrorsAndOverflowsStayNotValidJson) {
  EXPECT_NE(parse_error(R"({"a": )").find("in.json: not valid JSON ("), std::string::npos);
  EXPECT_NE(parse_error("[1e400]").find("in.json: not valid JSON ("), std::string::npos);
}

// Another tool's output: a merge decides what a repeated key means, once its later value is whole,
// innermost first, knowing the name of the object it is in.
TEST(JsonTreeBuilder, AMergeGetsEachRepeatWholeWithItsObjectsName) {
  std::vector<std::string> calls;
  const RepeatedKeyMerge merge = [&](nlohmann::json& object, const std::string& name,
                                     const std::string& key, nlohmann::json later) {
    calls.push_back(name + "/" + key + "=" + later.dump());
    object[key] = std::move(later); // the later value wins here
  };
  const nlohmann::json j = parse_json_text(
      R"({"o": {"a": 1}, "o": {"a": 2, "a": [3, {"b": 4}]}, "l": [{"k": 1, "k": 2}]})", "in.json",
      merge);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0], R"(o/a=[3,{"b":4}])"); // inside the later "o", before "o" itself is whole
  EXPECT_EQ(calls[1], R"(/o={"a":[3,{"b":4}]})");
  EXPECT_EQ(calls[2], "/k=2"); // an array's element has no name of its own
  EXPECT_EQ(j, nlohmann::json::parse(R"({"o": {"a": [3, {"b": 4}]}, "l": [{"k": 2}]})"));
}
