#include "core/duration.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/units.hpp"

namespace cb {

double parse_duration(std::string_view text, std::string_view flag) {
  const std::string f(flag);
  std::size_t split = text.size();
  while (split > 0 && std::isalpha(static_cast<unsigned char>(text[split - 1])))
    --split;
  const std::string_view number = text.substr(0, split);
  const std::string unit(text.substr(split));
  double scale = 0;
  if (unit == "s")
    scale = 1;
  else if (unit == "m" || unit == "min")
    scale = 60;
  else if (unit == "h")
    scale = 3600;
  if (scale == 0) {
    throw InputError(f + ": '" + shown(text) + "' needs a unit: s, m, min or h (e.g. 15m)");
  }
  if (number.empty())
    throw InputError(f + ": '" + shown(text) + "' has no number before the unit");
  const double value = parse_number(number, flag);
  if (!(value > 0) || !std::isfinite(value))
    throw InputError(f + ": must be greater than 0, got " + shown(text));
  return value * scale;
}

std::string format_budget(double seconds) {
  char text[64];
  if (seconds < 10) {
    std::snprintf(text, sizeof text, "%.1fs", seconds);
    return text;
  }
  const long long s = std::llround(seconds);
  if (s < 60) {
    std::snprintf(text, sizeof text, "%llds", s);
  } else if (s < 3600) {
    std::snprintf(text, sizeof text, "%lldm %02llds", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%lldh %02lldm %02llds", s / 3600, s % 3600 / 60, s % 60);
  }
  return text;
}

} // namespace cb
