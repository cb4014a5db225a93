#!/usr/bin/env bash
# ci/gpu-check where no GPU is: its flags, its refusals, and one pass over a build with a stand-in
# nvidia-smi (every device step then fails or skips at once), so that what the script does around
# the steps is proved before a lent GPU's minutes are spent on it: nothing of an earlier run is
# read again, --copy-back leaves its three files, LD_LIBRARY_PATH gets no empty entry.
#   gpu_check_test.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
script=$src/ci/gpu-check
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect_exit CODE PATTERN CMD...: the exit code, and PATTERN in what it printed.
expect_exit() {
  local want=$1 pattern=$2
  shift 2
  "$@" >"$work/out" 2>&1
  local got=$?
  [ "$got" = "$want" ] || { cat "$work/out"; fail "exit $got, expected $want: $*"; }
  grep -q -- "$pattern" "$work/out" || { cat "$work/out"; fail "no '$pattern' from: $*"; }
}

expect_exit 0 "--copy-back DIR" bash "$script" --help
expect_exit 2 "^ci/gpu-check: --budget needs a value" bash "$script" --budget
expect_exit 2 "^ci/gpu-check: --out needs a value" bash "$script" --out "" --budget 100
expect_exit 2 "^ci/gpu-check: --budget: whole seconds, got '5m'" bash "$script" --budget 5m
expect_exit 2 "^ci/gpu-check: --budget: at least 60 seconds" bash "$script" --budget 10
expect_exit 2 "^ci/gpu-check: --bundle: the archive to write, NAME.tar.gz" \
  bash "$script" --bundle "$work/pack.tar.xz" --build-dir "$build"
expect_exit 2 "^ci/gpu-check: unknown argument '--gpus'" bash "$script" --gpus 2

# No nvidia-smi at all: exit 2, saying so.
mkdir "$work/bin"
for tool in bash env timeout tee date grep head sed cat dirname mkdir rm cp ls tar gzip pwd; do
  ln -s "$(command -v $tool)" "$work/bin/$tool"
done
expect_exit 2 "no nvidia-smi on PATH" env PATH="$work/bin" bash "$script" --out "$work/r0" \
  --copy-back "$work/back0"
# Even then the log and the summary come back (the case where they matter most).
[ -s "$work/back0/gpu-check.out" ] && [ -s "$work/back0/gpu-check.log" ] ||
  fail "--copy-back left nothing when no GPU was found"

# A stand-in nvidia-smi naming one GPU; the build's binaries find none (CUDA_VISIBLE_DEVICES is
# empty, so even on a GPU machine) and fail or skip at once.
mkdir "$work/fake"
cat >"$work/fake/nvidia-smi" <<'EOF'
#!/bin/sh
case "$*" in
  *-L*) echo "GPU 0: NVIDIA H200 (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;;
  *compute_cap*) echo "9.0" ;;
esac
EOF
chmod +x "$work/fake/nvidia-smi"
# An earlier run's figures in the results folder: never to be read as this run's.
mkdir -p "$work/r1"
echo '{"records": [{"case": "data_parallel_step", "gpus": 1, "status": "ok"}]}' >"$work/r1/step.json"
for mode in stream graph; do
  echo '{"records": [{"case": "all_reduce", "status": "ok", "check": "pass", "gpus": 1,
    "params": {"bytes": 8}, "metrics": {"time_us": 5.0}, "extra": {"timing": "cuda_graph"}}]}' \
    >"$work/r1/timing-$mode.json"
done
# A CUDA 13 wheel's library folder, so that the path is built from an empty one here too.
mkdir -p "$work/wheel/nvidia/cu13/lib"
touch "$work/wheel/nvidia/__init__.py"
env PATH="$work/fake:$PATH" PYTHONPATH="$work/wheel" CUDA_VISIBLE_DEVICES= LD_LIBRARY_PATH= \
  bash "$script" --build-dir "$build" --out "$work/r1" \
  --budget 60 --no-mpi --copy-back "$work/back" >"$work/out" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$work/out"; fail "exit $rc with no usable GPU, expected 1"; }
grep -q "^PASS gpu: 1 visible" "$work/out" || { cat "$work/out"; fail "the GPU line"; }
grep -q "^# the sweeps run with --single-process .*--no-mpi" "$work/out" ||
  { cat "$work/out"; fail "--no-mpi not said"; }
grep -q "^FAIL training step: .*No such file or directory: '$work/r1/step.json'" "$work/out" ||
  { cat "$work/out"; fail "the training step did not fail on its own missing results"; }
grep -q "^FAIL timing modes: exit [1-9]: .*No such file or directory: '$work/r1/timing-stream.json'" \
  "$work/out" || { cat "$work/out"; fail "the timing step read an earlier run's results"; }
[ "$(grep -c "^FAIL figures" "$work/out")" = 1 ] || { cat "$work/out"; fail "figures not one FAIL"; }
tail -1 "$work/out" | grep -q "^gpu-check: [0-9]* passed, [0-9]* failed, [0-9]* skipped$" ||
  { cat "$work/out"; fail "no summary line"; }
for f in gpu-check.log gpu-check.out gpu-check-results.tar.gz; do
  [ -s "$work/back/$f" ] || fail "--copy-back left no $f"
done
[ "$(ls "$work/back" | wc -l)" = 3 ] || { ls "$work/back"; fail "--copy-back left more than 3 files"; }
cmp -s "$work/back/gpu-check.out" <(grep -v '^\$' "$work/out") ||
  { diff "$work/back/gpu-check.out" "$work/out"; fail "the summary kept is not what was printed"; }
path=$(sed -n 's/^# LD_LIBRARY_PATH=//p' "$work/r1/gpu-check.log")
case ":$path:" in
  *":$work/wheel/nvidia/cu13/lib:"*) ;;
  *) fail "the CUDA 13 wheel's libraries are not on LD_LIBRARY_PATH: '$path'" ;;
esac
case ":$path:" in
  *::*) fail "LD_LIBRARY_PATH has an empty entry (the current folder): '$path'" ;;
esac

# A stand-in build whose runs write good results and exit 1: the failed runs alone must fail the
# timing step. Two GPUs and threads: graphs are refused there unless on one rank (as clusterbench
# refuses them), so both modes must run with --np 1. Relative --out and --copy-back, from another
# folder.
mkdir -p "$work/standin/bin" "$work/cwd" "$work/fake2"
cat >"$work/fake2/nvidia-smi" <<'EOF'
#!/bin/sh
case "$*" in
  *-L*) echo "GPU 0: NVIDIA H200 (UUID: GPU-0)"; echo "GPU 1: NVIDIA H200 (UUID: GPU-1)" ;;
  *compute_cap*) echo "9.0" ;;
esac
EOF
chmod +x "$work/fake2/nvidia-smi"
cat >"$work/standin/bin/clusterbench" <<'EOF'
#!/bin/sh
out="" timing=stream threads=0 np=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift ;;
    --np) np=$2; shift ;;
    --cuda-graph) timing=cuda_graph ;;
    --single-process) threads=1 ;;
  esac
  shift
done
[ "$timing$threads" = cuda_graph1 ] && [ "$np" != 1 ] && exit 2
[ -n "$out" ] && printf '{"records": [{"case": "all_reduce", "status": "ok", "check": "pass", "gpus": 1, "params": {"bytes": 8}, "metrics": {"time_us": 5.0}, "extra": {"timing": "%s"}}]}\n' "$timing" >"$out"
exit 1
EOF
chmod +x "$work/standin/bin/clusterbench"
(cd "$work/cwd" && env PATH="$work/fake2:$PATH" CUDA_VISIBLE_DEVICES= bash "$script" \
  --build-dir "$work/standin" --out r2 --budget 60 --no-mpi --copy-back back2) >"$work/out" 2>&1
grep -q "^FAIL timing modes: exit 1: all_reduce 8 B on 1 GPU(s)" "$work/out" ||
  { cat "$work/out"; fail "the timing step: not failed by its runs' exit 1, or graphs on 2 threads without --np 1"; }
[ -s "$work/cwd/back2/gpu-check-results.tar.gz" ] ||
  { cat "$work/out"; fail "--copy-back with a relative folder left no results"; }
echo "ok"
