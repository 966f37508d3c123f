#!/usr/bin/env bash
# Builds the firmware tests for thumbv7em-none-eabihf (Cortex-M4F) with
# Debian's Rust toolchain and runs each under QEMU (mps2-an386), then prints
# the flash (text) size of the same elementwise op through shapecheck and as
# a hand-written loop. See /work/shared/spec/embedded.md and README.md.
#
# Exit status: 0 if every firmware test passed, or if the Debian packages
# could not be installed (then it prints "embedded: SKIPPED (...)"); non-zero
# for anything else (a build error, a failed check, a QEMU hang).
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(rustc-web cargo-web rust-web-src lld-22 qemu-system-arm)
QEMU=(qemu-system-arm -cpu cortex-m4 -machine mps2-an386 -nographic
      -semihosting-config enable=on,target=native -kernel)
TIMEOUT=60   # seconds per QEMU run; a run takes well under one
# binutils (a dependency of rustc-web) reads ARM ELF sizes; llvm-size would
# need llvm-22 (90 MB) on top of lld-22.
SIZE=size NM=nm
TARGET_DIR=target/thumbv7em-none-eabihf

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
skip() { echo "embedded: SKIPPED (could not install Debian packages: $*)"; exit 0; }

# --- packages --------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  t0=$(now)
  echo "installing: ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then skip "not root, missing ${missing[*]}"; fi
  log=$(mktemp)
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >"$log" 2>&1 || skip "apt-get update failed: $(tail -n 1 "$log")"
  apt-get install -y --no-install-recommends "${missing[@]}" >"$log" 2>&1 ||
    skip "apt-get install failed: $(tail -n 1 "$log")"
  rm -f "$log"
  echo "installed in $(since "$t0") s"
fi

# --- Debian's toolchain, for these commands only ---------------------------
# RUSTC_BOOTSTRAP=1 unlocks -Zbuild-std on the stable compiler; the rustup
# toolchain of the workspace (1.95, host std only) is not used here.
deb() { PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 "$@"; }
deb rustc --version
deb cargo --version

t0=$(now)
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
deb cargo test --no-run 2>&1 | tee "$build_log"
echo "build (tests): $(since "$t0") s"

# The test executables, from cargo's "Executable tests/x.rs (path)" lines.
mapfile -t tests < <(sed -n 's/^ *Executable tests\/\([a-z_]*\)\.rs (\(.*\))$/\1 \2/p' "$build_log")
if ((${#tests[@]} == 0)); then echo "embedded: no test executable built"; exit 1; fi

passed=0 failed=0
for entry in "${tests[@]}"; do
  name=${entry%% *} exe=${entry#* }
  t0=$(now)
  set +e
  timeout "$TIMEOUT" "${QEMU[@]}" "$exe"
  status=$?
  set -e
  case $status in
    0) echo "embedded test $name: ok ($(since "$t0") s under QEMU)"; passed=$((passed + 1)) ;;
    124) echo "embedded test $name: HANG (no exit within ${TIMEOUT} s)"; failed=$((failed + 1)) ;;
    *) echo "embedded test $name: FAILED (exit $status)"; failed=$((failed + 1)) ;;
  esac
done

# --- flash size: one elementwise op through shapecheck vs a hand-written loop
t0=$(now)
deb cargo build --release --bins
echo "build (release bins): $(since "$t0") s"
for bin in size_shapecheck size_loop; do
  set +e
  timeout "$TIMEOUT" "${QEMU[@]}" "$TARGET_DIR/release/$bin"
  status=$?
  set -e
  if [ "$status" != 0 ]; then echo "embedded size firmware $bin: FAILED (exit $status)"; failed=$((failed + 1)); fi
done
release=$TARGET_DIR/release
"$SIZE" "$release/size_shapecheck" "$release/size_loop"
text() { "$SIZE" "$1" | awk 'NR == 2 { print $1 }'; }
opsize() { local h; h=$("$NM" -S "$1" | awk '$4 ~ /2op(17h[0-9a-f]+E)?$/ { print $2; exit }'); echo $((16#${h:-0})); }
a=$(text "$release/size_shapecheck") b=$(text "$release/size_loop")
awk -v a="$a" -v b="$b" 'BEGIN { printf "flash (text) of the whole firmware: shapecheck %d B, hand-written loop %d B, ratio %.2f\n", a, b, a / b }'
sect() { size -A "$1" | awk '$1 == ".text" { print $2 }'; }
echo "code (.text): shapecheck $(sect "$release/size_shapecheck") B, hand-written loop $(sect "$release/size_loop") B"
a=$(opsize "$release/size_shapecheck") b=$(opsize "$release/size_loop")
awk -v a="$a" -v b="$b" 'BEGIN { printf "the op function alone: shapecheck %d B, hand-written loop %d B\n", a, b }'
name=${tests[0]%% *} exe=${tests[0]#* }
echo "test firmware $name (test profile, with core::fmt for its messages):"
"$SIZE" "$exe"

echo "embedded: $passed passed, $failed failed"
[ "$failed" = 0 ]
