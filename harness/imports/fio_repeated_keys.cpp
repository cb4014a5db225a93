#include "imports/fio_repeated_keys.hpp"

#include "core/error.hpp"

namespace cb {
namespace {

bool option_list(const std::string& object_name) {
  return object_name == "job options" || object_name == "global options";
}

// fio adds a file once for each name a job's filename options give (str_filename_cb); a job is
// refused past this many, which no real job names and which bounds a hostile file's cost.
constexpr std::size_t kMostFilesPerJob = 65'536;

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
    add_files(earlier, later.get<std::string>());
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

// "a:b" then "b:c" -> "a:b:c": each name once. The names are kept per option list, so a repeat
// costs the length of its own value, not of every name before it.
void FioRepeatedKeys::add_files(nlohmann::json& earlier, const std::string& later) {
  std::string& joined = earlier.get_ref<std::string&>();
  Files& files = files_[&earlier];
  // The list an earlier object held, if this address held one: start again from its value.
  if (files.joined_size != joined.size() || files.names.empty()) {
    files = Files{};
    std::string first = std::move(joined);
    joined.clear();
    append_files(files, joined, first);
  }
  append_files(files, joined, later);
  files.joined_size = joined.size();
}

void FioRepeatedKeys::append_files(Files& files, std::string& joined, const std::string& list) {
  for (std::size_t start = 0; start <= list.size();) {
    std::size_t end = list.find(':', start);
    if (end == std::string::npos)
      end = list.size();
    std::string name = list.substr(start, end - start);
    start = end + 1;
    if (name.empty() || !files.names.insert(name).second)
      continue;
    if (files.names.size() > kMostFilesPerJob)
      throw InputError(source_ + ": 'filename' names more than " +
                       std::to_string(kMostFilesPerJob) + " files in one job; refused");
    joined += (joined.empty() ? "" : ":") + name;
  }
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
