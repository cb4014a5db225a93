#pragma once
// Every record of a run as evidence for one diagnosis (diagnosis/diagnosis.hpp): what each
// record's figures exercise, as one-way figures between nodes or figures of one GPU or node.
//
// - A pair test across nodes: its screen's one-way figures (extra.observations) or its node
//   matrix (each cell src -> dst, no rail: a cell is the node pair's slowest rail), with the
//   figures its second pass retested. A latency becomes a rate (1 / us).
// - ring_bw: rank i's figure is the hop rank i-1 -> rank i, evidence against the sender and the
//   receiver alike (never the receiver alone); a hop inside a node is no node's evidence.
// - Compute and the other per-rank figures: a figure of that GPU alone; storage: of that node
//   alone (its ranks' mean).
// - A collective's per-rank figures include each rank's wait for the others (the slow rank's
//   ring successor is the lowest), so they are no evidence; its straggler warns, as before.
// Each record is a source of its own, judged against its own typical figure. A record whose
// figures rest on fewer than kMinSamplesForVerdict samples, or that the run marked noisy, is not
// weighed (a pair test's samples are its pairs, so it is weighed on its figures alone).
#include <cstddef>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "diagnosis/diagnosis.hpp"
#include "qualify/fleet.hpp"
#include "results/record.hpp"

namespace cb {

struct SourceInfo {
  std::size_t record_index = 0;
  std::string record;   // describe_record()
  std::string metric;   // the figures' metric as recorded (latency_us for a latency)
  bool rate_of = false; // the figures are 1 / the recorded value
  bool one_end = false; // figures of one GPU or node alone
};

struct Evidence {
  std::vector<std::string> hosts; // node index -> host name
  int rails = 1;                  // GPU slots: the highest device number + 1
  std::vector<Observation> observations;
  std::vector<EvidenceSource> weights; // per source
  std::vector<SourceInfo> sources;
  // The GPU behind (node, device): its bus id and UUID where the run recorded them.
  std::map<std::pair<int, int>, FleetMember> gpus;
  // The screen's groups of a pair test (extra.screen), per node; empty when no screen ran.
  std::vector<int> screen_group_of_node;
  std::vector<std::string> screen_group_names;
  std::vector<std::string> not_weighed; // records left out, and why
  int host_index(const std::string& host);

private:
  std::unordered_map<std::string, int> index_of_host_;
};

// InputError "PATH: extra.FIELD: ..." for a pair test's impossible values
// (results/pair_test_record.hpp). `min_peers`: fewer ranks than this make no fleet of one end.
Evidence gather_evidence(const ResultsFile& results, const std::string& path, int min_peers);

} // namespace cb
