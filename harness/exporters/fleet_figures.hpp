#pragma once
// Each GPU's and each node's own figures, as DCGM exporter labels GPUs (Hostname, gpu: the
// device index, UUID), for both textfiles (qualify and report). One record per case stands for
// it: the one at the largest GPU count, the best of those by the figure (as a job runs its best
// configuration and a data sheet quotes a peak), so the file holds a series per case and GPU and
// per case and node, whatever the number of sizes and GPU counts measured, never one per record
// and rank.
#include "exporters/prometheus_text.hpp"
#include "results/record.hpp"

namespace cb {

// Adds clusterbench_gpu_<figure>{command, suite, case, params, Hostname, gpu, UUID, rank} and
// clusterbench_node_<figure>{command, suite, case, params, Hostname, gpus} (the mean per GPU of
// the node's ranks) for every case whose usable records carry per-rank figures: the first of
// results/metrics.json's per_rank metrics the entries carry (gbps, busbw_gbps, algbw_gbps, tflops,
// gflops), named as prometheus_names.hpp says.
// `command` (qualify, report) tells the two textfiles of one run apart: node_exporter refuses a
// directory whose files hold one series twice.
void add_fleet_figures(PromDocument& doc, const ResultsFile& results, const std::string& command);

} // namespace cb
