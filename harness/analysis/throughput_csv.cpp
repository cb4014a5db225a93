#include "analysis/throughput_csv.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/text_file.hpp"

namespace cb {
namespace {

constexpr int kMinimumRows = 3;

std::string trim(const std::string& s) {
  const char* space = " \t\r\n";
  const auto first = s.find_first_not_of(space);
  if (first == std::string::npos)
    return "";
  return s.substr(first, s.find_last_not_of(space) - first + 1);
}

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos)
      return fields;
    start = comma + 1;
  }
}

double positive_field(const std::string& text, const std::string& where, const char* field) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() ||
      !std::isfinite(value)) {
    throw InputError(where + ", field '" + field + "': '" + shown(text) + "' is not a number");
  }
  if (value <= 0) {
    throw InputError(where + ", field '" + field + "': " + shown(text) + " must be greater than 0");
  }
  return value;
}

constexpr long kMaxGpuCount = 1'000'000;
constexpr double kMaxThroughput = 1e15;

} // namespace

ThroughputTable parse_throughput_csv(std::istream& in, const std::string& source) {
  ThroughputTable table;
  std::string line;
  int line_number = 0;
  bool header_seen = false;
  int row = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line_number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0)
      line.erase(0, 3); // UTF-8 BOM
    if (trim(line).empty())
      continue;
    const auto fields = split_fields(line);
    if (!header_seen) {
      if (fields.size() != 2 || fields[0] != "n" || fields[1] != "throughput") {
        throw InputError(source + ": line " + std::to_string(line_number) +
                         ": the header must be exactly 'n,throughput', got '" + shown(trim(line)) +
                         "'");
      }
      header_seen = true;
      continue;
    }
    ++row;
    const std::string where =
        source + ": row " + std::to_string(row) + " (line " + std::to_string(line_number) + ")";
    if (fields.size() < 2)
      throw InputError(where + ": missing field 'throughput'");
    if (fields.size() > 2) {
      throw InputError(where + ": " + std::to_string(fields.size()) +
                       " fields, expected 2 (n,throughput)");
    }
    const double n = positive_field(fields[0], where, "n");
    // n counts GPUs (or nodes): whole, and no more than a results file allows.
    if (n != std::floor(n) || n > kMaxGpuCount) {
      throw InputError(where + ", field 'n': " + shown(fields[0]) + " is not a whole count of 1.." +
                       std::to_string(kMaxGpuCount));
    }
    const double throughput = positive_field(fields[1], where, "throughput");
    // Far past any rate in any unit; past it, the fit's sums overflow into a null fit.
    if (throughput > kMaxThroughput) {
      throw InputError(where + ", field 'throughput': " + shown(fields[1]) +
                       " is above 1e15; give it in a larger unit");
    }
    table.n.push_back(n);
    table.throughput.push_back(throughput);
  }
  if (!header_seen)
    throw InputError(source + ": empty; expected a header 'n,throughput' and rows");
  if (row < kMinimumRows) {
    throw InputError(source + ": " + std::to_string(row) + " data row" + (row == 1 ? "" : "s") +
                     "; a fit needs at least " + std::to_string(kMinimumRows));
  }
  // Rows repeating an n are more samples of one point, not more points of a curve.
  const std::set<double> distinct(table.n.begin(), table.n.end());
  if (distinct.size() < kMinimumRows) {
    std::string values;
    for (double n : distinct) {
      values += (values.empty() ? "" : ", ") + format_figure_compact(n, 6);
    }
    throw InputError(source + ", field 'n': " + std::to_string(row) + " data rows but " +
                     std::to_string(distinct.size()) + " different value" +
                     (distinct.size() == 1 ? "" : "s") + " of n (" + values +
                     "); a fit needs at least " + std::to_string(kMinimumRows));
  }
  return table;
}

ThroughputTable read_throughput_csv(const std::string& path) {
  // Read whole, as every input: a device or a FIFO without a writer is refused or ends.
  std::istringstream in(read_text_file(path));
  return parse_throughput_csv(in, path);
}

} // namespace cb
