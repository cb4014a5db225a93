#pragma once
// The screen across nodes in the real pair tests (--pairs screen; docs/DIAGNOSIS.md, "The screen
// in a run"): run_screen's adaptive schedule over an oracle that measures each of its rounds
// through the pair tests' own rounds (measure_pair_rounds and the case's probe), so host and cuda,
// pair_bw and pair_latency all screen alike.
//
// Every rank runs run_screen itself: rank 0 broadcasts each round's figures (flows x rails
// floats), so every rank takes the same next step; no rank holds anything O(nodes^2).
#include <string>
#include <vector>

#include "diagnosis/observation.hpp"
#include "diagnosis/schedules.hpp"
#include "links/pair_probe.hpp"
#include "links/pair_schedule.hpp"

namespace cb {

struct PairRun;

// One measured one-way figure of a screen round, in the record's units (`value`) and as a rate
// for run_screen (`rate`, higher is better).
struct ScreenFigure {
  int src = 0, dst = 0, rail = 0;
  double value = 0, rate = 0;
};

// run_screen's figures for `flows`, flow by flow, rail by rail (rails 0 .. rails - 1): each the
// rate measured from src to dst on that rail, or where only the other way was measured (a
// symmetric probe measures both ways at once) that one. A flow rail nothing measured gets 0 (the
// diagnosis reads it as failed, never as healthy).
std::vector<double> flow_rates(const std::vector<Flow>& flows, int rails,
                               const std::vector<ScreenFigure>& measured);

// The screen's record fields, columnar: extra.observations (docs/DIAGNOSIS.md).
struct ScreenColumns {
  std::vector<int> src, dst, rail, round;
  std::vector<double> value;
  std::vector<double> seconds; // each figure's median seconds (for the record's statistics)
  void add(const ScreenFigure& f, int screen_round, double s);
  nlohmann::json to_json() const;
};

// What the screen measured (rank 0 holds the columns) and what it cost.
struct ScreenPass {
  PairTimes times;                // the engine's sub-rounds, summed (every rank: wrong)
  Measurements measurements;      // run_screen's outcome, the same on every rank
  ScreenColumns columns;          // rank 0
  std::vector<int> group_of_node; // every rank
  std::vector<std::string> group_names;
  std::string groups = "sqrt"; // "topology" or "sqrt"
  std::vector<std::string> notes;
  double seconds = 0;
};

// --topology against the job before the sweep: InputError naming the file for a file that does
// not parse or a job host under no leaf (the run asks rank 0 and shares the answer).
void check_job_topology(const std::string& path, const std::vector<std::string>& host_of_rank);

// The screen across the run's nodes (collective over ctx.comm).
ScreenPass run_screen_pass(PairRun& run);
// The record of a screened pair test (rank 0).
void write_screen_record(PairRun& run, const ScreenPass& screen);

} // namespace cb
