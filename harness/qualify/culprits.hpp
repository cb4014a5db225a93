#pragma once
// The verdict operators act on: the parts to pull. Every record's figures (qualify/evidence.hpp)
// go into one diagnosis (diagnosis/diagnosis.hpp), which names the fewest faulty components that
// explain the slow ones: a GPU (its per-GPU figures), a node (all its figures, or its egress or
// ingress alone), a rail (a GPU slot's figures between nodes), an uplink (a leaf slow with every
// partner outside it and fast inside; named with its switch when a topology is given). A culprit
// fails the fleet; slow figures no culprit explains, and patterns no single fault explains, are
// notes that warn.
#include <optional>
#include <string>
#include <vector>

#include "diagnosis/topology.hpp"
#include "results/record.hpp"

namespace cb {

// One of a culprit's slow figures: from -> to (the same node for a figure of one end).
struct CulpritFigure {
  std::size_t record_index = 0;
  std::string record;
  std::string from, to;
  int gpu = -1;
  double value = 0; // as recorded (a latency in us)
  std::string metric;
};

struct FleetCulprit {
  std::string kind; // gpu | node | rail | uplink
  std::string host; // gpu, node, rail
  int gpu = -1;     // gpu, rail: the GPU as nvidia-smi numbers it where recorded
  std::string pci_bus_id, uuid;
  std::string direction;          // node: egress | ingress | "" (both)
  std::string switch_name;        // uplink: its leaf switch (with a topology)
  std::vector<std::string> hosts; // uplink: the leaf's hosts, at most kListedHosts
  std::size_t hosts_total = 0;
  double factor = 1; // its figures' median against the typical figure
  int figures = 0;
  int slow_figures = 0;
  std::vector<std::string> records;    // the records that show it (stragglers among them)
  std::vector<CulpritFigure> evidence; // its slowest figures, at most 8
  static constexpr std::size_t kListedHosts = 16;
};

struct CulpritReport {
  std::size_t figures = 0; // judged, over every weighed record
  std::size_t sources = 0; // records weighed
  std::size_t components = 0;
  double z = 0; // the standard errors a conviction needed (Bonferroni over the components)
  bool topology_known = false;
  std::vector<FleetCulprit> culprits;
  std::vector<std::string> notes;       // warn
  std::vector<std::string> not_weighed; // records too weak to convict
  bool judged() const { return figures > 0; }
};

// `topology`: the fabric's leaves (qualify --topology), or null. InputError for a pair test's
// impossible values, or a job host the topology does not place.
CulpritReport find_culprits(const ResultsFile& results, const std::string& path,
                            const Topology* topology, int min_peers);

// "node n3 (egress)", "GPU 2 [0000:1B:00.0] on n5", "rail 1 of n2", "uplink of leaf02 (8 hosts)".
std::string culprit_label(const FleetCulprit& c);

} // namespace cb
