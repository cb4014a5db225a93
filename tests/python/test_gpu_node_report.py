"""ci/lib/gpu_node_report.py, the first-contact check's reading of a run on a GPU node, on
results files and sysfs trees made to look like the node layouts it meets."""
import importlib.util
import json
import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("gpu_node_report", ROOT / "ci/lib/gpu_node_report.py")
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)

SOCKET = {0: "0-55,112-167", 1: "56-111,168-223"}


def sysfs(tmp_path):
    for node, cpus in SOCKET.items():
        d = tmp_path / "sys/devices/system/node" / ("node%d" % node)
        d.mkdir(parents=True, exist_ok=True)
        (d / "cpulist").write_text(cpus + "\n")
    return str(tmp_path / "sys")


def device(rank, cpus, numa, uuid=None):
    return {"rank": rank, "index": 0, "uuid": uuid or "GPU-%d" % rank, "nvml_index": rank,
            "pci_bus_id": "0000:%02x:00.0" % (0x18 + 16 * rank), "numa_node": numa,
            "cpus": cpus, "cuda_visible_devices": str(rank)}


def results(tmp_path, devices, records=()):
    path = tmp_path / "node.json"
    path.write_text(json.dumps({"run": {"hosts": [{"host": "gpu-01", "node": 0,
                                                   "devices": devices}]},
                                "records": list(records)}))
    return str(path)


def eight_good():
    # srun --cpus-per-task=28 --distribution=block:block: ranks 0-3 on socket 0, 4-7 on socket 1.
    return [device(r, "%d-%d" % (r * 14, r * 14 + 13), 0 if r < 4 else 1)
            for r in range(8)]


def h2d(rates):
    return {"case": "host_to_device", "gpus": len(rates), "params": {"bytes": 1 << 30},
            "status": "ok", "per_rank": [{"rank": r, "gbps": g} for r, g in enumerate(rates)]}


def run(tmp_path, path, *extra):
    return report.main([path, "--sysfs", sysfs(tmp_path), "--host", "gpu-01", *extra])


def test_a_well_placed_node_passes(tmp_path, capsys):
    p2p = {"case": "p2p_matrix", "status": "skipped", "params": {"bytes": 1},
           "reason": "covers 1 of the node's 8 GPUs: ...",
           "extra": {"gpus_covered": 1, "node_gpus": 8}}
    path = results(tmp_path, eight_good(), [p2p, h2d([55, 55.2, 54.9, 55, 54, 55.1, 55, 55])])
    assert run(tmp_path, path) == 0
    out = capsys.readouterr().out
    assert "PASS one GPU per rank on every host (8 ranks)" in out
    assert "PASS every rank of gpu-01 runs on its GPU's NUMA node (8 checked)" in out
    assert "SKIP p2p_matrix" in out and "covers 1 of the node's 8 GPUs" in out
    assert "numa 0: 0:55.0 1:55.2 2:54.9 3:55.0  |  numa 1: 4:54.0" in out


def test_a_rank_on_the_far_socket_fails(tmp_path, capsys):
    devices = eight_good()
    devices[5]["cpus"] = "5"  # mpirun --bind-to core --map-by core: core 5 of socket 0
    assert run(tmp_path, results(tmp_path, devices)) == 1
    assert "FAIL rank 5 runs on CPUs 5, not all on NUMA node 1" in capsys.readouterr().out


def test_two_ranks_on_one_gpu_fail(tmp_path, capsys):
    devices = eight_good()
    devices[2]["uuid"] = devices[0]["uuid"]
    assert run(tmp_path, results(tmp_path, devices)) == 1
    assert "FAIL ranks 0 and 2 on gpu-01 drive the same GPU GPU-0" in capsys.readouterr().out


def test_a_slow_gpu_is_named(tmp_path, capsys):
    path = results(tmp_path, eight_good(), [h2d([55, 55, 55, 55, 55, 30, 55, 55])])
    assert run(tmp_path, path) == 1
    assert "FAIL host_to_device: rank(s) 5 below 80%" in capsys.readouterr().out


def test_net_devices_per_rail(tmp_path, capsys):
    log = tmp_path / "nccl.log"
    log.write_text("gpu-01:123:456 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n"
                   "gpu-01:124:457 [1] NCCL INFO Channel 00/0 : 1[1] -> 9[1] [send] via NET/IB/1/GDRDMA\n")
    assert run(tmp_path, results(tmp_path, eight_good()), "--nccl-log", str(log)) == 0
    out = capsys.readouterr().out
    assert "rank 1 GPU 0000:28:00.0 sends via NET/IB/1/GDRDMA" in out
    log.write_text("h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0\n"
                   "h:1:3 [1] NCCL INFO Channel 00/0 : 1[1] -> 9[1] [send] via NET/IB/0\n")
    assert run(tmp_path, results(tmp_path, eight_good()), "--nccl-log", str(log)) == 1
    assert "rails are not in use" in capsys.readouterr().out


def test_unreadable_or_empty_results_are_exit_2(tmp_path, capsys):
    assert report.main([str(tmp_path / "missing.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{\"run\": {\"hosts\": []}}")
    assert report.main([str(bad)]) == 2
    bad.write_text("not json")
    assert report.main([str(bad)]) == 2


def test_cpu_lists():
    assert report.parse_cpu_list("0-3,8,10-11") == {0, 1, 2, 3, 8, 10, 11}
    assert report.parse_cpu_list("") == set()
    for bad in ("3-1", "x", "0-99999999"):
        try:
            report.parse_cpu_list(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def p2p_measured(skipped=(), covered=8):
    return {"case": "p2p_matrix", "status": "ok", "check": "pass", "gpus": 8,
            "params": {"bytes": 1 << 28, "initiator": "copy_engine", "direction": "bi"},
            "metrics": {"gbps": 740.5, "min_gbps": 731.0},
            "extra": {"gpus_covered": covered, "node_gpus": 8, "skipped_pairs": list(skipped),
                      "method": "processes: CUDA IPC handles"}}


def test_a_full_p2p_matrix_across_processes_passes(tmp_path, capsys):
    path = results(tmp_path, eight_good(), [p2p_measured()])
    assert run(tmp_path, path) == 0
    out = capsys.readouterr().out
    assert "covers 8 of the node's 8 GPUs, 740.5 GB/s median, 731.0 min, via processes: " \
           "CUDA IPC handles" in out


def test_a_pair_that_could_not_map_its_peer_fails(tmp_path, capsys):
    skipped = [{"src": 2, "dst": 5,
                "reason": "cudaIpcOpenMemHandle: cudaErrorPeerAccessUnsupported (...)"}]
    path = results(tmp_path, eight_good(), [p2p_measured(skipped)])
    assert run(tmp_path, path) == 1
    out = capsys.readouterr().out
    assert "FAIL p2p_matrix" in out
    assert "GPU 2 -> 5 not measured: cudaIpcOpenMemHandle: cudaErrorPeerAccessUnsupported" in out


def test_a_matrix_of_fewer_gpus_than_the_node_fails(tmp_path, capsys):
    path = results(tmp_path, eight_good(), [p2p_measured(covered=4)])
    assert run(tmp_path, path) == 1
    assert "not every GPU of the node took part" in capsys.readouterr().out
