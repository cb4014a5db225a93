#include "runtime/case_context.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>

#include "core/format.hpp"
#include "core/stats.hpp"
#include "runtime/device_state.hpp"
#include "runtime/straggler.hpp"
#include "runtime/watchdog.hpp"

namespace cb {

BackendKind CaseContext::backend_kind() const {
  return config.backend_in_use();
}

Record CaseContext::new_record(const std::string& suite, const std::string& name,
                               const nlohmann::json& params) const {
  Record r;
  r.suite = suite;
  r.case_name = name;
  r.params = params;
  r.gpus = comm.size();
  r.nodes = placement.nodes;
  r.ranks_per_node = placement.ranks_per_node;
  r.tier = placement.tier();
  return r;
}

void CaseContext::note_device_state(Record& record, const nlohmann::json& before,
                                    const nlohmann::json& after) const {
  if (!before.empty() || !after.empty()) {
    record.extra["state_before"] = before;
    record.extra["state_after"] = after;
  }
  // Any rank throttling taints the record; every rank must take part in the sum.
  const Throttling throttling = throttling_between(before, after);
  const long long throttled_ranks = comm.sum(static_cast<long long>(throttling.throttled ? 1 : 0));
  if (throttling.throttled && !throttling.milliseconds.empty())
    record.extra["throttled_ms"] = throttling.milliseconds;
  if (throttled_ranks > 0) {
    record.extra["throttled_ranks"] = throttled_ranks;
    record.reason += std::string(record.reason.empty() ? "" : "; ") + "throttled on " +
                     std::to_string(throttled_ranks) + " rank(s)" +
                     (throttling.causes.empty() ? ""
                                                : " (" + throttling.causes + " on rank " +
                                                      std::to_string(comm.rank()) + ")");
  }
}

void CaseContext::finish_record(Record& record, const Measurement& m,
                                const std::function<nlohmann::json(double, bool)>& metrics) const {
  record.samples_s = m.samples_s;
  record.stats = summarize(m.samples_s);
  record.extra["batch"] = m.batch;
  record.extra["robust_spread"] = robust_relative_spread(m.samples_s);
  record.extra["stop"] = m.stop;
  record.extra["sampling_s"] = m.sampling_s;
  if (!m.converged) {
    record.status = RecordStatus::noisy;
    const std::string spread = "spread " + format_cv_percent(robust_relative_spread(m.samples_s)) +
                               " (robust; cv " + format_cv_percent(record.stats.cv) + ")";
    const std::string target = format_cv_percent(config.measure.target_cv) + " target";
    const std::string cap = format_fixed(config.measure.max_time_s, 2) + " s cap";
    if (m.stop == "settled") {
      record.reason = spread + " settled above the " + target + " after " +
                      std::to_string(m.samples_s.size()) + " samples, " +
                      format_fixed(m.sampling_s, 2) + " s of the " + cap;
    } else if (static_cast<int>(m.samples_s.size()) < config.measure.min_samples) {
      record.reason = "only " + std::to_string(m.samples_s.size()) + " samples (minimum " +
                      std::to_string(config.measure.min_samples) + ") before the " + cap;
    } else if (!config.measure.stop_early && m.sampling_s < config.measure.max_time_s) {
      record.reason = spread + " above the " + target + " at the end of its " +
                      format_fixed(config.measure.min_time_s, 2) + " s window";
    } else {
      record.reason = spread + " above the " + target + " at the " + cap;
    }
  }
  if (comm.rank() != 0)
    return;
  record.metrics = metrics(record.stats.median, true);
  record.per_rank = nlohmann::json::array();
  for (std::size_t i = 0; i < m.rank_median_s.size(); ++i) {
    const int world_rank = members[i];
    const auto& device = world_devices[static_cast<std::size_t>(world_rank)];
    nlohmann::json entry = {{"rank", world_rank},
                            {"host", layout.host_of_rank[static_cast<std::size_t>(world_rank)]},
                            {"node", layout.node_of_rank[static_cast<std::size_t>(world_rank)]},
                            {"device", device.value("index", 0)},
                            {"uuid", device.value("uuid", "")},
                            {"median_s", round_significant(m.rank_median_s[i], 6)}};
    add_gpu_names(device, entry);
    // The rank's own rates; its time is median_s (a time_us beside it would say it again, at a
    // thousand ranks per record a megabyte of a whole-cluster file). They are those of median_s
    // as written, so that a reader derives the same figures from it (results/per_rank_rates.hpp).
    const nlohmann::json figures = metrics(entry["median_s"].get<double>(), false);
    for (const auto& [key, value] : figures.items()) {
      if (key == "time_us")
        continue;
      entry[key] = value.is_number_float()
                       ? nlohmann::json(round_significant(value.get<double>(), 6))
                       : value;
    }
    record.per_rank.push_back(std::move(entry));
  }
}

void CaseContext::add_rank_timing(Record& record, const Measurement& m, bool name_straggler) const {
  const bool root = comm.rank() == 0;
  std::optional<StragglerFinding> straggler;
  std::array<int, kRankSamplesRanks> keep;
  keep.fill(-1);
  if (root) {
    if (name_straggler)
      straggler = find_straggler(m.rank_timing, m.samples_s.size(), m.batch);
    const std::vector<std::size_t> chosen = ranks_to_keep(m.rank_timing, straggler);
    for (std::size_t i = 0; i < chosen.size() && i < keep.size(); ++i)
      keep[i] = static_cast<int>(chosen[i]);
  }
  comm.broadcast(keep.data(), static_cast<int>(sizeof keep));
  std::vector<double> mine;
  if (std::find(keep.begin(), keep.end(), comm.rank()) != keep.end()) {
    // The first samples, in step with the record's samples_s (sample i is the same batch).
    const std::size_t n = std::min(m.own_samples_s.size(), kRankSamplesCap);
    for (std::size_t i = 0; i < n; ++i)
      mine.push_back(round_significant(m.own_samples_s[i], 6));
  }
  const std::vector<std::vector<double>> kept = comm.gather_vectors(mine);
  if (!root)
    return;
  // A tail of tens to hundreds of samples is uncertain in its second digit: four are plenty. A
  // share is written only where it is above 0: at most one rank per sample has one, so a
  // thousand-rank record carries as many shares as it has samples, not ranks.
  for (std::size_t i = 0; i < m.rank_timing.size() && i < record.per_rank.size(); ++i) {
    nlohmann::json& entry = record.per_rank[i];
    entry["p99_s"] = round_significant(m.rank_timing[i].p99_s, 4);
    if (m.rank_timing[i].shortest_share > 0)
      entry["shortest_share"] = round_significant(m.rank_timing[i].shortest_share, 4);
    if (i < kept.size() && !kept[i].empty())
      entry["samples_s"] = kept[i];
  }
  if (straggler && straggler->index < record.per_rank.size()) {
    const nlohmann::json& entry = record.per_rank[straggler->index];
    StragglerRank s;
    s.rank = entry.value("rank", 0);
    s.host = entry.value("host", "");
    s.device = entry.value("device", 0);
    s.nvml_index = entry.value("nvml_index", -1);
    s.pci_bus_id = entry.value("pci_bus_id", "");
    s.shortest_share = round_significant(straggler->shortest_share, 4);
    s.median_s = round_significant(straggler->median_s, 6);
    s.others_median_s = round_significant(straggler->others_median_s, 6);
    record.straggler = s;
  }
}

void add_gpu_names(const nlohmann::json& device, nlohmann::json& entry) {
  if (!device.is_object())
    return;
  if (const auto index = device.find("nvml_index");
      index != device.end() && index->is_number_integer())
    entry["nvml_index"] = *index;
  if (const auto bus = device.find("pci_bus_id");
      bus != device.end() && bus->is_string() && !bus->get_ref<const std::string&>().empty())
    entry["pci_bus_id"] = *bus;
}

void CaseContext::progressing() const {
  if (watchdog)
    watchdog->progressing();
}

std::string CaseContext::first_problem(const std::string& mine) const {
  // Most calls find no problem anywhere: one reduction of a number says so, without every rank
  // receiving every rank's (empty) message.
  if (comm.sum(static_cast<long long>(!mine.empty())) == 0)
    return "";
  const auto all = comm.all_gather_string(mine);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (!all[r].empty())
      return "rank " + std::to_string(members[r]) + ": " + all[r];
  }
  return "";
}

void CaseContext::skip(Record& record, const std::string& reason) {
  record.status = RecordStatus::skipped;
  record.check = DataCheck::skipped;
  record.reason = reason;
}

} // namespace cb
