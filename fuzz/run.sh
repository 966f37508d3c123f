#!/usr/bin/env bash
# Builds and runs every fuzz target (every file of fuzz/fuzz_targets/) for
# SECONDS each with libFuzzer, AddressSanitizer and debug assertions, then
# prints one line per target and `fuzz: N passed, M failed`.
#
#   bash fuzz/run.sh SECONDS
#
# Installs what it needs: the nightly toolchain (rustup) and cargo-fuzz
# (crates.io). A target fails when it crashes (panic, sanitizer report,
# timeout, out-of-memory), when it cannot be built or run, or when its
# executions cannot be read from libFuzzer's output. Nothing is skipped: a
# step that cannot run fails the script.
#
# Corpora: fuzz/corpus/TARGET (gitignored, grows from run to run) plus the
# committed seeds in fuzz/seeds/TARGET when that dir exists. A crashing input
# is saved under fuzz/artifacts/TARGET/ (rerun it with
# `cd fuzz && cargo +nightly fuzz run TARGET artifacts/TARGET/crash-...`).
#
# Adding a target: a file fuzz_targets/NAME.rs and its line in Cargo.toml.
# FUZZ_TOOLCHAIN overrides the toolchain (default: nightly).
# BUILD_NICE is the builds' `nice` value (0 by default); the fuzz runs keep
# their priority, as libFuzzer's time limits are wall time.
set -uo pipefail

usage() { echo "usage: bash fuzz/run.sh SECONDS" >&2; exit 2; }
[ $# -eq 1 ] || usage
secs=$1
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || usage

fuzz_dir=$(cd "$(dirname "$0")" && pwd)
cd "$fuzz_dir" || exit 1
toolchain=${FUZZ_TOOLCHAIN:-nightly}

die() { echo "fuzz: $*" >&2; echo "fuzz: 0 passed, 1 failed"; exit 1; }
build_nice=${BUILD_NICE:-0}
[[ "$build_nice" =~ ^[0-9]+$ ]] || die "BUILD_NICE must be a number from 0 to 19, not '$build_nice'"

# --- what it needs -----------------------------------------------------------
command -v rustup >/dev/null || die "rustup not found: cannot get a nightly toolchain"
if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
  echo "fuzz: installing the $toolchain toolchain"
  rustup toolchain install "$toolchain" --profile minimal || die "cannot install $toolchain"
fi
if ! cargo "+$toolchain" fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz from crates.io"
  nice -n "$build_nice" cargo install cargo-fuzz --locked || die "cannot install cargo-fuzz"
  cargo "+$toolchain" fuzz --version >/dev/null 2>&1 || die "cargo fuzz does not run after install"
fi
echo "fuzz: $(rustup run "$toolchain" rustc --version), $(cargo "+$toolchain" fuzz --version)"

# --- targets: the files, not a list ------------------------------------------
shopt -s nullglob
files=(fuzz_targets/*.rs)
[ ${#files[@]} -gt 0 ] || die "no targets in $fuzz_dir/fuzz_targets"
declared=$(cargo "+$toolchain" fuzz list 2>/dev/null) || die "cargo fuzz list failed"

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# The executions libFuzzer reports in $1: its final stats, else its `Done N
# runs` line, else the last status line `#N ...` (a crash stops it early).
executions() {
  local n
  n=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$1" | tail -n 1)
  [ -n "$n" ] || n=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$1" | tail -n 1)
  [ -n "$n" ] || n=$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$1" | tail -n 1)
  echo "$n"
}

# One build of every target (cargo builds them side by side); when it
# fails, each target is built on its own to name the ones that do not build.
targets=()
for f in "${files[@]}"; do
  t=$(basename "$f" .rs)
  if grep -qx "$t" <<<"$declared"; then
    targets+=("$t")
  else
    echo "$t: FAILED (not declared in fuzz/Cargo.toml: add its line to bin = [...])"
    echo "$t" >>"$logs/failed"
  fi
done
# 16 codegen units instead of cargo-fuzz's 1: the build of every target
# from clean took 149 s (226 s of CPU) with 1 and 105 s (202 s of CPU) with
# 16 on 2 idle cores; the targets run a little slower, which a smoke of a
# few seconds each does not notice. `fuzz run` below must be given the same
# flags, or it builds the target again.
build_flags=(--codegen-units 16)
start=$(date +%s)
runnable=()
if nice -n "$build_nice" cargo "+$toolchain" fuzz build "${build_flags[@]}" >"$logs/build.log" 2>&1; then
  runnable=("${targets[@]}")
else
  for t in "${targets[@]}"; do
    if nice -n "$build_nice" cargo "+$toolchain" fuzz build "${build_flags[@]}" "$t" >"$logs/$t.log" 2>&1; then
      runnable+=("$t")
    else
      echo "$t: FAILED (build; its first error below)"
      { grep -m1 -A12 '^error' "$logs/$t.log" || tail -n 12 "$logs/$t.log"; } | sed 's/^/    /'
      echo "$t" >>"$logs/failed"
    fi
  done
fi
built=$(date +%s)
echo "fuzz: ${#runnable[@]} targets built in $((built - start)) s"

# Runs target $1 for $secs seconds; prints its line, and records a failure.
run_target() {
  local t=$1 log="$logs/$1.log" corpus="corpus/$1" status runs crashes
  mkdir -p "$corpus" "artifacts/$t"
  local dirs=("$corpus")
  [ -d "seeds/$t" ] && dirs+=("seeds/$t")
  cargo "+$toolchain" fuzz run "${build_flags[@]}" "$t" "${dirs[@]}" -- \
    -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$log" 2>&1
  status=$?
  runs=$(executions "$log")
  crashes=$(find "artifacts/$t" -type f -newermt "@$built" ! -name 'slow-unit-*' 2>/dev/null | wc -l)
  if [ "$status" -eq 0 ] && [ -n "$runs" ] && [ "$runs" -gt 0 ] && [ "$crashes" -eq 0 ]; then
    echo "$t: ${runs} executions, 0 crashes (corpus $(find "$corpus" -type f | wc -l) inputs)"
  else
    [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1
    echo "$t: ${runs:-?} executions, ${crashes} crashes, exit status $status: FAILED"
    # the panic and its message, the sanitizer's summary, the saved input
    grep -E -A2 'panicked at' "$log" | head -n 8 | sed 's/^/    /'
    grep -E '^SUMMARY|Test unit written|^==[0-9]+==.*ERROR|^error' "$log" | head -n 6 | sed 's/^/    /'
    [ -n "$runs" ] || tail -n 10 "$log" | sed 's/^/    /'
    echo "$t" >>"$logs/failed"
  fi
}

# Two targets at a time (libFuzzer runs one thread; this machine has two
# cores), each printing its lines when it is done.
for ((i = 0; i < ${#runnable[@]}; i += 2)); do
  run_target "${runnable[i]}" >"$logs/${runnable[i]}.out" &
  first=$!
  if [ $((i + 1)) -lt ${#runnable[@]} ]; then
    run_target "${runnable[i + 1]}" >"$logs/${runnable[i + 1]}.out"
  fi
  wait "$first"
  cat "$logs/${runnable[i]}.out"
  [ $((i + 1)) -lt ${#runnable[@]} ] && cat "$logs/${runnable[i + 1]}.out"
done

failed=0
[ -f "$logs/failed" ] && failed=$(wc -l <"$logs/failed")
passed=$((${#files[@]} - failed))
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
