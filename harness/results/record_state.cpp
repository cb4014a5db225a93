#include "results/record_state.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

#include "core/error.hpp"

namespace cb {

const char* to_string(RecordStatus s) {
  switch (s) {
  case RecordStatus::ok:
    return "ok";
  case RecordStatus::noisy:
    return "noisy";
  case RecordStatus::skipped:
    return "skipped";
  case RecordStatus::failed:
    return "failed";
  }
  return "?";
}

const char* to_string(DataCheck c) {
  switch (c) {
  case DataCheck::pass:
    return "pass";
  case DataCheck::fail:
    return "fail";
  case DataCheck::skipped:
    return "skipped";
  }
  return "?";
}

std::optional<RecordStatus> record_status_from(std::string_view word) {
  for (auto s : {RecordStatus::ok, RecordStatus::noisy, RecordStatus::skipped, RecordStatus::failed}) {
    if (word == to_string(s))
      return s;
  }
  return std::nullopt;
}

std::optional<DataCheck> data_check_from(std::string_view word) {
  for (auto c : {DataCheck::pass, DataCheck::fail, DataCheck::skipped}) {
    if (word == to_string(c))
      return c;
  }
  return std::nullopt;
}

void to_json(nlohmann::json& j, RecordStatus s) {
  j = to_string(s);
}

void to_json(nlohmann::json& j, DataCheck c) {
  j = to_string(c);
}

void from_json(const nlohmann::json& j, RecordStatus& s) {
  const auto word = j.is_string() ? record_status_from(j.get_ref<const std::string&>()) : std::nullopt;
  if (!word)
    throw InputError("field 'status': expected one of ok, noisy, skipped, failed");
  s = *word;
}

void from_json(const nlohmann::json& j, DataCheck& c) {
  const auto word = j.is_string() ? data_check_from(j.get_ref<const std::string&>()) : std::nullopt;
  if (!word)
    throw InputError("field 'check': expected one of pass, fail, skipped");
  c = *word;
}

std::ostream& operator<<(std::ostream& out, RecordStatus s) {
  return out << to_string(s);
}

std::ostream& operator<<(std::ostream& out, DataCheck c) {
  return out << to_string(c);
}

} // namespace cb
