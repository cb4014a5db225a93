#pragma once
// How a storage record ends when it cannot deliver its figure (storage_case.hpp says what each
// outcome makes of the run's exit code). Shared by the read and checkpoint cases.
#include <string>

#include "results/record.hpp"

namespace cb {

// The case could not be set up (no room, a file that cannot be opened): nothing was read, so
// nothing was checked; the run exits 3.
inline void fail_storage_setup(Record& record, const std::string& why) {
  record.status = RecordStatus::failed;
  record.check = DataCheck::skipped;
  record.reason = why;
}

// An I/O failed mid-run: the data the case exists to deliver is not there; the run exits 1.
inline void fail_storage_io(Record& record, const std::string& why) {
  record.status = RecordStatus::failed;
  record.check = DataCheck::fail;
  record.reason = why;
}

inline void add_storage_reason(Record& record, const std::string& why) {
  if (why.empty())
    return;
  record.reason = record.reason.empty() ? why : record.reason + "; " + why;
}

} // namespace cb
