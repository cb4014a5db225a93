#!/usr/bin/env bash
# ci/gpu-node-check where no GPU is: its flags and refusals, no GPU at all, and a stand-in
# nvidia-smi over a build whose cuda backend finds no device (CUDA_VISIBLE_DEVICES empty): the
# run's own one-line refusal is shown and the check fails loudly, never passes.
#   gpu_node_check_test.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
script=$src/ci/gpu-node-check
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

expect_exit() { # expect_exit CODE PATTERN CMD...
  local want=$1 pattern=$2
  shift 2
  "$@" >"$work/out" 2>&1
  local got=$?
  [ "$got" = "$want" ] || { cat "$work/out"; fail "exit $got, expected $want: $*"; }
  grep -q -- "$pattern" "$work/out" || { cat "$work/out"; fail "no '$pattern' from: $*"; }
}

expect_exit 0 "--gpu-bind=single:1" bash "$script" --help
expect_exit 2 "^ci/gpu-node-check: --np: a whole number, got 'x'" bash "$script" --np x
expect_exit 2 "^ci/gpu-node-check: --timeout: at least 1" bash "$script" --timeout 0
expect_exit 2 "^ci/gpu-node-check: --out needs a value" bash "$script" --out ""
expect_exit 2 "^ci/gpu-node-check: unknown argument '--gpus'" bash "$script" --gpus 2
expect_exit 2 "no clusterbench built" bash "$script" --build-dir "$work/nothing"

# No nvidia-smi at all.
mkdir "$work/bin"
for tool in bash env timeout date grep head tail sed cat dirname mkdir rm hostname; do
  [ -n "$(command -v $tool)" ] && ln -s "$(command -v $tool)" "$work/bin/$tool"
done
expect_exit 2 "no GPU visible here" env PATH="$work/bin" bash "$script" --build-dir "$build" \
  --out "$work/r0"

# A stand-in nvidia-smi naming one GPU, and a CUDA runtime that sees none.
mkdir "$work/fake"
printf '#!/bin/sh\ncase "$*" in *-L*) echo "GPU 0: NVIDIA H200 (UUID: GPU-0)" ;; esac\n' \
  >"$work/fake/nvidia-smi"
chmod +x "$work/fake/nvidia-smi"
expect_exit 2 "inside an allocation" env -u SLURM_JOB_ID PATH="$work/fake:$PATH" \
  bash "$script" --build-dir "$build" --out "$work/r1" --srun
# A results file of an earlier check must not be read as this one's.
mkdir -p "$work/r2"
echo '{"run": {"hosts": [{"host": "x", "devices": [{"rank": 0}]}]}, "records": []}' \
  >"$work/r2/node.json"
expect_exit 1 "^FAIL clusterbench run exited 2" env CUDA_VISIBLE_DEVICES= \
  PATH="$work/fake:$PATH" bash "$script" --build-dir "$build" --out "$work/r2" --timeout 60
grep -q "PASS" "$work/out" && { cat "$work/out"; fail "a PASS from a run that found no GPU"; }
[ ! -e "$work/r2/node.json" ] || fail "the earlier results file was left to be read"
echo "gpu-node-check script: all checks passed"
