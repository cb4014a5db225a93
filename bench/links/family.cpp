// The links family: pairs of GPUs (pair tests in round-robin rounds), the ring, the GPU's own links
// to its host and memory.
#include "runtime/family.hpp"
#include "links/link_calibration.hpp"
#include "links/links_options.hpp"
#include "links/pair_progress.hpp"
#include "links/pair_screen.hpp"
#include "planning/hardware_model.hpp"
#include "planning/time_model.hpp"
#include "results/suite_names.hpp"
#include "runtime/run_config.hpp"

namespace cb {
namespace {

class LinksFamily final : public Family {
public:
  std::string suite() const override { return suite_names::kLinks; }
  int order() const override { return 1; }
  std::string report_sentence() const override {
    return "bandwidth between pairs of GPUs, per direction unless marked bi.";
  }
  bool draws_plot(const std::string& stem) const override {
    return Family::draws_plot(stem) || stem.rfind("link_matrix", 0) == 0;
  }

  // bytes / the link's bandwidth (inside a node or across nodes) plus one step's latency;
  // pair_latency: a round trip, 2 x (the tier's step latency + the launch).
  std::optional<double> operation_seconds(const std::string& name, const nlohmann::json& params,
                                          const PhaseShape& shape,
                                          const HardwareModel& m) const override {
    const double bytes = param_number(params, "bytes", 8 << 20);
    const bool inter = shape.nodes > 1;
    // The host backend's pair copies inside a node go through memory: the destination's core
    // reads the source and writes its own buffer, as STREAM's copy (8 MiB in 0.3 ms on the idle
    // 2-core VM, 28 GB/s one way).
    const double link_bw = inter ? m.inter_bw : (m.backend == "host" ? m.memory_bw : m.intra_bw);
    const double step = inter ? m.alpha_inter_s : m.alpha_intra_s;
    if (name == "pair_latency")
      return 2 * (step + m.alpha_launch_s);
    if (name == "pair_bw" && inter && param_text(params, "direction") == "bi")
      return step + bytes / (link_bw * m.inter_both_ways_share); // bytes each way
    if (name == "host_to_device" || name == "device_to_host")
      return bytes / m.host_link_bw;
    if (name == "device_local_copy")
      return 2 * bytes / m.memory_bw;
    if (name == "pair_bw" || name == "ring_bw" || name == "p2p_matrix")
      return step + bytes / link_bw;
    return std::nullopt;
  }

  // A links record's fabric of buffers and peers: across nodes its connections too.
  double setup_seconds(const std::string& /*name*/, const nlohmann::json& /*params*/,
                       const PhaseShape& shape, const HardwareModel& m) const override {
    return shape.nodes > 1 ? m.links_setup_s : m.links_setup_intra_s;
  }

  PairRounds pair_rounds(const std::string& name) const override {
    if (name == "pair_latency")
      return PairRounds::ping_pong;
    return name == "pair_bw" ? PairRounds::bandwidth : PairRounds::none;
  }

  // --topology against the job: a file that does not parse, or a job host under no leaf.
  void check_job(const RunConfig& config,
                 const std::vector<std::string>& host_of_rank) const override {
    if (const auto topology = kTopology.given(config))
      check_job_topology(*topology, host_of_rank);
  }

  std::vector<const OptionDeclaration*> options() const override { return {&kPairs, &kTopology}; }

  bool plans_on_inter_link() const override { return true; }
  // One round of transfers between node pairs before the sweep (links/link_calibration.hpp).
  std::optional<LinkCalibration> calibrate_link(const CaseContext& ctx) const override {
    return calibrate_inter_link(ctx);
  }

  PairScheduleRequest pair_schedule_request(const RunConfig& config) const override {
    return {kPairs.given(config).value_or(""), kTopology.given(config).value_or("")};
  }

  // A pair test cut short (a node dropped out in its rounds): which pairs it never measured.
  std::string unfinished_run(const std::string& results_path) const override {
    return describe_unfinished_pairs(results_path);
  }
};

} // namespace

CB_REGISTER_FAMILY(LinksFamily);

} // namespace cb
