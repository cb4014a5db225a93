#pragma once
// Figures of a loaded record that contradict each other. Each field of a record is bounded where
// it is read (results_io.cpp); here the fields are held against each other, so that a record whose
// median was edited without its samples, whose p95 is below its median, or whose bandwidth does
// not follow from its size and time is refused as the broken file it is, not compared, fitted or
// qualified as a measurement.
//
// What every writer of records guarantees (runtime/case.cpp, the pair tests, the importers):
// - stats are of every sample; samples_s holds all of them, or (pair tests at scale) a subset of
//   their order statistics that keeps the smallest and the largest, or none;
// - time_us is the median in microseconds;
// - a collective's algbw_gbps is params.bytes / median / 1e9.
#include <string>

#include "results/record.hpp"

namespace cb {

// InputError "WHERE: ..." naming the first figure that contradicts another.
void check_record_figures(const Record& record, const std::string& where);

} // namespace cb
