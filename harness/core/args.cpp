#include "core/args.hpp"

#include <cctype>
#include <sstream>

#include "core/error.hpp"

namespace cb {

ArgParser::ArgParser(std::string command, std::string synopsis)
    : command_(std::move(command)), synopsis_(std::move(synopsis)) {
  flag("help", "show this help and exit");
}

ArgParser& ArgParser::option(const std::string& name, const std::string& value_name,
                             const std::string& help) {
  specs_.push_back({name, value_name, help});
  return *this;
}

ArgParser& ArgParser::flag(const std::string& name, const std::string& help) {
  specs_.push_back({name, "", help});
  return *this;
}

ArgParser& ArgParser::heading(const std::string& title) {
  specs_.push_back({"", "", title});
  return *this;
}

ArgParser& ArgParser::positional(const std::string& name, const std::string& help, bool required) {
  positional_specs_.push_back({name, help, required});
  return *this;
}

ArgParser& ArgParser::allow_extra_positionals(bool allow) {
  allow_extra_ = allow;
  return *this;
}

ArgParser& ArgParser::epilog(const std::string& text) {
  epilog_ = text;
  return *this;
}

const ArgParser::Spec* ArgParser::find(const std::string& name) const {
  for (const auto& spec : specs_) {
    if (!spec.name.empty() && spec.name == name)
      return &spec;
  }
  return nullptr;
}

bool ArgParser::parse(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      passthrough_.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (arg.size() > 2 && arg.rfind("--", 0) == 0) {
      std::string name = arg.substr(2);
      std::optional<std::string> inline_value;
      if (auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      const Spec* spec = find(name);
      if (!spec) {
        throw InputError("unknown flag --" + shown(name) + " (see '" + command_ + " --help')");
      }
      if (spec->value_name.empty()) {
        if (inline_value)
          throw InputError("--" + name + ": takes no value");
        values_[name] = "";
      } else if (inline_value) {
        values_[name] = *inline_value;
      } else {
        if (i + 1 >= args.size()) {
          throw InputError("--" + name + ": missing value " + spec->value_name);
        }
        // `--out --help` is a forgotten value, not a file named --help (which it once wrote);
        // a value that really starts with -- is written --out=--VALUE.
        if (const std::string& next = args[i + 1]; next.size() > 2 && next.rfind("--", 0) == 0) {
          throw InputError("--" + name + ": missing value " + spec->value_name + " (got the flag " +
                           shown(next, 40) + "; write --" + name + "=" + shown(next, 40) +
                           " for a value that starts with --)");
        }
        values_[name] = args[++i];
      }
      all_values_[name].push_back(values_[name]);
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-' && arg[1] != '-' &&
        !std::isdigit(static_cast<unsigned char>(arg[1]))) {
      throw InputError("unknown flag " + shown(arg) + " (see '" + command_ + " --help')");
    }
    positionals_.push_back(arg);
  }
  if (has("help"))
    return false;
  std::size_t required = 0;
  for (const auto& p : positional_specs_)
    required += p.required ? 1 : 0;
  if (positionals_.size() < required) {
    throw InputError("missing " + positional_specs_[positionals_.size()].name + " (see '" +
                     command_ + " --help')");
  }
  if (!allow_extra_ && positionals_.size() > positional_specs_.size()) {
    throw InputError("unexpected argument '" + shown(positionals_[positional_specs_.size()]) + "'");
  }
  return true;
}

bool ArgParser::has(const std::string& name) const {
  return values_.count(name) > 0;
}

std::optional<std::string> ArgParser::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end())
    return std::nullopt;
  return it->second;
}

std::string ArgParser::get_required(const std::string& name, const std::string& what) const {
  auto value = get(name);
  if (!value)
    throw InputError("--" + name + ": required (" + what + ")");
  return *value;
}

std::string ArgParser::get_or(const std::string& name, const std::string& fallback) const {
  auto value = get(name);
  return value ? *value : fallback;
}

std::string ArgParser::positional_value(const std::string& name) const {
  for (std::size_t i = 0; i < positional_specs_.size() && i < positionals_.size(); ++i) {
    if (positional_specs_[i].name == name)
      return positionals_[i];
  }
  return "";
}

std::vector<std::string> ArgParser::get_all(const std::string& name) const {
  const auto it = all_values_.find(name);
  return it == all_values_.end() ? std::vector<std::string>{} : it->second;
}

std::string ArgParser::help() const {
  std::ostringstream out;
  out << "usage: " << synopsis_ << "\n";
  if (!positional_specs_.empty()) {
    out << "\narguments:\n";
    for (const auto& p : positional_specs_) {
      out << "  " << p.name << std::string(p.name.size() < 22 ? 22 - p.name.size() : 1, ' ')
          << p.help << "\n";
    }
  }
  out << "\noptions:\n";
  for (const auto& spec : specs_) {
    if (spec.name.empty()) {
      out << "\n" << spec.help << ":\n";
      continue;
    }
    std::string left = "--" + spec.name + (spec.value_name.empty() ? "" : " " + spec.value_name);
    out << "  " << left << std::string(left.size() < 22 ? 22 - left.size() : 1, ' ') << spec.help
        << "\n";
  }
  if (!epilog_.empty())
    out << "\n" << epilog_ << "\n";
  return out.str();
}

} // namespace cb
