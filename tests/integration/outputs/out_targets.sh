#!/usr/bin/env bash
# Every file clusterbench writes refuses (exit 2, one line naming the flag) a path that is not a
# regular file, that is one of the command's inputs, or that holds a file clusterbench did not
# write, and replaces nothing: /dev/null stays a
# character device, a FIFO stays a FIFO (and is never opened, so nothing blocks), a directory stays
# a directory, an input keeps its bytes. A symbolic link to a regular file is written through (the
# link stays a link). /dev/null is only replaceable by root: run as root for that part to count
# (skips, 77, without root).
#   out_targets.sh CLUSTERBENCH SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: needs root (only root could replace /dev/null)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
results=$work/results.json
cp "$src/tests/fuzz/seeds/results.json" "$results"
cp "$src/tests/fuzz/seeds/nccl_tests.txt" "$work/nccl.txt"
mkfifo "$work/fifo"
mkdir "$work/dir"
ln -s "$results" "$work/link-to-input.json"
ln -s /dev/null "$work/link-to-null"
ln -s "$work/nowhere.json" "$work/dangling.json"
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$work/socket"
input_sum=$(sha256sum "$results" "$work/nccl.txt")

# The command with OUT substituted; it must exit 2 with one line naming FLAG, within 20 s.
refuses() {
  local flag=$1 out=$2
  shift 2
  local args=("${@//OUT/$out}") err rc
  err=$(timeout 20 "$bin" "${args[@]}" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" != 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [[ "$err" != *"$flag"* ]]; then
    echo "FAIL: ${args[*]} -> exit $rc: $err"
    fail=1
  else
    echo "ok: ${args[*]} -> $err"
  fi
}

for out in /dev/null "$work/fifo" "$work/dir" "$work/socket" "$work/link-to-null" \
  "$work/dangling.json"; do
  refuses --out "$out" fit "$results" --out OUT
  refuses --out "$out" import nccl-tests "$work/nccl.txt" --out OUT
  refuses --html "$out" report "$results" --html OUT
  refuses --out "$out" run --single-process --np 1 --quick --suite compute --out OUT
  refuses --junit "$out" check --baseline "$results" "$results" --junit OUT
  refuses --prometheus "$out" report "$results" --prometheus OUT
done
# The input itself, however it is spelled.
refuses --out "$work/nccl.txt" import nccl-tests "$work/nccl.txt" --out OUT
refuses --out "$work/../$(basename "$work")/nccl.txt" import nccl-tests "$work/nccl.txt" --out OUT
refuses --html "$results" report "$results" --html OUT
refuses --html "$work/link-to-input.json" report "$results" --html OUT
refuses --prometheus "$results" report "$results" --prometheus OUT
refuses --junit "$results" check --baseline "$results" "$results" --junit OUT

[ -c /dev/null ] || { echo "FAIL: /dev/null is no longer a character device"; fail=1; }
[ -p "$work/fifo" ] || { echo "FAIL: the FIFO was replaced"; fail=1; }
[ -d "$work/dir" ] && [ -z "$(ls -A "$work/dir")" ] || { echo "FAIL: the directory changed"; fail=1; }
[ -S "$work/socket" ] || { echo "FAIL: the socket was replaced"; fail=1; }
[ -L "$work/link-to-null" ] || { echo "FAIL: the link to /dev/null was replaced"; fail=1; }
[ ! -e "$work/nowhere.json" ] || { echo "FAIL: a dangling link was written through"; fail=1; }
[ "$(sha256sum "$results" "$work/nccl.txt")" = "$input_sum" ] ||
  { echo "FAIL: an input was rewritten"; fail=1; }

# fit leaves its input alone unless asked; --in-place and --out naming the input rewrite it.
"$bin" fit "$results" >/dev/null || { echo "FAIL: fit without --out"; fail=1; }
[ "$(sha256sum "$results" "$work/nccl.txt")" = "$input_sum" ] ||
  { echo "FAIL: fit rewrote its input without --in-place"; fail=1; }
cp "$results" "$work/copy.json"
"$bin" fit "$work/copy.json" --in-place >/dev/null &&
  grep -q '"curves"' "$work/copy.json" || { echo "FAIL: fit --in-place did not store fits"; fail=1; }

# A link to a regular file is written through: the link stays, the file it names gets the fits.
cp "$results" "$work/target.json"
ln -s "$work/target.json" "$work/link.json"
"$bin" fit "$results" --out "$work/link.json" >/dev/null || { echo "FAIL: fit --out link"; fail=1; }
[ -L "$work/link.json" ] && grep -q '"curves"' "$work/target.json" ||
  { echo "FAIL: a symbolic link was not written through"; fail=1; }

# A file clusterbench did not write is never replaced, even a regular one: a note, a page of the
# user's own, through a link too. An empty file holds nothing to lose and is written.
printf 'my notes\n' >"$work/notes.json"
printf '<html><title>mine</title></html>\n' >"$work/page.html"
ln -s "$work/notes.json" "$work/link-to-notes.json"
foreign_sum=$(sha256sum "$work/notes.json" "$work/page.html")
for out in "$work/notes.json" "$work/link-to-notes.json"; do
  refuses --out "$out" fit "$results" --out OUT
  refuses --out "$out" import nccl-tests "$work/nccl.txt" --out OUT
  refuses --out "$out" run --single-process --np 1 --quick --suite compute --out OUT
  refuses --junit "$out" check --baseline "$results" "$results" --junit OUT
  refuses --prometheus "$out" report "$results" --prometheus OUT
done
refuses --html "$work/page.html" report "$results" --html OUT
[ "$(sha256sum "$work/notes.json" "$work/page.html")" = "$foreign_sum" ] ||
  { echo "FAIL: a file clusterbench did not write was replaced"; fail=1; }
: >"$work/empty.json"
"$bin" import nccl-tests "$work/nccl.txt" --out "$work/empty.json" >/dev/null &&
  "$bin" import nccl-tests "$work/nccl.txt" --out "$work/empty.json" >/dev/null ||
  { echo "FAIL: an empty file, then clusterbench's own, were not written"; fail=1; }
"$bin" report "$results" --html "$work/own.html" >/dev/null &&
  "$bin" report "$results" --html "$work/own.html" >/dev/null ||
  { echo "FAIL: clusterbench's own page was not replaced"; fail=1; }

[ "$fail" = 0 ] && echo "PASS: no device, FIFO, socket, directory, input or foreign file replaced"
exit "$fail"
