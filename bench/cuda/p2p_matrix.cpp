// p2p_matrix: bandwidth between every pair of GPUs of the first node, by copy engine
// (cudaMemcpyPeerAsync) or by SM kernel (stores into the peer's memory), one way or both ways at
// once, as one record holding the matrix (rows = source, columns = destination, GB/s). Like
// nvbandwidth, one process drives every GPU of the node: comm rank 0 measures, the other ranks
// take part in the engine's barriers only. Pairs without peer access are skipped with the reason.
// The pairs run in round-robin rounds (all disjoint pairs of a round at once, each timed by its
// own stream events: 7 rounds on 8 GPUs instead of 56 one-way pairs in turn); --pairs sequential
// measures one pair at a time, as nvbandwidth does. One process must see every GPU of the node in
// the default compute mode: otherwise (one GPU per rank, an exclusive compute mode) the record is
// a skip that says how many of the node's GPUs it covers and why (cuda/p2p_plan.hpp).
#include <algorithm>
#include <map>

#include "core/collective_math.hpp"
#include "core/stats.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/p2p_plan.hpp"
#include "gpu_case.hpp"
#include "links/pair_schedule.hpp"

namespace cb {
namespace {

void enable_peer(int from, int to) {
  cuda::DeviceScope scope(from);
  const cudaError_t rc = cudaDeviceEnablePeerAccess(to, 0);
  if (rc == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();
    return;
  }
  CB_CUDA(rc);
}

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
    const std::size_t bytes = params.at("bytes").get<std::size_t>();
    const bool by_sm = params.at("initiator") == "sm";
    const bool bidirectional = params.at("direction") == "bi";
    const bool root = ctx.comm.rank() == 0;
    Record& record = run.record();
    std::string why;
    const int devices = ctx.comm.broadcast_int(root ? cuda::count_cuda_devices(why) : 0);
    // The node's GPUs: one per rank of the first node at this count.
    const int node_gpus = ctx.placement.ranks_per_node;
    record.extra["gpus_covered"] = devices;
    record.extra["node_gpus"] = node_gpus;
    // Checked before rank 0 makes a context on another rank's GPU: in an exclusive compute mode
    // that fails, and a failed CUDA call ends the run.
    std::string refusal;
    if (root) {
      std::vector<int> modes;
      for (int d = 0; d < devices; ++d) {
        int mode = 0;
        CB_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
        modes.push_back(mode);
      }
      refusal = cuda::why_no_node_matrix(devices, node_gpus, modes);
    }
    if (ctx.comm.broadcast_int(refusal.empty() ? 0 : 1) != 0) {
      return run.skip(root ? refusal : "as rank 0 found"); // rank 0's record is kept
    }
    std::map<std::pair<int, int>, double> values;
    nlohmann::json skipped = nlohmann::json::array();
    nlohmann::json pair_rounds = nlohmann::json::array();
    std::vector<double> pair_seconds;
    long long wrong = 0;
    // The pairs in round-robin rounds (bench/links/pair_schedule.hpp): the disjoint pairs of a
    // round copy at once, each GPU in one pair; one way, the two directions in consecutive
    // sub-rounds. --pairs sequential: one pair per round.
    const bool sequential = ctx.config.pairs == "sequential";
    std::vector<std::vector<std::pair<int, int>>> rounds;
    if (sequential) {
      for (const cuda::DevicePair& pair : cuda::p2p_pairs(devices, true))
        rounds.push_back({{pair.src, pair.dst}});
    } else {
      for (int r = 0; r < circle_round_count(devices); ++r)
        rounds.push_back(circle_round(devices, r));
    }
    int capped = 0;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      for (int sub = 0; sub < (bidirectional ? 1 : 2); ++sub) {
        // This sub-round's pairs that have peer access (rank 0 asks, every rank learns).
        std::vector<cuda::DevicePair> pairs;
        for (const auto& [a, b] : rounds[r]) {
          const cuda::DevicePair pair = sub == 0 ? cuda::DevicePair{a, b} : cuda::DevicePair{b, a};
          int access = 0;
          if (root) {
            int forward = 0, backward = 1;
            CB_CUDA(cudaDeviceCanAccessPeer(&forward, pair.src, pair.dst));
            // One way, only the source reaches into the destination (the copy engine pushes,
            // the SM kernel stores); both ways, each side does.
            if (bidirectional)
              CB_CUDA(cudaDeviceCanAccessPeer(&backward, pair.dst, pair.src));
            access = forward && backward;
          }
          if (!ctx.comm.broadcast_int(access)) {
            skipped.push_back({{"src", pair.src},
                               {"dst", pair.dst},
                               {"reason", "no peer access between these GPUs"}});
            continue;
          }
          pairs.push_back(pair);
        }
        if (pairs.empty())
          continue;
        // Rank 0 owns the buffers; the others only join the engine's rounds.
        std::vector<cuda::DeviceMemory> buffers;
        std::vector<cuda::CopyStream> streams;
        std::vector<std::size_t> pair_of_stream;
        std::vector<std::pair<int, const void*>> destinations;
        if (root) {
          buffers.reserve(4 * pairs.size());
          for (std::size_t i = 0; i < pairs.size(); ++i) {
            const cuda::DevicePair& pair = pairs[i];
            enable_peer(pair.src, pair.dst);
            if (bidirectional)
              enable_peer(pair.dst, pair.src);
            auto add_direction = [&](int from, int to) {
              void *src = nullptr, *dst = nullptr;
              {
                cuda::DeviceScope scope(from);
                buffers.emplace_back(bytes);
                src = buffers.back().get();
                cuda::launch_fill_constant(DType::f32, src, bytes / 4, 1.5, nullptr);
                CB_CUDA(cudaDeviceSynchronize());
              }
              {
                cuda::DeviceScope scope(to);
                buffers.emplace_back(bytes);
                dst = buffers.back().get();
                cuda::launch_fill_constant(DType::f32, dst, bytes / 4, 0, nullptr);
                CB_CUDA(cudaDeviceSynchronize());
              }
              destinations.emplace_back(to, dst);
              // Both initiators run on the source GPU: the copy engine pushes, the SM kernel
              // stores.
              streams.push_back({from, [=](cudaStream_t s) {
                                   if (by_sm) {
                                     cuda::launch_sm_copy(dst, src, bytes, s);
                                   } else {
                                     CB_CUDA(cudaMemcpyPeerAsync(dst, to, src, from, bytes, s));
                                   }
                                 }});
              pair_of_stream.push_back(i);
            };
            add_direction(pair.src, pair.dst);
            if (bidirectional)
              add_direction(pair.dst, pair.src);
          }
        }
        // Every call's per-stream seconds per copy; the engine's samples are its last calls.
        std::vector<std::vector<double>> per_call;
        const Measurement m = measure(ctx.comm, ctx.config.measure, [&](int k) {
          if (!root)
            return 0.0;
          std::vector<double> each = held_copy_seconds_each(streams, k);
          double slowest = 0;
          for (double& v : each) {
            slowest = std::max(slowest, v);
            v /= k;
          }
          per_call.push_back(std::move(each));
          return slowest;
        });
        if (!m.converged)
          ++capped;
        if (!root)
          continue;
        const std::size_t samples = m.samples_s.size();
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          // A pair's time per sample: the slower of its streams (both directions when bi).
          std::vector<double> series;
          for (std::size_t c = per_call.size() - samples; c < per_call.size(); ++c) {
            double t = 0;
            for (std::size_t st = 0; st < streams.size(); ++st) {
              if (pair_of_stream[st] == i)
                t = std::max(t, per_call[c][st]);
            }
            series.push_back(t);
          }
          const double seconds = median(series);
          pair_seconds.push_back(seconds);
          values[{pairs[i].src, pairs[i].dst}] =
              gbps(static_cast<double>(bytes) * (bidirectional ? 2 : 1), seconds);
          pair_rounds.push_back({pairs[i].src, pairs[i].dst, static_cast<int>(r)});
        }
        for (const auto& [device, dst] : destinations) {
          cuda::DeviceScope scope(device);
          cuda::DeviceMemory count(sizeof(unsigned long long));
          CB_CUDA(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
          cuda::launch_count_not_equal(DType::f32, dst, bytes / 4, 1.5,
                                       static_cast<unsigned long long*>(count.get()), nullptr);
          unsigned long long n = 0;
          CB_CUDA(cudaMemcpy(&n, count.get(), sizeof n, cudaMemcpyDeviceToHost));
          wrong += static_cast<long long>(n);
        }
      }
    }
    if (capped > 0)
      record.status = RecordStatus::noisy;
    wrong = ctx.comm.sum(wrong);
    if (!root)
      return;
    record.extra["devices"] = devices;
    record.extra["skipped_pairs"] = skipped;
    record.extra["matrix"] = cuda::link_matrix_json(devices, values, bidirectional);
    record.extra["samples_are"] = "the median seconds of each measured pair";
    record.extra["schedule"] = sequential ? "sequential" : "rounds";
    record.extra["rounds"] = static_cast<int>(rounds.size());
    record.extra["pair_rounds"] = pair_rounds;
    record.extra["pair_rounds_layout"] = "[source GPU, destination GPU, round]";
    if (!sequential) {
      record.extra["round_note"] =
          std::string("round-robin (circle) schedule: every GPU pair once, no GPU twice in a "
                      "round, all pairs of a round copying at once") +
          (bidirectional ? "" : "; the two directions of a pair in consecutive sub-rounds");
    }
    record.extra["bidirectional_sums_both_directions"] = bidirectional;
    if (pair_seconds.empty()) {
      return run.skip("no pair of GPUs has peer access");
    }
    record.samples_s = pair_seconds;
    record.stats = summarize(pair_seconds);
    std::vector<double> figures;
    for (const auto& [key, v] : values)
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
    run.check(wrong != 0, std::to_string(wrong) + " wrong floats after the copies");
  }
};

} // namespace

CB_REGISTER_CASE(P2pMatrixCase);

} // namespace cb
