#pragma once
// What the links cases share: the host backend only (a GPU backend brings its own copies), the
// message size, the pair-by-pair measurement (only the pair works; the other ranks join the
// engine's barriers and report 0 s, so the max over ranks is the pair's time), and the record of a
// pair matrix.
#include <functional>
#include <utility>
#include <vector>

#include "links/link_fabric.hpp"
#include "links/link_matrix.hpp"
#include "runtime/case.hpp"

namespace cb {

class LinksCase : public BenchmarkCase {
public:
  std::string suite() const override { return "links"; }
  int min_gpus() const override { return 2; }
  std::string why_not_on(const Backend& backend, const Communicator& world) const override;

protected:
  using Pair = std::pair<int, int>;

  static std::string why_unsupported(const CaseContext& ctx);
  // Bytes per transfer: 64 MiB, 8 MiB with --quick.
  static std::uint64_t transfer_bytes(const RunConfig& config);
  // The node index of each rank of ctx.comm.
  static std::vector<int> node_of_members(const CaseContext& ctx);

  struct PairTimes {
    std::vector<Pair> pairs;
    std::vector<double> median_s; // rank 0: each pair's median seconds per operation
    int capped = 0;               // pairs whose sampling hit the time cap
    long long wrong = 0;          // summed over the group
  };
  // For each pair: before(pair) on every rank, a barrier, the engine on timed(pair, k), then
  // check(pair) (this rank's wrong values).
  static PairTimes measure_pairs(const CaseContext& ctx, const std::vector<Pair>& pairs,
                                 const std::function<void(Pair)>& before,
                                 const std::function<double(Pair, int)>& timed,
                                 const std::function<long long(Pair)>& check);

  // Fills a pair-matrix record on rank 0: samples_s = each pair's median (one value per pair),
  // stats of those, extra.matrix / tier_matrix, metrics from summarize_pairs under `metric`
  // (+ min_pair_ / max_pair_ forms), per_rank = each rank's row (and column) median.
  static void fill_matrix_record(const CaseContext& ctx, Record& record, const LinkMatrix& matrix,
                                 const PairTimes& times, const std::string& metric);
  // Sets check from the summed wrong count (every member calls it).
  static void set_check(Record& record, long long wrong, const std::string& what);

  void print_rows(std::ostream& out, const std::vector<Record>& records) const override;
};

// The per-rank identity fields of a record, as the engine writes them for other cases.
nlohmann::json rank_identity(const CaseContext& ctx, int comm_rank);

} // namespace cb
