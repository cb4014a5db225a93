#pragma once
// A small command-line parser shared by every subcommand: declared options and flags, positional
// arguments, everything after "--" kept verbatim. Unknown flags and missing values throw InputError
// naming the flag, so every command rejects bad usage the same way (exit 2).
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

class ArgParser {
public:
  ArgParser(std::string command, std::string synopsis);

  // --name VALUE (or --name=VALUE).
  ArgParser& option(const std::string& name, const std::string& value_name,
                    const std::string& help);
  // --name, no value.
  ArgParser& flag(const std::string& name, const std::string& help);
  // A heading the options declared after it are listed under in --help ("storage options").
  ArgParser& heading(const std::string& title);
  // Named positional argument, in order. Extra positionals are an error unless allow_extra().
  ArgParser& positional(const std::string& name, const std::string& help, bool required = true);
  ArgParser& allow_extra_positionals(bool allow = true);
  // Free text appended to --help (notes, examples).
  ArgParser& epilog(const std::string& text);

  // Throws InputError on bad usage. Returns false when --help was asked for (help() is printed by
  // the caller), true otherwise.
  bool parse(const std::vector<std::string>& args);

  bool has(const std::string& name) const;
  std::optional<std::string> get(const std::string& name) const;
  std::string get_or(const std::string& name, const std::string& fallback) const;
  // An option the command cannot do without: InputError "--NAME: required (WHAT)" when absent.
  std::string get_required(const std::string& name, const std::string& what) const;
  // Every value an option was given, in order (an option given more than once, as --axis).
  std::vector<std::string> get_all(const std::string& name) const;
  // Positional by declared name (empty if absent) and all positionals in order.
  std::string positional_value(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  // Everything after a bare "--".
  const std::vector<std::string>& passthrough() const { return passthrough_; }
  // The options as given, in order, for re-executing the command (without positionals).
  std::string help() const;

private:
  struct Spec {
    std::string name;
    std::string value_name; // empty for flags
    std::string help;       // a heading's title when the name is empty
  };
  struct PositionalSpec {
    std::string name;
    std::string help;
    bool required;
  };
  const Spec* find(const std::string& name) const;

  std::string command_;
  std::string synopsis_;
  std::string epilog_;
  std::vector<Spec> specs_;
  std::vector<PositionalSpec> positional_specs_;
  bool allow_extra_ = false;
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<std::string>> all_values_;
  std::vector<std::string> positionals_;
  std::vector<std::string> passthrough_;
};

} // namespace cb
