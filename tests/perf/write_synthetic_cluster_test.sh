#!/bin/sh
# write_synthetic_cluster writes only a new file: --help prints the usage and writes nothing, a
# name that looks like a flag or is taken is refused (exit 2, the file left as it was), a count
# that is not a whole positive number is refused; a small cluster is written and loads.
# usage: write_synthetic_cluster_test.sh WRITER CLUSTERBENCH
set -u
writer=$1
tool=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$writer" --help >help.txt 2>&1 || fail "--help exited $?"
grep -q '^usage: write_synthetic_cluster' help.txt || fail "--help printed no usage"
[ ! -e ./--help ] || fail "--help wrote a file named --help"

"$writer" -o 2 2 2>err.txt
[ $? -eq 2 ] || fail "a flag-like FILE was not refused with exit 2"
grep -q "looks like a flag" err.txt || fail "a flag-like FILE: $(cat err.txt)"

echo "not ours" >taken.json
"$writer" taken.json 2 2 2>err.txt
[ $? -eq 2 ] || fail "an existing FILE was not refused with exit 2"
[ "$(cat taken.json)" = "not ours" ] || fail "an existing FILE was replaced"
grep -q "exists" err.txt || fail "an existing FILE: $(cat err.txt)"

for bad in 0 -3 12abc "" 100001; do
  "$writer" new.json "$bad" 2 2>err.txt
  [ $? -eq 2 ] || fail "NODES '$bad' was not refused with exit 2"
  [ ! -e new.json ] || fail "NODES '$bad' left a file"
done
"$writer" new.json 3 0 2>err.txt
[ $? -eq 2 ] || fail "GPUS_PER_NODE 0 was not refused with exit 2"

"$writer" small.json 3 2 || fail "a 3 x 2 cluster was not written (exit $?)"
"$tool" report small.json >report.txt 2>&1
rc=$?
[ $rc -eq 0 ] || fail "report of the 3 x 2 file exited $rc: $(head -c 300 report.txt)"
echo "write_synthetic_cluster: --help, taken and flag-like names, bad counts refused; 3 x 2 written and reported"
