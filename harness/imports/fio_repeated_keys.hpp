#pragma once
// fio prints some keys twice in one object, and means something by it (its stat.c and init.c):
//   - fio 2.x fills its percentile list to FIO_IO_U_LIST_MAX_LEN (20) entries, printing
//     "0.00": 0 for every unused slot: the same key and value, repeated (3 times with the 17
//     default percentiles, 20 with clat_percentiles=0);
//   - a job's "job options" list every option as it was parsed, the global ones it inherits
//     first, then its own; in client/server runs with group_reporting, every job of the group in
//     turn. A later setting replaces an earlier one, as fio applied them, except filename, whose
//     every occurrence adds its files to the job (str_filename_cb): the job read them all.
// Anything else repeated with a different value is not what fio prints, and is refused as every
// repeated key is in our own files. Each kind of merge is said once in the import's warnings.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cb {

class FioRepeatedKeys {
public:
  explicit FioRepeatedKeys(std::string source) : source_(std::move(source)) {}

  // A RepeatedKeyMerge (results/json_tree_builder.hpp): leaves in `object` what fio meant.
  void merge(nlohmann::json& object, const std::string& object_name, const std::string& key,
             nlohmann::json later);

  // One line per key and object merged, saying how many repeats and how they were read.
  std::vector<std::string> notes() const;

private:
  struct Merged {
    std::size_t repeats = 0;
    std::string how;
  };
  // The files a job's repeated filename options named, by the address of the value they are
  // joined into; joined_size tells a list still held there from a later object's own value.
  struct Files {
    std::set<std::string> names;
    std::size_t joined_size = 0;
  };
  void add_files(nlohmann::json& earlier, const std::string& later);
  void append_files(Files& files, std::string& joined, const std::string& list);

  std::string source_;
  std::map<const nlohmann::json*, Files> files_;
  std::map<std::pair<std::string, std::string>, Merged> merged_; // by (object name, key)
};

} // namespace cb
