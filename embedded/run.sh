#!/usr/bin/env bash
# The firmware tests of shapecheck on emulated microcontrollers, with
# Debian's Rust toolchain (core/alloc built from source by -Zbuild-std):
#   1. every tests/*.rs on a Cortex-M4F (thumbv7em-none-eabihf, QEMU
#      mps2-an386): no std, no alloc, the vectors' data in flash;
#   2. tests/alloc.rs with `alloc` and a static heap (embedded-alloc);
#   3. the same no-alloc tests on a Cortex-M0 (thumbv6m-none-eabi: no FPU,
#      no atomic compare-and-swap; QEMU microbit, 16 KiB of RAM), each
#      checked to fit its 256 KiB of flash; among the tests of 1 and 3,
#      tests/model_one_op_<g>.rs: every one-op model of tflite/tests/ops/
#      that tflite/tests/interpreter_ops.rs runs (126 today), each through
#      its own model!, all 8 recorded cases, every output against TFLite
#      Micro's, in 3 firmwares; and on the M4F only (the feature
#      `interpreter`: the interpreter links every kernel, more than the
#      M0's flash), tests/tflite_ops.rs: the same through the Interpreter;
#   4. per op, the code and stack of one call through shapecheck against a
#      hand-written loop (examples/size_<op>_{shapecheck,loop}.rs), the
#      bounded forms beside the caller-buffer ones (size_<op>_bounded.rs,
#      and size_<op>_bounded_into.rs where there is one),
#      and the fused expressions beside the same chain of plain ops
#      (size_fused_<expr>_chain.rs) and a hand-fused loop.
#   5. models side by side (compare.sh): MicroFlow 0.1.3's and shapecheck's
#      model! firmware for the sine and speech .tflite models (microflow/,
#      models/), flash, RAM, stack
#      and instructions per inference at opt-level s and 3; shapecheck's
#      model! on person detection and the MLPerf Tiny models (models/, read
#      from SHAPECHECK_MODELS) at opt-level s, output, flash, RAM and stack,
#      and the instructions of all but ResNet-8 (COMPARE_SET=tiny bash
#      embedded/compare.sh counts all six, at s and 3: not run here); and
#      issue 70's RAM goals, streamed, every recorded case: person
#      detection in a 32 KiB RAM region on the M4F, keyword spotting in
#      the Cortex-M0's 16 KiB; and the heap-less interpreter on person
#      detection (issue 78: `Interpreter::planned`, its arena in
#      `static`s), every recorded case.
# Prints one line per firmware run and ends with
#   embedded: N passed, N failed
# Exit status 0 only if every run passed. Anything that keeps it from
# running (packages that cannot be installed, a build error) is a failure:
# it prints the reason, counts one failure and exits non-zero.
#
# Adding an op: tests/<op>.rs (its vectors asked for with `// vector:`
# lines, see build.rs) and its [[test]] entry in Cargo.toml; this script
# finds it. For its size row: examples/size_<op>_shapecheck.rs and
# examples/size_<op>_loop.rs, found by name.
#
# Environment: EMBEDDED_FEATURES (extra cargo features for the tests, none
# today), M0_SKIP (test names not run on the M0, e.g. one
# that needs more than its 16 KiB of RAM), BUILD_NICE (the builds' `nice`
# value, 0 by default; the runs under QEMU keep their priority, as their
# `timeout` is wall time), SHAPECHECK_MODELS (the directory of the TinyML
# models and their recorded cases, tiny/*.json, which are not in the
# repository; by default ../shared/models beside it, as CI has it;
# compare.sh fails without it).
set -eEuo pipefail
cd "$(dirname "$0")"

PACKAGES=(rustc-web cargo-web rust-web-src lld-22 binutils-arm-none-eabi)
# QEMU is unpacked from Debian's qemu-system-arm package into target/ rather
# than installed: installing it makes apt remove the machine's own qemu-utils
# (qemu-img 10.x from backports, which conflicts with qemu-system 7.2). Only
# its libraries are installed, and apt-get never removes anything here.
QEMU_ROOT=target/qemu-system-arm
QEMU_BIN=$QEMU_ROOT/usr/bin/qemu-system-arm
QEMU_M4=("$QEMU_BIN" -cpu cortex-m4 -machine mps2-an386 -nographic
         -semihosting-config enable=on,target=native -kernel)
QEMU_M0=("$QEMU_BIN" -machine microbit -nographic
         -semihosting-config enable=on,target=native -kernel)
# Every M0 firmware must fit the micro:bit's 256 KiB (text + data, checked
# below; build.rs's memory map has 256 KiB too).
M0_FLASH=262144
TIMEOUT=20   # seconds per QEMU run; a run takes well under one
# binutils for ARM (objdump -d for the call graph of an op; size, nm)
OBJDUMP=arm-none-eabi-objdump NM=arm-none-eabi-nm SIZE=arm-none-eabi-size
M4=thumbv7em-none-eabihf M0=thumbv6m-none-eabi
BUDGET=1.2   # an op's code through shapecheck / the hand loop's
read -r -a M0_SKIP <<<"${M0_SKIP:-}"
features=()
[ -n "${EMBEDDED_FEATURES:-}" ] && features=(--features "$EMBEDDED_FEATURES")

passed=0 failed=0
summary() { echo "embedded: $passed passed, $failed failed"; }
cannot() { echo "embedded: cannot run: $*"; failed=$((failed + 1)); summary; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
# Any other command that fails (QEMU that does not start, a missing tool) is
# a failure of the run too, with the summary line, never a silent exit.
trap 'rc=$?; cannot "line $LINENO: \`$BASH_COMMAND\` failed (status $rc)"' ERR

# --- packages --------------------------------------------------------------
command -v dpkg-query >/dev/null || cannot "not a Debian system (dpkg-query missing)"
missing=()
for p in "${PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
if ((${#missing[@]})) || [ ! -x "$QEMU_BIN" ]; then
  t0=$(now)
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || cannot "Debian packages missing (${missing[*]:-qemu-system-arm}) and not root (no sudo)"
    SUDO=(sudo -n)
  fi
  log=$(mktemp)
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update >"$log" 2>&1 || cannot "apt-get update failed: $(tail -n 1 "$log")"
  if [ ! -x "$QEMU_BIN" ]; then
    # qemu-system-arm's shared libraries (its Depends, less the qemu packages)
    libs=$(apt-cache depends qemu-system-arm 2>>"$log" |
      awk '$1 ~ /^\|?Depends:$/ && $2 !~ /^(qemu-|<)/ { print $2 }')
    [ -n "$libs" ] || cannot "no dependency list for qemu-system-arm: $(tail -n 1 "$log")"
    for p in $libs; do installed "$p" || missing+=("$p"); done
  fi
  if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    "${SUDO[@]}" apt-get install -y --no-install-recommends --no-remove "${missing[@]}" >"$log" 2>&1 ||
      cannot "apt-get install failed: $(tail -n 1 "$log")"
  fi
  if [ ! -x "$QEMU_BIN" ]; then
    echo "unpacking qemu-system-arm into $QEMU_ROOT"
    deb_dir=$(mktemp -d)
    (cd "$deb_dir" && apt-get download qemu-system-arm) >"$log" 2>&1 ||
      cannot "apt-get download qemu-system-arm failed: $(tail -n 1 "$log")"
    mkdir -p "$QEMU_ROOT"
    dpkg-deb -x "$deb_dir"/qemu-system-arm_*.deb "$QEMU_ROOT"
    rm -rf "$deb_dir"
  fi
  rm -f "$log"
  echo "packages ready in $(since "$t0") s"
fi
"$QEMU_BIN" --version | head -n 1

# --- Debian's toolchain, for these commands only ---------------------------
# RUSTC_BOOTSTRAP=1 unlocks -Zbuild-std on the stable compiler; the rustup
# toolchain of the workspace (1.95, host std only) is not used here.
# Flags or a target dir from the environment would override .cargo/config.toml.
deb() {
  env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS -u RUSTC_WRAPPER \
    CARGO_TARGET_DIR="$PWD/target" PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 "$@"
}
deb rustc --version
deb cargo --version
build_nice=${BUILD_NICE:-0}
[[ "$build_nice" =~ ^[0-9]+$ ]] || cannot "BUILD_NICE must be a number from 0 to 19, not '$build_nice'"
# compare.sh's TinyML rows read the models from here (it fails without them)
export SHAPECHECK_MODELS=${SHAPECHECK_MODELS:-$(cd .. && pwd)/../shared/models}
if [ -d "$SHAPECHECK_MODELS/tiny" ]; then
  echo "TinyML models: $SHAPECHECK_MODELS"
else
  echo "TinyML models: $SHAPECHECK_MODELS/tiny missing (compare.sh will fail)"
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# build NAME CARGO-ARGS...: a `cargo test --no-run` build; appends
# "NAME exe" lines for its test executables to $exes
exes=()
build() {
  local name=$1 t0
  shift
  t0=$(now)
  deb nice -n "$build_nice" cargo test --release --no-run "$@" >"$log" 2>&1 || {
    cat "$log"
    cannot "build ($name) failed"
  }
  echo "build ($name): $(since "$t0") s"
  mapfile -t -O "${#exes[@]}" exes < <(
    sed -n "s/^ *Executable tests\/\([a-z0-9_]*\)\.rs (\(.*\))$/$name \1 \2/p" "$log")
}
# the M4F's tests and tests/tflite_ops.rs (feature `interpreter`), not on the M0
build m4 --features interpreter "${features[@]}"
build m4-alloc --features "alloc${EMBEDDED_FEATURES:+,$EMBEDDED_FEATURES}" -Zbuild-std=core,alloc --test alloc
build m0 --target "$M0" --tests "${features[@]}"
t0=$(now)
deb nice -n "$build_nice" cargo build --release --examples >"$log" 2>&1 || { cat "$log"; cannot "build (size firmwares) failed"; }
echo "build (size firmwares): $(since "$t0") s"
((${#exes[@]})) || cannot "no test executable built"

# --- the tests under QEMU --------------------------------------------------
declare -A stack_of=()
# qemu ARCH EXE: runs EXE, output in $log, status in $status
qemu() {
  local -n cmd=QEMU_$1
  status=0
  timeout "$TIMEOUT" "${cmd[@]}" "$2" >"$log" 2>&1 || status=$?
}
for entry in "${exes[@]}"; do
  read -r variant name exe <<<"$entry"
  arch=M4 machine=M4
  if [ "$variant" = m0 ]; then
    arch=M0 machine=M0
    [[ " ${M0_SKIP[*]} " == *" $name "* ]] && { echo "M0 $name: not run (M0_SKIP)"; continue; }
    flash=$("$SIZE" "$exe" | awk 'NR == 2 { print $1 + $2 }')
    if ((flash > M0_FLASH)); then
      echo "M0 $name: FAILED ($flash B of flash, more than the micro:bit's $M0_FLASH)"
      failed=$((failed + 1))
      continue
    fi
  fi
  t0=$(now)
  qemu "$machine" "$exe"
  label="$arch $name"
  case $status in
    0) echo "$label: ok ($(since "$t0") s) -- $(tail -n 1 "$log")"; passed=$((passed + 1))
       stack_of[$label]=$(sed -n 's/.*peak stack \([0-9]*\) B.*/\1/p' "$log" | tail -n 1) ;;
    124) cat "$log"; echo "$label: HANG (no exit within ${TIMEOUT} s)"; failed=$((failed + 1)) ;;
    *) cat "$log"; echo "$label: FAILED (exit $status)"; failed=$((failed + 1)) ;;
  esac
done

# --- size and stack per op: shapecheck against a hand-written loop ---------
# The code of an op = its `measured_op` function and every function that
# reaches through direct calls (opsize.sh, from objdump -d), the panic
# machinery excepted. Its stack = the peak of that one call, painted and
# scanned on the target (src/stack.rs).
ex=target/$M4/release/examples
echo
echo "per op on the Cortex-M4F (code: measured_op and its callees; stack: that call, on target)"
printf '%-15s %16s %11s %7s %15s %12s  %s\n' op "code shapecheck" "code loop" ratio \
  "stack shapeck" "stack loop" "budget (<= ${BUDGET}x code)"
for sc in "$ex"/size_*_shapecheck; do
  [ -x "$sc" ] || continue
  op=${sc##*/size_} op=${op%_shapecheck}
  lp=$ex/size_${op}_loop
  [ -x "$lp" ] || cannot "size firmware $lp missing (each op has both)"
  code=() stk=()
  for f in "$sc" "$lp"; do
    qemu M4 "$f"
    if [ "$status" != 0 ]; then
      cat "$log"; echo "size firmware ${f##*/}: FAILED (exit $status)"; failed=$((failed + 1))
      stk+=("?")
    else
      passed=$((passed + 1))
      stk+=("$(sed -n 's/^op stack: *\([0-9]*\) B$/\1/p' "$log")")
    fi
    code+=("$(./opsize.sh "$OBJDUMP" "$NM" "$f" | awk 'NR == 1 { print $2 }')")
  done
  ratio=$(awk -v a="${code[0]}" -v b="${code[1]}" 'BEGIN { printf "%.2f", a / b }')
  verdict=$(awk -v r="$ratio" -v m="$BUDGET" 'BEGIN { print (r <= m ? "met" : "over (see docs/embedded.md)") }')
  printf '%-15s %14s B %9s B %6sx %13s B %10s B  %s\n' "$op" "${code[0]}" "${code[1]}" "$ratio" \
    "${stk[0]}" "${stk[1]}" "$verdict"
done
# The bounded forms (examples/size_<op>_bounded.rs: the result in a Room,
# no heap, no caller buffer) beside the caller-buffer form of the same op,
# shapes and data (size_<op>_shapecheck.rs): code as above, flash of the
# whole firmware (text, which holds code and rodata), the op call's stack.
echo
echo "bounded forms beside the caller-buffer forms, on the Cortex-M4F"
printf '%-15s %-13s %10s %12s %11s\n' op form code "flash (fw)" "op stack"
for bd in "$ex"/size_*_bounded; do
  [ -x "$bd" ] || continue
  op=${bd##*/size_} op=${op%_bounded}
  sc=$ex/size_${op}_shapecheck
  [ -x "$sc" ] || cannot "size firmware $sc missing (a bounded row sits beside it)"
  # and, where there is one, the bounded form written in place into a
  # tensor the caller keeps (size_<op>_bounded_into.rs: `run_bounded_into`)
  bi=$ex/size_${op}_bounded_into
  forms=("$sc" "$bd")
  [ -x "$bi" ] && forms+=("$bi")
  for f in "${forms[@]}"; do
    case $f in
      "$sc") form=caller-buffer ;;
      "$bd") form=bounded ;;
      *) form=bounded-into ;;
    esac
    qemu M4 "$f"
    stk="?"
    if [ "$status" != 0 ]; then
      cat "$log"; echo "size firmware ${f##*/}: FAILED (exit $status)"; failed=$((failed + 1))
    else
      [ "$form" != caller-buffer ] && passed=$((passed + 1))
      stk=$(sed -n 's/^op stack: *\([0-9]*\) B$/\1/p' "$log")
    fi
    code=$(./opsize.sh "$OBJDUMP" "$NM" "$f" | awk 'NR == 1 { print $2 }')
    flash=$("$SIZE" "$f" | awk 'NR == 2 { print $1 }')
    printf '%-15s %-13s %8s B %10s B %9s B\n' "$op" "$form" "$code" "$flash" "$stk"
  done
done
# Fused expressions (issue 25; examples/size_fused_<expr>_{shapecheck,chain,loop}.rs):
# the expression fused (`eval_into` a caller's buffer), the same chain of
# plain ops (its intermediates inline, in the op's frame) and a hand-fused
# loop, same data. Targets: fused code <= ${BUDGET}x the loop's, fused op
# stack <= the chain's.
echo
echo "fused expressions beside the chain of plain ops and a hand-fused loop, on the Cortex-M4F"
printf '%-14s %-22s %9s %12s %11s\n' expr form code "flash (fw)" "op stack"
for ch in "$ex"/size_*_chain; do
  [ -x "$ch" ] || continue
  op=${ch##*/size_} op=${op%_chain}
  sc=$ex/size_${op}_shapecheck lp=$ex/size_${op}_loop
  [ -x "$sc" ] && [ -x "$lp" ] || cannot "size firmwares of $op missing (a chain sits beside its fused and loop forms)"
  declare -A fcode=() fstk=()
  for f in "$sc" "$ch" "$lp"; do
    case $f in
      "$sc") form="fused eval_into" ;;
      "$ch") form="chain of plain ops" ;;
      *) form="hand-fused loop" ;;
    esac
    qemu M4 "$f"
    stk="?"
    if [ "$status" != 0 ]; then
      cat "$log"; echo "size firmware ${f##*/}: FAILED (exit $status)"; failed=$((failed + 1))
    else
      [ "$f" = "$ch" ] && passed=$((passed + 1))
      stk=$(sed -n 's/^op stack: *\([0-9]*\) B$/\1/p' "$log")
    fi
    code=$(./opsize.sh "$OBJDUMP" "$NM" "$f" | awk 'NR == 1 { print $2 }')
    flash=$("$SIZE" "$f" | awk 'NR == 2 { print $1 }')
    fcode[$f]=$code fstk[$f]=$stk
    printf '%-14s %-22s %7s B %10s B %9s B\n' "$op" "$form" "$code" "$flash" "$stk"
  done
  awk -v op="$op" -v c="${fcode[$sc]}" -v l="${fcode[$lp]}" -v s="${fstk[$sc]}" -v h="${fstk[$ch]}" -v m="$BUDGET" 'BEGIN {
    r = c / l
    printf "%-14s code fused / loop %.2fx (target <= %sx: %s); stack fused %s B, chain %s B (target fused <= chain: %s)\n",
      op, r, m, (r <= m ? "met" : "over"), s, h, (s + 0 <= h + 0 ? "met" : "over") }'
  unset fcode fstk
done
echo
echo "whole size firmwares (flash = text + rodata):"
"$SIZE" "$ex"/size_*_shapecheck "$ex"/size_*_bounded "$ex"/size_*_bounded_into "$ex"/size_*_chain "$ex"/size_*_loop | sed 's#target/[^ ]*/##'
echo
echo "peak stack of each test (from reset, test harness included):"
printf '%s\n' "${!stack_of[@]}" | sort | while read -r arch name; do
  printf '  %-3s %-22s %6s B\n' "$arch" "$name" "${stack_of[$arch $name]}"
done

# --- models side by side (compare.sh, issue 58) ------------------------------
# One firmware per model and runtime (MicroFlow 0.1.3's #[model] today, in
# microflow/; shapecheck's own model firmware joins by a line in its
# FIRMWARES list): flash, static RAM, stack and instructions per inference.
# Its runs count in this script's tally; a compare.sh that cannot run or
# ends without its summary line is one failure more.
echo
cmp_log=$(mktemp)
cmp_status=0
bash ./compare.sh 2>&1 | tee "$cmp_log" || cmp_status=$?
cmp=$(sed -n 's/^compare: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$cmp_log" | tail -n 1)
rm -f "$cmp_log"
if [ -z "$cmp" ]; then
  echo "compare.sh ended without its summary line (exit $cmp_status)"; failed=$((failed + 1))
else
  read -r cmp_passed cmp_failed <<<"$cmp"
  passed=$((passed + cmp_passed)) failed=$((failed + cmp_failed))
  if [ "$cmp_status" != 0 ] && [ "$cmp_failed" = 0 ]; then
    echo "compare.sh exited $cmp_status with no failure counted"; failed=$((failed + 1))
  fi
fi

summary
if [ "$failed" != 0 ]; then exit 1; fi
