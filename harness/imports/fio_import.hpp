#pragma once
// fio's --output-format=json (fio 3.x) in our schema: storage seq_read (rw=read) and rand_read
// (rw=randread) records with params block_bytes, queue_depth, direct (true/false) and io
// ("direct"/"buffered", the storage suite's name for the same choice).
//
// Jobs of one group with one name (numjobs copies, reported per job) make one record: gbps is
// fio's group aggregate, the sum of bytes over the longest job's runtime; each job is a per_rank
// entry; gpus is the number of jobs. With group_reporting fio prints one entry per group, and
// gpus is its numjobs. Options come from "job options" over "global options", with fio's
// defaults (bs 4k, iodepth 1, direct 0, ioengine psync). Jobs that do not read (write, trim,
// mixed) are reported and left out. Text printed before the JSON (fio's notes on stdout) is
// reported line by line.
#include <nlohmann/json.hpp>
#include <string>

#include "imports/imported_run.hpp"

namespace cb {

ImportedRun import_fio_json(const nlohmann::json& j, const std::string& source);
ImportedRun import_fio_file(const std::string& path);

} // namespace cb
