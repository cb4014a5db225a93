#pragma once
// What the links cases share: the host backend only (a GPU backend brings its own copies), the
// message size, the pair tests in rounds (bench/links/pair_schedule.hpp: the disjoint pairs of a
// round are measured at once; ranks outside the round's pairs join the engine's barriers and
// report 0 s), the second pass that names a bad node or link (bench/links/pair_naming.hpp), and
// the record of the pair matrices.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "links/link_fabric.hpp"
#include "links/link_matrix.hpp"
#include "links/pair_probe.hpp"
#include "runtime/case.hpp"

namespace cb {

class LinksCase : public BenchmarkCase {
public:
  std::string why_not_on(const Backend& backend, BackendKind kind,
                         const Communicator& world) const override;

protected:
  // Every links case needs a pair of ranks; a pair test (every pair in one record) runs once, at
  // the largest count of the sweep.
  explicit LinksCase(std::string name, bool pair_test = false)
      : BenchmarkCase("links", std::move(name),
                      CaseTraits{.min_gpus = 2, .largest_count_only = pair_test}) {}

  using Pair = std::pair<int, int>;

  // with_transport: the case can run on a backend that registered a PairTransport.
  static std::string why_unsupported(const CaseContext& ctx, bool with_transport = false);
  // The bytes of each bandwidth transfer: 64M (8M under --quick), large enough to hide the
  // per-message cost on every link the family measures.
  static Axis transfer_bytes_axis();
  // The node index of each rank of ctx.comm.
  static std::vector<int> node_of_members(const CaseContext& ctx);

  // How one pair test moves data, and what its rounds measured (bench/links/pair_probe.hpp).
  using PairProbe = cb::PairProbe;
  using PairTimes = cb::PairTimes;
  // Measures `rounds` rounds, all pairs of a round at once: probe.before on every rank, a barrier,
  // the engine on probe.timed (ranks outside the round's pairs report 0 s), then probe.check. A
  // pair's time per sample is the slower of its two ends; it is taken from each rank's own median
  // (the engine's max over ranks is the round's slowest pair).
  // on_round(r), where given, is called before round r.
  // unit_of(rank), where given (a node's rails), maps each rank to its unit: rank 0 then keeps one
  // entry per unit pair of a (sub-)round, its slowest rank pair (a round's unit pairs are
  // disjoint), so that it holds node pairs, not rank pairs (1 M, not 8.4 M, at 1,024 nodes of 8).
  // each_pair(pair, seconds), where given, sees every rank pair on rank 0 before that.
  static PairTimes measure_rounds(const CaseContext& ctx, int rounds,
                                  const std::function<std::vector<Pair>(int)>& round_pairs,
                                  const PairProbe& probe,
                                  const std::function<void(int)>& on_round = {},
                                  const std::function<int(int)>& unit_of = {},
                                  const std::function<void(Pair, double)>& each_pair = {});

  // The whole pair test: the pairs within each node and the node pairs across nodes, in rounds
  // (or one at a time with --pairs sequential), the second pass across nodes, and the record;
  // with --pairs screen (docs/DIAGNOSIS.md) the screen replaces the rounds and the second pass
  // across nodes.
  // value_of turns a pair's median seconds into its figure (`metric`).
  // rails: across nodes every local rank i meets local rank i of the other node at once (a GPU
  // node's rails), instead of the first rank of each node alone; the node pair's figure is its
  // slowest rail.
  static void run_pair_test(CaseRun& state, const PairProbe& probe,
                            const std::function<double(double)>& value_of,
                            const std::string& metric, bool rails = false);

  // Checks the record with the summed wrong count (every member calls it).
  static void set_check(CaseRun& run, long long wrong, const std::string& what);
};

// How a backend other than the host moves the bytes of one pair of ranks, for links/pair_bw and
// links/pair_latency: the backend's cases register a factory (bench/cuda/pair_transport_cuda.cpp
// for cuda).
class PairTransport {
public:
  virtual ~PairTransport() = default;
  // This rank's seconds for k operations of pair p (src -> dst, or both ways at once).
  virtual double timed(std::pair<int, int> p, int k, bool both_ways) = 0;
  // This rank's seconds for k round trips of a ping-pong p.first starts: it sends one transfer,
  // p.second receives it and sends its own back. 0 on p.second, whose clock starts before the
  // first message arrives, as on every rank outside the pair.
  virtual double ping_pong(std::pair<int, int> p, int k) = 0;
  // Wrong words this rank received from the pair's other end; clears its destination. After a
  // ping-pong both ends received (both_ways).
  virtual long long check(std::pair<int, int> p, bool both_ways) = 0;
  virtual std::string method() const = 0;
  virtual std::string ping_pong_method() const = 0;
  // Why the record cannot run on this transport (its buffers do not fit in a GPU's free memory,
  // or their allocation failed), the same on every rank; "" when it can.
  virtual std::string unusable() const { return ""; }
  // Across nodes, every local GPU i with GPU i of the other node at once.
  virtual bool rails() const = 0;
  // Whether pair_latency starts each pair's ping-pong from both ends in turn: worth it where a
  // host thread wakes up to answer (its wake-up is timed on one side only), not where both ends
  // are kernels already queued on their streams.
  virtual bool ping_pong_both_orders() const { return true; }
};

class PairTransportRegistry {
public:
  // Collective over ctx.comm; bytes per transfer.
  using Factory = std::unique_ptr<PairTransport> (*)(const CaseContext& ctx, std::size_t bytes);
  static PairTransportRegistry& instance();
  void add(BackendKind backend, Factory factory);
  Factory find(BackendKind backend) const; // nullptr when none
  // Why the backend's transport cannot run in this build ("" when it can), as its factory says.
  using Why = std::string (*)();
  void add_why(BackendKind backend, Why why);
  std::string why_not(BackendKind backend) const;

private:
  std::map<BackendKind, Factory> factories_;
  std::map<BackendKind, Why> whys_;
};

// The per-rank identity fields of a record, as the engine writes them for other cases.
nlohmann::json rank_identity(const CaseContext& ctx, int comm_rank);

} // namespace cb
