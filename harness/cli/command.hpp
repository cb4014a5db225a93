#pragma once
// The subcommand registry: each command lives in its own file and registers itself with
// CB_REGISTER_COMMAND, so adding a command is one file and one CMake line.
#include <functional>
#include <string>
#include <vector>

namespace cb {

struct CommandInfo {
  std::string name;
  std::string summary;
  // Receives the arguments after the command name; returns the exit code. Errors are thrown as
  // cb::Error and turned into exit codes by main.
  std::function<int(const std::vector<std::string>&)> main;
};

class CommandRegistry {
public:
  static CommandRegistry& instance();
  void add(CommandInfo info);
  const CommandInfo* find(const std::string& name) const;
  const std::vector<CommandInfo>& all() const { return commands_; }

private:
  std::vector<CommandInfo> commands_;
};

struct CommandRegistration {
  explicit CommandRegistration(CommandInfo info) {
    CommandRegistry::instance().add(std::move(info));
  }
};

} // namespace cb

#define CB_CONCAT_INNER(a, b) a##b
#define CB_CONCAT(a, b) CB_CONCAT_INNER(a, b)
#define CB_REGISTER_COMMAND(name, summary, fn)                                                     \
  static const ::cb::CommandRegistration CB_CONCAT(cb_command_, __LINE__) {                        \
    { name, summary, fn }                                                                          \
  }
