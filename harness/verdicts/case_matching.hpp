#pragma once
// Which records of two results files measure the same thing, and what to compare between them.
//
// A record's identity is (suite, case, params, gpus). Records of one identity in a file are
// pooled (a case measured twice is more samples of the same thing). Records whose status is
// skipped or failed measured nothing: they never match, but explain why a case is missing.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "results/params_text.hpp"
#include "results/record.hpp"

namespace cb {

struct CaseKey {
  std::string suite;
  std::string case_name;
  nlohmann::json params = nlohmann::json::object();
  int gpus = 0;

  // Canonical text of the identity (params with sorted keys), for lookups.
  std::string id() const;
};

// A record's identity, the same whichever tool measured the case: the params without the size
// keys that follow from others, so that an imported nccl-tests, OSU or fio run lines up with a
// measured one. Dropped: "count" (from bytes and dtype), "message_bytes" (OSU's per-rank size;
// "bytes" counts as nccl-tests does), "direct" beside "io", "root" 0 (the default root), and a
// storage read's "bytes" beside "file_bytes" (the file in whole blocks).
nlohmann::json comparable_params(const std::string& suite, const nlohmann::json& params);
CaseKey key_of(const Record& record);
// "collectives/all_reduce bytes=64M dtype=float, 4 GPUs"
std::string describe_case(const CaseKey& key);
nlohmann::json key_to_json(const CaseKey& key);

// All measured records of one identity in one file.
struct MeasuredCase {
  CaseKey key;
  std::vector<double> samples_s;              // pooled from every record that has samples
  std::vector<nlohmann::json> record_metrics; // one metrics object per record
  std::size_t records_without_samples = 0;
  bool noisy = false; // some record hit the sampling time cap
};

struct UnmeasuredCase {
  CaseKey key;
  RecordStatus status = RecordStatus::skipped; // skipped | failed
  std::string reason;
};

struct CaseIndex {
  std::vector<MeasuredCase> measured; // in file order of first appearance
  std::vector<UnmeasuredCase> unmeasured;
  std::map<std::string, std::size_t> position; // CaseKey::id() -> index into measured
  const MeasuredCase* find(const std::string& id) const;
};

CaseIndex index_cases(const ResultsFile& results);

// Which direction is worse.
enum class Better { lower, higher };
const char* to_string(Better better);

struct HeadlineMetric {
  std::string name;
  Better better;
};
// The figures a case is quoted in, most telling first: busbw_gbps, gbps, tflops, gflops (higher is
// better), latency_us, time_us (lower is better).
const std::vector<HeadlineMetric>& headline_metrics();
// The first headline metric that every record of the case carries.
std::optional<HeadlineMetric> headline_metric_of(const MeasuredCase& c);
// Median over the case's records of one metric; NaN when absent.
double median_metric(const MeasuredCase& c, const std::string& name);

// The values compared for one case: per-sample seconds per operation when both sides have them
// (lower is better), else the headline metric both sides carry, one value per record. (Not
// `Measure`: qualify's enum has that name in namespace cb, and one name for two types linked into
// one binary is an ODR hazard, e.g. two std::optional<Measure> instantiations of different size.)
struct ComparedMeasure {
  std::string quantity; // "time_s" or a metric name
  Better better = Better::lower;
  std::vector<double> values;
};
inline constexpr const char* kTimeQuantity = "time_s";
std::optional<std::pair<ComparedMeasure, ComparedMeasure>> common_measure(const MeasuredCase& a,
                                                                          const MeasuredCase& b);

struct MissingCase {
  CaseKey key;
  std::string note; // why, when the file holds the case as skipped or failed
};

struct CaseMatch {
  std::vector<std::pair<const MeasuredCase*, const MeasuredCase*>> both; // in a's order
  std::vector<MissingCase> only_in_a;                                    // measured in a, not in b
  std::vector<MissingCase> only_in_b;
};
// Pointers refer into the two indexes, which must outlive the match.
CaseMatch match_cases(const CaseIndex& a, const CaseIndex& b);

} // namespace cb
