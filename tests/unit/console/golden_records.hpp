#pragma once
// A fixed set of records, one or more of every kind the console prints: the collectives table
// (settled, noisy, skipped and missing halves, a reason shared by rows, broadcast's root, a
// straggler), the
// links pair matrix and a links row, compute rows with metrics, and a failed data check.
#include <vector>

#include "results/record.hpp"
#include "runtime/console_printer.hpp"
#include "runtime/sweep.hpp"

namespace cb::golden {

struct Table {
  TableHeading heading;
  std::vector<std::vector<Record>> instances; // what each run() returned
};

std::vector<Table> tables();
// The end-of-run counts of these records, as the sweep would have counted them.
SweepSummary summary();

} // namespace cb::golden
