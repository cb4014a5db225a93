#pragma once
// OSU Micro-Benchmarks (7.x) output in our schema.
//
// Collectives, "# Size  Avg Latency(us)" tables: osu_allreduce, osu_allgather, osu_bcast,
// osu_alltoall, osu_reduce -> collectives records with time_us, algbw_gbps and busbw_gbps by
// nccl-tests' definitions (bytes: the message size; for allgather and alltoall the whole
// receive buffer, size x ranks, as nccl-tests counts them). The rank count is not in the output:
// --np gives it. Point to point, 2 ranks: osu_latency -> links pt2pt_latency (latency_us),
// osu_bw -> links pt2pt_bw (gbps), osu_bibw -> links pt2pt_bibw (gbps, both directions summed).
// OSU's MB/s are 1e6 bytes per second. The header line ("# OSU MPI Allreduce Latency Test v7.4")
// names the test (CUDA-aware "OSU MPI-CUDA ..." headers too, backend cuda); several tests may
// follow each other in one file. A Validation column gives the check (Pass/Fail), else it is
// skipped; -f adds Min/Max Latency (min_time_us, max_time_us) and Iterations. Lines of other
// programs (MPI start-up and debug lines) are reported and skipped; a table cut short by a rank
// that died keeps its finished rows, marked extra.ended_early, with a warning saying so.
#include <string>

#include "imports/imported_run.hpp"

namespace cb {

struct OsuOptions {
  int np = 0;    // ranks of the run (required for collectives)
  int nodes = 1; // nodes they ran on (the output does not say)
};

// With a sink, the records go there as each table ends (ImportedRun::sink).
ImportedRun import_osu_text(const std::string& text, const std::string& source,
                            const OsuOptions& options, const RecordSink& sink = {});
ImportedRun import_osu_file(const std::string& path, const OsuOptions& options,
                            const RecordSink& sink = {});

} // namespace cb
