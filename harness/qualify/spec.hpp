#pragma once
// Qualification specs: what a part should measure, how close it must come to a stated figure, and
// where that figure comes from. A spec is a JSON file (harness/specs/README.md documents the
// format); these are its in-memory types.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace cb {

// How a matching record becomes the one number a check compares with the expected figure.
enum class Measure {
  value,      // the record's metric as it is (collective busbw, one-GPU figures)
  per_gpu,    // the metric divided by the record's GPU count (aggregate throughputs)
  matrix_min, // the slowest link of the record's link matrix (extra.matrix)
};

// Which of several matching records is judged, per (GPU count, node count) group.
enum class Selection {
  best, // the best one: data sheets quote peaks, so the peak over sizes and shapes is judged
  each, // every one must pass
};

enum class CheckKind {
  threshold, // measured >= fraction * expected (or <= expected / fraction when lower is better)
  data,      // every matching record that verified its data passed the check
};

struct Expectation {
  std::string id;   // short name shown in reports
  std::string what; // one line: what is measured
  CheckKind kind = CheckKind::threshold;
  std::string suite;     // empty matches every suite (data checks only)
  std::string case_name; // empty matches every case (data checks only)
  // Subset of the record's params to match. A value matches by equality, an array matches any of
  // its values, an object {"min": a, "max": b} matches numbers in that closed range.
  nlohmann::json params = nlohmann::json::object();
  // Constraints on the record's gpus and nodes, in the same form as a param value; null = any.
  nlohmann::json gpus;
  nlohmann::json nodes;
  std::string metric;
  Measure measure = Measure::value;
  Selection select = Selection::best;
  double expected = 0;   // the reference figure, in the metric's unit
  double fraction = 1.0; // the share of the expected figure that passes
  std::string source;    // where the expected figure comes from
};

// Fleet rules: every GPU, link and node is compared with its peers in the same record.
struct FleetRules {
  double robust_z = -3.5;           // outlier when 0.6745 (x - median) / MAD is below this
  double fraction_of_median = 0.90; // or when x is under this share of the fleet median
  // A robust-z outlier must also be at least this far from the median, relative to it. 0 applies
  // the robust-z rule alone; a spec can raise it where peers legitimately spread (CPU cores).
  double min_deviation = 0.0;
  int min_peers = 3;     // smaller fleets are not judged: with two members neither is the odd one
  bool required = false; // INCONCLUSIVE when no record has a fleet to judge
};

struct Spec {
  std::string name;
  std::string title;
  std::string path;            // the file it came from
  bool from_reference = false; // built from a known-good results file
  // What the figures are of: the backend ("cuda", "host"; empty: any) and the parts, as whole
  // words a device's name holds, compared without case ("H200": not "GH200"; empty: any). A run on
  // another backend is refused; a run on other parts is judged, with a warning
  // (qualify/spec_fit.hpp).
  std::string backend;
  std::vector<std::string> devices;
  FleetRules fleet;
  std::vector<Expectation> checks;
};

inline constexpr std::size_t kMaxSpecDevices = 64;
inline constexpr std::size_t kMaxDeviceNameBytes = 128;
inline constexpr const char* kSpecSchemaName = "clusterbench.spec";
inline constexpr int kSpecSchemaVersion = 1;

// Validates and converts; throws InputError("SOURCE: checks[2]: field 'fraction' ...").
Spec spec_from_json(const nlohmann::json& j, const std::string& source);
Spec load_spec_file(const std::string& path);
nlohmann::json spec_to_json(const Spec& spec);

// Latencies and times are better when lower; bandwidths and flop rates when higher. The metric
// table (results/metrics.json) decides for the metrics it knows; others by their unit suffix
// (_us, _ms, _ns, _s) or a latency/time prefix (results/metric_table.hpp, which the report's
// per-rank spread reads too).
bool lower_is_better(std::string_view metric);
// "GB/s", "TFLOP/s", "us" ... from the metric's name (the metric table's unit suffixes).
std::string metric_unit(std::string_view metric);

std::string_view measure_name(Measure m);
std::string_view selection_name(Selection s);

} // namespace cb
