// clusterbench k8s: prints a Kubeflow MPIJob (kubeflow.org/v2beta1) that runs `clusterbench run`
// on N worker pods of G GPUs each, as nccl-tests runs on Kubernetes.
#include <iostream>
#include <string>

#include "cli/command.hpp"
#include "cli/launch_flags.hpp"
#include "core/args.hpp"
#include "core/duration.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "k8s/mpijob_manifest.hpp"

namespace {

// "rdma/ib=8" -> {"rdma/ib", 8}.
std::pair<std::string, long long> resource_flag(const std::string& text) {
  const std::size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0)
    throw cb::InputError("--rdma-resource '" + cb::shown(text, 80) +
                         "' refused: write NAME=COUNT, e.g. rdma/ib=8");
  const std::string count = text.substr(eq + 1);
  return {text.substr(0, eq), cb::parse_integer(count, "--rdma-resource")};
}

int k8s_main(const std::vector<std::string>& args) {
  cb::ArgParser parser("clusterbench k8s", "clusterbench k8s --nodes N --gpus-per-node G --image "
                                           "IMAGE [options] [-- run flags]");
  parser.option("nodes", "N", "worker pods, one per node (required)")
      .option("gpus-per-node", "G", "GPUs per worker, one rank each (required)")
      .option("image", "IMAGE", "image holding clusterbench, Open MPI and sshd (required)")
      .option("namespace", "NS", "namespace (default: the one kubectl applies to)")
      .option("name", "NAME", "MPIJob name, a DNS-1035 label (default clusterbench)")
      .option("queue", "QUEUE", "Kueue LocalQueue: label kueue.x-k8s.io/queue-name")
      .option("rdma-resource", "NAME=COUNT",
              "an RDMA device resource per worker, e.g. rdma/ib=8 (repeatable)")
      .flag("host-network", "workers on the node's network (sshd then listens on port 2222)")
      .option("shm", "SIZE", "/dev/shm size, a memory-backed emptyDir (default 16Gi)")
      .option("results-pvc", "CLAIM",
              "ReadWriteMany claim the results land on (default: the launcher's log)")
      .option("deadline", "DURATION", "runPolicy.activeDeadlineSeconds, e.g. 2h (default 12h)")
      .option("executable", "PATH", "clusterbench in the image (default: clusterbench on PATH)")
      .epilog(
          "Prints the manifest; flags after '--' go to `clusterbench run`, checked here first.\n"
          "NCCL_*, UCX_* and OMPI_MCA_* variables of this environment reach every rank.\n"
          "example: clusterbench k8s --nodes 16 --gpus-per-node 8 --image REGISTRY/cb:1.0 \\\n"
          "           --queue gpu-queue -- --suite collectives > job.yaml\n"
          "         kubectl apply -f job.yaml");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  for (const char* required : {"nodes", "gpus-per-node", "image"}) {
    if (!parser.has(required))
      throw cb::InputError(std::string("--") + required + " is required (see --help)");
  }
  cb::MpiJobRequest request;
  request.nodes = cb::count_flag(parser, "nodes");
  request.gpus_per_node = cb::count_flag(parser, "gpus-per-node");
  request.image = *parser.get("image");
  request.namespace_name = parser.get_or("namespace", "");
  request.name = parser.get_or("name", request.name);
  request.queue = parser.get_or("queue", "");
  for (const auto& text : parser.get_all("rdma-resource"))
    request.rdma_resources.push_back(resource_flag(text));
  request.host_network = parser.has("host-network");
  request.shm = parser.get_or("shm", request.shm);
  request.results_pvc = parser.get_or("results-pvc", "");
  if (const auto deadline = parser.get("deadline")) {
    // In range before the cast: a double past long long's range has no value once cast.
    const double seconds = cb::parse_duration(*deadline, "--deadline");
    if (!(seconds >= 1 && seconds <= cb::kMostDeadlineSeconds))
      throw cb::InputError("--deadline must be from 1 s to 30 days, got " +
                           cb::shown(*deadline, 40));
    request.deadline_s = static_cast<long long>(seconds);
  }
  request.executable = parser.get_or("executable", request.executable);
  for (const auto& [name, value] : cb::transport_variables()) {
    if (cb::passed_to_ranks(name))
      request.environment.emplace_back(name, value);
  }
  request.run_flags = parser.passthrough();
  cb::check_launched_run_flags(request.run_flags,
                               static_cast<long long>(request.nodes) * request.gpus_per_node);
  std::cout << cb::render_mpijob_manifest(request);
  return 0;
}

} // namespace

CB_REGISTER_COMMAND("k8s", "print a Kubeflow MPIJob that runs clusterbench on a Kubernetes cluster",
                    k8s_main);
