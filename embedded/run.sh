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

PACKAGES=(rustc-web cargo-web rust-web-src lld-22)
# QEMU is unpacked from Debian's qemu-system-arm package into target/ rather
# than installed: installing it makes apt remove the machine's own qemu-utils
# (qemu-img 10.x from backports, which conflicts with qemu-system 7.2). Only
# its libraries are installed, and apt-get never removes anything here.
QEMU_ROOT=target/qemu-system-arm
QEMU_BIN=$QEMU_ROOT/usr/bin/qemu-system-arm
QEMU=("$QEMU_BIN" -cpu cortex-m4 -machine mps2-an386 -nographic
      -semihosting-config enable=on,target=native -kernel)
TIMEOUT=20   # seconds per QEMU run; a run takes well under one
# binutils (a dependency of rustc-web) reads ARM ELF sizes; llvm-size would
# need llvm-22 (90 MB) on top of lld-22.
SIZE=size NM=nm
TARGET_DIR=target/thumbv7em-none-eabihf

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
skip() { echo "embedded: SKIPPED (could not install Debian packages: $*)"; exit 0; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# --- packages --------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
if ((${#missing[@]})) || [ ! -x "$QEMU_BIN" ]; then
  t0=$(now)
  if [ "$(id -u)" != 0 ]; then skip "not root"; fi
  log=$(mktemp)
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >"$log" 2>&1 || skip "apt-get update failed: $(tail -n 1 "$log")"
  if [ ! -x "$QEMU_BIN" ]; then
    # qemu-system-arm's shared libraries (its Depends, less the qemu packages)
    libs=$(apt-cache depends qemu-system-arm 2>>"$log" |
      awk '$1 ~ /^\|?Depends:$/ && $2 !~ /^(qemu-|<)/ { print $2 }')
    [ -n "$libs" ] || skip "no dependency list for qemu-system-arm: $(tail -n 1 "$log")"
    for p in $libs; do installed "$p" || missing+=("$p"); done
  fi
  if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    apt-get install -y --no-install-recommends --no-remove "${missing[@]}" >"$log" 2>&1 ||
      skip "apt-get install failed: $(tail -n 1 "$log")"
  fi
  if [ ! -x "$QEMU_BIN" ]; then
    echo "unpacking qemu-system-arm into $QEMU_ROOT"
    deb_dir=$(mktemp -d)
    (cd "$deb_dir" && apt-get download qemu-system-arm) >"$log" 2>&1 ||
      skip "apt-get download qemu-system-arm failed: $(tail -n 1 "$log")"
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

t0=$(now)
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
deb cargo test --release --no-run 2>&1 | tee "$build_log"
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
echo "test firmware $name (with core::fmt for its messages):"
"$SIZE" "$exe"

echo "embedded: $passed passed, $failed failed"
[ "$failed" = 0 ]
