#!/usr/bin/env python3
"""What ci/gpu-node-check reads out of a first run on a GPU node: where every rank ran and the
node's links, from the results file of `clusterbench run` and this machine's sysfs.

  gpu_node_report.py RESULTS.json [--sysfs DIR] [--host NAME] [--nccl-log FILE]

Prints one line per rank (host, rank, CUDA_VISIBLE_DEVICES, CPUs, nvidia-smi index, PCI bus id,
NUMA node, UUID), the P2P matrix's coverage, host<->device rates of every GPU side by side by
NUMA node, and the NET device NCCL chose per rank. Every check prints PASS, FAIL or SKIP; exit 1
when one failed, 2 when the file cannot be read. Standard library only: it runs on a bare node.
"""
import argparse
import json
import os
import re
import socket
import statistics
import sys

# A GPU's host<->device rate below this share of the node's median for the same case is named.
SLOW_SHARE = 0.8


def parse_cpu_list(text):
    """'0-3,8,10-11' -> {0, 1, 2, 3, 8, 10, 11}; ValueError on anything else."""
    cpus = set()
    text = text.strip()
    if not text:
        return cpus
    for part in text.split(","):
        if "-" in part:
            first, last = part.split("-", 1)
            first, last = int(first), int(last)
            if last < first or last - first > 1 << 16:
                raise ValueError("bad CPU range " + part)
            cpus.update(range(first, last + 1))
        else:
            cpus.add(int(part))
    return cpus


def numa_cpus(sysfs, node):
    """The CPUs of NUMA node `node` on this machine, or None when sysfs does not say."""
    try:
        with open(os.path.join(sysfs, "devices/system/node/node%d/cpulist" % node)) as f:
            return parse_cpu_list(f.read())
    except (OSError, ValueError):
        return None


class Report:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def line(self, text):
        print(text)

    def ok(self, text):
        self.passed += 1
        print("PASS " + text)

    def bad(self, text):
        self.failed += 1
        print("FAIL " + text)

    def skip(self, text):
        self.skipped += 1
        print("SKIP " + text)


def ranks_of(run):
    """(host, device) per rank, in rank order."""
    out = []
    for host in run.get("hosts", []):
        for device in host.get("devices", []):
            if isinstance(device, dict) and isinstance(device.get("rank"), int):
                out.append((str(host.get("host", "?")), device))
    return sorted(out, key=lambda hd: hd[1]["rank"])


def check_placement(report, ranks, sysfs, this_host):
    report.line("# rank  host  CUDA_VISIBLE_DEVICES  cpus  nvml_index  pci_bus_id  numa  uuid")
    for host, d in ranks:
        report.line("  %d  %s  %s  %s  %s  %s  %s  %s" % (
            d["rank"], host, d.get("cuda_visible_devices", "(unset)"), d.get("cpus", "?"),
            d.get("nvml_index", "?"), d.get("pci_bus_id", "?"), d.get("numa_node", "?"),
            d.get("uuid", "?")))
    seen = {}
    shared = False
    for host, d in ranks:
        key = (host, d.get("uuid") or d.get("pci_bus_id"))
        if key[1] and key in seen:
            report.bad("ranks %d and %d on %s drive the same GPU %s" % (seen[key], d["rank"], host,
                                                                      key[1]))
            shared = True
        seen.setdefault(key, d["rank"])
    if not shared:
        report.ok("one GPU per rank on every host (%d ranks)" % len(ranks))
    far = checked = 0
    for host, d in ranks:
        numa = d.get("numa_node")
        if host != this_host or not isinstance(numa, int) or numa < 0 or "cpus" not in d:
            continue
        near = numa_cpus(sysfs, numa)
        if near is None:
            continue
        try:
            mine = parse_cpu_list(d["cpus"])
        except ValueError:
            continue
        checked += 1
        if not mine or not mine <= near:
            far += 1
            report.bad("rank %d runs on CPUs %s, not all on NUMA node %d of its GPU %s" % (
                d["rank"], d["cpus"], numa, d.get("pci_bus_id", "?")))
    if checked and not far:
        report.ok("every rank of %s runs on its GPU's NUMA node (%d checked)" % (this_host,
                                                                               checked))
    elif not checked:
        report.skip("CPU binding against NUMA nodes: no rank of %s says its GPU's NUMA node "
                    "(one NUMA node, or a VM)" % this_host)


def check_p2p(report, records):
    matrices = [r for r in records if r.get("case") == "p2p_matrix"]
    if not matrices:
        report.skip("p2p_matrix: not in the results")
        return
    for r in matrices:
        extra = r.get("extra", {})
        what = "p2p_matrix %s: covers %s of the node's %s GPUs" % (
            json.dumps(r.get("params", {}), sort_keys=True), extra.get("gpus_covered", "?"),
            extra.get("node_gpus", "?"))
        if r.get("status") == "skipped":
            report.skip(what + ": " + r.get("reason", ""))
            continue
        if r.get("check") == "fail":
            report.bad(what + ": " + r.get("reason", "wrong data"))
            continue
        # Each rank maps its peers' buffers (CUDA IPC): a pair that could not is a link to look at.
        skipped = extra.get("skipped_pairs") or []
        for pair in skipped[:4]:
            report.bad("%s: GPU %s -> %s not measured: %s" % (
                what, pair.get("src", "?"), pair.get("dst", "?"), pair.get("reason", "")))
        if len(skipped) > 4:
            report.bad("%s: %d more pairs not measured" % (what, len(skipped) - 4))
        covered, node = extra.get("gpus_covered"), extra.get("node_gpus")
        if isinstance(covered, int) and isinstance(node, int) and covered < node:
            report.bad(what + ": not every GPU of the node took part")
        elif not skipped:
            m = r.get("metrics", {})
            report.ok("%s, %s GB/s median, %s min, via %s" % (
                what, m.get("gbps"), m.get("min_gbps"), extra.get("method", "?")))


def check_host_device(report, records, numa_of_rank):
    for case in ("host_to_device", "device_to_host"):
        rows = [r for r in records if r.get("case") == case and r.get("per_rank")
                and r.get("status") != "skipped"]
        if not rows:
            report.skip(case + ": no record with every rank's figure")
            continue
        r = max(rows, key=lambda x: (x.get("gpus", 0), x.get("params", {}).get("bytes", 0)))
        rates = {e["rank"]: e.get("gbps") for e in r["per_rank"]
                 if isinstance(e.get("rank"), int) and isinstance(e.get("gbps"), (int, float))}
        if not rates:
            report.skip(case + ": no per-rank rates")
            continue
        by_numa = {}
        for rank, rate in sorted(rates.items()):
            by_numa.setdefault(numa_of_rank.get(rank, "?"), []).append("%d:%.1f" % (rank, rate))
        report.line("# %s %s GB/s by NUMA node (rank:rate): %s" % (
            case, json.dumps(r.get("params", {}), sort_keys=True),
            "  |  ".join("numa %s: %s" % (k, " ".join(v)) for k, v in sorted(
                by_numa.items(), key=lambda kv: str(kv[0])))))
        middle = statistics.median(rates.values())
        slow = [rank for rank, rate in rates.items() if rate < SLOW_SHARE * middle]
        if slow:
            report.bad("%s: rank(s) %s below %.0f%% of the node's median %.1f GB/s" % (
                case, ",".join(map(str, sorted(slow))), SLOW_SHARE * 100, middle))
        else:
            report.ok("%s: every GPU within %.0f%% of the median %.1f GB/s" % (
                case, SLOW_SHARE * 100, middle))


# NCCL_DEBUG=INFO: "... NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA"
NET_LINE = re.compile(r"(\S+):\d+:\d+ .*NCCL INFO Channel \S+ : (\d+)\[\w+\] -> (\d+)\[\w+\] "
                      r"\[send\] via (NET/\S+)")


def check_net(report, nccl_log, ranks):
    if not nccl_log:
        report.skip("NET devices per rail: no NCCL log (one node, or pair_bw not run)")
        return
    try:
        with open(nccl_log, errors="replace") as f:
            lines = f.readlines()
    except OSError:
        report.skip("NET devices per rail: cannot read " + nccl_log)
        return
    chosen = {}
    for line in lines:
        m = NET_LINE.search(line)
        if m:
            chosen.setdefault(int(m.group(2)), set()).add(m.group(4))
    if not chosen:
        report.skip("NET devices per rail: NCCL said no NET channel (one node, or NCCL_DEBUG off)")
        return
    bus = {d["rank"]: d.get("pci_bus_id", "?") for _, d in ranks}
    for rank in sorted(chosen):
        report.line("  rank %d GPU %s sends via %s" % (rank, bus.get(rank, "?"),
                                                       " ".join(sorted(chosen[rank]))))
    devices = [tuple(sorted(v)) for v in chosen.values()]
    if len(chosen) > 1 and len(set(devices)) == 1:
        report.bad("every rank sends through the same NET device %s: rails are not in use" %
                   " ".join(devices[0]))
    else:
        report.ok("NET devices per rail: %d rank(s) reported" % len(chosen))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("--sysfs", default="/sys")
    ap.add_argument("--host", default=socket.gethostname())
    ap.add_argument("--nccl-log", default="")
    args = ap.parse_args(argv)
    try:
        with open(args.results) as f:
            data = json.load(f)
        run, records = data["run"], data.get("records", [])
        if not isinstance(records, list):
            raise ValueError("records is not a list")
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("gpu_node_report: %s: %s" % (args.results, e), file=sys.stderr)
        return 2
    report = Report()
    ranks = ranks_of(run)
    if not ranks:
        print("gpu_node_report: %s: the run header names no rank" % args.results, file=sys.stderr)
        return 2
    check_placement(report, ranks, args.sysfs, args.host)
    check_p2p(report, records)
    check_host_device(report, records, {d["rank"]: d.get("numa_node", "?") for _, d in ranks})
    check_net(report, args.nccl_log, ranks)
    print("# %d passed, %d failed, %d skipped" % (report.passed, report.failed, report.skipped))
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
