#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cb {
namespace {

template <typename... Values> std::string printed(const char* format, Values... values) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, values...);
  return buffer;
}

// The shared core of the figure forms: a finite, non-zero value to `digits` significant digits.
std::string significant(double value, int digits) {
  const double magnitude = std::fabs(value);
  if (magnitude < 1e-3 || magnitude >= 1e7)
    return printed("%.*e", digits - 1, value);
  const int leading = static_cast<int>(std::floor(std::log10(magnitude)));
  return printed("%.*f", std::max(0, digits - 1 - leading), value);
}

} // namespace

std::string format_figure(double value, int digits) {
  if (!std::isfinite(value))
    return "-";
  if (value == 0)
    return "0";
  return significant(value, digits);
}

std::string format_figure_padded(double value, int digits) {
  if (std::isnan(value))
    return "-";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (value == 0)
    return printed("%.*f", std::max(0, digits - 1), value);
  return significant(value, digits);
}

std::string format_spec_figure(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude >= 1000 || value == std::floor(value))
    return printed("%.0f", value);
  if (magnitude >= 100)
    return printed("%.1f", value);
  if (magnitude >= 10)
    return printed("%.2f", value);
  return printed("%.3g", value);
}

std::string format_figure_compact(double value, int digits) {
  return printed("%.*g", digits, value);
}

std::string format_fixed(double value, int decimals) {
  return printed("%.*f", decimals, value);
}

std::string format_ratio(double ratio) {
  return format_fixed(ratio, 2);
}

std::string format_count(double value) {
  if (!std::isfinite(value))
    return "-";
  const std::string digits = format_fixed(std::fabs(value), 0);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      grouped += ',';
    grouped += digits[i];
  }
  return (value < 0 && digits != "0" ? "-" : "") + grouped;
}

std::string format_p(double p) {
  if (std::isnan(p))
    return "-";
  if (p >= 0.001)
    return format_figure_compact(p);
  return printed("%.1e", p);
}

std::string format_gbps(double gbps) {
  return format_figure_compact(gbps) + " GB/s";
}

std::string format_bytes(double bytes) {
  static const char* const binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = bytes;
  int unit = 0;
  while (unit < 4 && v >= 1024 && std::fmod(v, 1024) == 0) {
    v /= 1024;
    ++unit;
  }
  if (unit > 0 && v < 1024)
    return format_figure_compact(v) + " " + binary[unit];
  static const char* const decimal[] = {"B", "kB", "MB", "GB", "TB"};
  v = bytes;
  unit = 0;
  while (unit < 4 && v >= 1000) {
    v /= 1000;
    ++unit;
  }
  return printed(unit == 0 ? "%.0f %s" : "%.1f %s", v, decimal[unit]);
}

std::string format_gib(double bytes) {
  return printed("%.2f GiB", bytes / (1ull << 30));
}

std::string format_bytes_mib(double bytes) {
  constexpr double mib = 1 << 20;
  if (bytes >= mib && std::fmod(bytes, mib) == 0)
    return printed("%.0f MiB", bytes / mib);
  if (bytes >= 1e6)
    return printed("%.1f MB", bytes / 1e6);
  return printed("%.0f bytes", bytes);
}

std::string format_seconds(double seconds) {
  if (std::isnan(seconds))
    return "-";
  const double magnitude = std::fabs(seconds);
  if (magnitude >= 1.0 || magnitude == 0)
    return format_figure_padded(seconds, 3) + " s";
  if (magnitude >= 1e-3)
    return format_figure_padded(seconds * 1e3, 3) + " ms";
  if (magnitude >= 1e-6)
    return format_figure_padded(seconds * 1e6, 3) + " us";
  return format_figure_padded(seconds * 1e9, 3) + " ns";
}

std::string format_seconds_micro(double seconds) {
  if (!std::isfinite(seconds))
    return "-";
  if (seconds == 0)
    return "0";
  if (seconds < 1e-3)
    return format_figure(seconds * 1e6, 3) + " µs";
  if (seconds < 1)
    return format_figure(seconds * 1e3, 3) + " ms";
  return format_figure(seconds, 3) + " s";
}

std::string format_seconds_brief(double seconds) {
  return seconds >= 1 ? printed("%.3g s", seconds) : printed("%.3g ms", seconds * 1e3);
}

std::string format_milliseconds(double seconds) {
  return printed("%.1f ms", seconds * 1e3);
}

std::string format_clock(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  if (s >= 3600)
    return printed("%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return printed("%ld:%02ld", s / 60, s % 60);
}

std::string format_percent(std::optional<double> fraction, int decimals) {
  if (!fraction || !std::isfinite(*fraction))
    return "-";
  const double percent = *fraction * 100;
  // Under 1 % the fixed decimals would print 0.0: two significant digits say how small.
  if (percent != 0 && std::fabs(percent) < 1 && decimals > 0)
    return printed("%.2g %%", percent);
  return printed("%.*f %%", decimals, percent);
}

std::string format_signed_percent(double fraction, int decimals) {
  if (!std::isfinite(fraction))
    return "-";
  return printed("%+.*f %%", decimals, fraction * 100);
}

std::string format_change(double change) {
  if (std::isnan(change))
    return "-";
  return printed("%+.1f %%", change * 100.0);
}

std::string format_percent_fixed(double fraction, int decimals) {
  return printed("%.*f %%", decimals, fraction * 100.0);
}

std::string format_cv_percent(double fraction) {
  return printed("%.2f%%", fraction * 100.0);
}

std::string format_percent_capped(double fraction) {
  if (std::isnan(fraction))
    return "-";
  if (fraction >= 10)
    return "over 1000 %";
  return printed("%.1f %%", fraction * 100.0);
}

} // namespace cb
