#include "core/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.hpp"

namespace cb {
namespace {

std::string quoted(std::string_view s) {
  return "'" + shown(s) + "'";
}

} // namespace

long long parse_integer(std::string_view text, std::string_view flag) {
  long long value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range && ptr == text.data() + text.size()) {
    throw InputError(std::string(flag) + ": " + quoted(text) +
                     " is a whole number too large for any count");
  }
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    throw InputError(std::string(flag) + ": expected a whole number, got " + quoted(text));
  }
  return value;
}

double parse_number(std::string_view text, std::string_view flag) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() ||
      !std::isfinite(value)) {
    throw InputError(std::string(flag) + ": expected a number, got " + quoted(text));
  }
  return value;
}

std::uint64_t parse_size(std::string_view text, std::string_view flag) {
  const std::string allowed = ": expected a positive size such as 8, 4K, 1M or 2G, got ";
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  if (digits == 0)
    throw InputError(std::string(flag) + allowed + quoted(text));
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + digits, value);
  if (ec != std::errc())
    throw InputError(std::string(flag) + allowed + quoted(text));
  std::string suffix;
  for (char c : text.substr(digits))
    suffix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::uint64_t scale = 1;
  if (suffix.empty() || suffix == "B") {
    scale = 1;
  } else if (suffix == "K" || suffix == "KB" || suffix == "KIB") {
    scale = 1ULL << 10;
  } else if (suffix == "M" || suffix == "MB" || suffix == "MIB") {
    scale = 1ULL << 20;
  } else if (suffix == "G" || suffix == "GB" || suffix == "GIB") {
    scale = 1ULL << 30;
  } else if (suffix == "T" || suffix == "TB" || suffix == "TIB") {
    scale = 1ULL << 40;
  } else {
    throw InputError(std::string(flag) + allowed + quoted(text));
  }
  if (value == 0)
    throw InputError(std::string(flag) + allowed + quoted(text));
  if (value > std::numeric_limits<std::uint64_t>::max() / scale) {
    throw InputError(std::string(flag) + ": size too large: " + quoted(text));
  }
  return value * scale;
}

std::string format_size(std::uint64_t bytes) {
  const char* suffixes[] = {"", "K", "M", "G", "T"};
  int i = 0;
  while (i < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++i;
  }
  return std::to_string(bytes) + suffixes[i];
}

std::string approximate_size(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int i = 0;
  while (i < 6 && value >= 1024) {
    value /= 1024;
    ++i;
  }
  char text[32];
  if (i == 0)
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, units[i]);
  return text;
}

double parse_count(const std::string& text, const std::string& flag) {
  if (text.empty())
    throw InputError(flag + ": expected a number such as 7e9 or 7B, got ''");
  const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  double scale = 1;
  switch (last) {
  case 'K':
    scale = 1e3;
    break;
  case 'M':
    scale = 1e6;
    break;
  case 'B':
  case 'G':
    scale = 1e9;
    break;
  case 'T':
    scale = 1e12;
    break;
  default:
    break;
  }
  const std::string digits = scale == 1 ? text : text.substr(0, text.size() - 1);
  double value = 0;
  try {
    value = parse_number(digits, flag) * scale;
  } catch (const InputError&) {
    throw InputError(flag + ": expected a number such as 7e9 or 7B, got " + quoted(text));
  }
  // Past 1e18 (a billion billion) no model or batch is meant; the products made of it would
  // overflow.
  if (!(value >= 0 && value <= 1e18))
    throw InputError(flag + ": must be in [0, 1e18], got " + quoted(text));
  return value;
}

std::vector<std::string> split_list(std::string_view text, std::string_view flag) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string_view item =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty()) {
      throw InputError(std::string(flag) +
                       ": expected a comma-separated list without empty items, got " +
                       quoted(text));
    }
    items.emplace_back(item);
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return items;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i)
      out += sep;
    out += items[i];
  }
  return out;
}

double parse_link_rate(std::string_view text, std::string_view flag) {
  const std::string allowed =
      std::string(flag) + ": expected a rate such as 400gbit, 25gbit, 1gbit or 50GB, got " +
      quoted(text);
  std::size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  if (digits == 0 || digits == text.size())
    throw InputError(allowed);
  double value = 0;
  try {
    value = parse_number(text.substr(0, digits), flag);
  } catch (const InputError&) {
    throw InputError(allowed);
  }
  std::string unit;
  for (char c : text.substr(digits))
    unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0)
    unit.resize(unit.size() - 2);
  else if (unit.size() > 2 && unit.compare(unit.size() - 2, 2, "ps") == 0)
    unit.resize(unit.size() - 2); // "gbps" as bits, the way NICs are sold
  static const std::pair<const char*, double> units[] = {
      {"kbit", 1e3 / 8}, {"mbit", 1e6 / 8}, {"gbit", 1e9 / 8}, {"tbit", 1e12 / 8},
      {"gb", 1e9},       {"mb", 1e6},       {"tb", 1e12},      {"kb", 1e3}};
  double scale = 0;
  for (const auto& [name, factor] : units) {
    if (unit == name)
      scale = factor;
  }
  // "gbps": bits (Gb/s), as NICs are sold; "GB/s" was read above as bytes.
  if (scale > 0 && text.find("ps") != std::string_view::npos && unit.size() == 2)
    scale *= 0.125;
  const double bytes = value * scale;
  if (scale == 0 || !(bytes >= 1e6 / 8) || bytes > 1e14)
    throw InputError(allowed);
  return bytes;
}

} // namespace cb
