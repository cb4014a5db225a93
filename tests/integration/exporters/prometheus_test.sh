#!/usr/bin/env bash
# `qualify --prometheus` and `report --prometheus` on the fixtures: `promtool check metrics`
# (Debian's prometheus package) reports nothing on any file written, and a real node_exporter
# (prometheus-node-exporter), started on 127.0.0.1 with --collector.textfile.directory, serves
# every series of it with its labels and value, the textfile collector raising no error. A host
# name with a quote, backslashes and a newline is escaped and reads back whole.
#   prometheus_test.sh CLUSTERBENCH SOURCE_DIR PYTHON
set -uo pipefail
bin=$1
src=$2
python=$3
here=$src/tests/integration/exporters
fixtures=$src/tests/fixtures
for tool in promtool prometheus-node-exporter curl; do
  command -v $tool >/dev/null ||
    { echo "FAIL: $tool missing (ci/install-deps: prometheus prometheus-node-exporter curl)"; exit 1; }
done
work=$(mktemp -d)
exporter_pid=
stop_exporter() {
  if [ -n "$exporter_pid" ]; then
    kill "$exporter_pid" 2>/dev/null
    # Bounded: a node_exporter that ignores SIGTERM for 5 s is killed outright.
    for _ in $(seq 50); do kill -0 "$exporter_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$exporter_pid" 2>/dev/null
    wait "$exporter_pid" 2>/dev/null
    exporter_pid=
  fi
}
trap 'stop_exporter; rm -rf "$work"' EXIT
fail=0

# promtool's linter and parser: silence and exit 0.
lint() {
  local out
  out=$(promtool check metrics <"$1" 2>&1)
  if [ $? != 0 ] || [ -n "$out" ]; then
    echo "FAIL: promtool check metrics $(basename "$1"):"; echo "$out" | head -20; fail=1
  else
    echo "ok: promtool check metrics $(basename "$1"): nothing to say ($("$python" "$here/exposition.py" count "$1") series)"
  fi
}

# serve DIR FILE...: node_exporter reads DIR; each FILE's series must be served.
serve() {
  local dir=$1 port
  shift
  port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
    --collector.textfile --collector.textfile.directory="$dir" >"$work/exporter.log" 2>&1 &
  exporter_pid=$!
  local scraped=0
  for _ in $(seq 100); do
    if curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >"$work/scrape.txt"; then
      scraped=1; break
    fi
    sleep 0.1
  done
  stop_exporter
  if [ $scraped != 1 ]; then
    echo "FAIL: node_exporter did not answer on 127.0.0.1:$port"; cat "$work/exporter.log"; fail=1; return
  fi
  for file in "$@"; do
    "$python" "$here/exposition.py" served "$file" "$work/scrape.txt" || { fail=1; grep -i error "$work/exporter.log" | head -5; }
  done
}

n=0
# written COMMAND... : runs it; the file it wrote ($out) is linted and served alone.
written() {
  n=$((n + 1))
  mkdir -p "$work/d$n"
  out=$work/d$n/clusterbench.prom
  "$bin" "${@//OUT/$out}" >/dev/null 2>"$work/stderr"
  local rc=$?
  # 0 pass, 1 fail, 4 inconclusive: each still writes its file.
  if { [ $rc -gt 1 ] && [ $rc -ne 4 ]; } || [ ! -s "$out" ]; then
    echo "FAIL: $* -> exit $rc, no file: $(cat "$work/stderr")"; fail=1; return
  fi
  lint "$out"
  serve "$work/d$n" "$out"
}

for fixture in h200_clean h200_slow_gpu h200_inconclusive; do
  written qualify "$fixtures/qualify/$fixture.json" --spec h200-sxm --prometheus OUT
done
grep -q '^clusterbench_qualify_suspect_ratio{.*Hostname="hgx-h200-0' "$work/d2/clusterbench.prom" ||
  { echo "FAIL: the slow GPU is not named with its Hostname"; fail=1; }
grep -q '^clusterbench_qualify_verdict{spec="h200-sxm",verdict="FAIL"} 1$' "$work/d2/clusterbench.prom" ||
  { echo "FAIL: no FAIL verdict for the slow GPU"; fail=1; }
for fixture in report/h200_cluster report/host_step_run plots/host_cluster qualify/h200_slow_gpu; do
  written report "$fixtures/$fixture.json" --prometheus OUT
done
# The host run's all_reduce records carry each rank's bus bandwidth (as NCCL Inspector's
# nccl_bus_bandwidth_gbs, per GPU); the GEMM records each rank's GFLOP/s.
for family in clusterbench_gpu_bus_bandwidth_gbs clusterbench_node_bus_bandwidth_gbs \
  clusterbench_gpu_gflops; do
  grep -q "^$family{command=\"report\",suite=" "$work/d5/clusterbench.prom" ||
    { echo "FAIL: no $family in the host run's report"; fail=1; }
done
grep -q '^clusterbench_scaling_efficiency{' "$work/d4/clusterbench.prom" ||
  { echo "FAIL: no scaling efficiency in the h200 cluster's report"; fail=1; }

# The qualify and report textfiles of one run share a directory.
mkdir -p "$work/both"
cp "$work/d2/clusterbench.prom" "$work/both/qualify.prom"
cp "$work/d7/clusterbench.prom" "$work/both/report.prom"
serve "$work/both" "$work/both/qualify.prom" "$work/both/report.prom"

# A host name with quotes, a backslash, a newline and markup.
"$python" "$here/hostile_fixture.py" rename "$fixtures/qualify/h200_slow_gpu.json" \
  "$work/hostile.json" hgx-h200-01
written qualify "$work/hostile.json" --spec h200-sxm --prometheus OUT
# The loader has made the newline visible (\x0a); the quote and the backslashes are escaped.
grep -qF 'Hostname="gpu\"node\\01\\x0a<b>&amp;]]>--x"' "$out" ||
  { echo "FAIL: the hostile host name is not escaped as the format says"; fail=1; }

# Replaces its own file; refuses a textfile it did not write, a directory and a device.
echo 'node_custom 1' >"$work/theirs.prom"
for target in "$work/theirs.prom" "$work" /dev/null; do
  err=$("$bin" qualify "$fixtures/qualify/h200_clean.json" --spec h200-sxm --prometheus "$target" 2>&1 >/dev/null)
  rc=$?
  if [ $rc != 2 ] || [[ $err != *--prometheus* ]] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
    echo "FAIL: --prometheus $target: exit $rc: $err"; fail=1
  else
    echo "ok: --prometheus $target refused: $err"
  fi
done
[ "$(cat "$work/theirs.prom")" = 'node_custom 1' ] || { echo "FAIL: their file changed"; fail=1; }
exit $fail
