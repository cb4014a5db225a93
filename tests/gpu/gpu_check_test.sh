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
for tool in bash env timeout tee date grep head sed cat dirname mkdir rm; do
  ln -s "$(command -v $tool)" "$work/bin/$tool"
done
expect_exit 2 "no nvidia-smi on PATH" env PATH="$work/bin" bash "$script" --out "$work/r0"

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
echo '{"records": []}' >"$work/r1/timing-stream.json"
env PATH="$work/fake:$PATH" CUDA_VISIBLE_DEVICES= LD_LIBRARY_PATH= bash "$script" --build-dir "$build" --out "$work/r1" \
  --budget 60 --no-mpi --copy-back "$work/back" >"$work/out" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$work/out"; fail "exit $rc with no usable GPU, expected 1"; }
grep -q "^PASS gpu: 1 visible" "$work/out" || { cat "$work/out"; fail "the GPU line"; }
grep -q "^# the sweeps run with --single-process .*--no-mpi" "$work/out" ||
  { cat "$work/out"; fail "--no-mpi not said"; }
grep -q "^FAIL training step: .*No such file or directory: '$work/r1/step.json'" "$work/out" ||
  { cat "$work/out"; fail "the training step did not fail on its own missing results"; }
grep -q "^FAIL timing modes: exit [1-9]" "$work/out" ||
  { cat "$work/out"; fail "the timing step passed over a failed run"; }
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
  *::*) fail "LD_LIBRARY_PATH has an empty entry (the current folder): '$path'" ;;
esac
echo "ok"
