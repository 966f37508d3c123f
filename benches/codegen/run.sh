#!/usr/bin/env bash
# The code of each small workload through shapecheck beside the hand loop
# (src/lib.rs): builds the crate in release with `--emit=asm` in a fresh
# target dir and prints, per function, its instructions, its calls (a
# `memset`/`memcpy` of the result shows here) and its compares (a bounds
# check left in a loop shows here, beside the loops' own counters).
# Then it times the same pairs as a user's program calls them (src/main.rs:
# the default release profile, 16 codegen units; interleaved rounds).
# Usage: bash benches/codegen/run.sh [REPO] (default: this checkout; give
# another, e.g. a `git worktree` of an older commit, to compare).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "${1:-$here/../..}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/crate/src"
sed "s|path = \"../..\"|path = \"$repo\"|" "$here/Cargo.toml" >"$work/crate/Cargo.toml"
cp "$here/src/lib.rs" "$here/src/main.rs" "$work/crate/src/"
[ -f "$repo/Cargo.lock" ] && cp "$repo/Cargo.lock" "$work/crate/Cargo.lock"
(cd "$work/crate" && cargo rustc -q --release --lib --target-dir "$work/target" -- --emit=asm)
asm=$(ls "$work"/target/release/deps/shapecheck_codegen-*.s)
printf '%-8s %6s %6s %6s\n' function instr calls cmp
for f in s1 s2 x4 x5 m2 f3; do
  for side in ours hand; do
    body=$(awk -v name="${f}_${side}" '
      $0 ~ "^_ZN[0-9]+shapecheck_codegen[0-9]+" name "17h[0-9a-f]+E:$" { p = 1 }
      p && /^\.Lfunc_end/ { p = 0 }
      p' "$asm")
    [ -n "$body" ] || { echo "${f}_${side}: not found in the assembly" >&2; exit 1; }
    printf '%-8s %6d %6d %6d\n' "${f}_${side}" \
      "$(grep -cE '^\s+[a-z]' <<<"$body")" \
      "$(grep -cE '^\s+call' <<<"$body" || true)" \
      "$(grep -cE '^\s+(cmp|test)' <<<"$body" || true)"
  done
done
echo
echo "timed from a crate at the default release profile (src/main.rs):"
(cd "$work/crate" && cargo run -q --release --bin shapecheck-codegen --target-dir "$work/target-user")
