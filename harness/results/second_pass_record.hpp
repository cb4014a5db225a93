#pragma once
// What a pair test's second pass (extra.second_pass) says it found: the nodes and links it named,
// the figure it judged them against, and what it could not judge (pairs better than the
// reference, a fleet split in groups, pairs left unresolved). Read leniently, as notes and named
// parts are: an entry of the wrong shape is left out, a count that is not one reads 0, so a
// hand-edited file loses a note, never the whole qualification. The retested figures themselves
// are PairTestRecord's (pair_test_record.hpp), read strictly.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cb {

struct SecondPassVerdict {
  bool is_link = false; // else a node
  std::string host;     // the node; a link's sender
  std::string to_host;  // a link's receiver
  double value = 0;     // in the second pass's metric; 0 when absent
};

struct SecondPassRecord {
  // false where the test measured its pairs across nodes but did not judge them (`why` says
  // why; bench/links/pair_bw.cpp): no verdicts and no notes are read from it.
  bool judged = true;
  std::string why;
  std::string metric;  // the second pass's, else the fallback given to the reader
  double reference = 0; // the known-good figure its verdicts were judged against (0: none)
  std::vector<SecondPassVerdict> verdicts;
  // better_than_reference: pairs, the host names listed (strings only), and how many entries its
  // hosts (or nodes) list had.
  std::size_t better_pairs = 0;
  std::vector<std::string> better_hosts;
  std::size_t better_listed = 0;
  // split: pairs across the groups, and each group's host names as listed (strings only).
  std::size_t split_pairs = 0;
  std::vector<std::vector<std::string>> split_groups;
  std::size_t unresolved = 0; // entries of `unresolved`
  bool beyond_cap = false;    // retests left out by the second pass's cap
};

// extra.second_pass when it is an object, else nullopt. `fallback_metric`: the metric when the
// pass names none (the record's matrix metric).
std::optional<SecondPassRecord> second_pass_from_json(const nlohmann::json& extra,
                                                      const std::string& fallback_metric);

} // namespace cb
