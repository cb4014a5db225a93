#include "runtime/axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/units.hpp"

namespace cb {

Axis Axis::words(std::string name, std::vector<std::string> allowed) {
  Axis a;
  a.name = std::move(name);
  a.type = AxisType::word;
  a.allowed_words = std::move(allowed);
  return a;
}

Axis Axis::sizes(std::string name, std::uint64_t min, std::uint64_t max) {
  Axis a;
  a.name = std::move(name);
  a.type = AxisType::size;
  a.min = min;
  a.max = max;
  return a;
}

Axis Axis::integers(std::string name, std::uint64_t min, std::uint64_t max) {
  Axis a = sizes(std::move(name), min, max);
  a.type = AxisType::integer;
  return a;
}

Axis& Axis::defaults(std::string values, std::string quick) {
  host_values = std::move(values);
  host_quick = std::move(quick);
  return *this;
}

Axis& Axis::on_gpu(std::string values, std::string quick) {
  gpu_values = std::move(values);
  gpu_quick = std::move(quick);
  return *this;
}

Axis& Axis::computed_default(std::string how) {
  computed = std::move(how);
  return *this;
}

Axis& Axis::spelled(std::string flag_name) {
  flag = std::move(flag_name);
  return *this;
}

Axis& Axis::described(std::string text) {
  help = std::move(text);
  return *this;
}

std::string Axis::default_text(bool gpu, bool quick) const {
  if (!computed.empty())
    return "";
  if (gpu && !gpu_values.empty())
    return quick && !gpu_quick.empty() ? gpu_quick : gpu_values;
  return quick && !host_quick.empty() ? host_quick : host_values;
}

std::string Axis::default_summary() const {
  if (!computed.empty())
    return computed;
  auto with_quick = [](const std::string& values, const std::string& quick) {
    return quick.empty() || quick == values ? values : values + " (--quick " + quick + ")";
  };
  const std::string host = with_quick(host_values, host_quick);
  if (gpu_values.empty())
    return host;
  return "host " + host + "; GPU " + with_quick(gpu_values, gpu_quick);
}

std::string Axis::type_summary() const {
  switch (type) {
  case AxisType::word:
    return join(allowed_words, "|");
  case AxisType::size:
    return "size " + format_size(min) + ".." + format_size(max);
  case AxisType::integer:
    return "integer " + std::to_string(min) + ".." + std::to_string(max);
  }
  return "";
}

namespace {

std::uint64_t bounded(const Axis& axis, const std::string& item, const std::string& where) {
  std::uint64_t v = 0;
  if (axis.type == AxisType::size) {
    v = parse_size(item, where);
  } else {
    const long long n = parse_integer(item, where);
    if (n < 0)
      throw InputError(where + ": expected an integer " + std::to_string(axis.min) + ".." +
                       std::to_string(axis.max) + ", got " + shown(item));
    v = static_cast<std::uint64_t>(n);
  }
  if (v < axis.min || v > axis.max) {
    const auto text = [&](std::uint64_t x) {
      return axis.type == AxisType::size ? format_size(x) : std::to_string(x);
    };
    throw InputError(where + ": " + shown(item) + " is outside " + text(axis.min) + ".." +
                     text(axis.max));
  }
  return v;
}

// LOW:HIGH[:FACTOR]: LOW, LOW*FACTOR, ... <= HIGH, each rounded to a whole number.
void append_range(const Axis& axis, const std::string& item, const std::string& where,
                  std::vector<nlohmann::json>& out) {
  const auto first = item.find(':');
  const auto second = item.find(':', first + 1);
  const std::string low_text = item.substr(0, first);
  const std::string high_text =
      item.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  const std::uint64_t low = bounded(axis, low_text, where);
  const std::uint64_t high = bounded(axis, high_text, where);
  double factor = 2;
  if (second != std::string::npos) {
    factor = parse_number(item.substr(second + 1), where);
    if (!(factor > 1) || factor > 1024)
      throw InputError(where + ": the factor of " + shown(item) +
                       " must be greater than 1 and at most 1024");
  }
  if (low > high)
    throw InputError(where + ": " + shown(item) + " runs from high to low");
  double value = static_cast<double>(low);
  std::uint64_t last = 0;
  while (static_cast<std::uint64_t>(std::llround(value)) <= high) {
    const auto v = static_cast<std::uint64_t>(std::llround(value));
    if (out.empty() || v != last) {
      if (out.size() >= kMaxAxisValues)
        throw InputError(where + ": " + shown(item) + " makes more than " +
                         std::to_string(kMaxAxisValues) + " values");
      out.push_back(v);
      last = v;
    }
    value *= factor;
  }
}

} // namespace

std::vector<nlohmann::json> parse_axis_values(const Axis& axis, const std::string& text,
                                              const std::string& flag) {
  const std::string where = flag + " " + axis.name;
  std::vector<nlohmann::json> out;
  for (const std::string& item : split_list(text, where)) {
    if (axis.type == AxisType::word) {
      if (std::find(axis.allowed_words.begin(), axis.allowed_words.end(), item) ==
          axis.allowed_words.end()) {
        throw InputError(where + ": unknown value '" + shown(item) +
                         "' (allowed: " + join(axis.allowed_words, ", ") + ")");
      }
      out.push_back(item);
    } else if (item.find(':') != std::string::npos) {
      append_range(axis, item, where, out);
    } else {
      out.push_back(bounded(axis, item, where));
    }
    if (out.size() > kMaxAxisValues)
      throw InputError(where + ": more than " + std::to_string(kMaxAxisValues) + " values");
  }
  return out;
}

std::string axis_values_text(const Axis& axis, const std::vector<nlohmann::json>& values) {
  std::vector<std::string> items;
  for (const auto& v : values) {
    if (v.is_string())
      items.push_back(v.get<std::string>());
    else if (axis.type == AxisType::size)
      items.push_back(format_size(v.get<std::uint64_t>()));
    else
      items.push_back(v.dump());
  }
  return join(items, ",");
}

} // namespace cb
