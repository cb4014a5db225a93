#!/usr/bin/env python3
"""The manifest `clusterbench k8s` prints, read back by a real YAML parser (PyYAML, Debian's
python3-yaml) and held to the MPI Operator's API: kubeflow.org/v2beta1 types.go and the rules of
pkg/apis/kubeflow/validation/validation.go, with Kubernetes' own for names and quantities.

usage: mpijob_rules.py CLUSTERBENCH
Runs the binary for 128 nodes x 8 GPUs (and other shapes), exits 1 naming the first broken rule.
"""
import os
import re
import shlex
import subprocess
import sys

import yaml  # python3-yaml: a missing parser fails the test, it never passes silently

DNS1035 = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
QUANTITY = re.compile(r"^([0-9]+(\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][-+]?[0-9]+)?$")
RESTART = {"Never", "OnFailure"}
CLEAN = {"None", "Running", "All"}
MPI_IMPLEMENTATIONS = {"OpenMPI", "Intel", "MPICH"}


def fail(message):
    print("mpijob_rules: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def manifest(binary, args, env_extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NCCL_", "UCX_", "OMPI_MCA_"))}
    env.update(env_extra)
    done = subprocess.run([binary, "k8s"] + args, capture_output=True, text=True, env=env,
                          timeout=60)
    check(done.returncode == 0, f"k8s {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return yaml.safe_load(done.stdout)


def quantity_ok(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value > 0
    return isinstance(value, str) and QUANTITY.match(value) is not None and \
        any(c in "123456789" for c in re.split(r"[A-Za-z]", value)[0])


def kubelet_command(text):
    """The command as the kubelet starts it: $$ becomes $, $(NAME) a variable's value."""
    out, i = [], 0
    while i < len(text):
        check(text[i] != "$" or text[i + 1:i + 2] == "$",
              f"a '$' the kubelet expands: {text[i:i + 20]!r}")
        out.append(text[i])
        i += 2 if text[i] == "$" else 1
    return "".join(out)


def mpirun_line(script):
    lines = [line for line in script.splitlines() if line.startswith("mpirun ")]
    check(lines, "the launcher's script runs no mpirun")
    return shlex.split(lines[0])


def check_job(job, nodes, gpus, name, run_flags):
    check(job["apiVersion"] == "kubeflow.org/v2beta1", "apiVersion")
    check(job["kind"] == "MPIJob", "kind")
    check(job["metadata"]["name"] == name, "metadata.name")
    # validateMPIJobName: NAME-worker-<replicas-1> must be a DNS-1035 label of 63 at most.
    last = f"{name}-worker-{nodes - 1}"
    check(len(last) <= 63 and DNS1035.match(last), f"pod name {last} is not a DNS-1035 label")
    spec = job["spec"]
    check(spec["slotsPerWorker"] == gpus and spec["slotsPerWorker"] >= 0, "slotsPerWorker")
    policy = spec["runPolicy"]
    check(policy.get("cleanPodPolicy") in CLEAN, "runPolicy.cleanPodPolicy")
    check(policy.get("backoffLimit") == 0, "runPolicy.backoffLimit is not 0")
    check(isinstance(policy.get("activeDeadlineSeconds"), int) and
          policy["activeDeadlineSeconds"] > 0, "runPolicy.activeDeadlineSeconds")
    check(spec.get("sshAuthMountPath"), "sshAuthMountPath")
    check(spec.get("mpiImplementation") in MPI_IMPLEMENTATIONS, "mpiImplementation")
    replicas = spec["mpiReplicaSpecs"]
    check(set(replicas) == {"Launcher", "Worker"}, f"replica types {sorted(replicas)}")
    check(replicas["Launcher"]["replicas"] == 1, "one launcher")
    check(replicas["Worker"]["replicas"] == nodes and nodes >= 1, "worker replicas")
    for kind, replica in replicas.items():
        check(replica.get("restartPolicy") in RESTART, f"{kind}.restartPolicy")
        containers = replica["template"]["spec"]["containers"]
        check(len(containers) >= 1, f"{kind} has no container")
        for c in containers:
            for section, values in c.get("resources", {}).items():
                for resource, value in values.items():
                    check(quantity_ok(value), f"{kind} {section} {resource}: {value!r}")
    worker = replicas["Worker"]["template"]["spec"]
    limits = worker["containers"][0]["resources"]["limits"]
    check(limits["nvidia.com/gpu"] == gpus, "nvidia.com/gpu per worker")
    launcher = replicas["Launcher"]["template"]["spec"]["containers"][0]
    check("nvidia.com/gpu" not in str(launcher.get("resources", {})), "the launcher asks a GPU")
    shm = [v for v in worker["volumes"] if v["name"] == "dshm"][0]["emptyDir"]
    check(shm["medium"] == "Memory" and quantity_ok(shm["sizeLimit"]), "/dev/shm volume")
    mounts = {m["mountPath"] for m in worker["containers"][0]["volumeMounts"]}
    check("/dev/shm" in mounts, "/dev/shm not mounted")
    # A worker takes a whole node's GPUs: a required anti-affinity on the node, over this job's
    # workers by labels they carry.
    labels = replicas["Worker"]["template"]["metadata"]["labels"]
    terms = worker["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    check(len(terms) == 1 and terms[0]["topologyKey"] == "kubernetes.io/hostname",
          "workers' anti-affinity on kubernetes.io/hostname")
    selector = terms[0]["labelSelector"]["matchLabels"]
    check(selector and all(labels.get(k) == v for k, v in selector.items()),
          f"anti-affinity selector {selector} does not select the workers {labels}")
    check(labels.get("app.kubernetes.io/instance") == name, "worker instance label")
    words = mpirun_line(kubelet_command(launcher["command"][2]))
    check(words[words.index("-np") + 1] == str(nodes * gpus), "mpirun -np")
    check(words[words.index("--map-by") + 1] == f"ppr:{gpus}:node",
          f"mpirun does not place {gpus} slots per worker")
    run_at = words.index("run")
    check(words[run_at + 1:run_at + 3] == ["--out", "$out"], "clusterbench run --out")
    check(words[run_at + 3:] == run_flags, f"run flags {words[run_at + 3:]}")
    return launcher, worker, words


def main():
    binary = sys.argv[1]
    flags = ["--suite", "collectives", "--gpus", "8,1024"]
    job = manifest(binary, ["--nodes", "128", "--gpus-per-node", "8", "--image",
                            "nvcr.io/example/clusterbench:1.0", "--queue", "gpu-queue",
                            "--rdma-resource", "rdma/ib=8", "--"] + flags,
                   {"NCCL_IB_HCA": "mlx5_0,mlx5_1", "NCCL_SOCKET_IFNAME": "eth0",
                    "OMPI_MCA_orte_default_hostfile": "/home/me/hosts"})
    launcher, worker, words = check_job(job, 128, 8, "clusterbench", flags)
    env = {e["name"]: e["value"] for e in launcher["env"]}
    check(env.get("NCCL_IB_HCA") == "mlx5_0,mlx5_1", "NCCL_IB_HCA not passed")
    check("OMPI_MCA_orte_default_hostfile" not in env, "the caller's hostfile passed")
    check("NCCL_SOCKET_IFNAME" in words and "NCCL_IB_HCA" in words, "-x of the NCCL variables")
    check(job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "gpu-queue", "Kueue label")
    check(worker["containers"][0]["resources"]["limits"]["rdma/ib"] == 8, "rdma/ib")
    check("----- clusterbench results begin -----" in launcher["command"][2], "results to the log")

    # Other shapes: one node of one GPU, a long name at its limit, a claim and the host network.
    check_job(manifest(binary, ["--nodes", "1", "--gpus-per-node", "1", "--image", "cb"], {}),
              1, 1, "clusterbench", [])
    name = "a" * (63 - len("-worker-99"))
    job = manifest(binary, ["--nodes", "100", "--gpus-per-node", "4", "--image", "cb:2",
                            "--name", name, "--results-pvc", "cb-results", "--host-network",
                            "--shm", "64Gi", "--", "--quick"], {})
    _, worker, words = check_job(job, 100, 4, name, ["--quick"])
    check(worker["volumes"][1]["persistentVolumeClaim"]["claimName"] == "cb-results", "claim")
    check(worker["hostNetwork"] is True, "hostNetwork")
    print("mpijob_rules: 3 manifests hold every MPIJob rule (128 x 8: -np 1024, ppr:8:node)")


if __name__ == "__main__":
    main()
