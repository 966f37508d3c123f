#!/usr/bin/env bash
# Where one inference's instructions go, per layer kind (issue 64):
#
#   bash embedded/breakdown.sh [MODEL ...]     # default: person
#
# MODEL is a TinyML row of compare.sh (person, vww, kws, resnet8, ad, sww):
# shapecheck's firmware of embedded/models/ (src/bin/<MODEL>.rs), built as
# compare.sh builds it (Debian's toolchain, lto, one codegen unit, panic
# abort, at each of OPT_LEVELS, default "s 3") and again with the line
# tables and the inline info (CARGO_PROFILE_RELEASE_DEBUG=line-tables-only,
# in target/breakdown-<opt>-models: the same code, which this script checks:
# the same .text and the same instruction count as compare.sh's build, in
# target/compare-<opt>-models; full debuginfo, DEBUG=2, changes the code:
# person detection's .text at `s` 64 B larger, 0.2 % more instructions). Then
# `count_instructions.py --by-kind --model <file>.tflite` runs
# `predict_once` of the line-tables build and attributes each instruction to
# the innermost inlined function that has a layer kind (LTO inlines the
# kernels into predict_once; the DWARF inline info still names them): 1x1
# convolution, kxk convolution, depthwise, fully connected, pooling,
# requantization (the output stage, inside those layers), other (mean, add,
# pad, softmax, copies, the glue); with each kind's MACs from the .tflite
# file and its instructions per MAC. Prints one table per model and
# opt-level, and ends with `breakdown: N passed, N failed`.
#
# Environment: OPT_LEVELS, BUILD_NICE, SHAPECHECK_MODELS, COMPARE_TARGET
# (as compare.sh). Needs what compare.sh needs (run.sh installs it).
set -eEuo pipefail
cd "$(dirname "$0")"

read -r -a OPT_LEVELS <<<"${OPT_LEVELS:-s 3}"
PREFIX=${COMPARE_TARGET:-$PWD/target/compare}
M4=thumbv7em-none-eabihf
PY=${PYTHON:-python3}
build_nice=${BUILD_NICE:-0}
models=("$@")
((${#models[@]})) || models=(person)

passed=0 failed=0
summary() { echo "breakdown: $passed passed, $failed failed"; }
cannot() { echo "breakdown: cannot run: $*"; failed=$((failed + 1)); summary; exit 1; }
fail() { echo "breakdown: FAILED: $*"; failed=$((failed + 1)); }
trap 'rc=$?; cannot "line $LINENO: \`$BASH_COMMAND\` failed (status $rc)"' ERR

repo=$(cd .. && pwd)
export SHAPECHECK_MODELS=${SHAPECHECK_MODELS:-$repo/../shared/models}
[[ "$build_nice" =~ ^[0-9]+$ ]] || cannot "BUILD_NICE must be a number from 0 to 19, not '$build_nice'"
"$PY" -c 'import unicorn, elftools' 2>/dev/null ||
  cannot "the counter's Python modules are missing (pip install unicorn==2.1.4 pyelftools==0.33; compare.sh installs them)"
# the model's .tflite file, as embedded/models/build.rs finds it
tflite() {
  case $1 in
    person) echo "$repo/tflite/tests/models/person_detect.tflite" ;;
    vww) echo "$SHAPECHECK_MODELS/vww_96_int8.tflite" ;;
    kws) echo "$SHAPECHECK_MODELS/kws_ref_model.tflite" ;;
    resnet8) echo "$SHAPECHECK_MODELS/pretrainedResnet_quant.tflite" ;;
    ad) echo "$SHAPECHECK_MODELS/ad01_int8.tflite" ;;
    sww) echo "$SHAPECHECK_MODELS/str_ww_ref_model.tflite" ;;
    *) return 1 ;;
  esac
}
bins=()
for m in "${models[@]}"; do
  f=$(tflite "$m") || cannot "no TinyML row '$m' (person, vww, kws, resnet8, ad or sww)"
  [ -f "$f" ] || cannot "$f missing (SHAPECHECK_MODELS=$SHAPECHECK_MODELS)"
  bins+=(--bin "$m")
done
deb() { # as run.sh and compare.sh: Debian's toolchain, for these commands only
  env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS -u RUSTC_WRAPPER \
    PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 "$@"
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
text() { arm-none-eabi-size -A "$1" | awk '$1 == ".text" { print $2 }'; }

for opt in "${OPT_LEVELS[@]}"; do
  plain=$PREFIX-$opt-models debug=$PWD/target/breakdown-$opt-models
  ok=1
  for dir in "$plain" "$debug"; do
    d=0
    [ "$dir" = "$plain" ] || d=line-tables-only
    t0=$(date +%s)
    if ! (cd models && deb CARGO_TARGET_DIR="$dir" CARGO_PROFILE_RELEASE_OPT_LEVEL="$opt" \
        CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort \
        CARGO_PROFILE_RELEASE_DEBUG=$d nice -n "$build_nice" cargo build --release "${bins[@]}") >"$log" 2>&1; then
      cat "$log"; fail "build (opt-level $opt, debuginfo $d)"; ok=0
    else
      echo "build (opt-level $opt, debuginfo $d): $(($(date +%s) - t0)) s"
    fi
  done
  ((ok)) || continue
  for m in "${models[@]}"; do
    a=$plain/$M4/release/$m b=$debug/$M4/release/$m
    if [ "$(text "$a")" != "$(text "$b")" ]; then
      fail "$m opt-$opt: the line-tables build's .text ($(text "$b") B) is not the plain one's ($(text "$a") B)"
      continue
    fi
    if ! "$PY" count_instructions.py "$a" >"$log" 2>&1; then
      cat "$log"; fail "$m opt-$opt: count"; continue
    fi
    n=$(sed -n 's/^instructions: //p' "$log")
    t0=$(date +%s)
    if ! "$PY" count_instructions.py "$b" --by-kind --model "$(tflite "$m")" >"$log" 2>&1; then
      cat "$log"; fail "$m opt-$opt: count by kind"; continue
    fi
    nb=$(sed -n 's/^instructions: //p' "$log")
    if [ "$n" != "$nb" ]; then
      fail "$m opt-$opt: the line-tables build issues $nb instructions, the plain one $n"; continue
    fi
    passed=$((passed + 1))
    echo
    echo "$m (shapecheck), opt-level $opt: $n instructions, the same with and without the line tables" \
      "(.text $(text "$a") B both; $(($(date +%s) - t0)) s)"
    sed -n '/^by layer kind/,$p' "$log"
  done
done
echo
summary
[ "$failed" = 0 ]
