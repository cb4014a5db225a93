#include "analysis/record_values.hpp"

#include <cmath>

#include "core/stats.hpp"

namespace cb {
namespace {

std::optional<double> positive_number(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number())
    return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || v <= 0)
    return std::nullopt;
  return v;
}

} // namespace

std::optional<double> seconds_per_operation(const Record& record) {
  if (record.stats.median > 0 && std::isfinite(record.stats.median))
    return record.stats.median;
  if (!record.samples_s.empty()) {
    const double m = median(record.samples_s);
    if (m > 0 && std::isfinite(m))
      return m;
  }
  if (auto us = positive_number(record.metrics, "time_us"))
    return *us * 1e-6;
  return std::nullopt;
}

std::optional<double> message_bytes(const Record& record) {
  return positive_number(record.params, "bytes");
}

std::optional<double> problem_size(const nlohmann::json& params) {
  auto m = positive_number(params, "m"), n = positive_number(params, "n"),
       k = positive_number(params, "k");
  if (m && n && k)
    return *m * *n * *k;
  for (const char* key : {"bytes", "block_bytes", "size", "n"}) {
    if (auto v = positive_number(params, key))
      return v;
  }
  return std::nullopt;
}

std::optional<bool> in_place_flag(const nlohmann::json& params) {
  auto it = params.find("in_place");
  if (it == params.end())
    return std::nullopt;
  if (it->is_boolean())
    return it->get<bool>();
  if (it->is_number())
    return it->get<double>() != 0;
  return std::nullopt;
}

nlohmann::json identity_params(const nlohmann::json& params) {
  nlohmann::json identity = params.is_object() ? params : nlohmann::json::object();
  identity.erase("count");
  return identity;
}

nlohmann::json params_without_size(const nlohmann::json& params) {
  nlohmann::json rest = identity_params(params);
  rest.erase("bytes");
  return rest;
}

bool is_usable(const Record& record) {
  return record.status == RecordStatus::ok || record.status == RecordStatus::noisy;
}

} // namespace cb
