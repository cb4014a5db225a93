#!/usr/bin/env bash
# Tests of the emulated multi-node cluster (ci/emulated-cluster). One case per call:
#   emulated_test.sh usage | placement | shaping | intranode | cleanup
#
# Variables (set by CMake, overridable):
#   CB_EMULATED_CLUSTER  the cluster script (ci/emulated-cluster)
#   CB_EMULATED_COMMAND  the command under test, run inside the cluster; @NP@ is replaced by the
#                        rank count and @SIZES@ by the message sizes. It prints the mpi_probe
#                        lines that placement_of/busbw_of below read:
#                          rank R host H processor P local_size L local_rank LR world W
#                          allreduce bytes B iters I time_us T algbw_gbps A busbw_gbps BB
# Exit 0 pass, 1 fail, 77 skip (not root, no namespaces).
set -euo pipefail

: "${CB_EMULATED_CLUSTER:?set CB_EMULATED_CLUSTER to ci/emulated-cluster}"
: "${CB_EMULATED_COMMAND:?set CB_EMULATED_COMMAND to the command under test}"
readonly SIZES_BANDWIDTH=8,1M,2M,4M,8M
readonly LARGE_BYTES=1048576 # shaping checks apply from 1 MiB up
readonly BURST_ALLOWANCE=1.05

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

cluster() { "$CB_EMULATED_CLUSTER" "$@"; }

# up ARGS...: brings the cluster up, or passes a skip (77) on.
up() {
  local rc=0
  cluster up "$@" || rc=$?
  [[ $rc -eq 0 ]] || exit "$rc"
}

# measure NP SIZES: runs the command under test on the cluster; its output on stdout.
measure() {
  local command=${CB_EMULATED_COMMAND//@NP@/$1}
  command=${command//@SIZES@/$2}
  # shellcheck disable=SC2086 # the command is a word list by design
  timeout 120 "$CB_EMULATED_CLUSTER" run -- $command
}

# placement_of OUTPUT: "host local_size" per rank, in rank order.
placement_of() { awk '$1 == "rank" {print $4, $8}' <<<"$1"; }
# busbw_of OUTPUT MIN_BYTES: "bytes busbw_gbps" for each size >= MIN_BYTES.
busbw_of() { awk -v min="$2" '$1 == "allreduce" && $3 >= min {print $3, $11}' <<<"$1"; }
# median_busbw OUTPUT MIN_BYTES: the median of those busbw figures.
median_busbw() {
  busbw_of "$1" "$2" | awk '{print $2}' | sort -g |
    awk '{v[NR] = $1} END {if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
# rate_gbps RATE: a tc rate (200mbit, 1gbit) in GB/s (1e9 bytes per second).
rate_gbps() {
  awk -v r="$1" 'BEGIN {
    n = r + 0; u = tolower(substr(r, length(n "") + 1))
    m["kbit"] = 1e3 / 8; m["mbit"] = 1e6 / 8; m["gbit"] = 1e9 / 8
    if (!(u in m)) exit 1
    printf "%.9f\n", n * m[u] / 1e9 }'
}
# check EXPRESSION MESSAGE: fails with MESSAGE unless the awk EXPRESSION is true.
check() { awk "BEGIN {exit !($1)}" || fail "$2"; }

case_usage() {
  local rc
  rc=0; cluster up 1 2>/dev/null || rc=$?
  [[ $rc -eq 2 ]] || fail "up 1 exited $rc, expected 2"
  rc=0; cluster up 2 --slots 0 2>/dev/null || rc=$?
  [[ $rc -eq 2 ]] || fail "up 2 --slots 0 exited $rc, expected 2"
  rc=0; cluster frobnicate 2>/dev/null || rc=$?
  [[ $rc -eq 2 ]] || fail "an unknown command exited $rc, expected 2"
  if command -v setpriv >/dev/null; then
    rc=0; setpriv --reuid=65534 --regid=65534 --clear-groups "$CB_EMULATED_CLUSTER" up 2 2>/dev/null || rc=$?
    [[ $rc -eq 77 ]] || fail "up as an unprivileged user exited $rc, expected 77 (skip)"
  fi
  [[ $(id -u) -eq 0 ]] || exit 77

  local message
  rc=0; message=$(cluster up 3 --rate 12parsecs 2>&1) || rc=$?
  [[ $rc -ne 77 ]] || exit 77
  [[ $rc -eq 2 ]] || fail "a rate tc refuses exited $rc, expected 2"
  [[ $message == *"--rate"* && $(wc -l <<<"$message") -eq 1 ]] ||
    fail "a refused rate should give one line naming --rate, got: $message"
  [[ -z $(ip netns list | grep -E '^cbnode[0-9]+' || true) ]] || fail "namespaces left after a refused rate"
  ! ip link show cbbr0 >/dev/null 2>&1 || fail "bridge cbbr0 left after a refused rate"
  [[ ! -e /run/clusterbench-emulated ]] || fail "state left after a refused rate"

  # A second switch: its nodes must exist, an uplink needs it, and a rate tc refuses leaves
  # nothing behind.
  rc=0; cluster up 3 --switch2 4 2>/dev/null || rc=$?
  [[ $rc -eq 2 ]] || fail "--switch2 naming no node exited $rc, expected 2"
  rc=0; cluster up 3 --uplink 100mbit 2>/dev/null || rc=$?
  [[ $rc -eq 2 ]] || fail "--uplink without --switch2 exited $rc, expected 2"
  rc=0; message=$(cluster up 3 --switch2 3 --uplink 12parsecs 2>&1) || rc=$?
  [[ $rc -eq 2 && $message == *"--uplink"* && $(wc -l <<<"$message") -eq 1 ]] ||
    fail "an uplink rate tc refuses should exit 2 with one line naming --uplink, got $rc: $message"
  ! ip link show cbbr1 >/dev/null 2>&1 || fail "bridge cbbr1 left after a refused uplink"
  ! ip link show cbuplink0 >/dev/null 2>&1 || fail "uplink left after a refused uplink"

  rc=0; cluster run -- true 2>/dev/null || rc=$?
  [[ $rc -eq 2 ]] || fail "run with no cluster up exited $rc, expected 2"
  rc=0; cluster status >/dev/null || rc=$?
  [[ $rc -eq 1 ]] || fail "status with no cluster up exited $rc, expected 1"

  up 2 --rate 100mbit
  [[ $(cluster status) == "up: 2 nodes"* ]] || fail "status does not report the cluster"
  # shellcheck disable=SC2016 # expanded by the inner shell, on purpose
  cluster run -- sh -c 'test -x "$OMPI_MCA_plm_rsh_agent" && test "$OMPI_MCA_btl" = tcp,self' ||
    fail "run does not export the MPI settings"
  # A node routes to the cluster's subnet and nowhere else (placement shows the nodes connect).
  ip netns exec cbnode1 ip route get 10.77.0.12 >/dev/null 2>&1 || fail "cbnode1 has no route to cbnode2"
  ! ip netns exec cbnode1 ip route get 192.0.2.1 >/dev/null 2>&1 || fail "a node routes outside the cluster"
  [[ -z $(ip netns exec cbnode1 ip route show default) ]] || fail "a node has a default route"
  cluster down >/dev/null
  # cbnode3 behind the uplink still reaches cbnode1 through both switches.
  up 3 --rate 100mbit --switch2 3 --uplink 50mbit
  [[ $(cluster status) == *"nodes 3 on a second switch behind an uplink 50mbit"* ]] ||
    fail "status does not report the second switch: $(cluster status | head -1)"
  [[ $(ip -o link show cbveth3) == *"master cbbr1"* ]] || fail "cbnode3 is not on the second switch"
  # (No ping on a minimal machine: a TCP connection from cbnode3 to a listener in cbnode1.)
  ip netns exec cbnode1 timeout 10 python3 -c 'import socket; s = socket.create_server(("10.77.0.11", 5999)); c, _ = s.accept(); c.sendall(b"ok")' &
  local listener=$! reached=""
  reached=$(ip netns exec cbnode3 timeout 10 python3 -c '
import socket, time
for _ in range(50):
    try:
        print(socket.create_connection(("10.77.0.11", 5999), timeout=2).recv(2).decode()); break
    except OSError:
        time.sleep(0.1)' 2>/dev/null) || true
  wait "$listener" 2>/dev/null || true
  [[ $reached == ok ]] || fail "cbnode3 does not reach cbnode1"
  cluster down >/dev/null
  ! ip link show cbbr1 >/dev/null 2>&1 || fail "bridge cbbr1 left after down"
  ! ip link show cbuplink0 >/dev/null 2>&1 || fail "uplink left after down"
  cluster down >/dev/null || fail "a second down failed"
  [[ -z $(ip netns list | grep -E '^cbnode[0-9]+' || true) ]] || fail "namespaces left after down"
  ! ip link show cbbr0 >/dev/null 2>&1 || fail "bridge left after down"
  echo "usage: ok"
}

case_placement() {
  local output placement
  up 2
  output=$(measure 2 8)
  placement=$(placement_of "$output")
  echo "2 nodes x 1 slot:"; echo "$placement"
  [[ $(wc -l <<<"$placement") -eq 2 ]] || fail "expected 2 ranks, got: $output"
  [[ $(awk '{print $1}' <<<"$placement" | sort -u | wc -l) -eq 2 ]] || fail "the 2 ranks share a hostname"
  [[ $(awk '{print $1}' <<<"$placement" | grep -c '^cbnode') -eq 2 ]] || fail "a rank ran outside the nodes"
  [[ $(awk '$2 != 1' <<<"$placement") == "" ]] || fail "node-local size is not 1 on each node"

  up 2 --slots 2
  output=$(measure 4 8)
  placement=$(placement_of "$output")
  echo "2 nodes x 2 slots:"; echo "$placement"
  [[ $placement == $'cbnode1 2\ncbnode1 2\ncbnode2 2\ncbnode2 2' ]] ||
    fail "4 ranks on 2 nodes x 2 slots should fill cbnode1 then cbnode2, 2 per node"
  cluster down >/dev/null
  echo "placement: ok"
}

case_shaping() {
  local rate output busbw limit
  declare -A median
  for rate in 200mbit 400mbit; do
    up 2 --rate "$rate"
    output=$(measure 2 "$SIZES_BANDWIDTH")
    echo "$rate:"; grep '^allreduce' <<<"$output"
    limit=$(awk -v r="$(rate_gbps "$rate")" -v a="$BURST_ALLOWANCE" 'BEGIN {print r * a}')
    [[ -n $(busbw_of "$output" "$LARGE_BYTES") ]] || fail "no allreduce figures at $rate: $output"
    while read -r bytes busbw; do
      check "$busbw <= $limit" "busbw $busbw GB/s at $bytes bytes exceeds the $rate shaping ($limit GB/s)"
    done < <(busbw_of "$output" "$LARGE_BYTES")
    median[$rate]=$(median_busbw "$output" "$LARGE_BYTES")
  done
  up 2
  output=$(measure 2 "$SIZES_BANDWIDTH")
  echo "unshaped:"; grep '^allreduce' <<<"$output"
  median[unshaped]=$(median_busbw "$output" "$LARGE_BYTES")
  cluster down >/dev/null

  local ratio
  ratio=$(awk -v a="${median[400mbit]}" -v b="${median[200mbit]}" 'BEGIN {printf "%.3f", a / b}')
  echo "median busbw >= 1 MiB: 200mbit ${median[200mbit]} GB/s, 400mbit ${median[400mbit]} GB/s," \
    "unshaped ${median[unshaped]} GB/s; 400/200 ratio $ratio"
  check "$ratio >= 1.6 && $ratio <= 2.4" "doubling the rate changed busbw by $ratio, expected 2 +- 20 %"
  check "${median[unshaped]} > 2 * ${median[400mbit]}" "unshaped busbw is not above the shaped figures"
  echo "shaping: ok"
}

case_intranode() {
  local output placement busbw shaped transport
  shaped=$(rate_gbps 200mbit)
  # Ranks of one node talk over TCP on the node's own address (default) or shared memory (--shm):
  # neither crosses the shaped eth0. Shaped, they would stay at about half the rate; unshaped they
  # reach GB/s, or a few hundred MB/s when the machine is busy: 3x the rate tells them apart.
  for transport in tcp shm; do
    if [[ $transport == shm ]]; then up 2 --slots 2 --rate 200mbit --shm; else up 2 --slots 2 --rate 200mbit; fi
    output=$(measure 2 "$SIZES_BANDWIDTH")
    placement=$(placement_of "$output")
    echo "2 ranks on one node over $transport, egress 200mbit:"; echo "$placement"; grep '^allreduce' <<<"$output"
    cluster down >/dev/null
    [[ $placement == $'cbnode1 2\ncbnode1 2' ]] || fail "2 ranks with 2 slots should share cbnode1"
    busbw=$(median_busbw "$output" "$LARGE_BYTES") || fail "no allreduce figures: $output"
    check "$busbw > 3 * $shaped" "intra-node busbw $busbw GB/s over $transport looks shaped ($shaped GB/s)"
    echo "intranode $transport: ok (median busbw $busbw GB/s against a shaped rate of $shaped GB/s)"
  done
}

case_cleanup() {
  local rc=0
  cluster down >/dev/null || rc=$?
  [[ $rc -eq 0 || $rc -eq 77 ]] || fail "down exited $rc"
  exit "$rc"
}

main() {
  local name=${1:-}
  case $name in
    usage | placement | shaping | intranode) ;;
    cleanup) case_cleanup ;;
    *) echo "usage: emulated_test.sh usage|placement|shaping|intranode|cleanup" >&2; exit 2 ;;
  esac
  # Whatever happens, leave nothing behind.
  trap 'cluster down >/dev/null 2>&1 || true' EXIT
  "case_$name"
}

main "$@"
