// pair_bw: bandwidth of every pair of ranks, as a matrix (rows = source, columns = destination,
// GB/s), the disjoint pairs of each round-robin round at once (--pairs sequential: one at a time);
// across nodes per node pair. On the host backend MPI's copies (bench/links/link_fabric.hpp); on
// another backend the transport it registered (cuda: NCCL send/recv, every GPU i of a node pair
// with GPU i at once). direction=uni: i -> j for every ordered pair; direction=bi: i <-> j
// at once for every pair, counting both directions (the matrix is symmetric). Run once, at the
// largest rank count.
#include <chrono>

#include "links/links_case.hpp"

namespace cb {

// Measured on 6 emulated nodes at 100 Mbit/s (docs/USER_GUIDE.md, "Both ways at once on the
// host backend"): the same healthy pair gave 0.024 or 0.012 GB/s both ways from one run to the
// next, and which pairs got half moved with the TCP congestion control and with how many
// connections Open MPI opened per pair, while raw TCP between the same nodes gave 0.024 every
// time. A node named from that would be a healthy one pulled from service.
constexpr const char* kHostBothWaysNotJudged =
    "both ways at once over the host backend's MPI transport: how the transport shares one "
    "connection between the two directions decides the figure (Open MPI's TCP transport gives a "
    "healthy pair either full duplex or half of it), so no node or link is named from it; "
    "direction=uni judges the same pairs";

class PairBwCase : public LinksCase {
public:
  PairBwCase() : LinksCase("pair_bw", true) {}

  std::vector<Axis> axes() const override {
    return {transfer_bytes_axis(),
            Axis::words("direction", {"uni", "bi"})
                .defaults("uni,bi")
                .described("one way (each direction in turn), or both ways at once")};
  }

  void run(CaseRun& run, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    if (auto why = why_unsupported(ctx, true); !why.empty())
      return run.skip(why);
    const bool bi = params.at("direction").get<std::string>() == "bi";
    const auto bytes = params.at("bytes").get<std::size_t>();
    const double counted = pair_bytes_counted(bytes, bi);
    auto figure = [&](double s) { return pair_gbps(counted, s); };
    PairProbe probe;
    probe.directed = !bi; // one way: both directions, in consecutive sub-rounds
    probe.before = [] {};
    Record& record = run.record();
    if (ctx.backend_kind() == BackendKind::host) {
      run_on_host(run, probe, bi, bytes, figure);
    } else {
      // Another backend's own copies (bench/cuda/pair_transport_cuda.cpp for cuda).
      const auto transport = PairTransportRegistry::instance().find(ctx.backend_kind())(ctx, bytes);
      if (const std::string why = transport->unusable(); !why.empty())
        return run.skip(why);
      probe.timed = [&](Pair p, int k) { return transport->timed(p, k, bi); };
      probe.check = [&](Pair p) { return transport->check(p, bi); };
      run_pair_test(run, probe, figure, "gbps", transport->rails());
      record.extra["method_intra"] = transport->method();
      record.extra["method_inter"] = transport->method();
    }
    record.extra["bytes_counted"] = counted;
    record.extra["direction_note"] =
        bi ? "both directions at once; GB/s sums both directions" : "one direction at a time";
  }

private:
  static void run_on_host(CaseRun& run, PairProbe& probe, bool bi, std::size_t bytes,
                          const std::function<double(double)>& figure) {
    const CaseContext& ctx = run.context();
    LinkFabric fabric(ctx.comm, node_of_members(ctx), bytes);
    const int me = fabric.rank();
    if (bi)
      probe.not_judged_across_nodes = kHostBothWaysNotJudged;
    probe.timed = [&](Pair p, int k) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < k; ++i) {
        if (bi) {
          fabric.both_ways(p.first, p.second);
        } else {
          fabric.one_way(p.first, p.second);
        }
      }
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    probe.check = [&](Pair p) -> long long {
      // The destination (both ends when bidirectional) holds the other end's pattern.
      if (me == p.second)
        return static_cast<long long>(fabric.check_destination(p.first));
      if (bi && me == p.first)
        return static_cast<long long>(fabric.check_destination(p.second));
      return 0;
    };
    run_pair_test(run, probe, figure, "gbps");
    run.record().extra["method_intra"] = LinkFabric::kIntraMethod;
    run.record().extra["method_inter"] = LinkFabric::kInterMethod;
  }
};

CB_REGISTER_CASE(PairBwCase);

} // namespace cb
