#pragma once
// What every collective case shares: the size/dtype/op sweep, buffers in out-of-place and in-place
// layouts, timing through the engine, data verification after timing, nccl-tests' bandwidth
// accounting. Its console table is collectives_table.cpp. Each collective is a small file that says only what is its
// own: buffer shapes, the pattern it sends, what a rank must receive, and the call.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "runtime/case.hpp"
#include "runtime/dtype.hpp"

namespace cb {

// Element counts for one size, in nccl-tests' terms.
struct CollectiveShape {
  std::size_t send_count = 0; // elements in this rank's send buffer
  std::size_t recv_count = 0; // elements in this rank's receive buffer
  std::size_t call_count = 0; // the count argument of the call
  std::size_t bytes = 0;      // the size reported: the larger buffer, in bytes
};

// The value rank r puts at element j of its send buffer: small positive integers, exact in every
// type once reduced over any realistic number of ranks.
double pattern_value(int rank, std::size_t element);

class CollectiveCase : public BenchmarkCase {
public:
  explicit CollectiveCase(Collective kind)
      : BenchmarkCase("collectives", std::string(collective_name(kind)),
                      CaseTraits{.uses_collectives = true}),
        kind_(kind) {}
  // dtype, op (reducing collectives only) and bytes, bytes innermost: one nccl-tests table per
  // dtype and op.
  std::vector<Axis> axes() const override;
  std::vector<nlohmann::json> instances(const RunConfig& config) const override;
  // One record per --in-place value (out of place first), through CaseRun::next_record: the
  // value is a choice of the run, not an axis, and the planner counts a record per value.
  void run(CaseRun& run, const nlohmann::json& params) override;
  // bytes and count as the call moves them on `ranks` ranks (the op only for a reduction).
  std::optional<nlohmann::json> operation_at(const nlohmann::json& params,
                                             int ranks) const override;
  std::string why_not_on(const Backend& backend, BackendKind /*kind*/,
                         const Communicator& world) const override {
    return backend.why_no_collectives(world);
  }

protected:
  // Does the collective reduce (and so sweep ops)?
  virtual bool reduces() const { return true; }
  virtual CollectiveShape shape(std::size_t bytes, std::size_t element_size, int ranks) const = 0;
  // Send value at element j on `rank` of `ranks`; expected receive value at element j.
  virtual double send_value(int rank, int ranks, const CollectiveShape& s, std::size_t j) const = 0;
  virtual double expected_value(int rank, int ranks, const CollectiveShape& s, std::size_t j,
                                ReduceOp op) const = 0;
  // Where, in element offsets, the send and receive buffers start when in place (NCCL's layouts).
  virtual std::size_t in_place_send_offset(int rank, const CollectiveShape& s) const;
  virtual std::size_t in_place_recv_offset(int rank, const CollectiveShape& s) const;
  // Ranks whose receive buffer the call defines (out-of-place broadcast leaves the root's alone).
  virtual bool receives(int rank, bool in_place) const;
  // Does every rank's result need every other rank's data? Then no rank finishes before the last
  // one arrives, and the rank with the shortest own time is the one the others waited for: the
  // record may name a straggler (runtime/straggler.hpp). Rooted collectives say no.
  virtual bool waits_for_every_rank() const { return true; }
  virtual void call(CollectiveComm& comm, const void* send, void* recv, std::size_t count, DType t,
                    ReduceOp op) const = 0;

  // The reduction of pattern_value over every rank at element j.
  static double reduce_over_ranks(int ranks, std::size_t j, ReduceOp op);

private:
  void run_one(CaseRun& run, CollectiveComm& comm, const nlohmann::json& params, bool in_place);
  Collective kind_;
  // The operations measured so far (ranks and the record's params): a size under one element
  // per rank is rounded up, so at 8,192 ranks the sizes 8 B..32 KB of all_gather are one
  // operation, measured once.
  std::set<std::string> measured_;
};

} // namespace cb
