#pragma once
// The state of one instance of a case while it runs: the sweep makes the record (its identity
// filled in: suite, case, params, gpus, nodes, tier) and hands it to the case in a CaseRun; the
// case fills what only it knows (params it settles, extra, metrics) and ends the record one of
// three ways: skip(reason), measure(...)/measure_timed(...), or a failure status it sets itself
// (a storage I/O error). check(wrong, why) adds the data verification after timing. A record
// the case neither measured nor skipped is not written as measured: the sweep marks it failed.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/record.hpp"
#include "runtime/case_context.hpp"
#include "runtime/engine.hpp"

namespace cb {

class CaseRun {
public:
  using Metrics = std::function<nlohmann::json(double seconds_per_op, bool whole)>;

  CaseRun(const CaseContext& ctx, Record first);

  const CaseContext& context() const { return ctx_; }
  // The record being filled: params the case settles (a device's default size), extra, metrics.
  Record& record() { return records_.back(); }
  const Record& record() const { return records_.back(); }

  // The record is skipped with `reason` (the same decision on every rank).
  void skip(const std::string& reason);
  // Times `one_op` with the engine and fills samples, stats, status and per-rank figures.
  // `metrics(seconds_per_op, whole)` gives the metrics for the whole group (whole = true) or for
  // one rank's own time (whole = false). Collective: every member calls it.
  Measurement measure(const std::function<void()>& one_op, const Metrics& metrics);
  // The same, for an operation that times itself: timed_batch(k) returns this rank's seconds.
  Measurement measure_timed(const std::function<double(int)>& timed_batch, const Metrics& metrics);
  // The data verification after timing, `wrong` already agreed by the group (a sum over its
  // ranks): the check passes, or fails with `why` (where not empty) said before any reason the
  // record has.
  void check(bool wrong, const std::string& why);

  // One instance, several records: the collectives write one per --in-place value. The record
  // being filled is done and a new one opens with the instance's identity (the first record's,
  // as the sweep made it); the records are written in the order they were opened.
  void next_record();

  // The records, in order, for the rank that keeps them: one the case left unended is marked
  // failed with the reason, never written as a measurement (only rank 0 checks: other ranks'
  // records are never written, and some cases leave them half-filled on purpose).
  std::vector<Record> take_records();

private:
  // Whether record i was ended: skipped, measured, given a status other than ok, or given
  // samples by a case that times in its own way (pair matrices, the training step).
  bool ended(std::size_t i) const;

  const CaseContext& ctx_;
  Record identity_; // the record as the sweep made it, for next_record
  std::vector<Record> records_;
  std::vector<bool> measured_; // per record: measure() or measure_timed() filled it
};

} // namespace cb
