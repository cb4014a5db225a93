#include "cli/command.hpp"

namespace cb {

CommandRegistry& CommandRegistry::instance() {
  static CommandRegistry registry;
  return registry;
}

void CommandRegistry::add(CommandInfo info) {
  commands_.push_back(std::move(info));
}

const CommandInfo* CommandRegistry::find(const std::string& name) const {
  for (const auto& c : commands_) {
    if (c.name == name)
      return &c;
  }
  return nullptr;
}

} // namespace cb
