#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

#include "slurm/shell_word.hpp"

using cb::quote_shell_word;

TEST(QuoteShellWord, WrapsInSingleQuotes) {
  EXPECT_EQ(quote_shell_word("gpu"), "'gpu'");
  EXPECT_EQ(quote_shell_word(""), "''");
  EXPECT_EQ(quote_shell_word("$HOME `id` $(id) ; | & > *"), "'$HOME `id` $(id) ; | & > *'");
}

TEST(QuoteShellWord, EscapesSingleQuotes) {
  EXPECT_EQ(quote_shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(quote_shell_word("'"), "''\\'''");
}

// The real test: a shell reads each quoted word back as exactly the original.
TEST(QuoteShellWord, ShellReadsBackTheOriginal) {
  const std::array<std::string, 6> words = {"plain",
                                            "two words",
                                            "it's",
                                            "$(touch /nonexistent/x)",
                                            "back\\slash \"dq\" ;&|<>*?[]{}~#!",
                                            "line\nbreak"};
  for (const auto& word : words) {
    std::string command = "printf '%s' " + quote_shell_word(word);
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    std::array<char, 256> buffer{};
    while (std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe))
      output.append(buffer.data(), n);
    EXPECT_EQ(pclose(pipe), 0);
    EXPECT_EQ(output, word) << command;
  }
}
