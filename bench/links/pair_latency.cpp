// pair_latency: one-way latency of 8-byte messages for every ordered pair of ranks, as a matrix
// (µs, round trip / 2 of a ping-pong started by the row's rank), in round-robin rounds like
// pair_bw (--pairs sequential: one pair at a time); across nodes per node pair. Both orders are
// measured: the side that starts the exchange is the one whose wake-up and cache state are timed
// first, and a rank with a busy core or a far NUMA node shows in its row, not only averaged into a
// symmetric cell. On the host backend MPI's (bench/links/link_fabric.hpp); on another backend the
// transport it registered (cuda: NCCL send/recv between the GPUs, every GPU i of a node pair with
// GPU i at once, as pair_bw; one order per pair, as its answering side is a kernel already in its
// stream, not a thread to wake: PairTransport::ping_pong_both_orders). Run once, at the largest
// rank count.
#include "links/links_case.hpp"

namespace cb {

class PairLatencyCase : public LinksCase {
public:
  PairLatencyCase() : LinksCase("pair_latency", true) {}

  // No axes: the ping-pong's message is fixed (kMessageBytes), the latency figure OSU quotes.
  std::vector<nlohmann::json> instances(const RunConfig&) const override {
    return {{{"bytes", kMessageBytes}}};
  }

  void run(CaseRun& run, const nlohmann::json& /*params*/) override {
    const CaseContext& ctx = run.context();
    if (auto why = why_unsupported(ctx, true); !why.empty())
      return run.skip(why);
    const long long wrong_replies =
        ctx.backend_kind() == BackendKind::host ? run_on_host(run) : run_on_transport(run);
    if (wrong_replies != 0)
      set_check(run, wrong_replies, "replies");
  }

private:
  static constexpr std::uint64_t kMessageBytes = 8;

  static PairProbe directed_probe(bool both_orders = true) {
    PairProbe probe;
    probe.directed = both_orders; // each end starts the ping-pong in turn
    return probe;
  }

  // Each returns the wrong replies summed over the group.
  static long long run_on_host(CaseRun& run) {
    const CaseContext& ctx = run.context();
    // The ping-pong uses only the window's mailboxes; the buffers are one message long.
    LinkFabric fabric(ctx.comm, node_of_members(ctx), kMessageBytes);
    PairProbe probe = directed_probe();
    // MPI round trips over TCP vary by tens of percent one from the next: each sample averages
    // 10 ms of them (latency_settings), or 1 ms samples rarely meet the spread target.
    probe.latency = true;
    // A fresh sequence per round: every rank resets its mailbox before the round's barrier.
    probe.before = [&] { fabric.reset_mailbox(); };
    probe.timed = [&](Pair p, int k) { return fabric.ping_pong(p.first, p.second, k) / 2; };
    probe.check = [](Pair) { return 0LL; };
    run_pair_test(
        run, probe, [](double s) { return s * 1e6; }, "latency_us");
    run.record().extra["method_intra"] =
        "8-byte flag ping-pong through an MPI shared-memory window";
    run.record().extra["method_inter"] = "8-byte MPI_Send/MPI_Recv ping-pong";
    // Through the window a wrong reply would never end the wait; over MPI each one is compared.
    return ctx.comm.sum(fabric.wrong_replies());
  }

  // Another backend's own messages (bench/cuda/pair_transport_cuda.cpp for cuda).
  static long long run_on_transport(CaseRun& run) {
    const CaseContext& ctx = run.context();
    const auto transport =
        PairTransportRegistry::instance().find(ctx.backend_kind())(ctx, kMessageBytes);
    if (const std::string why = transport->unusable(); !why.empty()) {
      run.skip(why);
      return 0;
    }
    // Each end holds the last message of the other after a round; one wrong word or more makes
    // it a wrong reply, counted as the host counts its replies (not as words at destinations).
    long long wrong_replies = 0;
    PairProbe probe = directed_probe(transport->ping_pong_both_orders());
    probe.before = [] {};
    probe.timed = [&](Pair p, int k) { return transport->ping_pong(p, k) / 2; };
    probe.check = [&](Pair p) {
      wrong_replies += transport->check(p, true) != 0 ? 1 : 0;
      return 0LL;
    };
    run_pair_test(
        run, probe, [](double s) { return s * 1e6; }, "latency_us", transport->rails());
    run.record().extra["method_intra"] = transport->ping_pong_method();
    run.record().extra["method_inter"] = transport->ping_pong_method();
    return ctx.comm.sum(wrong_replies);
  }
};

CB_REGISTER_CASE(PairLatencyCase);

} // namespace cb
