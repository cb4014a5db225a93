#pragma once
// The pair matrix of the links family: rows are sources, columns destinations; the diagonal (a rank
// to itself) and pairs not measured are null. Pure data, so its layout is unit-tested alone.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb {

class LinkMatrix {
public:
  explicit LinkMatrix(int ranks);
  int size() const { return ranks_; }
  void set(int src, int dst, double value);
  std::optional<double> at(int src, int dst) const;
  // The measured cells, row by row.
  std::vector<double> values() const;
  // Medians of one rank's measured cells as a source (its row) and as a destination (its column).
  std::optional<double> row_median(int src) const;
  std::optional<double> column_median(int dst) const;
  // [[null, 12.3], [12.1, null]]: rows = source, columns = destination.
  nlohmann::json to_json() const;
  static LinkMatrix from_json(const nlohmann::json& rows); // InputError on a malformed matrix

private:
  int ranks_;
  std::vector<std::optional<double>> cells_;
};

struct PairSummary {
  std::size_t pairs = 0;
  double median = 0, min = 0, max = 0;
};
PairSummary summarize_pairs(const LinkMatrix& m);

// Bytes one pair operation counts: bidirectional figures sum both directions (docs/REFERENCE.md,
// "Links figures").
double pair_bytes_counted(std::uint64_t bytes, bool bidirectional);
// GB/s of `counted` bytes per operation in `seconds` per operation.
double pair_gbps(double counted, double seconds);

// Every ordered pair (i -> j, i != j), source-major; and every unordered pair once (i < j).
std::vector<std::pair<int, int>> ordered_pairs(int ranks);
std::vector<std::pair<int, int>> unordered_pairs(int ranks);

// "intra" where both ranks are on one node, "inter" across nodes, null on the diagonal.
nlohmann::json tier_matrix(const std::vector<int>& node_of_rank);

// The matrix as a console table, nvbandwidth style, values with the given precision. Above
// kMaxPrintedMatrix members, the worst kWorstPairsPrinted pairs instead (the lowest values, or
// the highest where `lower_is_better`, as for latency): at 1,024 nodes the table was 10 MB of
// console per record, the whole of it in the results file anyway.
inline constexpr int kMaxPrintedMatrix = 32;
inline constexpr std::size_t kWorstPairsPrinted = 8;
std::string format_matrix(const LinkMatrix& m, int precision, bool lower_is_better = false);

} // namespace cb
