#pragma once
// Runs the real clusterbench binary and captures its exit code, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace cb::testing {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string fixture(const std::string& name) {
  return std::string(CB_SOURCE_DIR) + "/tests/fixtures/verdicts/" + name;
}

// `arguments` is a shell fragment after the binary; fixture paths have no spaces.
inline CliResult run_clusterbench(const std::string& arguments, const std::string& env = "") {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem =
      (dir / ("cb-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++))).string();
  const std::string command = env + " " + CB_BINARY_DIR "/bin/clusterbench " + arguments + " >" +
                              stem + ".out 2>" + stem + ".err";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(stem + ".out");
  result.err = read_file(stem + ".err");
  std::filesystem::remove(stem + ".out");
  std::filesystem::remove(stem + ".err");
  return result;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Lines of text that are not empty.
inline int line_count(const std::string& text) {
  int lines = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines += !line.empty();
  return lines;
}

} // namespace cb::testing
