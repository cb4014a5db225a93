// pair_latency: one-way latency of 8-byte messages for every ordered pair of ranks, as a matrix
// (µs, round trip / 2 of a ping-pong started by the row's rank), in round-robin rounds like
// pair_bw (--pairs sequential: one pair at a time); across nodes per node pair. Both orders are
// measured: the side that starts the exchange is the one whose wake-up and cache state are timed
// first, and a rank with a busy core or a far NUMA node shows in its row, not only averaged into a
// symmetric cell. Run once, at the largest rank count.
#include "links/links_case.hpp"

namespace cb {

class PairLatencyCase : public LinksCase {
public:
  std::string name() const override { return "pair_latency"; }
  bool largest_count_only() const override { return true; }

  // No axes: the ping-pong's message is fixed (kMessageBytes), the latency figure OSU quotes.
  std::vector<nlohmann::json> instances(const RunConfig&) const override {
    return {{{"bytes", kMessageBytes}}};
  }

  std::vector<Record> run(const CaseContext& ctx, const nlohmann::json& params) override {
    Record record = ctx.new_record(suite(), name(), params);
    if (auto why = why_unsupported(ctx); !why.empty()) {
      CaseContext::skip(record, why);
      return {record};
    }
    // The ping-pong uses only the window's mailboxes; the buffers are one message long.
    LinkFabric fabric(ctx.comm, node_of_members(ctx), kMessageBytes);
    PairProbe probe;
    probe.directed = true; // each end starts the ping-pong in turn
    // A fresh sequence per round: every rank resets its mailbox before the round's barrier.
    probe.before = [&] { fabric.reset_mailbox(); };
    probe.timed = [&](Pair p, int k) { return fabric.ping_pong(p.first, p.second, k) / 2; };
    probe.check = [](Pair) { return 0LL; };
    run_pair_test(
        ctx, record, probe, [](double s) { return s * 1e6; }, "latency_us");
    record.extra["method_intra"] = "8-byte flag ping-pong through an MPI shared-memory window";
    record.extra["method_inter"] = "8-byte MPI_Send/MPI_Recv ping-pong";
    // Through the window a wrong reply would never end the wait; over MPI each one is compared.
    const long long wrong_replies = ctx.comm.sum(fabric.wrong_replies());
    if (wrong_replies != 0)
      set_check(record, wrong_replies, "replies");
    return {record};
  }

private:
  static constexpr std::uint64_t kMessageBytes = 8;
};

CB_REGISTER_CASE(PairLatencyCase);

} // namespace cb
