#!/usr/bin/env python3
"""Writes copies of results files whose text fields hold what breaks naive writers.

    hostile_fixture.py rename IN OUT OLD   every string equal to OLD (a host name) becomes one
                                           with quotes, backslashes, a newline, markup and a
                                           comment's end
    hostile_fixture.py slower IN OUT N F   the first N records with samples made F times slower
                                           (their samples and time figures)
"""
import json
import sys

HOSTILE = 'gpu"node\\01\n<b>&amp;]]>--x'


def rename(value, old):
    if isinstance(value, str):
        return HOSTILE if value == old else value
    if isinstance(value, list):
        return [rename(v, old) for v in value]
    if isinstance(value, dict):
        return {k: rename(v, old) for k, v in value.items()}
    return value


def slower(doc, n, factor):
    done = 0
    for record in doc["records"]:
        if done == n or not record.get("samples_s"):
            continue
        record["samples_s"] = [s * factor for s in record["samples_s"]]
        stats = record.get("stats", {})
        for key in stats:
            if key.endswith("_s"):
                stats[key] *= factor
        metrics = record.get("metrics", {})
        for key in metrics:
            metrics[key] *= factor if key.endswith("_us") else 1 / factor
        record.pop("per_rank", None)
        done += 1
    return doc


def main():
    mode, src, dst = sys.argv[1:4]
    doc = json.load(open(src, encoding="utf-8"))
    if mode == "rename":
        doc = rename(doc, sys.argv[4])
    else:
        doc = slower(doc, int(sys.argv[4]), float(sys.argv[5]))
    json.dump(doc, open(dst, "w", encoding="utf-8"))


main()
