#include "slurm/sbatch_script.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

#include "core/error.hpp"
#include "slurm/shell_word.hpp"

namespace cb {

namespace {

// Slurm partition and account names; a list of partitions is comma-separated.
const std::regex kNameList("[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*");
const std::regex kJobName("[A-Za-z0-9_.+-]+");

void require_positive(int value, const char* flag, const char* what) {
  if (value < 1) {
    throw InputError(std::string(flag) + " must be at least 1 (" + what + "), got " +
                     std::to_string(value));
  }
}

void require_match(const std::string& value, const std::regex& pattern, const char* flag,
                   const char* allowed) {
  if (!std::regex_match(value, pattern)) {
    throw InputError(std::string(flag) + " '" + value + "' refused: " + allowed);
  }
}

bool has_flag(const std::vector<std::string>& flags, const std::string& name) {
  return std::any_of(flags.begin(), flags.end(), [&](const std::string& flag) {
    return flag == name || flag.starts_with(name + "=");
  });
}

} // namespace

bool is_slurm_time_limit(const std::string& text) {
  static const std::regex kTime("[0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}",
                                std::regex::ECMAScript);
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "unlimited" || lower == "infinite" || std::regex_match(text, kTime);
}

void validate_sbatch_request(const SbatchRequest& request) {
  require_positive(request.nodes, "--nodes", "the number of nodes");
  require_positive(request.gpus_per_node, "--gpus-per-node",
                   request.host_backend ? "ranks per node" : "GPUs per node, one task each");
  if (request.cpus_per_task < 0)
    require_positive(request.cpus_per_task, "--cpus-per-task", "CPUs for each task");
  if (!request.partition.empty()) {
    require_match(
        request.partition, kNameList, "--partition",
        "Slurm partition names are letters, digits, '_', '.', '-' (a list: comma-separated)");
  }
  if (!request.account.empty()) {
    require_match(request.account, kNameList, "--account",
                  "account names are letters, digits, '_', '.', '-'");
  }
  require_match(request.job_name, kJobName, "--job-name",
                "use letters, digits, '_', '.', '+', '-'");
  if (!request.time_limit.empty() && !is_slurm_time_limit(request.time_limit)) {
    throw InputError("--time '" + request.time_limit +
                     "' refused: Slurm takes M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED");
  }
  if (request.output_dir.empty())
    throw InputError("--output-dir: empty directory name");
  // The directory also appears in the #SBATCH --output line, which Slurm reads without a shell:
  // whitespace and quotes would split or end it, and '%' starts one of Slurm's file patterns.
  for (char c : request.output_dir) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || c == ' ' || c == '\'' || c == '"' || c == '\\' || c == '%') {
      throw InputError("--output-dir '" + request.output_dir +
                       "' refused: no whitespace, quotes, backslashes, '%' or control characters");
    }
  }
  if (request.clusterbench.empty() || request.clusterbench.front() != '/') {
    throw InputError("the clusterbench executable path must be absolute, got '" +
                     request.clusterbench + "'");
  }
  if (has_flag(request.run_flags, "--out")) {
    throw InputError("run flag --out: the script names the results file itself; use --output-dir");
  }
}

std::string render_sbatch_script(const SbatchRequest& request) {
  validate_sbatch_request(request);
  std::ostringstream script;
  script << "#!/bin/bash\n"
         << "# clusterbench on " << request.nodes << " node(s) x " << request.gpus_per_node
         << (request.host_backend ? " rank(s)" : " GPU(s)")
         << ", written by `clusterbench slurm`. Submit with: sbatch <this file>\n"
         << "#SBATCH --job-name=" << request.job_name << "\n"
         << "#SBATCH --nodes=" << request.nodes << "\n"
         << "#SBATCH --ntasks-per-node=" << request.gpus_per_node << "\n";
  if (!request.host_backend) {
    script << "#SBATCH --gpus-per-node=" << request.gpus_per_node << "\n";
  }
  // A host rank is a core: one CPU unless asked for more.
  const int cpus_per_task =
      request.host_backend ? std::max(1, request.cpus_per_task) : request.cpus_per_task;
  if (cpus_per_task > 0)
    script << "#SBATCH --cpus-per-task=" << cpus_per_task << "\n";
  script << "#SBATCH --exclusive\n";
  if (!request.partition.empty())
    script << "#SBATCH --partition=" << request.partition << "\n";
  if (!request.account.empty())
    script << "#SBATCH --account=" << request.account << "\n";
  if (!request.time_limit.empty())
    script << "#SBATCH --time=" << request.time_limit << "\n";
  script << "#SBATCH --output=" << request.output_dir << "/clusterbench-%j.out\n"
         << "set -euo pipefail\n"
         << "out=" << quote_shell_word(request.output_dir)
         << "/clusterbench-\"${SLURM_JOB_ID}\".json\n";
  std::string cpus = std::to_string(cpus_per_task);
  if (cpus_per_task == 0) {
    // The whole node is the job's (--exclusive): its CPUs shared out over its GPUs.
    script << "# Each task: one GPU of its own, near its CPUs, and the node's CPUs per GPU.\n"
           << "cpus_per_task=$(( ${SLURM_CPUS_ON_NODE:-$(nproc)} / " << request.gpus_per_node
           << " ))\n"
           << "[ \"$cpus_per_task\" -ge 1 ] || cpus_per_task=1\n";
    cpus = "\"$cpus_per_task\"";
  }
  // srun (22.05) no longer takes --cpus-per-task from the allocation: say it again. A GPU task is
  // bound to one GPU near its cores (single:1; closest would show it its NUMA domain's GPUs), and
  // consecutive tasks fill a socket before the next (block:block), as the GPUs are numbered.
  script << "srun --mpi=pmix --cpus-per-task=" << cpus
         << (request.host_backend ? "" : " --distribution=block:block --gpu-bind=single:1")
         << " \\\n  " << quote_shell_word(request.clusterbench) << " run --out \"$out\"";
  std::vector<std::string> run_flags = request.run_flags;
  if (request.host_backend && !has_flag(run_flags, "--backend")) {
    run_flags.insert(run_flags.begin(), {"--backend", "host"});
  }
  for (const auto& flag : run_flags)
    script << " " << quote_shell_word(flag);
  script << "\n";
  return script.str();
}

} // namespace cb
