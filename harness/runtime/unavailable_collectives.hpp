#pragma once
// Collectives a run cannot do: every case says why in its skipped record; no call is reached
// (the collective case asks why_unsupported first).
#include <string>
#include <utility>

#include "core/error.hpp"
#include "runtime/backend.hpp"

namespace cb {

class UnavailableCollectives : public CollectiveComm {
public:
  explicit UnavailableCollectives(std::string why) : why_(std::move(why)) {}
  std::string why_unsupported(Collective, DType, ReduceOp, bool) const override { return why_; }
  void all_reduce(const void*, void*, std::size_t, DType, ReduceOp) override { unreachable(); }
  void all_gather(const void*, void*, std::size_t, DType) override { unreachable(); }
  void reduce_scatter(const void*, void*, std::size_t, DType, ReduceOp) override { unreachable(); }
  void broadcast(const void*, void*, std::size_t, DType, int) override { unreachable(); }
  void alltoall(const void*, void*, std::size_t, DType) override { unreachable(); }

private:
  [[noreturn]] void unreachable() const { CB_RUN_ERROR("collective called though " + why_); }
  std::string why_;
};

} // namespace cb
