#pragma once
// nccl-tests output (every *_perf program: all_reduce_perf, all_gather_perf, reduce_scatter_perf,
// broadcast_perf, reduce_perf, alltoall_perf, sendrecv_perf, ...) in our schema.
//
// Text: the table as nccl-tests prints it, now and in older layouts (no root column, no redop
// column in all_gather/broadcast, a blank redop in alltoall, no "# Collective test starting"
// line), several runs concatenated in one file, lines behind launcher prefixes (srun --label,
// Open MPI --tag-output, timestamps, "[host:rank]" or "host:" words, SkyPilot's "(head, rank=0,
// pid=3808)"), NCCL INFO lines between them, inside Markdown code fences or indented. Each table row becomes two records,
// out-of-place and in-place, with time_us, algbw_gbps and busbw_gbps as the tool computed them;
// rows of 0 bytes are counted and left out. The check column means what the version meant:
//   "#wrong" (2.13+): the number of wrong elements, extra.wrong_elements; 0 passes.
//   "error" (before): the largest deviation of any element, extra.max_deviation, not a count;
//     "# Out of bounds values : 0" passes the whole table, otherwise each row is judged against
//     the tolerance of its type (see judge_deviations).
//   "N/A": checking was off, skipped.
// The collective is named by the "# Collective test starting" line, else by the *_perf program
// of a command echoed before the run ("user@host:~$ mpirun ... all_reduce_perf ..."), else by
// the file name when it names exactly one (nccl_reducescatter.log: reduce_scatter). The
// "# Using devices" rank lines give the GPU count, hosts and device names; the first command
// gives the original argv. clusterbench's own console log reads the same way: its heading
// "# collectives all_reduce on 8 ranks (1 node, intra), backend cuda" names the case and the
// shape, a half it printed as "skip" has no record, a "~" after the check marks a noisy record,
// and the sections of its other suites are passed over.
//
// JSON (-J FILE, nccl-tests 2.16+): the layout util.cu writes (JSON_FILE_VERSION 2):
//   { "version": 2, "start_time": "2025-06-01 10:00:00", "args": ["./all_reduce_perf", ...],
//     "env": [...], "nccl_version": 22703,
//     "config": { "nthreads": 1, "ngpus": 8, "minimum_bytes": 8, ..., "devices": [
//         { "rank": 0, "group": 0, "pid": 1234, "hostname": "node1", "device": 0,
//           "device_hex": "0000:18:00", "device_info": "NVIDIA H100 80GB HBM3" } ] },
//     "results": [ { "size": 8, "count": 2, "type": "float", "redop": "sum", "root": "    -1",
//         "out_of_place": { "time": 10.2, "alg_bw": 0.0, "bus_bw": 0.0, "nwrong": 0.0 },
//         "in_place": { ... }, "actual_iterations": 20, "experiment_name": "" } ],
//     "out_of_bounds": { "count": 0, "okay": "true" },
//     "average_bus_bandwidth": { "bandwidth": 1.2, "okay": "unchecked" },
//     "errors": [], "end_time": "..." }
// "time" is "cpu_time" under -C 1; "nwrong" is null when checking is off; booleans are strings.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "imports/imported_run.hpp"

namespace cb {

// With a sink, the records of the text go there as each table ends (ImportedRun::sink).
ImportedRun import_nccl_tests_text(const std::string& text, const std::string& source,
                                   const RecordSink& sink = {});
ImportedRun import_nccl_tests_json(const nlohmann::json& j, const std::string& source);
// Reads the file and picks the format by its first character ('{' is JSON; its records come
// back in the run, the sink is for text).
ImportedRun import_nccl_tests_file(const std::string& path, const RecordSink& sink = {});

// "./build/all_reduce_perf" -> "all_reduce", "alltoall_perf_mpi" -> "alltoall"; "" otherwise.
std::string nccl_case_from_program(std::string_view program);
// A collective named in a file name such as "logs/reduce_scatter_16gpu.txt"; "" when none.
std::string nccl_case_from_file_name(const std::string& path);
// nccl-tests type names in ours: half -> fp16, bfloat16 -> bf16, f8e4m3 -> fp8; others as given.
std::string nccl_dtype(std::string_view type);
// NCCL_VERSION_CODE 22803 -> "2.28.3" (2.9+ codes: major*10000 + minor*100 + patch).
std::string nccl_version_from_code(long long code);

} // namespace cb
