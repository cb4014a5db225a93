#pragma once
// `compare` with several runs a side: each case's speed interval and test taken over the runs'
// figures (each run's median), so they cover the drift from run to run that the samples of one
// run never show (run_level_test.hpp says why the run is the unit).
#include "verdicts/cluster_compare.hpp"
#include "verdicts/run_figures.hpp"

namespace cb {

// For every case with a figure on at least two runs a side: the speed ratio of the runs' medians
// with a percentile bootstrap over the runs (bootstrap_median_ratio on run figures), p from
// Welch's t-test on the log run figures, a_count/b_count the runs used, across_runs set, and
// a_time_s/b_time_s (or a_metric/b_metric) the medians over runs. Other cases keep their
// within-run figures and are told apart by across_runs false; a_runs/b_runs are set for all.
void contrast_across_runs(ClusterComparison& comparison, const RunSide& a, const RunSide& b,
                          const CompareOptions& options);

} // namespace cb
