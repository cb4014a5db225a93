#include <gtest/gtest.h>

#include "k8s/yaml_text.hpp"

using namespace cb;
using nlohmann::ordered_json;

TEST(YamlText, BlockStyleInOrderWithEveryStringQuoted) {
  const ordered_json doc = {{"kind", "MPIJob"},
                            {"spec", {{"n", 8}, {"on", true}, {"yes", "yes"}, {"empty", {}}}},
                            {"list", {{{"name", "a"}, {"value", "1e3"}}, "x"}},
                            {"nvidia.com/gpu", 8},
                            {"odd key", "#not a comment"}};
  EXPECT_EQ(to_yaml(doc), "kind: \"MPIJob\"\n"
                          "spec:\n"
                          "  \"n\": 8\n" // YAML 1.1's "no"
                          "  \"on\": true\n"
                          "  \"yes\": \"yes\"\n"
                          "  empty: null\n"
                          "list:\n"
                          "  - name: \"a\"\n"
                          "    value: \"1e3\"\n"
                          "  - \"x\"\n"
                          "nvidia.com/gpu: 8\n"
                          "\"odd key\": \"#not a comment\"\n");
}

TEST(YamlText, ScriptsAreLiteralBlocksOnlyWhenYamlKeepsThemExactly) {
  EXPECT_EQ(to_yaml(ordered_json{{"s", "set -u\necho 'a  b'\n"}}),
            "s: |\n  set -u\n  echo 'a  b'\n");
  // A line YAML would change (leading blanks, an empty line, a tab, no final newline): quoted.
  EXPECT_EQ(to_yaml(ordered_json{{"s", "  a\nb\n"}}), "s: \"  a\\nb\\n\"\n");
  EXPECT_EQ(to_yaml(ordered_json{{"s", "a\n\nb\n"}}), "s: \"a\\n\\nb\\n\"\n");
  EXPECT_EQ(to_yaml(ordered_json{{"s", "a\tb\nc\n"}}), "s: \"a\\tb\\nc\\n\"\n");
  EXPECT_EQ(to_yaml(ordered_json{{"s", "a\nb"}}), "s: \"a\\nb\"\n");
  // Bytes that are not UTF-8 would make the block invalid YAML: never a literal block.
  EXPECT_EQ(to_yaml(ordered_json{{"s", "a\xff\nb\n"}}).rfind("s: \"", 0), 0u);
  EXPECT_EQ(to_yaml(ordered_json{{"e", ordered_json::object()}, {"l", ordered_json::array()}}),
            "e: {}\nl: []\n");
}
