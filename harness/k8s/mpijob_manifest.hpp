#pragma once
// The manifest `clusterbench k8s` prints: a Kubeflow MPIJob (kubeflow.org/v2beta1, the MPI
// Operator's API) that runs `clusterbench run` on N worker pods of G GPUs each, started by one
// launcher pod's mpirun, as nccl-tests runs on Kubernetes. Every value that reaches it is checked
// against what the API server, the MPI Operator's validation and the container runtime accept, and
// every word of the launcher's shell script is quoted, so no flag can inject a command.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cb {

struct MpiJobRequest {
  int nodes = 0;              // worker pods, one per node
  int gpus_per_node = 0;      // nvidia.com/gpu per worker, and MPI slots per worker
  std::string image;          // holds clusterbench, Open MPI's mpirun and sshd
  std::string namespace_name; // empty: the namespace kubectl applies to
  std::string name = "clusterbench";
  std::string queue; // Kueue LocalQueue (label kueue.x-k8s.io/queue-name); empty: none
  std::vector<std::pair<std::string, long long>> rdma_resources; // per worker: name, count
  bool host_network = false;
  std::string shm = "16Gi"; // /dev/shm: a memory-backed emptyDir of this size (NCCL's buffers)
  std::string results_pvc;  // a ReadWriteMany claim for the results; empty: the launcher's log
  long long deadline_s = 12 * 3600;        // runPolicy.activeDeadlineSeconds, at most 30 days
  std::string executable = "clusterbench"; // clusterbench in the image: on PATH, or absolute
  // NCCL_*, UCX_*, OMPI_MCA_* of the caller, passed to every rank (README's table).
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<std::string> run_flags; // to `clusterbench run`, each quoted
};

inline constexpr long long kMostDeadlineSeconds = 30LL * 24 * 3600;

// Where the results file lands in the worker pods, and the file itself.
inline constexpr const char* kResultsDirectory = "/results";
std::string results_file_name(const MpiJobRequest& request);

// Throws InputError naming the flag (--nodes, --gpus-per-node, --image, --namespace, --name,
// --queue, --rdma-resource, --shm, --results-pvc, --deadline, --executable, a variable or a run
// flag) whose value Kubernetes, the MPI Operator or the script cannot take.
void validate_mpijob_request(const MpiJobRequest& request);

// The MPIJob as a document (validated first), and as the YAML the command prints.
nlohmann::ordered_json mpijob_document(const MpiJobRequest& request);
std::string render_mpijob_manifest(const MpiJobRequest& request);

// The launcher's script: mpirun placing gpus_per_node ranks on each worker, then, without a
// claim, the results file printed to the launcher's log between two marker lines.
std::string launcher_script(const MpiJobRequest& request);
inline constexpr const char* kResultsBeginMarker = "----- clusterbench results begin -----";
inline constexpr const char* kResultsEndMarker = "----- clusterbench results end -----";

// The caller's variables that tune collectives and transports (core/environment.hpp's
// is_transport_variable), less Open MPI's launch settings, which the MPI Operator sets itself
// in the launcher (hostfile, rsh arguments) and the caller's would override.
bool passed_to_ranks(const std::string& variable);

} // namespace cb
