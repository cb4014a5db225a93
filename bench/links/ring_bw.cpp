// ring_bw: every rank receives from its left neighbour and sends to its right one at the same
// time, at each rank count: the aggregate Σ bytes / slowest rank shows contention as N grows.
#include <chrono>

#include "core/rates.hpp"
#include "links/links_case.hpp"

namespace cb {

class RingBwCase : public LinksCase {
public:
  RingBwCase() : LinksCase("ring_bw") {}

  std::vector<Axis> axes() const override { return {transfer_bytes_axis()}; }

  void run(CaseRun& run, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    if (auto why = why_unsupported(ctx); !why.empty())
      return run.skip(why);
    const auto bytes = params.at("bytes").get<std::size_t>();
    const int n = ctx.comm.size();
    LinkFabric fabric(ctx.comm, node_of_members(ctx), bytes);
    const int me = fabric.rank();
    const int left = (me + n - 1) % n, right = (me + 1) % n;
    // Edge r is rank r -> rank r + 1: how it moves and whether it crosses nodes.
    nlohmann::json edge_tiers = nlohmann::json::array();
    for (int r = 0; r < n; ++r)
      edge_tiers.push_back(fabric.same_node(r, (r + 1) % n) ? "intra" : "inter");
    Record& record = run.record();
    record.extra["edge_tiers"] = edge_tiers;
    record.extra["method_intra"] = LinkFabric::kIntraMethod;
    record.extra["method_inter"] = LinkFabric::kInterMethod;

    auto timed = [&](int k) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < k; ++i)
        fabric.ring_step(left, right);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    run.measure_timed(timed, [&](double seconds, bool whole) {
      // Every rank sends `bytes` to its right neighbour at once.
      return nlohmann::json{
          {"time_us", seconds * 1e6},
          {"gbps", weak_scaling_rate(static_cast<double>(bytes), n, seconds, whole)}};
    });
    const long long wrong = ctx.comm.sum(static_cast<long long>(fabric.check_destination(left)));
    set_check(run, wrong, "words received from the left neighbour");
  }
};

CB_REGISTER_CASE(RingBwCase);

} // namespace cb
