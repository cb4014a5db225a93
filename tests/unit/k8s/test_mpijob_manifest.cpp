// The MPIJob `clusterbench k8s` prints, held to the MPI Operator's API (kubeflow.org/v2beta1
// types.go and pkg/apis/kubeflow/validation): one launcher, replicas >= 1, restartPolicy Never or
// OnFailure, DNS-1035 pod names, resource quantities, slots per worker, the launcher's mpirun.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "core/error.hpp"
#include "core/text_file.hpp"
#include "k8s/k8s_names.hpp"
#include "k8s/mpijob_manifest.hpp"

using namespace cb;
using nlohmann::ordered_json;

namespace {

MpiJobRequest cluster_128x8() {
  MpiJobRequest r;
  r.nodes = 128;
  r.gpus_per_node = 8;
  r.image = "registry.example.com/hpc/clusterbench:1.4";
  r.namespace_name = "gpu-acceptance";
  r.name = "cb-h200";
  r.queue = "acceptance";
  r.rdma_resources = {{"rdma/ib", 8}};
  r.environment = {
      {"NCCL_IB_HCA", "=mlx5_0,mlx5_1"}, {"UCX_TLS", "rc,sm"}, {"OMPI_MCA_pml", "ucx"}};
  r.run_flags = {"--suite", "collectives,links", "--budget", "40m"};
  return r;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const ordered_json& replica(const ordered_json& job, const char* type) {
  return job["spec"]["mpiReplicaSpecs"][type];
}

const ordered_json& container(const ordered_json& job, const char* type) {
  return replica(job, type)["template"]["spec"]["containers"][0];
}

// The script as the shell receives it: the kubelet turns $$ into $ in a command (and expands
// $(NAME), which a script written with every '$' doubled never holds).
std::string script_of(const ordered_json& job) {
  const std::string command = container(job, "Launcher")["command"][2].get<std::string>();
  std::string script;
  for (std::size_t i = 0; i < command.size(); ++i) {
    if (command[i] == '$') {
      EXPECT_TRUE(i + 1 < command.size() && command[i + 1] == '$') << "a '$' the kubelet reads";
      ++i;
    }
    script += command[i];
  }
  return script;
}

// Every quantity under a container's resources: an integer, or a Kubernetes quantity string.
void expect_quantities(const ordered_json& resources) {
  for (const auto& [kind, list] : resources.items()) {
    for (const auto& [name, value] : list.items()) {
      if (value.is_number_integer())
        EXPECT_GT(value.get<long long>(), 0) << kind << " " << name;
      else
        EXPECT_TRUE(value.is_string() && is_positive_quantity(value.get<std::string>()))
            << kind << " " << name << " " << value.dump();
      EXPECT_TRUE(name == "cpu" || name == "memory" || is_resource_name(name)) << name;
    }
  }
}

} // namespace

TEST(MpiJobManifest, OneLauncherAndAWorkerPerNodeAsTheOperatorValidatesThem) {
  const ordered_json job = mpijob_document(cluster_128x8());
  EXPECT_EQ(job["apiVersion"], "kubeflow.org/v2beta1");
  EXPECT_EQ(job["kind"], "MPIJob");
  const ordered_json& specs = job["spec"]["mpiReplicaSpecs"];
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(replica(job, "Launcher")["replicas"], 1); // validateLauncherReplicaSpec: must be 1
  EXPECT_EQ(replica(job, "Worker")["replicas"], 128);
  for (const char* type : {"Launcher", "Worker"}) {
    const std::string policy = replica(job, type)["restartPolicy"].get<std::string>();
    EXPECT_TRUE(policy == "Never" || policy == "OnFailure") << type; // validRestartPolicies
    EXPECT_GE(replica(job, type)["template"]["spec"]["containers"].size(), 1u) << type;
    EXPECT_EQ(container(job, type)["image"], "registry.example.com/hpc/clusterbench:1.4");
    expect_quantities(container(job, type)["resources"]);
  }
  // The pods NAME-launcher and NAME-worker-0..127 are DNS-1035 labels (validateMPIJobName).
  EXPECT_TRUE(is_dns1035_label(job["metadata"]["name"].get<std::string>()));
  EXPECT_TRUE(is_dns1035_label("cb-h200-worker-127"));
  EXPECT_EQ(job["metadata"]["namespace"], "gpu-acceptance");
  EXPECT_EQ(job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], "acceptance");
  const ordered_json& spec = job["spec"];
  EXPECT_EQ(spec["slotsPerWorker"], 8);
  EXPECT_EQ(spec["runPolicy"]["backoffLimit"], 0);
  EXPECT_EQ(spec["runPolicy"]["cleanPodPolicy"], "Running");
  EXPECT_EQ(spec["runPolicy"]["activeDeadlineSeconds"], 12 * 3600);
  EXPECT_EQ(spec["mpiImplementation"], "OpenMPI");
  EXPECT_FALSE(spec["sshAuthMountPath"].get<std::string>().empty());
  // GPUs on the workers only; the launcher is told to see none.
  EXPECT_EQ(container(job, "Worker")["resources"]["limits"]["nvidia.com/gpu"], 8);
  EXPECT_EQ(container(job, "Worker")["resources"]["limits"]["rdma/ib"], 8);
  EXPECT_FALSE(container(job, "Launcher")["resources"].dump().find("nvidia.com/gpu") !=
               std::string::npos);
  EXPECT_EQ(container(job, "Launcher")["env"][0]["value"], "void");
  EXPECT_EQ(container(job, "Worker")["securityContext"]["capabilities"]["add"][0], "IPC_LOCK");
  const ordered_json& volumes = replica(job, "Worker")["template"]["spec"]["volumes"];
  EXPECT_EQ(volumes[0]["emptyDir"]["medium"], "Memory");
  EXPECT_EQ(volumes[0]["emptyDir"]["sizeLimit"], "16Gi");
  EXPECT_EQ(container(job, "Worker")["volumeMounts"][0]["mountPath"], "/dev/shm");
}

// Each worker takes a whole node's GPUs: the scheduler must never place two on one node.
TEST(MpiJobManifest, NoTwoWorkersShareANode) {
  const ordered_json job = mpijob_document(cluster_128x8());
  const ordered_json& worker = replica(job, "Worker")["template"];
  const ordered_json& labels = worker["metadata"]["labels"];
  EXPECT_EQ(labels["app.kubernetes.io/instance"], "cb-h200");
  EXPECT_EQ(labels["app.kubernetes.io/component"], "worker");
  const ordered_json& terms = worker["spec"]["affinity"]["podAntiAffinity"]
                                    ["requiredDuringSchedulingIgnoredDuringExecution"];
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0]["topologyKey"], "kubernetes.io/hostname");
  // The selector picks this job's workers: every label it names, each worker carries.
  const ordered_json& selector = terms[0]["labelSelector"]["matchLabels"];
  ASSERT_FALSE(selector.empty());
  for (const auto& [key, value] : selector.items())
    EXPECT_EQ(labels[key], value) << key;
  EXPECT_TRUE(selector.contains("app.kubernetes.io/instance"));
  // The launcher is no worker: it may share a node with one.
  EXPECT_FALSE(replica(job, "Launcher")["template"].contains("metadata"));
}

TEST(MpiJobManifest, TheLaunchersMpirunPlacesAWorkersGpusOnEachWorker) {
  const std::string script = script_of(mpijob_document(cluster_128x8()));
  EXPECT_NE(script.find("mpirun --allow-run-as-root -np 1024 --map-by ppr:8:node --bind-to numa "
                        "-x NCCL_IB_HCA -x UCX_TLS 'clusterbench' run --out \"$out\" '--suite' "
                        "'collectives,links' '--budget' '40m'\n"),
            std::string::npos)
      << script;
  EXPECT_EQ(script.find("-x OMPI_MCA_pml"), std::string::npos); // mpirun forwards those itself
  // No claim: the results come back in the launcher's log, from the first worker.
  EXPECT_NE(script.find("mpirun --allow-run-as-root -np 1 cat \"$out\""), std::string::npos);
  EXPECT_NE(script.find(kResultsBeginMarker), std::string::npos);
  EXPECT_EQ(script.substr(script.size() - 13), "exit $status\n"); // the run's verdict is the job's
}

TEST(MpiJobManifest, AClaimHoldsTheResultsAndHostNetworkMovesSshd) {
  MpiJobRequest r = cluster_128x8();
  r.results_pvc = "cb-results";
  r.host_network = true;
  const ordered_json job = mpijob_document(r);
  const ordered_json& pod = replica(job, "Worker")["template"]["spec"];
  EXPECT_EQ(pod["volumes"][1]["persistentVolumeClaim"]["claimName"], "cb-results");
  EXPECT_EQ(pod["hostNetwork"], true);
  EXPECT_EQ(pod["dnsPolicy"], "ClusterFirstWithHostNet");
  EXPECT_EQ(container(job, "Worker")["args"], ordered_json::array({"-De", "-p", "2222"}));
  const std::string script = script_of(job);
  EXPECT_NE(script.find("--mca plm_rsh_args '-p 2222 -o ConnectionAttempts=10'"),
            std::string::npos);
  EXPECT_EQ(script.find(" cat "), std::string::npos);
}

TEST(MpiJobManifest, OnlyTransportVariablesReachTheRanksAndNeverTheLaunchSettings) {
  EXPECT_TRUE(passed_to_ranks("NCCL_IB_HCA"));
  EXPECT_TRUE(passed_to_ranks("UCX_NET_DEVICES"));
  EXPECT_TRUE(passed_to_ranks("OMPI_MCA_btl_tcp_if_include"));
  // The operator sets these in the launcher; the caller's would point at their own machine.
  EXPECT_FALSE(passed_to_ranks("OMPI_MCA_orte_default_hostfile"));
  EXPECT_FALSE(passed_to_ranks("OMPI_MCA_plm_rsh_agent"));
  EXPECT_FALSE(passed_to_ranks("CUDA_VISIBLE_DEVICES"));
  EXPECT_FALSE(passed_to_ranks("PATH"));
  EXPECT_FALSE(passed_to_ranks("NCCL_"));
}

TEST(MpiJobManifest, ValuesKubernetesWouldRefuseAreRefusedByFlag) {
  auto refused = [](const std::function<void(MpiJobRequest&)>& edit) {
    MpiJobRequest r = cluster_128x8();
    edit(r);
    return error_of([&] { render_mpijob_manifest(r); });
  };
  auto starts = [](const std::string& text, const std::string& flag) {
    return text.rfind(flag, 0) == 0;
  };
  EXPECT_TRUE(starts(refused([](auto& r) { r.nodes = 0; }), "--nodes"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.gpus_per_node = -8; }), "--gpus-per-node"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.image = "Registry Example/cb"; }), "--image"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.name = "CB"; }), "--name"));
  // 55 characters is a valid name, but its worker "…-worker-127" would pass 63.
  const std::string why = refused([](auto& r) { r.name = std::string(55, 'c'); });
  EXPECT_TRUE(starts(why, "--name")) << why;
  EXPECT_NE(why.find("worker-127"), std::string::npos) << why;
  EXPECT_TRUE(starts(refused([](auto& r) { r.namespace_name = "Team A"; }), "--namespace"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.queue = "q/1"; }), "--queue"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.shm = "16GB"; }), "--shm"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.rdma_resources = {{"ib", 8}}; }), "--rdma-resource"));
  EXPECT_TRUE(starts(refused([](auto& r) {
                       r.rdma_resources = {{"rdma/ib", 0}};
                     }),
                     "--rdma-resource"));
  EXPECT_TRUE(starts(refused([](auto& r) {
                       r.rdma_resources = {{"nvidia.com/gpu", 8}};
                     }),
                     "--rdma-resource"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.results_pvc = "Claim_1"; }), "--results-pvc"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.deadline_s = 0; }), "--deadline"));
  EXPECT_TRUE(starts(refused([](auto& r) { r.executable = "bin/clusterbench"; }), "--executable"));
  EXPECT_TRUE(starts(refused([](auto& r) {
                       r.run_flags = {"--out", "x.json"};
                     }),
                     "run flag --out"));
  // A manifest is UTF-8 text: other bytes in a value are refused, not changed on the way.
  EXPECT_TRUE(starts(refused([](auto& r) { r.run_flags = {"--tag", "a\xff"}; }), "run flag"));
  EXPECT_TRUE(starts(refused([](auto& r) {
                       r.environment = {{"NCCL_X", "\xc3("}};
                     }),
                     "the variable 'NCCL_X'"));
  // The kubelet's own expansion does not reach a run flag: $$ and $(NCCL_X) arrive as given.
  MpiJobRequest dollars = cluster_128x8();
  dollars.run_flags = {"--tag", "a$$b$(NCCL_IB_HCA)c$"};
  EXPECT_NE(script_of(mpijob_document(dollars)).find("'--tag' 'a$$b$(NCCL_IB_HCA)c$'"),
            std::string::npos);
  // A hostile value is quoted, never run: the script still holds it as one word.
  MpiJobRequest r = cluster_128x8();
  r.run_flags = {"--tag", "x'; rm -rf / #"};
  EXPECT_NE(script_of(mpijob_document(r)).find("'--tag' 'x'\\''; rm -rf / #'"), std::string::npos);
}

TEST(MpiJobManifest, MatchesTheGoldenFile) {
  const std::string golden = std::string(CB_SOURCE_DIR) + "/tests/fixtures/k8s/mpijob_128x8.yaml";
  EXPECT_EQ(render_mpijob_manifest(cluster_128x8()), read_text_file(golden))
      << "regenerate " << golden << " only when the change is meant";
}
