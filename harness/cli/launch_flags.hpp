#pragma once
// What `clusterbench slurm` and `clusterbench k8s` both check before printing a job: the counts
// they are given and the `clusterbench run` flags the job will pass to every rank.
#include <string>
#include <vector>

#include "core/args.hpp"

namespace cb {

// The whole number given to --NAME, from 1 to 1000000; `fallback` when the flag is absent.
int count_flag(const ArgParser& parser, const std::string& name, int fallback = 0);

// InputError unless `flags` are flags `clusterbench run` takes, fit for a job of `ranks` ranks
// started by mpirun or srun: --gpus counts at most `ranks`, no --np and no --single-process.
void check_launched_run_flags(const std::vector<std::string>& flags, long long ranks);

} // namespace cb
