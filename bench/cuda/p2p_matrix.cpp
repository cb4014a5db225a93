// p2p_matrix: bandwidth between every pair of GPUs of the first node, by copy engine
// (cudaMemcpyAsync into the peer's buffer) or by SM kernel (stores into the peer's memory), one
// way or both ways at once, as one record holding the matrix (rows = source, columns =
// destination, GB/s). Each rank of the first node owns its own GPU's buffers and maps its peers'
// (CUDA IPC handles between processes, the raw pointer between threads: p2p_peer_buffers.hpp), so
// it works with one visible GPU per rank and in an EXCLUSIVE_PROCESS compute mode. A copy runs on
// the source rank's stream and is timed by its own events; both ways, the two ranks of a pair push
// at once. The pairs run in round-robin rounds over the node's ranks (all disjoint pairs of a
// round at once: 7 rounds on 8 GPUs instead of 56 one-way pairs in turn); --pairs sequential
// measures one pair at a time, as nvbandwidth does. A pair whose buffer cannot be mapped (no peer
// path) is a skipped pair with CUDA's reason. The other nodes' ranks wait at one barrier.
#include <algorithm>
#include <memory>

#include "core/stats.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/memory_check.hpp"
#include "cuda/p2p_node_plan.hpp"
#include "gpu_case.hpp"
#include "links/links_options.hpp"
#include "links/pair_schedule.hpp"
#include "p2p_peer_buffers.hpp"
#include "runtime/communicator.hpp"

namespace cb {
namespace {

// What the node's ranks measured, as the node's first rank writes it.
struct NodeOutcome {
  std::vector<cuda::PushTime> pushes; // this rank's own
  nlohmann::json skipped = nlohmann::json::array();
  long long wrong = 0;
  int capped = 0;
  int rounds = 0;
  std::string method;
};

class P2pMatrixCase : public GpuCase {
public:
  // Every pair of the node's GPUs in one record: once, at the largest count of the sweep.
  P2pMatrixCase() : GpuCase("links", "p2p_matrix", CaseTraits{.largest_count_only = true}) {}

protected:
  std::vector<Axis> axes() const override {
    return {Axis::sizes("bytes", 4, 64ull << 30).defaults("256M").described("bytes per copy"),
            copy_initiator_axis(),
            Axis::words("direction", {"uni", "bi"})
                .defaults("uni,bi")
                .described("one way, or both ways at once")};
  }
  std::vector<nlohmann::json> gpu_instances(const RunConfig& config) const override {
    return BenchmarkCase::instances(config);
  }

  void run_gpu(CaseRun& run, cuda::CudaBackend& backend, const nlohmann::json& params) override {
    const CaseContext& ctx = run.context();
    std::vector<int> node_of_member;
    for (const int world_rank : ctx.members)
      node_of_member.push_back(ctx.layout.node_of_rank[static_cast<std::size_t>(world_rank)]);
    const std::vector<int> first = cuda::first_node_members(node_of_member);
    const bool on_first_node =
        std::find(first.begin(), first.end(), ctx.comm.rank()) != first.end();
    // The matrix is the first node's alone: its ranks measure among themselves, the other nodes'
    // ranks sleep at one barrier (one collective at 1,000 nodes, not one per round).
    const Communicator node = ctx.comm.split(on_first_node ? 0 : -1, ctx.comm.rank());
    if (on_first_node)
      measure_node(run, backend, node, params);
    ctx.comm.idle_barrier();
  }

private:
  static void measure_node(CaseRun& run, cuda::CudaBackend& backend, const Communicator& node,
                           const nlohmann::json& params) {
    const CaseContext& ctx = run.context();
    const std::size_t bytes = params.at("bytes").get<std::size_t>();
    const bool bidirectional = params.at("direction") == "bi";
    Record& record = run.record();
    const int n = node.size();
    record.extra["node_gpus"] = std::max(n, ctx.placement.ranks_per_node);
    record.extra["gpus_covered"] = n < 2 ? n : 0;
    if (const std::string why = refusal(backend, node, bytes); !why.empty())
      return run.skip(why);

    P2pPeerBuffers buffers(node, backend.device_index(), bytes, backend.stream());
    if (!buffers.problem().empty())
      return run.skip("cannot share GPU buffers across the node's ranks: " + buffers.problem());
    record.extra["gpus_covered"] = n;
    const NodeOutcome outcome = measure_steps(run, backend, node, buffers, params);
    const long long wrong = node.sum(outcome.wrong);
    buffers.release();
    // Each source rank's own times to the node's first rank: at most the node's GPUs.
    const std::vector<std::string> texts =
        node.gather_string(cuda::push_times_text(outcome.pushes));
    if (node.rank() != 0)
      return;
    std::vector<cuda::PushTime> all;
    for (const std::string& text : texts) {
      for (const cuda::PushTime& p : cuda::push_times_from_text(text))
        all.push_back(p);
    }
    if (outcome.capped > 0)
      record.status = RecordStatus::noisy;
    if (write_matrix(run, backend, cuda::assemble_p2p_matrix(all, bytes, bidirectional), outcome, n,
                     bidirectional, kPairs.given(ctx.config).value_or("") == "sequential"))
      run.check(wrong != 0, std::to_string(wrong) + " wrong floats after the copies");
  }

  // "" when the node's ranks can measure, else why not (the same on every rank of the node).
  static std::string refusal(cuda::CudaBackend& backend, const Communicator& node,
                             std::size_t bytes) {
    cuda::DeviceScope scope(backend.device_index());
    int mode = 0;
    CB_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, backend.device_index()));
    if (std::string why = cuda::why_no_p2p_matrix(node.all_gather_int(mode)); !why.empty())
      return why;
    std::size_t free_bytes = 0, total_bytes = 0;
    CB_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::string short_here = cuda::device_memory_shortfall(
        2 * bytes, free_bytes, backend.device().value("pci_bus_id", std::string("?")));
    return first_problem_anywhere(node, short_here.empty() ? ""
                                                           : "rank " + std::to_string(node.rank()) +
                                                                 " of the node " + short_here);
  }

  // Every step of the schedule: the pairs whose buffers were mapped push at once; each source
  // rank keeps its own median seconds per copy, each destination checks its buffer.
  static NodeOutcome measure_steps(CaseRun& run, cuda::CudaBackend& backend,
                                   const Communicator& node, const P2pPeerBuffers& buffers,
                                   const nlohmann::json& params) {
    const CaseContext& ctx = run.context();
    const std::size_t bytes = params.at("bytes").get<std::size_t>();
    const bool by_sm = params.at("initiator") == "sm";
    const bool bidirectional = params.at("direction") == "bi";
    const int n = node.size(), me = node.rank();
    std::vector<cuda::RankPairs> rounds;
    if (kPairs.given(ctx.config).value_or("") == "sequential") {
      rounds = cuda::sequential_rounds(n);
    } else {
      for (int r = 0; r < circle_round_count(n); ++r)
        rounds.push_back(circle_round(n, r));
    }
    NodeOutcome out;
    out.rounds = static_cast<int>(rounds.size());
    out.method = buffers.method();
    for (const cuda::P2pStep& planned : cuda::p2p_steps(rounds, bidirectional)) {
      const cuda::P2pStep step =
          cuda::runnable_step(planned, buffers.unmapped(), bidirectional, out.skipped);
      if (step.pairs.empty())
        continue; // the same on every rank: every rank holds every rank's mappings
      const int target = cuda::push_target(step, me, bidirectional);
      std::vector<cuda::CopyStream> streams;
      if (target >= 0) {
        void* dst = buffers.peer_destination(target);
        const void* src = buffers.source();
        streams.push_back({backend.device_index(), [=](cudaStream_t s) {
                             if (by_sm) {
                               cuda::launch_sm_copy(dst, src, bytes, s);
                             } else {
                               CB_CUDA(
                                   cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
                             }
                           }});
      }
      // Streams, events and flag made once for the step; a rank without a copy in it still meets
      // the others before every release.
      cuda::HeldCopies held(std::move(streams), [&node] { node.barrier(); });
      const Measurement m =
          measure(node, ctx.config.measure, [&](int k) { return held_copy_seconds(held, k); });
      if (!m.converged)
        ++out.capped;
      if (target >= 0)
        out.pushes.push_back({me, target, step.round, median(m.own_samples_s)});
      node.barrier(); // every copy of the step is done before a destination is read
      if (cuda::receives_in(step, me, bidirectional))
        out.wrong += check_and_clear(backend, buffers.destination(), bytes);
      // No ctx.progressing() here: the other nodes' ranks wait for the whole matrix at one
      // barrier, so --timeout must bound the whole record on every rank alike.
    }
    return out;
  }

  // Wrong floats in this rank's destination, which is then cleared so that the next step's check
  // cannot pass on this step's data.
  static long long check_and_clear(cuda::CudaBackend& backend, void* destination,
                                   std::size_t bytes) {
    const auto wrong =
        static_cast<long long>(count_float_mismatches(backend, destination, bytes / 4, 1.5));
    cuda::DeviceScope scope(backend.device_index());
    CB_CUDA(cudaMemsetAsync(destination, 0, bytes, backend.stream()));
    backend.synchronize();
    return wrong;
  }

  // Fills the record; false when no pair was measured (the record is then a skip).
  static bool write_matrix(CaseRun& run, cuda::CudaBackend& backend, const cuda::NodeMatrix& m,
                           const NodeOutcome& outcome, int n, bool bidirectional, bool sequential) {
    Record& record = run.record();
    record.extra["devices"] = n;
    record.extra["devices_are"] = "the first node's ranks, in node rank order, each its own GPU";
    record.extra["method"] = outcome.method;
    record.extra["skipped_pairs"] = outcome.skipped;
    record.extra["matrix"] = cuda::link_matrix_json(n, m.gbps, bidirectional);
    record.extra["samples_are"] = "the median seconds of each measured pair";
    record.extra["schedule"] = sequential ? "sequential" : "rounds";
    record.extra["rounds"] = outcome.rounds;
    record.extra["pair_rounds"] = m.pair_rounds;
    record.extra["pair_rounds_layout"] = "[source GPU, destination GPU, round]";
    if (!sequential) {
      record.extra["round_note"] =
          std::string("round-robin (circle) schedule: every GPU pair once, no GPU twice in a "
                      "round, all pairs of a round copying at once") +
          (bidirectional ? "" : "; the two directions of a pair in consecutive sub-rounds");
    }
    record.extra["bidirectional_sums_both_directions"] = bidirectional;
    if (m.pair_seconds.empty()) {
      run.skip("no pair of the node's GPUs could map the other's memory");
      return false;
    }
    record.samples_s = m.pair_seconds;
    record.stats = summarize(m.pair_seconds);
    std::vector<double> figures;
    for (const auto& [key, v] : m.gbps)
      figures.push_back(v);
    record.metrics = {{"gbps", median(figures)},
                      {"min_gbps", *std::min_element(figures.begin(), figures.end())},
                      {"max_gbps", *std::max_element(figures.begin(), figures.end())},
                      {"pairs", static_cast<int>(figures.size())}};
    const double nvlink = backend.compute()->peak("nvlink_gbps");
    // The data sheet's NVLink figure is bidirectional; one direction gets half of it.
    if (nvlink > 0) {
      record.metrics["fraction_of_peak"] = median(figures) / (bidirectional ? nvlink : nvlink / 2);
    }
    return true;
  }
};

} // namespace

CB_REGISTER_CASE(P2pMatrixCase);

} // namespace cb
