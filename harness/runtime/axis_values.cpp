#include "runtime/axis_values.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/units.hpp"
#include "runtime/case.hpp"
#include "runtime/run_config.hpp"

namespace cb {

bool AxisSetting::applies_to(const std::string& case_name, const Axis& a) const {
  if (axis.empty()) {
    const std::string declared = spelling_of.empty() ? flag : spelling_of;
    return !a.flag.empty() && "--" + a.flag == declared;
  }
  return a.name == axis && (scope.empty() || scope == case_name);
}

AxisSetting parse_axis_flag(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw InputError("--axis: expected NAME=VALUES or CASE.NAME=VALUES, got '" + shown(text) +
                     "'");
  }
  AxisSetting s;
  s.flag = "--axis";
  std::string name = text.substr(0, eq);
  if (const auto dot = name.find('.'); dot != std::string::npos) {
    s.scope = name.substr(0, dot);
    name = name.substr(dot + 1);
    if (s.scope.empty() || name.empty())
      throw InputError("--axis: expected CASE.NAME=VALUES, got '" + shown(text) + "'");
  }
  s.axis = name;
  s.text = text.substr(eq + 1);
  return s;
}

const AxisSetting* axis_setting_for(const std::string& case_name, const Axis& axis,
                                    const RunConfig& config) {
  for (const auto& s : config.axis_settings) {
    if (s.applies_to(case_name, axis))
      return &s;
  }
  return nullptr;
}

std::vector<nlohmann::json> axis_values(const std::string& case_name, const Axis& axis,
                                        const RunConfig& config) {
  if (const AxisSetting* s = axis_setting_for(case_name, axis, config))
    return parse_axis_values(axis, s->text, s->flag);
  const std::string text =
      axis.default_text(config.backend_kind != BackendKind::host, config.quick);
  if (text.empty())
    return {};
  return parse_axis_values(axis, text, "the default of");
}

std::vector<nlohmann::json> axis_values(const std::string& case_name,
                                        const std::vector<Axis>& axes, const std::string& name,
                                        const RunConfig& config) {
  for (const auto& a : axes) {
    if (a.name == name)
      return axis_values(case_name, a, config);
  }
  throw std::logic_error(case_name + " declares no axis '" + name + "'");
}

std::vector<nlohmann::json> axis_product(const std::string& case_name,
                                         const std::vector<Axis>& axes, const RunConfig& config) {
  std::vector<nlohmann::json> out{nlohmann::json::object()};
  for (const auto& a : axes) {
    const auto values = axis_values(case_name, a, config);
    if (values.empty())
      continue;
    std::vector<nlohmann::json> next;
    next.reserve(out.size() * values.size());
    for (const auto& partial : out) {
      for (const auto& v : values) {
        nlohmann::json p = partial;
        p[a.name] = v;
        next.push_back(std::move(p));
      }
    }
    out = std::move(next);
  }
  return out;
}

void check_axis_settings(const RunConfig& config,
                         const std::vector<std::unique_ptr<BenchmarkCase>>& selected) {
  for (const auto& s : config.axis_settings) {
    if (s.flag != "--axis")
      continue;
    bool found = false, scope_selected = false;
    std::vector<std::string> known;
    for (const auto& c : selected) {
      if (!s.scope.empty() && s.scope != c->name())
        continue;
      scope_selected = true;
      for (const auto& a : c->axes()) {
        found = found || a.name == s.axis;
        if (std::find(known.begin(), known.end(), a.name) == known.end())
          known.push_back(a.name);
      }
    }
    if (!found && !s.scope.empty() && !scope_selected) {
      throw InputError("--axis " + shown(s.scope) + "." + shown(s.axis) +
                       ": no selected case is named '" + shown(s.scope) + "'");
    }
    if (!found) {
      const std::string where = s.scope.empty() ? "no selected case has this axis"
                                                : "case '" + shown(s.scope) + "' has no such axis";
      throw InputError(
          "--axis " + shown(s.axis) + ": " + where +
          (known.empty() ? std::string(" (it has none)") : " (axes: " + join(known, ", ") + ")"));
    }
  }
  for (const auto& c : selected) {
    std::size_t combinations = 1;
    for (const auto& a : c->axes()) {
      const AxisSetting* first = nullptr;
      for (const auto& s : config.axis_settings) {
        if (!s.applies_to(c->name(), a))
          continue;
        if (first) {
          throw InputError(s.flag + " " + a.name + ": the axis is already set by " + first->flag +
                           (first->flag == s.flag ? " (give it once)" : ""));
        }
        first = &s;
      }
      std::vector<nlohmann::json> values;
      try {
        values = axis_values(c->name(), a, config);
      } catch (const InputError& e) {
        // Cases of different families give one name different values (dtype): say whose.
        throw InputError(std::string(e.what()) + " for " + c->name());
      }
      combinations *= std::max<std::size_t>(1, values.size());
      if (combinations > kMaxCaseInstances) {
        throw InputError((first ? first->flag : std::string("--axis")) + " " + a.name + ": " +
                         c->name() + " would make more than " +
                         std::to_string(kMaxCaseInstances) + " instances");
      }
    }
  }
}

} // namespace cb
