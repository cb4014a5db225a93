#pragma once
// What a case runs with at one GPU count (CaseContext), and the engine's helpers that fill a
// record from a measurement. Cases reach it through their CaseRun (runtime/case_run.hpp).
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/record.hpp"
#include "runtime/backend.hpp"
#include "runtime/backend_kind.hpp"
#include "runtime/communicator.hpp"
#include "runtime/engine.hpp"
#include "runtime/run_config.hpp"
#include "runtime/topology.hpp"

namespace cb {

class Watchdog;

// Adds to a rank's identity `entry` the names an operator finds its GPU by, where `device` (the
// backend's device()) has them: nvidia-smi's index (nvml_index) and the PCI bus id. The CUDA
// ordinal ("device") is 0 on every rank that sees one GPU, and need not be nvidia-smi's order.
void add_gpu_names(const nlohmann::json& device, nlohmann::json& entry);

// Everything a case needs to run at one GPU count.
struct CaseContext {
  Backend& backend;
  const Communicator& comm; // the ranks taking part at this count
  const RunConfig& config;
  const NodeLayout& layout; // of the whole job
  std::vector<int> members; // world ranks taking part, in comm rank order
  Placement placement;
  const std::vector<nlohmann::json>& world_devices; // backend.device() of every world rank
  Watchdog* watchdog = nullptr; // the run's, armed for this record; none in tests

  // A record long by design (a pair test's rounds) calls this after each part: the watchdog's
  // --timeout then bounds a part, not the whole record (runtime/watchdog.hpp).
  void progressing() const;
  // The backend in use, resolved once (RunConfig::backend_kind): how cases tell backends apart.
  BackendKind backend_kind() const;
  // A record with the identity fields filled in: suite, case, params, gpus, nodes, tier. The
  // sweep makes every record with it and hands it to the case in a CaseRun.
  Record new_record(const std::string& suite, const std::string& name,
                    const nlohmann::json& params) const;
  // The device's state (power, clocks, temperature, throttling) read before and after a
  // measurement, kept in the record; a record taken while any rank throttled says so in its
  // reason (collective: every member calls it).
  void note_device_state(Record& record, const nlohmann::json& before,
                         const nlohmann::json& after) const;
  // Fills samples, stats, status and per-rank figures from a finished measurement (collective:
  // every member calls it).
  void finish_record(Record& record, const Measurement& m,
                     const std::function<nlohmann::json(double, bool)>& metrics) const;
  // Collectives, after measuring (collective: every member calls it): beside each rank's median
  // in per_rank its p99_s and shortest_share, the raw own samples (at most kRankSamplesCap) of
  // the few ranks ranks_to_keep picks, and, where `name_straggler` (every rank waits for every
  // other), record.straggler when find_straggler names a rank (runtime/straggler.hpp). Rank 0
  // chooses; only the chosen ranks send their samples.
  void add_rank_timing(Record& record, const Measurement& m, bool name_straggler) const;
  // Marks a record skipped with a reason (the same decision on every rank). Cases say
  // CaseRun::skip.
  static void skip(Record& record, const std::string& reason);
  // The first non-empty message of the group, prefixed with its rank ("rank 3: ..."), or "" when
  // every member's is empty (collective: every member calls it with its own).
  std::string first_problem(const std::string& mine) const;
};

} // namespace cb
