// The pair test as a whole: the first pass, the second pass across nodes (or the screen in their
// place), the data check and the record (bench/links/pair_run.hpp says which file does what).
#include "core/format.hpp"
#include "links/links_case.hpp"
#include "links/pair_run.hpp"
#include "links/pair_screen.hpp"

namespace cb {

LinksCase::PairTimes LinksCase::measure_rounds(
    const CaseContext& ctx, int rounds, const std::function<std::vector<Pair>(int)>& round_pairs,
    const PairProbe& probe, const std::function<void(int)>& on_round,
    const std::function<int(int)>& unit_of, const std::function<void(Pair, double)>& each_pair) {
  return measure_pair_rounds(ctx, rounds, round_pairs, probe, on_round, unit_of, each_pair);
}

namespace {

// Noisy when any measured (sub-)round missed the cv target: at the cap, or settled above it.
void note_noise(Record& record, const MeasureSettings& used, int capped, int settled) {
  if (capped == 0 && settled == 0)
    return;
  const std::string cap = format_figure_compact(used.max_time_s) + " s";
  const std::string target = format_cv_percent(used.target_cv) + " cv target";
  std::string text;
  if (capped > 0 && settled > 0) {
    text = std::to_string(capped) + " measured rounds hit the " + cap + " time cap and " +
           std::to_string(settled) + " settled above the " + target;
  } else if (capped > 0) {
    text = std::to_string(capped) + " measured rounds hit the " + cap + " time cap above the " +
           target;
  } else {
    text = std::to_string(settled) + " measured rounds settled above the " + target +
           " before the " + cap + " cap";
  }
  record.status = RecordStatus::noisy;
  record.reason = record.reason.empty() ? text : record.reason + "; " + text;
  if (capped == 0)
    record.extra["stop"] = "settled"; // counted as such by the run's summary
}

} // namespace

void LinksCase::run_pair_test(CaseRun& state, const PairProbe& probe,
                              const std::function<double(double)>& value_of,
                              const std::string& metric, bool rails) {
  const CaseContext& ctx = state.context();
  Record& record = state.record();
  PairRun run(ctx, record, probe, value_of, metric, rails);
  const std::string& schedule = run.schedule;
  // The screen is a diagnosis and nothing else: figures that are not judged have no use for it.
  if (schedule == "screen" && run.multi_node && !probe.not_judged_across_nodes.empty()) {
    if (run.progress)
      run.progress->finished();
    return state.skip("--pairs screen judges the pairs, and these are not judged across nodes: " +
                      probe.not_judged_across_nodes + " (--pairs rounds measures them)");
  }
  run_first_pass(run);
  SecondPass pass;
  ScreenPass screen;
  if (schedule == "screen" && run.multi_node)
    screen = run_screen_pass(run);
  else
    pass = run_second_pass(run);
  if (run.progress)
    run.progress->finished();
  const long long wrong =
      ctx.comm.sum(run.intra.wrong + run.inter.wrong + pass.wrong + screen.times.wrong);
  set_check(state, wrong, "words at the destinations");
  note_noise(record, run.used,
             run.intra.capped + run.inter.capped + pass.capped + screen.times.capped,
             run.intra.settled + run.inter.settled + pass.settled + screen.times.settled);
  if (!run.root)
    return;
  if (schedule == "screen" && run.multi_node)
    write_screen_record(run, screen);
  else
    write_rounds_record(run, pass);
}

} // namespace cb
