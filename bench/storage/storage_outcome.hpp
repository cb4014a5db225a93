#pragma once
// How a storage record ends when it cannot deliver its figure (storage_case.hpp says what each
// outcome makes of the run's exit code). Shared by the read and checkpoint cases.
#include <cstdint>
#include <string>

#include "results/record.hpp"
#include "runtime/case.hpp"
#include "storage/block_format.hpp"

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

// The untimed read-back of what the record measured, said in it (collective: every rank calls
// it): an I/O error on any rank fails the record (false); otherwise the corrupt 4 KiB blocks over
// every rank and the bytes each rank checked.
bool note_verification(CaseRun& run, const ChunkCheck& check, const std::string& verify_error,
                       std::uint64_t bytes_per_rank);

// The memory the record's I/O moved to or from, as the kernel gave it (collective): extra.
// io_buffer_pages = {bytes, huge_page_bytes} summed over the ranks (storage/io_memory.hpp).
// O_DIRECT rates from 4 KiB pages can be half those from 2 MiB pages on the same disk, so a
// comparison of two runs, or of ours against fio, needs it.
void note_io_pages(const CaseContext& ctx, Record& record, const void* buffer, std::uint64_t bytes);

} // namespace cb
