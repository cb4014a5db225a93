#!/usr/bin/env bash
# Bad input: exit 2 with one line naming the flag, before any MPI job starts; never a hang.
set -uo pipefail
bin=$1
fail=0
expect() {
  local flag=$1
  shift
  local err rc
  err=$(timeout 20 "$bin" run "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" != 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [[ "$err" != *"$flag"* ]] ||
    [ "${#err}" -gt 300 ]; then
    echo "FAIL: run $* -> exit $rc, stderr: $err"
    fail=1
  else
    echo "ok: run $* -> $err"
  fi
}
expect --min-bytes --min-bytes 0
expect --min-bytes --min-bytes -8
expect --min-bytes --min-bytes 1M --max-bytes 1K
expect --step-factor --step-factor 1
expect --suite --suite nosuch
expect --cases --suite collectives --cases nosuch
expect --dtypes --dtypes quad
expect --backend --backend tpu
expect --gpus --np 2 --gpus 1,4
expect --gpus --gpus 2,1
expect --out --out /nonexistent-dir/r.json
expect --out --out /
# A flag where the file belongs (`--out --help` once wrote a file named --help), and nothing left.
expect "--out: missing value FILE (got the flag --help" --out --help
[ ! -e ./--help ] || { echo "FAIL: run --out --help wrote ./--help"; fail=1; }
expect --bogus --bogus
expect --pairs --pairs ring
# Figures that would overflow what they are turned into (a clock, an int) are refused.
expect --timeout --timeout 1e308
expect --np --np 4294967297
expect --max-time --max-time 1e300
# A newline or control bytes in an argument cannot split the line, nor can its length lengthen it.
expect --suite --suite "$(printf 'a\nb\033[31m')"
expect --dtypes --dtypes "$(head -c 100000 /dev/zero | tr '\0' x)"
# Declared axes: the axis named, in the launching process, before mpirun.
expect "--axis colour" --axis colour=red
expect "--axis dtype" --axis dtype=quad
expect "--axis size" --axis size=0
expect "--axis bytes" --axis bytes=8:1T:1.0001
expect "--axis dtype" --axis dtype=float --axis dtype=double
expect "--axis dtype" --dtypes float --axis dtype=double
expect "--axis" --axis =float
expect "--gemm-sizes size" --gemm-sizes 70000
expect "--array-bytes bytes" --array-bytes 4
# --list prints the cases and exits 0 without launching anything.
list=$(timeout 20 "$bin" run --list --backend host --suite collectives --cases all_reduce \
  --axis bytes=1K:4K 2>&1)
rc=$?
if [ "$rc" != 0 ] || [[ "$list" != *"instances: 3"* ]] || [[ "$list" != *"bytes=4K dtype=float op=sum"* ]]; then
  echo "FAIL: run --list -> exit $rc: $list"
  fail=1
else
  echo "ok: run --list"
fi
exit $fail
