#!/usr/bin/env bash
# Compile time of shapecheck as a user pays it (docs/measurements.md,
# "Compile time"): the library's clean release build, a cold `cargo check`
# of the 50-op program in this folder (library included), and the check
# after an edit of the program. Each from a fresh target directory of its
# own; prints seconds. Usage: bash compile-bench/run.sh [REPO] (default: this
# checkout; give another checkout, e.g. a `git worktree` of an older commit,
# to compare in the same sitting).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "${1:-$here/..}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_INCREMENTAL=1
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }

# the library alone, release, from clean (dependencies fetched first, not timed)
(cd "$repo" && cargo fetch -q)
release=$(cd "$repo" && secs cargo build --release -p shapecheck --lib --target-dir "$work/release")

# the program, in a copy that depends on $repo
mkdir -p "$work/prog/src"
sed "s|path = \"..\"|path = \"$repo\"|" "$here/Cargo.toml" >"$work/prog/Cargo.toml"
cp "$here/src/main.rs" "$work/prog/src/main.rs"
[ -f "$repo/Cargo.lock" ] && cp "$repo/Cargo.lock" "$work/prog/Cargo.lock"
cold=$(cd "$work/prog" && secs cargo check --target-dir "$work/check")
echo "// edited" >>"$work/prog/src/main.rs"
edit=$(cd "$work/prog" && secs cargo check --target-dir "$work/check")
printf 'release build (library, clean): %.2f s\ncold check (50-op program + library): %.2f s\ncheck after an edit: %.2f s\n' "$release" "$cold" "$edit"
