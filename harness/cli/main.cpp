// clusterbench <command> [args]: dispatches to a registered command and maps errors to the
// documented exit codes (0 ok, 1 verdict failed, 2 bad input, 3 run failed).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/error.hpp"
#include "core/version.hpp"

namespace {

void print_usage() {
  auto commands = cb::CommandRegistry::instance().all();
  std::sort(commands.begin(), commands.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  std::cout << "clusterbench " << cb::kToolVersion
            << " - GPU cluster benchmarks and scaling analysis\n\n"
               "usage: clusterbench <command> [options]   (clusterbench <command> --help)\n\n"
               "commands:\n";
  for (const auto& c : commands) {
    std::cout << "  " << c.name << std::string(c.name.size() < 10 ? 10 - c.name.size() : 1, ' ')
              << c.summary << "\n";
  }
  std::cout << "\nexit codes: 0 success, 1 verdict failed, 2 bad input or usage, 3 run failed\n";
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_usage();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "clusterbench " << cb::kToolVersion << " (" << cb::git_sha() << ")\n";
    return 0;
  }
  const cb::CommandInfo* command = cb::CommandRegistry::instance().find(args[0]);
  if (!command) {
    std::cerr << "clusterbench: unknown command '" << cb::shown(args[0])
              << "' (see 'clusterbench --help')\n";
    return 2;
  }
  try {
    return command->main(std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const cb::Error& e) {
    std::cout.flush();
    // One line under 300 bytes, prefix included, whatever the message carries (cb::one_line).
    const std::string prefix = "clusterbench " + command->name + ": ";
    std::cerr << prefix << cb::one_line(e.what(), 299 - prefix.size()) << "\n";
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cout.flush();
    const std::string prefix = "clusterbench " + command->name + ": internal error: ";
    std::cerr << prefix << cb::one_line(e.what(), 299 - prefix.size()) << "\n";
    return 3;
  }
}
