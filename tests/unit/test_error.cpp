#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"

using cb::one_line;
using cb::shown;

TEST(Shown, KeepsPlainTextAndUtf8) {
  EXPECT_EQ(shown("busbw_gbps"), "busbw_gbps");
  EXPECT_EQ(shown("größe µs"), "größe µs");
}

TEST(Shown, EscapesControlBytesInvalidUtf8AndBackslashes) {
  EXPECT_EQ(shown("a\nb"), "a\\nb");
  EXPECT_EQ(shown("a\r\tb"), "a\\r\\tb");
  EXPECT_EQ(shown(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(shown("\x1b[31m"), "\\x1b[31m");
  EXPECT_EQ(shown("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(shown("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(shown("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a UTF-16 surrogate
  EXPECT_EQ(shown("\xe2\x82"), "\\xe2\\x82");          // cut sequence
  EXPECT_EQ(shown("a\\nb"), "a\\\\nb");                // a literal backslash-n stays tellable
}

TEST(Shown, CutsAfterMaxCharactersWithAnEllipsis) {
  const std::string long_value(1000, 'x');
  EXPECT_EQ(shown(long_value), std::string(80, 'x') + "\xE2\x80\xA6");
  EXPECT_EQ(shown(std::string(80, 'x')), std::string(80, 'x'));
  EXPECT_EQ(shown("ääää", 2), "ää\xE2\x80\xA6"); // characters, not bytes
  EXPECT_EQ(shown(std::string(50, '\n'), 3), "\\n\\n\\n\xE2\x80\xA6");
  // Wide characters are bounded in bytes too: 80 "…" would be 240 bytes.
  std::string ellipses;
  for (int i = 0; i < 200; ++i)
    ellipses += "\xE2\x80\xA6";
  EXPECT_LE(shown(ellipses).size(), 160u + 3);
}

TEST(OneLine, MakesAnyMessageOneLineUnderTheBound) {
  EXPECT_EQ(one_line("file.json: field 'gpus' is 0"), "file.json: field 'gpus' is 0");
  const std::string huge = "x.json: " + std::string(52'000'000, 'a') + "\nsecond line";
  const std::string line = one_line(huge);
  EXPECT_LE(line.size(), 280u);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.substr(line.size() - 3), "\xE2\x80\xA6");
  EXPECT_EQ(one_line("a\\nb"), "a\\nb"); // escapes made by shown() are not doubled
  EXPECT_EQ(one_line(std::string(280, 'y')), std::string(280, 'y'));
  // The cut never splits a UTF-8 character.
  const std::string cut = one_line(std::string(400, '\xc3') + "");
  EXPECT_LE(cut.size(), 280u);
  const std::string wide = one_line(std::string(300, 'a') + "ä");
  EXPECT_LE(wide.size(), 280u);
}
