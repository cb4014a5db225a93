// clusterbench slurm: prints an sbatch script that runs `clusterbench run` on N nodes with one
// task per GPU; --show-allocation prints what the Slurm environment of the calling task says.
#include <filesystem>
#include <iostream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/launch_flags.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "slurm/sbatch_script.hpp"
#include "slurm/slurm_environment.hpp"

namespace {

std::string running_executable() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error)
    throw cb::RunError("cannot read /proc/self/exe: " + error.message());
  return path.string();
}

int show_allocation(bool as_json) {
  cb::SlurmAllocation allocation = cb::read_slurm_allocation();
  nlohmann::json out = {{"under_step", cb::running_under_slurm_step()},
                        {"job_id", allocation.job_id},
                        {"nodes", allocation.nodes},
                        {"ntasks", allocation.ntasks},
                        {"tasks_per_node", allocation.tasks_per_node},
                        {"gpus_per_node", allocation.gpus_per_node}};
  for (auto [key, value] :
       {std::pair{"procid", allocation.procid}, std::pair{"localid", allocation.localid},
        std::pair{"nodeid", allocation.nodeid}}) {
    out[key] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  }
  if (as_json) {
    std::cout << out.dump() << "\n";
    return 0;
  }
  for (const auto& [key, value] : out.items())
    std::cout << key << ": " << value.dump() << "\n";
  return 0;
}

int slurm_main(const std::vector<std::string>& args) {
  cb::ArgParser parser("clusterbench slurm",
                       "clusterbench slurm --nodes N --gpus-per-node G [options] [-- run flags]");
  parser.option("nodes", "N", "nodes to allocate (required)")
      .option("gpus-per-node", "G",
              "GPUs per node, one task each (required; ranks per node "
              "with --host-backend)")
      .flag("host-backend", "a CPU cluster: no GPU request, no --gpu-bind, run --backend host")
      .option("cpus-per-task", "C",
              "CPUs per task (default: the node's CPUs per GPU; 1 with --host-backend)")
      .option("partition", "P", "Slurm partition (default: the cluster's default)")
      .option("time", "T", "time limit: M, H:M:S, D-H:M:S, ... (default: the partition's)")
      .option("account", "A", "account to charge")
      .option("job-name", "NAME", "job name (default clusterbench)")
      .option("output-dir", "DIR", "where results and the job log go (default: current directory)")
      .flag("show-allocation", "print the Slurm job and step this runs in, and exit")
      .flag("json", "with --show-allocation: as JSON")
      .epilog("Prints an sbatch script; flags after '--' go to `clusterbench run`, quoted.\n"
              "The results land in DIR/clusterbench-<job id>.json, the job's log beside them.\n"
              "example: clusterbench slurm --nodes 2 --gpus-per-node 8 --partition gpu \\\n"
              "           -- --suite collectives > job.sh && sbatch job.sh");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  if (parser.has("show-allocation"))
    return show_allocation(parser.has("json"));

  if (!parser.has("nodes"))
    throw cb::InputError("--nodes N is required (nodes to allocate)");
  if (!parser.has("gpus-per-node")) {
    throw cb::InputError("--gpus-per-node G is required (one task per GPU; with --host-backend, "
                         "ranks per node)");
  }
  cb::SbatchRequest request;
  request.nodes = cb::count_flag(parser, "nodes", 0);
  request.gpus_per_node = cb::count_flag(parser, "gpus-per-node", 0);
  request.host_backend = parser.has("host-backend");
  request.cpus_per_task = cb::count_flag(parser, "cpus-per-task", request.host_backend ? 1 : 0);
  request.partition = parser.get_or("partition", "");
  request.time_limit = parser.get_or("time", "");
  request.account = parser.get_or("account", "");
  request.job_name = parser.get_or("job-name", "clusterbench");
  std::filesystem::path output_dir = parser.get_or("output-dir", ".");
  std::error_code error;
  if (!std::filesystem::is_directory(output_dir, error)) {
    throw cb::InputError("--output-dir '" + output_dir.string() +
                         "' is not a directory (Slurm opens the job log there before the job "
                         "starts: create it first)");
  }
  request.output_dir = std::filesystem::absolute(output_dir).lexically_normal().string();
  if (request.output_dir.size() > 1 && request.output_dir.back() == '/')
    request.output_dir.pop_back();
  request.clusterbench = running_executable();
  request.run_flags = parser.passthrough();
  cb::check_launched_run_flags(request.run_flags,
                               static_cast<long long>(request.nodes) * request.gpus_per_node);
  std::cout << cb::render_sbatch_script(request);
  return 0;
}

} // namespace

CB_REGISTER_COMMAND("slurm", "print an sbatch script that runs clusterbench on a Slurm cluster",
                    slurm_main);
