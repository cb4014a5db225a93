#include "links/link_calibration.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>

#include "core/format.hpp"
#include "core/stats.hpp"
#include "core/units.hpp"
#include "links/link_fabric.hpp"
#include "links/links_case.hpp"
#include "runtime/case_context.hpp"

namespace cb {
namespace {

using Pair = std::pair<int, int>;

// One transfer size's buffers between the calibration's pairs, on the backend's transport.
class CalibrationLink {
public:
  virtual ~CalibrationLink() = default;
  // This rank's seconds for k one-way transfers of pair p (0 outside it).
  virtual double timed(Pair p, int k) = 0;
  // Words this rank received wrong from p's sender (0 elsewhere).
  virtual long long check(Pair p) = 0;
  virtual bool rails() const = 0;
  virtual std::string unusable() const { return ""; }
};

// The host: MPI_Send/MPI_Recv across nodes (links/link_fabric.hpp), timed by each end's clock.
class HostLink final : public CalibrationLink {
public:
  HostLink(const CaseContext& ctx, const std::vector<int>& node_of_rank, std::size_t bytes)
      : fabric_(ctx.comm, node_of_rank, bytes) {}
  double timed(Pair p, int k) override {
    if (fabric_.rank() != p.first && fabric_.rank() != p.second)
      return 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < k; ++i)
      fabric_.one_way(p.first, p.second);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  long long check(Pair p) override {
    return fabric_.rank() == p.second ? static_cast<long long>(fabric_.check_destination(p.first))
                                      : 0;
  }
  bool rails() const override { return false; }

private:
  LinkFabric fabric_;
};

// Another backend: the transport its cases registered for pair_bw (cuda: NCCL send/recv).
class TransportLink final : public CalibrationLink {
public:
  explicit TransportLink(std::unique_ptr<PairTransport> transport)
      : transport_(std::move(transport)) {}
  double timed(Pair p, int k) override { return transport_->timed(p, k, false); }
  long long check(Pair p) override { return transport_->check(p, false); }
  bool rails() const override { return transport_->rails(); }
  std::string unusable() const override { return transport_->unusable(); }

private:
  std::unique_ptr<PairTransport> transport_;
};

// Collective over ctx.comm. Null, with `why`, when the backend has no transport.
std::unique_ptr<CalibrationLink> make_link(const CaseContext& ctx,
                                           const std::vector<int>& node_of_rank, std::size_t bytes,
                                           std::string& why) {
  const BackendKind kind = ctx.backend_kind();
  if (kind == BackendKind::host)
    return std::make_unique<HostLink>(ctx, node_of_rank, bytes);
  const auto factory = PairTransportRegistry::instance().find(kind);
  if (!factory) {
    why = PairTransportRegistry::instance().why_not(kind);
    if (why.empty())
      why = "the backend has no transport for pair_bw";
    return nullptr;
  }
  auto link = std::make_unique<TransportLink>(factory(ctx, bytes));
  why = link->unusable();
  return why.empty() ? std::move(link) : nullptr;
}

// Every rank's seconds for one timed round of k transfers (the pairs start together).
double timed_round(const CaseContext& ctx, CalibrationLink& link, const std::optional<Pair>& mine,
                   int k) {
  ctx.comm.barrier();
  return mine ? link.timed(*mine, k) : 0.0;
}

// The median over receiving ranks of their probe's seconds, the same on every rank (rank 0
// gathers one figure per rank).
double median_probe_s(const CaseContext& ctx, double mine_s, const std::optional<Pair>& mine) {
  const bool receives = mine && mine->second == ctx.comm.rank();
  const std::vector<double> all = ctx.comm.gather(receives ? mine_s : -1.0);
  double probe_s = 0;
  if (ctx.comm.rank() == 0) {
    std::vector<double> received;
    for (double s : all) {
      if (s >= 0)
        received.push_back(s);
    }
    probe_s = received.empty() ? 0.0 : median(received);
  }
  ctx.comm.broadcast(&probe_s, sizeof probe_s);
  return probe_s;
}

} // namespace

std::vector<Pair> calibration_pairs(const std::vector<int>& node_of_rank, bool rails) {
  std::map<int, std::vector<int>> ranks_of_node; // by node index, ranks in rank order
  for (std::size_t r = 0; r < node_of_rank.size(); ++r)
    ranks_of_node[node_of_rank[r]].push_back(static_cast<int>(r));
  std::vector<const std::vector<int>*> nodes;
  for (const auto& [node, ranks] : ranks_of_node)
    nodes.push_back(&ranks);
  const std::size_t half = nodes.size() / 2;
  std::vector<Pair> pairs;
  for (std::size_t a = 0; a < half; ++a) {
    const auto& senders = *nodes[a];
    const auto& receivers = *nodes[a + half];
    const std::size_t rails_used = rails ? std::min(senders.size(), receivers.size()) : 1;
    for (std::size_t i = 0; i < rails_used; ++i)
      pairs.emplace_back(senders[i], receivers[i]);
  }
  return pairs;
}

std::size_t calibration_bytes(std::size_t probe_bytes, double probe_s, std::size_t max_bytes) {
  if (!(probe_s > 0) || !std::isfinite(probe_s))
    return probe_bytes;
  const double wanted = static_cast<double>(probe_bytes) / probe_s * kCalibrationSampleS;
  std::size_t bytes = probe_bytes;
  while (bytes < max_bytes && static_cast<double>(bytes) * 2 <= wanted)
    bytes *= 2;
  return bytes;
}

double calibration_median(const std::vector<Pair>& pairs, const std::vector<int>& node_of_rank,
                          const std::vector<double>& rate_of_rank, int& node_pairs) {
  std::map<std::pair<int, int>, double> slowest; // node pair -> its slowest receiving rank
  for (const auto& [sender, receiver] : pairs) {
    const auto s = static_cast<std::size_t>(sender), r = static_cast<std::size_t>(receiver);
    if (r >= rate_of_rank.size() || s >= node_of_rank.size() || r >= node_of_rank.size())
      continue;
    const double rate = rate_of_rank[r];
    const auto key = std::make_pair(node_of_rank[s], node_of_rank[r]);
    const auto it = slowest.find(key);
    slowest[key] = it == slowest.end() ? rate : std::min(it->second, rate);
  }
  std::vector<double> rates;
  for (const auto& [nodes, rate] : slowest) {
    if (rate > 0 && std::isfinite(rate))
      rates.push_back(rate);
  }
  node_pairs = static_cast<int>(rates.size());
  return rates.empty() ? 0.0 : median(rates);
}

LinkCalibration calibrate_inter_link(const CaseContext& ctx) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> node_of_rank;
  for (int world_rank : ctx.members)
    node_of_rank.push_back(ctx.layout.node_of_rank[static_cast<std::size_t>(world_rank)]);
  std::string why;
  auto link = make_link(ctx, node_of_rank, kCalibrationProbeBytes, why);
  if (!link)
    return {0, "not calibrated (" + why + ")"};
  const auto pairs = calibration_pairs(node_of_rank, link->rails());
  std::optional<Pair> mine;
  for (const auto& p : pairs) {
    if (p.first == ctx.comm.rank() || p.second == ctx.comm.rank())
      mine = p;
  }
  timed_round(ctx, *link, mine, 1); // connections made, buffers touched: not kept
  // Sized by the receivers' median probe, not the slowest: one slow rail or a rank late from
  // the barrier would otherwise shrink every pair's transfer to where the barrier's skew and the
  // launch show in its time.
  const double probe_s = median_probe_s(ctx, timed_round(ctx, *link, mine, 1), mine);
  const std::size_t bytes =
      calibration_bytes(kCalibrationProbeBytes, probe_s, kCalibrationMaxBytes);
  // A link fast enough that the largest transfer is shorter than a sample repeats it.
  const double transfer_s = probe_s * static_cast<double>(bytes) / kCalibrationProbeBytes;
  const int k =
      transfer_s > 0
          ? std::clamp(static_cast<int>(std::ceil(kCalibrationSampleS / transfer_s)), 1, 64)
          : 1;
  if (bytes != kCalibrationProbeBytes) {
    link.reset();
    link = make_link(ctx, node_of_rank, bytes, why);
    if (!link)
      return {0, "not calibrated (" + why + ")"};
    timed_round(ctx, *link, mine, 1);
  }
  std::vector<double> samples;
  for (int i = 0; i < 3; ++i)
    samples.push_back(timed_round(ctx, *link, mine, k));
  const bool receives = mine && mine->second == ctx.comm.rank();
  const double my_rate = receives ? static_cast<double>(bytes) * k / median(samples) : 0.0;
  const long long wrong = ctx.comm.sum(receives ? link->check(*mine) : 0LL);
  const std::vector<double> rates = ctx.comm.gather(my_rate);
  double rate = 0;
  int node_pairs = 0;
  if (ctx.comm.rank() == 0)
    rate = calibration_median(pairs, node_of_rank, rates, node_pairs);
  ctx.comm.broadcast(&rate, sizeof rate);
  node_pairs = ctx.comm.broadcast_int(node_pairs);
  if (wrong != 0)
    return {0, "not calibrated (" + std::to_string(wrong) +
                   " wrong words received in its transfers between nodes)"};
  if (!(rate > 0))
    return {0, "not calibrated (no node pair measured)"};
  if (rate < kCalibrationMinBytesPerS || rate > kCalibrationMaxBytesPerS)
    return {0, "not calibrated (" + format_gbps(rate * 1e-9) +
                   " per rank is not a link's rate: a clock or a transfer went wrong)"};
  // Said by rank 0, as it timed it: every rank plans with the same words.
  std::string source;
  if (ctx.comm.rank() == 0) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool rails = link->rails();
    const std::string between =
        node_pairs == 1 ? std::string("2 nodes") + (rails ? ", their slowest rail" : "")
                        : std::to_string(node_pairs) + " node pairs at once, the median" +
                              (rails ? " of their slowest rails" : "");
    source = "calibrated by this run: one-way " + format_size(bytes) + " transfers between " +
             between + " (" + format_seconds(seconds) + ")";
  }
  return {rate, ctx.comm.broadcast_string(source)};
}

} // namespace cb
