#pragma once
// What a pair test hands the diagnosis: one figure per one-way transfer per rail, and the round
// (the set of transfers measured at once) it came from. The same for the real pair tests and the
// fabric model, so the screen and the diagnosis never know which they were given.
#include <cstdint>
#include <string>
#include <vector>

namespace cb {

// Which way a node is slow: a NIC or port can fail one way only (a bad transmit lane, a shaped
// egress), and a fault of that kind slows the figures the node sends, not those it receives.
// Which of a node's figures name it: all of them, or those it sent or received alone.
enum class Direction { both, egress, ingress };
const char* direction_name(Direction direction); // diagnosis.cpp

// A one-way transfer between two nodes on every rail at once: GPU g of `src` to GPU g of `dst`.
struct Flow {
  int src = 0;
  int dst = 0;
};

// A figure of one end alone (a GPU's compute rate, a node's storage rate) has src == dst: it is
// evidence against that node (and rail) once, never against a partner. A figure that is no rail's
// (a node pair's slowest rail, a node's storage) has rail kNoRail.
inline constexpr std::uint16_t kNoRail = 0xffff;

struct Observation {
  std::uint32_t src = 0;
  std::uint32_t dst = 0;
  std::uint32_t round = 0;
  std::uint16_t rail = 0;
  std::uint16_t source = 0; // the measurement it came from (diagnosis.hpp EvidenceSource)
  float value = 0;          // a bandwidth: higher is better
};

// Measures flows. One call is one round: every flow of it at once, no node sending twice nor
// receiving twice. Returns flows.size() x rails() figures, flow by flow, rail by rail.
class PairOracle {
public:
  virtual ~PairOracle() = default;
  virtual int nodes() const = 0;
  virtual int rails() const = 0;
  virtual std::vector<double> measure(const std::vector<Flow>& flows) = 0;
};

// What a schedule measured and what it cost.
struct Measurements {
  std::vector<Observation> observations;
  long long tests = 0; // group tests and node pairs, as docs/DIAGNOSIS.md counts them
  int rounds = 0;      // concurrent rounds, each one engine measurement
  std::vector<std::string> notes;
};

// Measures one round through `oracle` and appends its figures (round = measurements.rounds).
void measure_round(PairOracle& oracle, const std::vector<Flow>& flows, long long tests,
                   Measurements& measurements);

} // namespace cb
