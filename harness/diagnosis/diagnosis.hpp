#pragma once
// One diagnosis over every figure of the pair tests: the smallest set of faulty components
// (nodes, rails, leaf uplinks) that explains the slow figures, each with its factor against the
// typical figure and the figures that show it. docs/DIAGNOSIS.md has the reasoning.
//
// Every figure is evidence against both of its ends (the sender's egress, the receiver's ingress,
// and the rail of each), and a crossing figure against both leaves' uplinks. A component is a
// candidate when the median of its unexplained figures is below the typical figure by more than
// the tolerance AND by more than the noise allows at the number of components judged (a
// Bonferroni bound: z = Q(alpha / components) standard errors of that median, so the false alarm
// rate holds over a million components, not one); a component with fewer than
// kMinEvidence figures, or fewer than kMinEvidence slow ones, convicts nothing. Among the candidates the one that explains the most slow
// figures is named first (greedy set cover, lazily re-scored: a candidate's score only falls as
// figures are explained), and every slow figure it takes part in is explained (a fast one stays
// evidence for its other end): the receiver of a slow sender's hop is never named for it. A node
// pair slow on most of its figures that no component explains is a note, never a guess.
//
// A node is also judged on its egress figures alone and on its ingress figures alone: a node whose
// sending is shaped is slow on half its figures, which its median over both cannot show; named
// so, it explains every figure it takes part in, as a node does.
//
// Figures may come from several measurements (EvidenceSource: a pair test, a ring, per-GPU
// compute figures), each judged against its own typical figure and noise.
#include <cstdint>
#include <string>
#include <vector>

#include "diagnosis/observation.hpp"

namespace cb {

inline constexpr int kMinEvidence = 3;

enum class ComponentKind { node, rail, uplink };
const char* component_kind_name(ComponentKind kind);

// One measurement the figures come from. `weight`: what one of its figures counts for against
// kMinEvidence. A figure between two ends counts 1 (it cannot tell them apart, however often it
// was repeated); a figure of one end alone, settled over enough samples, may count for more.
struct EvidenceSource {
  int weight = 1;
};

struct Culprit {
  ComponentKind kind = ComponentKind::node;
  Direction direction = Direction::both; // node
  int host = -1;                         // node, rail
  int gpu = -1;                          // rail
  int leaf = -1;                         // uplink
  double factor = 1;                     // its figures' median against the typical figure
  int figures = 0;                       // its figures unexplained when it was named
  int slow_figures = 0;                  // of those, the slow ones it explains
  std::vector<std::size_t> evidence;     // indices of its slowest figures, at most 8
};

struct DiagnosisSettings {
  double tolerance = 0.9; // a component must be slower than this times the typical figure
  double alpha = 1e-3;    // the chance of naming any healthy component, over all judged
  // Without a topology the leaves are the screen's groups: a group slow with every outsider and
  // fast inside is a note (the switching between them), not a culprit.
  bool topology_known = true;
  // Names for notes (host and leaf indices when empty).
  std::vector<std::string> host_names;
  std::vector<std::string> leaf_names;
};

struct Diagnosis {
  std::vector<Culprit> culprits;
  std::vector<std::string> notes;
  double sigma = 0; // the noise of one figure, relative
  double z = 0;     // the standard errors a conviction needs
  std::size_t figures = 0;
  std::size_t unexplained_slow = 0; // slow figures no culprit explains (noise, or a pattern)
  // Per source: its slow figures no culprit explains, and the slowest of them (an index into the
  // observations; -1 when none).
  std::vector<std::size_t> unexplained_slow_by_source;
  std::vector<long long> slowest_unexplained_by_source;
};

Diagnosis diagnose(const std::vector<Observation>& observations, int nodes, int rails,
                   const std::vector<int>& leaf_of_node, const DiagnosisSettings& settings);

// Figures of several measurements: Observation::source indexes `sources` (a source beyond it
// counts as weight 1). The two-argument form is every figure of source 0, weight 1.
Diagnosis diagnose(const std::vector<Observation>& observations,
                   const std::vector<EvidenceSource>& sources, int nodes, int rails,
                   const std::vector<int>& leaf_of_node, const DiagnosisSettings& settings);

} // namespace cb
