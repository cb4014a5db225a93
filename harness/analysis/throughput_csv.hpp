#pragma once
// Throughput tables for `fit --csv`: a header line exactly "n,throughput", then one row per
// concurrency. Any problem is an InputError naming the file, the row and the field.
#include <istream>
#include <string>
#include <vector>

namespace cb {

struct ThroughputTable {
  std::vector<double> n;
  std::vector<double> throughput;
};

// At least 3 rows at 3 or more different n; n and throughput positive numbers. Blank lines are
// ignored.
ThroughputTable parse_throughput_csv(std::istream& in, const std::string& source);
ThroughputTable read_throughput_csv(const std::string& path);

} // namespace cb
