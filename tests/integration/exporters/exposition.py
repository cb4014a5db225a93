#!/usr/bin/env python3
"""Reads Prometheus text exposition as Prometheus does (escapes included) and holds one file's
series against what node_exporter served.

    exposition.py served TEXTFILE SCRAPE   every series of TEXTFILE is in SCRAPE, same labels
                                           (empty values are absent) and value; the textfile
                                           collector read the file without error
    exposition.py count TEXTFILE           prints the number of series
"""
import math
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
ESCAPES = {"\\": "\\", '"': '"', "n": "\n"}


def parse_labels(text, at, line):
    labels = {}
    while True:
        if text[at] == "}":
            return labels, at + 1
        m = LABEL.match(text, at)
        if not m or text[m.end()] != "=" or text[m.end() + 1] != '"':
            raise ValueError(f"bad label at {at}: {line!r}")
        name, at = m.group(0), m.end() + 2
        value = []
        while text[at] != '"':
            if text[at] == "\\":
                value.append(ESCAPES[text[at + 1]])  # KeyError: an escape the format has not
                at += 2
            else:
                value.append(text[at])
                at += 1
        if name in labels:
            raise ValueError(f"label {name} twice: {line!r}")
        if value:
            labels[name] = "".join(value)
        at += 1
        if text[at] == ",":
            at += 1


def parse(text):
    """{(name, frozenset(labels)): value}; a series twice is an error."""
    series = {}
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        m = NAME.match(line)
        if not m:
            raise ValueError(f"no metric name: {line!r}")
        at, labels = m.end(), {}
        if line[at] == "{":
            labels, at = parse_labels(line, at + 1, line)
        fields = line[at:].split()
        if len(fields) != 1:
            raise ValueError(f"value (and no timestamp) expected: {line!r}")
        key = (m.group(0), frozenset(labels.items()))
        if key in series:
            raise ValueError(f"series twice: {line!r}")
        series[key] = float(fields[0])
    return series


def same(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def served(textfile, scrape):
    ours = parse(open(textfile, encoding="utf-8").read())
    theirs = parse(open(scrape, encoding="utf-8").read())
    errors = [v for (name, _), v in theirs.items() if name == "node_textfile_scrape_error"]
    if errors != [0.0]:
        print(f"FAIL: node_textfile_scrape_error is {errors}")
        return 1
    missing = [k for k in ours if k not in theirs or not same(ours[k], theirs[k])]
    for name, labels in missing[:5]:
        print(f"FAIL: not served as written: {name} {dict(labels)}")
    if missing:
        return 1
    print(f"ok: node_exporter served all {len(ours)} series of {textfile}")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "served":
        sys.exit(served(sys.argv[2], sys.argv[3]))
    print(len(parse(open(sys.argv[2], encoding="utf-8").read())))
