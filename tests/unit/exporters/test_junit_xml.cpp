// The JUnit writer: escaping of every text, the counts, one testcase per key.
#include <gtest/gtest.h>

#include "exporters/junit_xml.hpp"

namespace cb {
namespace {

TEST(JUnitXml, TextEscapesMarkup) {
  EXPECT_EQ(xml_escape("a < b && c > d", false), "a &lt; b &amp;&amp; c &gt; d");
  EXPECT_EQ(xml_escape("say \"hi\"\nnext", false), "say \"hi\"\nnext");
  EXPECT_EQ(xml_escape("]]>", false), "]]&gt;");
}

TEST(JUnitXml, AttributesKeepQuotesAndLineBreaks) {
  EXPECT_EQ(xml_escape("say \"hi\"", true), "say &quot;hi&quot;");
  EXPECT_EQ(xml_escape("a\nb\tc\rd", true), "a&#10;b&#9;c&#13;d");
}

TEST(JUnitXml, CharactersXmlCannotHoldAreReplaced) {
  EXPECT_EQ(xml_escape(std::string("a") + '\0' +
                           "b\x01"
                           "c\x7F",
                       false),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD"
            "c\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("x\xFFy", false), "x\xEF\xBF\xBDy");
  EXPECT_EQ(xml_escape("x\xEF\xBF\xBFy", false), "x\xEF\xBF\xBDy"); // U+FFFF
  EXPECT_EQ(xml_escape("\xE2\x9C\x93 ok", false), "\xE2\x9C\x93 ok");
}

JUnitSuite sample_suite() {
  JUnitSuite suite;
  suite.name = "clusterbench check";
  suite.properties = {{"baseline", "base.json"}};
  suite.cases.push_back({"collectives.all_reduce", "a", JUnitResult::passed, "", "", ""});
  suite.cases.push_back({"collectives.all_reduce", "b <big>", JUnitResult::failure,
                         "slower \"10 %\"", "regression", "time 1 ms -> 1.1 ms"});
  suite.cases.push_back({"compute.gemm", "c", JUnitResult::skipped, "too few samples", "", ""});
  return suite;
}

TEST(JUnitXml, DocumentCountsAndElements) {
  const std::string xml =
      junit_xml("clusterbench check", {sample_suite()}, "check a b: regression");
  EXPECT_EQ(xml.rfind(std::string(kJUnitFileStart), 0), 0u) << xml;
  EXPECT_NE(xml.find("<testsuites name=\"clusterbench check\" tests=\"3\" failures=\"1\" "
                     "errors=\"0\" skipped=\"1\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<property name=\"baseline\" value=\"base.json\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"a\" classname=\"collectives.all_reduce\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"b &lt;big&gt;\" classname=\"collectives.all_reduce\">\n"
                     "      <failure message=\"slower &quot;10 %&quot;\" type=\"regression\">"
                     "time 1 ms -&gt; 1.1 ms</failure>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<skipped message=\"too few samples\"/>"), std::string::npos);
}

TEST(JUnitXml, TheHeadingCannotCloseItsComment) {
  const std::string xml = junit_xml("n", {}, "a --> <b> --x-");
  const auto end = xml.find("-->");
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(xml.find("<testsuites"), xml.find("\n", end) + 1) << xml;
  EXPECT_EQ(xml.substr(0, end).find("--", kJUnitFileStart.size()), std::string::npos) << xml;
}

TEST(JUnitXml, CasesOfOneKeyAreNumberedSoNoneIsDropped) {
  JUnitSuite suite;
  suite.name = "s";
  for (int i = 0; i < 3; ++i)
    suite.cases.push_back({"qualify.checks.x", "x on r", JUnitResult::passed, "", "", ""});
  const std::string xml = junit_xml("n", {suite}, "h");
  EXPECT_NE(xml.find("name=\"x on r\" "), std::string::npos);
  EXPECT_NE(xml.find("name=\"x on r (2)\" "), std::string::npos);
  EXPECT_NE(xml.find("name=\"x on r (3)\" "), std::string::npos);
}

} // namespace
} // namespace cb
