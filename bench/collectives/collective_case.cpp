#include "collectives/collective_case.hpp"

#include <algorithm>
#include <cmath>

#include "collectives/collective_options.hpp"
#include "collectives/element_buffers.hpp"
#include "core/collective_math.hpp"
#include "core/units.hpp"
#include "runtime/axis_values.hpp"
#include "runtime/element_codec.hpp"

namespace cb {

double pattern_value(int rank, std::size_t element) {
  return 1.0 + static_cast<double>((static_cast<std::size_t>(rank) + element) % 8);
}

double CollectiveCase::reduce_over_ranks(int ranks, std::size_t j, ReduceOp op) {
  // pattern_value cycles with period 8 in rank, so the reduction needs at most 8 distinct terms.
  double sum = 0, lo = 1e300, hi = -1e300;
  const int full_cycles = ranks / 8;
  for (int r = 0; r < std::min(ranks, 8); ++r) {
    const double v = pattern_value(r, j);
    const int times = full_cycles + (r < ranks % 8 ? 1 : 0);
    sum += v * times;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  switch (op) {
  case ReduceOp::sum:
    return sum;
  case ReduceOp::min:
    return lo;
  case ReduceOp::max:
    return hi;
  }
  return sum;
}

std::size_t CollectiveCase::in_place_send_offset(int, const CollectiveShape&) const {
  return 0;
}
std::size_t CollectiveCase::in_place_recv_offset(int, const CollectiveShape&) const {
  return 0;
}
bool CollectiveCase::receives(int, bool) const {
  return true;
}

std::vector<Axis> CollectiveCase::axes() const {
  std::vector<Axis> out;
  out.push_back(Axis::words("dtype", all_dtype_names())
                    .defaults("float")
                    .spelled("dtypes")
                    .described("element types"));
  if (reduces()) {
    out.push_back(Axis::words("op", {"sum", "min", "max"})
                      .defaults("sum")
                      .spelled("ops")
                      .described("reductions"));
  }
  // nccl-tests' -b 8 -e 64M -f 2; --min-bytes, --max-bytes and --step-factor spell the range.
  out.push_back(Axis::sizes("bytes", 1, 1ull << 40)
                    .defaults("8:64M:2", "8:2M:8")
                    .spelled("min-bytes")
                    .described("message sizes"));
  return out;
}

std::vector<nlohmann::json> CollectiveCase::instances(const RunConfig& config) const {
  std::vector<nlohmann::json> out = axis_product(name(), axes(), config);
  if (!reduces()) {
    for (auto& p : out)
      p["op"] = "none"; // the records keep the field every collective table has
  }
  return out;
}

void CollectiveCase::run(CaseRun& run, const nlohmann::json& params) {
  const CaseContext& ctx = run.context();
  auto comm = ctx.backend.collectives(ctx.comm);
  const std::vector<bool> in_place = placements(ctx.config);
  for (std::size_t i = 0; i < in_place.size(); ++i) {
    if (i > 0)
      run.next_record();
    run_one(run, *comm, params, in_place[i]);
  }
}

std::optional<nlohmann::json> CollectiveCase::operation_at(const nlohmann::json& params,
                                                           int ranks) const {
  const CollectiveShape s =
      shape(params.at("bytes").get<std::size_t>(),
            dtype_size(dtype_from_name(params.at("dtype").get<std::string>())), ranks);
  nlohmann::json op = params;
  op["bytes"] = s.bytes;
  op["count"] = s.call_count;
  if (!reduces())
    op.erase("op");
  return op;
}

void CollectiveCase::run_one(CaseRun& run, CollectiveComm& comm, const nlohmann::json& params,
                             bool in_place) {
  const CaseContext& ctx = run.context();
  const DType t = dtype_from_name(params.at("dtype").get<std::string>());
  const std::string op_name = params.at("op").get<std::string>();
  const ReduceOp op = reduces() ? reduce_op_from_name(op_name) : ReduceOp::sum;
  const int ranks = ctx.comm.size();
  const int rank = ctx.comm.rank();
  const CollectiveShape s = shape(params.at("bytes").get<std::size_t>(), dtype_size(t), ranks);

  nlohmann::json record_params = *operation_at(params, ranks);
  record_params["in_place"] = in_place;
  Record& record = run.record();
  record.params = record_params;
  if (auto why = comm.why_unsupported(kind_, t, op, in_place); !why.empty())
    return run.skip(why);
  // The same decision on every rank: the params and the count are the same everywhere.
  const auto requested = params.at("bytes").get<std::size_t>();
  if (!measured_.insert(std::to_string(ranks) + " " + record_params.dump()).second) {
    return run.skip("bytes=" + std::to_string(requested) +
                    ": the operation of a smaller size rounded up to whole elements per rank (" +
                    std::to_string(s.bytes) + " B), measured already at this count");
  }
  const bool graphs = kCudaGraph.value(ctx.config);
  // --cuda-graph: a record timed as graphs is never matched with one timed as stream launches
  // (params differ); stream timing keeps the params it always had.
  record.extra["timing"] = graphs ? "cuda_graph" : "stream";
  if (graphs) {
    record.params["timing"] = "cuda_graph";
    if (auto why = ctx.backend.why_no_graphs(); !why.empty())
      return run.skip("--cuda-graph: " + why);
    // One rank in place moves nothing: NCCL enqueues no GPU work, the captured graph is empty,
    // and its launch would be timed as ~0 s per operation while the batch grew to a million calls
    // (seconds of capture per sample). Stream timing keeps the record (it times the calls).
    if (ranks == 1 && in_place) {
      return run.skip("--cuda-graph: one rank in place moves no data, so NCCL enqueues no GPU "
                      "work and the graph would be empty");
    }
  }

  // Buffers: out of place, separate send and receive; in place, one buffer holding both.
  std::unique_ptr<DeviceBuffer> send_buffer, recv_buffer;
  std::size_t send_base = 0, recv_base = 0;
  if (in_place) {
    recv_buffer = ctx.backend.allocate(std::max(s.send_count, s.recv_count) * dtype_size(t));
    send_base = in_place_send_offset(rank, s);
    recv_base = in_place_recv_offset(rank, s);
  } else {
    send_buffer = ctx.backend.allocate(s.send_count * dtype_size(t));
    recv_buffer = ctx.backend.allocate(s.recv_count * dtype_size(t));
  }
  DeviceBuffer& send_buf = in_place ? *recv_buffer : *send_buffer;
  auto* send_ptr = static_cast<char*>(send_buf.data()) + send_base * dtype_size(t);
  auto* recv_ptr = static_cast<char*>(recv_buffer->data()) + recv_base * dtype_size(t);
  auto fill_send = [&] {
    fill_elements(ctx.backend, send_buf, send_base, s.send_count, t,
                  [&](std::size_t j) { return send_value(rank, ranks, s, j); });
    ctx.backend.synchronize();
  };
  auto one_op = [&] { call(comm, send_ptr, recv_ptr, s.call_count, t, op); };

  fill_send(); // first touch, outside any timing
  const auto bytes = static_cast<double>(s.bytes);
  // On one rank nothing crosses a link, so there is no bus bandwidth to report, even for the
  // collectives whose factor is 1 (a one-rank broadcast is a no-op, not infinitely fast).
  const double factor = ranks > 1 ? busbw_factor(kind_, ranks) : 0.0;
  // Across nodes, the share of the traffic that crosses one node's network link: the same
  // collective with one rank per node (k nodes) moves algbw x factor(k) through each node's link,
  // so node_link_gbps = algbw x factor(k) = busbw x factor(k) / factor(n). It can be held against
  // a NIC's line rate.
  const int nodes = ctx.placement.nodes;
  const double node_factor = busbw_factor(kind_, nodes);
  auto metrics = [&](double seconds, bool) {
    const double algbw = gbps(bytes, seconds);
    nlohmann::json m{
        {"time_us", seconds * 1e6}, {"algbw_gbps", algbw}, {"busbw_gbps", algbw * factor}};
    if (nodes > 1)
      m["node_link_gbps"] = algbw * node_factor;
    return m;
  };
  // The batch of k calls is captured into one graph and launched as one (--cuda-graph).
  // One call on the stream first: NCCL connects a communicator's peers on its first use, which
  // allocates memory and is best done outside a capture (nccl-tests does the same).
  if (graphs) {
    ctx.comm.barrier();
    one_op();
    ctx.backend.synchronize();
  }
  const auto line_up = [&] { ctx.comm.barrier(); };
  // Captured once per batch size for the record and launched for every sample, as nccl-tests -G
  // does; the graph goes with the timer at the end of the record.
  std::unique_ptr<Backend::GraphTimer> graph;
  if (graphs)
    graph = ctx.backend.graph_timer(one_op, line_up);
  const Measurement m = graphs ? run.measure_timed([&](int k) { return graph->time(k); }, metrics)
                               : run.measure(one_op, metrics);
  ctx.add_rank_timing(record, m, waits_for_every_rank());

  // Verification outside the timed region: fresh data (in-place timing overwrote it), one call.
  // Out of place, the receive buffer still holds the timed calls' results: poison it first
  // (-1 is never expected: every value sent is 1..8), so the check proves this call delivered.
  fill_send();
  if (!in_place) {
    fill_elements(ctx.backend, *recv_buffer, recv_base, s.recv_count, t,
                  [](std::size_t) { return -1.0; });
    ctx.backend.synchronize();
  }
  ctx.comm.barrier();
  one_op();
  ctx.backend.synchronize();
  long long wrong = 0;
  if (receives(rank, in_place)) {
    wrong = count_wrong_elements(
        ctx.backend, *recv_buffer, recv_base, s.recv_count, t, check_tolerance(t, ranks),
        [&](std::size_t j) { return expected_value(rank, ranks, s, j, op); });
  }
  wrong = ctx.comm.sum(wrong);
  record.extra["wrong_elements"] = wrong;
  run.check(wrong != 0, std::to_string(wrong) + " wrong elements after " + name());
}

} // namespace cb
