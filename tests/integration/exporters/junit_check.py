#!/usr/bin/env python3
"""What the schema cannot say about a JUnit file: the counts on <testsuites> and each <testsuite>
are those of its testcases, and no two testcases share a classname and name (GitLab keeps only
the first of a key).

    junit_check.py FILE [FAILED_CLASSNAMES]   prints "tests failures skipped"; with
                                              FAILED_CLASSNAMES (comma-separated, repeats
                                              allowed) the failed testcases' classnames must be
                                              exactly those
"""
import collections
import sys
import xml.etree.ElementTree as ET


def main():
    root = ET.parse(sys.argv[1]).getroot()
    keys = set()
    totals = collections.Counter()
    failed = []
    for suite in root.iter("testsuite"):
        counts = collections.Counter()
        for case in suite.iter("testcase"):
            key = (case.get("classname"), case.get("name"))
            if key in keys:
                sys.exit(f"FAIL: testcase {key} twice")
            keys.add(key)
            counts["tests"] += 1
            if case.find("failure") is not None:
                counts["failures"] += 1
                failed.append(case.get("classname"))
            if case.find("skipped") is not None:
                counts["skipped"] += 1
        for field in ("tests", "failures", "skipped"):
            if int(suite.get(field)) != counts[field]:
                sys.exit(f"FAIL: suite {suite.get('name')} says {field}={suite.get(field)}, "
                         f"holds {counts[field]}")
        totals.update(counts)
    for field in ("tests", "failures", "skipped"):
        if int(root.get(field)) != totals[field]:
            sys.exit(f"FAIL: testsuites says {field}={root.get(field)}, holds {totals[field]}")
    if len(sys.argv) > 2:
        want = sorted(c for c in sys.argv[2].split(",") if c)
        if sorted(failed) != want:
            sys.exit(f"FAIL: failed testcases {sorted(failed)}, expected {want}")
    print(totals["tests"], totals["failures"], totals["skipped"])


main()
