#include "k8s/mpijob_manifest.hpp"

#include <algorithm>
#include <set>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "k8s/k8s_names.hpp"
#include "k8s/yaml_text.hpp"
#include "slurm/shell_word.hpp"

namespace cb {
namespace {

using nlohmann::ordered_json;

// With the host's network the worker's sshd cannot take port 22, which the node's own sshd holds.
constexpr int kHostNetworkSshPort = 2222;
// The MPI Operator's mount for the launcher's SSH credentials (its default; the image runs as
// root).
constexpr const char* kSshAuthMountPath = "/root/.ssh";

void refuse(const std::string& flag, const std::string& value, const std::string& why) {
  throw InputError(flag + " '" + shown(value, 80) + "' refused: " + why);
}

bool has_flag(const std::vector<std::string>& flags, const std::string& name) {
  return std::any_of(flags.begin(), flags.end(), [&](const std::string& flag) {
    return flag == name || flag.starts_with(name + "=");
  });
}

bool is_variable_name(const std::string& name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

std::string worker_host(const MpiJobRequest& request, int index) {
  return request.name + "-worker-" + std::to_string(index);
}

void validate_counts(const MpiJobRequest& request) {
  if (request.nodes < 1 || request.nodes > 1'000'000)
    throw InputError("--nodes must be from 1 to 1000000 (worker pods, one per node), got " +
                     std::to_string(request.nodes));
  if (request.gpus_per_node < 1 || request.gpus_per_node > 1024)
    throw InputError(
        "--gpus-per-node must be from 1 to 1024 (GPUs and MPI slots per worker), got " +
        std::to_string(request.gpus_per_node));
  if (static_cast<long long>(request.nodes) * request.gpus_per_node > 1'000'000)
    throw InputError("--nodes x --gpus-per-node is " +
                     std::to_string(static_cast<long long>(request.nodes) * request.gpus_per_node) +
                     " ranks; a run takes at most 1000000");
}

void validate_names(const MpiJobRequest& request) {
  if (!is_image_reference(request.image))
    refuse("--image", request.image,
           "not an image reference a container runtime pulls ([registry[:port]/]path[:tag]"
           "[@digest], the path lowercase)");
  // The MPI Operator's own rule (pkg/apis/kubeflow/validation): its pods and service are named
  // NAME-worker-<i>, each a DNS-1035 label of at most 63 characters.
  const std::string last_worker = worker_host(request, request.nodes - 1);
  if (!is_dns1035_label(request.name) || !is_dns1035_label(last_worker))
    refuse("--name", request.name,
           "the MPI Operator names the pods " + shown(last_worker, 80) +
               " and so on, which must be DNS-1035 labels: lowercase letters, digits and '-', "
               "starting with a letter, at most 63 characters");
  if (!request.namespace_name.empty() && !is_dns1123_label(request.namespace_name))
    refuse("--namespace", request.namespace_name,
           "a namespace is a DNS-1123 label: lowercase letters, digits and '-', at most 63");
  if (!request.queue.empty() &&
      (!is_dns1123_subdomain(request.queue) || !is_label_value(request.queue)))
    refuse("--queue", request.queue,
           "a Kueue LocalQueue name, written as a label value: lowercase letters, digits, '-' "
           "and '.', at most 63 characters");
  if (!request.results_pvc.empty() && !is_dns1123_subdomain(request.results_pvc))
    refuse("--results-pvc", request.results_pvc,
           "a PersistentVolumeClaim name is a DNS-1123 subdomain: lowercase letters, digits, "
           "'-' and '.'");
}

void validate_resources(const MpiJobRequest& request) {
  std::set<std::string> seen;
  for (const auto& [name, count] : request.rdma_resources) {
    const std::string given = name + "=" + std::to_string(count);
    if (!is_resource_name(name))
      refuse("--rdma-resource", given,
             "NAME is an extended resource the device plugin advertises, prefixed by its domain "
             "(rdma/ib, nvidia.com/hostdev, rdma/rdma_shared_device_a)");
    if (name == "nvidia.com/gpu")
      refuse("--rdma-resource", given, "the GPUs are --gpus-per-node");
    if (count < 1 || count > 1'000'000)
      refuse("--rdma-resource", given, "COUNT is a whole number from 1 to 1000000");
    if (!seen.insert(name).second)
      refuse("--rdma-resource", given, "that resource is already requested");
  }
  if (!is_positive_quantity(request.shm))
    refuse("--shm", request.shm, "a Kubernetes quantity greater than zero, e.g. 16Gi, 64Gi, 512Mi");
  if (request.deadline_s < 1 || request.deadline_s > kMostDeadlineSeconds)
    throw InputError("--deadline must be from 1 s to 30 days, got " +
                     std::to_string(request.deadline_s) + " s");
}

void validate_command(const MpiJobRequest& request) {
  const std::string& exe = request.executable;
  const bool control = std::any_of(exe.begin(), exe.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (exe.empty() || control || exe.size() > 4096 ||
      (exe.front() != '/' && exe.find('/') != std::string::npos))
    refuse("--executable", exe,
           "clusterbench in the image: a name on its PATH or an absolute path");
  for (const auto& [name, value] : request.environment) {
    if (!is_variable_name(name) || value.size() > 65536)
      refuse("the variable", name, "not a variable name, or a value over 64 KiB");
    // A manifest is UTF-8 text: other bytes would be changed on the way or make invalid YAML.
    if (!is_utf8(value))
      refuse("the variable", name, "its value is not UTF-8 text, which a manifest must be");
  }
  for (const auto& flag : request.run_flags) {
    if (!is_utf8(flag))
      refuse("run flag", flag, "not UTF-8 text, which a manifest must be");
  }
  if (has_flag(request.run_flags, "--out"))
    throw InputError("run flag --out: the manifest names the results file itself (" +
                     std::string(kResultsDirectory) + "/" + results_file_name(request) +
                     "); use --results-pvc");
}

ordered_json environment_list(const MpiJobRequest& request) {
  // The NVIDIA runtime shows every GPU of the node to a container whose image sets
  // NVIDIA_VISIBLE_DEVICES=all, requested or not (nvcr.io images do): the launcher takes none.
  ordered_json env = ordered_json::array({{{"name", "NVIDIA_VISIBLE_DEVICES"}, {"value", "void"}}});
  for (const auto& [name, value] : request.environment)
    env.push_back({{"name", name}, {"value", value}});
  return env;
}

// The kubelet expands $(NAME) in a container's command and args and turns $$ into $: with every
// '$' doubled the shell receives the script exactly as written.
std::string kubelet_literal(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (char c : text) {
    out += c;
    if (c == '$')
      out += '$';
  }
  return out;
}

ordered_json launcher_spec(const MpiJobRequest& request) {
  ordered_json container = {
      {"name", "launcher"},
      {"image", request.image},
      {"command",
       ordered_json::array({"/bin/sh", "-c", kubelet_literal(launcher_script(request))})},
      {"env", environment_list(request)},
      {"resources", {{"requests", {{"cpu", "1"}, {"memory", "1Gi"}}}}}};
  return {{"replicas", 1},
          {"restartPolicy", "Never"},
          {"template", {{"spec", {{"containers", ordered_json::array({container})}}}}}};
}

// Our own labels on the worker pods, which the anti-affinity selects: the MPI Operator's labels
// differ between its versions.
ordered_json worker_labels(const MpiJobRequest& request) {
  return {{"app.kubernetes.io/name", "clusterbench"},
          {"app.kubernetes.io/instance", request.name},
          {"app.kubernetes.io/component", "worker"}};
}

ordered_json worker_spec(const MpiJobRequest& request) {
  ordered_json limits = {{"nvidia.com/gpu", request.gpus_per_node}};
  for (const auto& [name, count] : request.rdma_resources)
    limits[name] = count;
  ordered_json sshd_args = ordered_json::array({"-De"});
  if (request.host_network) {
    sshd_args.push_back("-p");
    sshd_args.push_back(std::to_string(kHostNetworkSshPort));
  }
  ordered_json container = {
      {"name", "worker"},
      {"image", request.image},
      {"command", ordered_json::array({"/usr/sbin/sshd"})},
      {"args", sshd_args},
      {"resources", {{"limits", limits}}},
      {"volumeMounts",
       ordered_json::array({{{"name", "dshm"}, {"mountPath", "/dev/shm"}},
                            {{"name", "results"}, {"mountPath", kResultsDirectory}}})}};
  // RDMA registers memory it pins: the locked-memory limit must not stop it.
  if (!request.rdma_resources.empty())
    container["securityContext"] = {{"capabilities", {{"add", ordered_json::array({"IPC_LOCK"})}}}};
  ordered_json results_volume = {{"name", "results"}};
  if (request.results_pvc.empty())
    results_volume["emptyDir"] = ordered_json::object();
  else
    results_volume["persistentVolumeClaim"] = {{"claimName", request.results_pvc}};
  // Each worker takes a whole node's GPUs, so two on one node would measure that node twice (or
  // leave one pending where the device plugin overcommits): never two on one node.
  const ordered_json labels = worker_labels(request);
  ordered_json pod;
  pod["affinity"] = {{"podAntiAffinity",
                      {{"requiredDuringSchedulingIgnoredDuringExecution",
                        ordered_json::array({{{"labelSelector", {{"matchLabels", labels}}},
                                              {"topologyKey", "kubernetes.io/hostname"}}})}}}};
  if (request.host_network) {
    pod["hostNetwork"] = true;
    pod["dnsPolicy"] = "ClusterFirstWithHostNet"; // the launcher still finds workers by name
  }
  pod["containers"] = ordered_json::array({container});
  pod["volumes"] = ordered_json::array(
      {{{"name", "dshm"}, {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", request.shm}}}},
       results_volume});
  return {{"replicas", request.nodes},
          {"restartPolicy", "Never"},
          {"template", {{"metadata", {{"labels", labels}}}, {"spec", pod}}}};
}

std::string manifest_comments(const MpiJobRequest& request) {
  std::string names;
  for (const auto& [name, value] : request.environment)
    names += " " + name;
  std::string text =
      "# clusterbench on " + std::to_string(request.nodes) + " node(s) x " +
      std::to_string(request.gpus_per_node) +
      " GPU(s): a Kubeflow MPIJob (kubeflow.org/v2beta1), written by `clusterbench k8s`.\n"
      "# Apply with: kubectl apply -f <this file>; follow with: kubectl logs -f job/" +
      request.name + "-launcher\n";
  if (request.results_pvc.empty())
    text += "# Results: in the launcher's log, between the lines '" +
            std::string(kResultsBeginMarker) + "' and '" + kResultsEndMarker + "'\n";
  else
    text +=
        "# Results: on the claim " + request.results_pvc + ", " + results_file_name(request) + "\n";
  text += "# Passed to every rank from the environment this was written in:" +
          (names.empty() ? std::string(" none") : names) + "\n";
  return text;
}

} // namespace

bool passed_to_ranks(const std::string& variable) {
  for (const char* launch : {"OMPI_MCA_orte_", "OMPI_MCA_plm_", "OMPI_MCA_prte_"}) {
    if (variable.starts_with(launch))
      return false;
  }
  return is_transport_variable(variable);
}

std::string results_file_name(const MpiJobRequest& request) {
  // The launch time in the name: runs of one name on one claim never replace each other.
  return request.name + "-<UTC start time>.json";
}

void validate_mpijob_request(const MpiJobRequest& request) {
  validate_counts(request);
  validate_names(request);
  validate_resources(request);
  validate_command(request);
}

std::string launcher_script(const MpiJobRequest& request) {
  const std::string ranks =
      std::to_string(static_cast<long long>(request.nodes) * request.gpus_per_node);
  const std::string slots = std::to_string(request.gpus_per_node);
  std::string mpirun =
      "mpirun --allow-run-as-root -np " + ranks + " --map-by ppr:" + slots + ":node --bind-to numa";
  if (request.host_network) {
    mpirun +=
        " --mca plm_rsh_args " +
        quote_shell_word("-p " + std::to_string(kHostNetworkSshPort) + " -o ConnectionAttempts=10");
  }
  for (const auto& [name, value] : request.environment) {
    if (!name.starts_with("OMPI_MCA_")) // mpirun reads and forwards those itself
      mpirun += " -x " + name;
  }
  std::string script =
      "set -u\nout=" + quote_shell_word(std::string(kResultsDirectory) + "/" + request.name + "-") +
      "\"$(date -u +%Y%m%dT%H%M%SZ)\".json\n" + mpirun + " " +
      quote_shell_word(request.executable) + " run --out \"$out\"";
  for (const auto& flag : request.run_flags)
    script += " " + quote_shell_word(flag);
  script += "\nstatus=$?\n";
  if (request.results_pvc.empty()) {
    // Rank 0 wrote the file on the first worker; one process placed there prints it.
    script += "echo " + quote_shell_word(kResultsBeginMarker) +
              "\nmpirun --allow-run-as-root -np 1 cat \"$out\"\necho " +
              quote_shell_word(kResultsEndMarker) + "\n";
  } else {
    script += "echo \"clusterbench results: $out on the claim " + request.results_pvc + "\"\n";
  }
  return script + "exit $status\n";
}

ordered_json mpijob_document(const MpiJobRequest& request) {
  validate_mpijob_request(request);
  ordered_json metadata = {{"name", request.name}};
  if (!request.namespace_name.empty())
    metadata["namespace"] = request.namespace_name;
  metadata["labels"] = {{"app.kubernetes.io/name", "clusterbench"}};
  if (!request.queue.empty())
    metadata["labels"]["kueue.x-k8s.io/queue-name"] = request.queue;
  return {{"apiVersion", "kubeflow.org/v2beta1"},
          {"kind", "MPIJob"},
          {"metadata", metadata},
          {"spec",
           {{"slotsPerWorker", request.gpus_per_node},
            {"runPolicy",
             // Workers go when the launcher ends; the launcher stays for its log. One attempt:
             // a qualification that failed is not run again behind the operator's back.
             {{"cleanPodPolicy", "Running"},
              {"backoffLimit", 0},
              {"activeDeadlineSeconds", request.deadline_s}}},
            {"mpiImplementation", "OpenMPI"},
            {"sshAuthMountPath", kSshAuthMountPath},
            // mpirun starts once every worker's sshd is up, not into a refused connection.
            {"launcherCreationPolicy", "WaitForWorkersReady"},
            {"mpiReplicaSpecs",
             {{"Launcher", launcher_spec(request)}, {"Worker", worker_spec(request)}}}}}};
}

std::string render_mpijob_manifest(const MpiJobRequest& request) {
  const ordered_json document = mpijob_document(request);
  return manifest_comments(request) + to_yaml(document);
}

} // namespace cb
