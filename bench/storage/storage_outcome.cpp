#include "storage/storage_outcome.hpp"

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

} // namespace cb
