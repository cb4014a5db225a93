#pragma once
// fio's --output-format=json (fio 3.x and 2.x) in our schema: storage seq_read (rw=read) and
// rand_read (rw=randread) records with params block_bytes, queue_depth, direct (true/false) and io
// ("direct"/"buffered", the storage suite's name for the same choice).
//
// Jobs of one group with one name (numjobs copies, reported per job) make one record: gbps is
// fio's group aggregate, the sum of bytes over the longest job's runtime; each job is a per_rank
// entry; gpus is the number of jobs. With group_reporting fio prints one entry per group, and
// gpus is its numjobs. Options come from "job options" over "global options", with fio's
// defaults (bs 4k, iodepth 1, direct 0, ioengine psync; extra.assumed_defaults lists those the
// file did not give). Jobs that do not purely read (write, trim, rw/randrw mixes) are reported
// and left out. fio 2.x wrote io_bytes in KiB, 3.x in bytes: "fio version" says which (without
// it, io_bytes against bw x runtime; neither fitting, the job is refused). The JSON document may
// follow text (fio's notes, or its normal output under --output-format=normal,json) and may be
// on one line. A job given size= reads a file of that size: params.file_bytes, and the sample is
// the time of one pass over it, as the storage suite times a read.
#include <nlohmann/json.hpp>
#include <string>

#include "imports/imported_run.hpp"

namespace cb {

ImportedRun import_fio_json(const nlohmann::json& j, const std::string& source);
ImportedRun import_fio_file(const std::string& path);

} // namespace cb
