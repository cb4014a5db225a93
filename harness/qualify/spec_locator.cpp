#include "qualify/spec_locator.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"
#include "core/units.hpp"

#ifndef CB_SPECS_DIR
#error "CB_SPECS_DIR must name the source tree's harness/specs directory"
#endif

namespace cb {
namespace {

namespace fs = std::filesystem;

bool directory_exists(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

} // namespace

std::string specs_directory() {
  if (const char* env = std::getenv("CLUSTERBENCH_SPECS_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path() / ".." / "share" / "clusterbench" / "specs";
    if (directory_exists(installed))
      return fs::weakly_canonical(installed, ec).string();
  }
  return CB_SPECS_DIR;
}

std::vector<std::string> available_spec_names(const std::string& directory) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json")
      names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string resolve_spec_argument(const std::string& argument) {
  std::error_code ec;
  if (fs::is_regular_file(argument, ec))
    return argument;
  const bool looks_like_path =
      argument.find('/') != std::string::npos || fs::path(argument).extension() == ".json";
  if (looks_like_path)
    throw InputError("--spec: no such file '" + shown(argument) + "'");
  const std::string directory = specs_directory();
  const fs::path candidate = fs::path(directory) / (argument + ".json");
  if (fs::is_regular_file(candidate, ec))
    return candidate.string();
  const auto names = available_spec_names(directory);
  throw InputError("--spec: unknown spec '" + shown(argument) + "' (in " + directory + ": " +
                   (names.empty() ? std::string("none") : join(names, ", ")) +
                   "; or give a spec or results file)");
}

} // namespace cb
