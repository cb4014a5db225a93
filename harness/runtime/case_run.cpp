#include "runtime/case_run.hpp"

#include <utility>

namespace cb {

CaseRun::CaseRun(const CaseContext& ctx, Record first) : ctx_(ctx), identity_(first) {
  records_.push_back(std::move(first));
  measured_.push_back(false);
}

void CaseRun::skip(const std::string& reason) {
  CaseContext::skip(record(), reason);
}

Measurement CaseRun::measure(const std::function<void()>& one_op, const Metrics& metrics) {
  return measure_timed([&](int k) { return ctx_.backend.time_batch(k, one_op); }, metrics);
}

Measurement CaseRun::measure_timed(const std::function<double(int)>& timed_batch,
                                   const Metrics& metrics) {
  // Device state (power, temperature, throttling) around the measurement, where the backend has
  // it: a record taken while the device throttled says so.
  const nlohmann::json before = ctx_.backend.state();
  Measurement m = cb::measure(ctx_.comm, ctx_.config.measure, timed_batch);
  const nlohmann::json after = ctx_.backend.state();
  ctx_.finish_record(record(), m, metrics);
  ctx_.note_device_state(record(), before, after);
  measured_.back() = true;
  return m;
}

void CaseRun::check(bool wrong, const std::string& why) {
  Record& r = record();
  r.check = wrong ? DataCheck::fail : DataCheck::pass;
  if (wrong && !why.empty())
    r.reason = r.reason.empty() ? why : why + "; " + r.reason;
}

void CaseRun::next_record() {
  records_.push_back(identity_);
  measured_.push_back(false);
}

bool CaseRun::ended(std::size_t i) const {
  const Record& r = records_[i];
  return measured_[i] || r.status != RecordStatus::ok || !r.samples_s.empty();
}

std::vector<Record> CaseRun::take_records() {
  if (ctx_.comm.rank() == 0) {
    for (std::size_t i = 0; i < records_.size(); ++i) {
      if (ended(i))
        continue;
      Record& r = records_[i];
      r.status = RecordStatus::failed;
      r.check = DataCheck::skipped;
      r.reason = r.suite + "/" + r.case_name + " ended the record without measuring or skipping it";
    }
  }
  return std::move(records_);
}

} // namespace cb
