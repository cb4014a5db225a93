#include "storage/storage_outcome.hpp"

#include "storage/io_memory.hpp"

namespace cb {

bool note_verification(CaseRun& run, const ChunkCheck& check, const std::string& verify_error,
                       std::uint64_t bytes_per_rank) {
  const CaseContext& ctx = run.context();
  Record& record = run.record();
  if (const std::string why = ctx.first_problem(verify_error); !why.empty()) {
    fail_storage_io(record, why);
    return false;
  }
  const long long bad = ctx.comm.sum(static_cast<long long>(check.bad_chunks));
  const std::string first_bad = ctx.first_problem(check.first_problem);
  record.extra["bad_blocks"] = bad;
  record.extra["verified_bytes_per_rank"] = bytes_per_rank;
  run.check(bad != 0, std::to_string(bad) + " corrupt 4 KiB block(s); first: " + first_bad);
  return true;
}

void note_io_pages(const CaseContext& ctx, Record& record, const void* buffer,
                   std::uint64_t bytes) {
  const auto huge = static_cast<long long>(buffer ? io_memory_huge_bytes(buffer, bytes) : 0);
  const long long all_bytes = ctx.comm.sum(static_cast<long long>(buffer ? bytes : 0));
  const long long all_huge = ctx.comm.sum(huge);
  record.extra["io_buffer_pages"] = {{"bytes", all_bytes}, {"huge_page_bytes", all_huge}};
}

} // namespace cb
