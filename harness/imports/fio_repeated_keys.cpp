#include "imports/fio_repeated_keys.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace cb {
namespace {

bool option_list(const std::string& object_name) {
  return object_name == "job options" || object_name == "global options";
}

// "a:b" and "b:c" -> "a:b:c": fio's filename takes names separated by ':', each given once.
std::string every_file(const std::string& earlier, const std::string& later) {
  std::vector<std::string> names;
  for (const std::string* list : {&earlier, &later}) {
    std::istringstream in(*list);
    for (std::string name; std::getline(in, name, ':');) {
      if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
    }
  }
  std::string joined;
  for (const auto& name : names)
    joined += (joined.empty() ? "" : ":") + name;
  return joined;
}

} // namespace

void FioRepeatedKeys::merge(nlohmann::json& object, const std::string& object_name,
                            const std::string& key, nlohmann::json later) {
  nlohmann::json& earlier = object[key];
  std::string how;
  if (earlier == later) {
    how = key == "0.00" && object_name == "percentile"
              ? "fio 2.x's placeholder for an unused percentile slot, kept once"
              : "the same value each time, kept once";
  } else if (option_list(object_name) && key == "filename" && earlier.is_string() &&
             later.is_string()) {
    earlier = every_file(earlier.get<std::string>(), later.get<std::string>());
    how = "every file named (each filename given adds its files to the job)";
  } else if (option_list(object_name)) {
    earlier = std::move(later);
    how = "the later value (fio applies options in order, a job's own after the global ones)";
  } else {
    throw InputError(source_ + ": key '" + shown(key, 60) + "' appears twice in one object ('" +
                     shown(object_name, 40) +
                     "') with different values; fio repeats keys only in its option lists and "
                     "percentile placeholders, so which value is meant cannot be told");
  }
  Merged& merged = merged_[{object_name, key}];
  ++merged.repeats;
  merged.how = std::move(how);
}

std::vector<std::string> FioRepeatedKeys::notes() const {
  std::vector<std::string> lines;
  for (const auto& [where, merged] : merged_) {
    const auto& [object_name, key] = where;
    lines.push_back(source_ + ": fio printed key '" + shown(key, 60) + "' again " +
                    std::to_string(merged.repeats) + " time(s) in '" + shown(object_name, 40) +
                    "' objects; read as " + merged.how);
  }
  return lines;
}

} // namespace cb
