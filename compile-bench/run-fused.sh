#!/usr/bin/env bash
# Compile time of fused expressions against plain ops (issue 25: "a program
# with 20 fused expressions of depth 5 checks (`cargo check`, cold and after
# an edit) within 2x of the same program written with plain ops";
# docs/measurements.md, "Compile time", "Fused expressions").
#
# The programs: compile-bench/fused (20 fused expressions of depth 5) and
# compile-bench/chained (the same 20 computations with plain ops), both
# written by gen_fused.py. Per round, alternating fused and chained, each
# from a fresh target directory of its own, as run.sh does for the 50-op
# program:
#   cold     `cargo check` of the program, library and dependencies included
#   comment  the check after a comment is appended to main.rs (run.sh's edit)
#   code     the check after a literal in main() is changed (main is type
#            checked again: the edit a user makes)
#   alone    main.rs touched and checked again with the program's incremental
#            cache deleted: the program's own time from scratch, the library
#            already checked
# and once per round the library alone (`cargo check -p shapecheck` in a
# fresh target directory), which the cold figures include. Prints seconds per
# round, the medians and the ratios fused / chained.
# Usage: bash compile-bench/run-fused.sh [ROUNDS] (default 2).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
rounds=${1:-2}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_INCREMENTAL=1
unset CARGO_TARGET_DIR
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }

(cd "$repo" && cargo fetch -q)
for prog in fused chained; do
  mkdir -p "$work/$prog/src"
  sed "s|path = \"../..\"|path = \"$repo\"|" "$here/$prog/Cargo.toml" >"$work/$prog/Cargo.toml"
  cp "$here/$prog/src/main.rs" "$work/$prog/src/main.rs"
  [ -f "$repo/Cargo.lock" ] && cp "$repo/Cargo.lock" "$work/$prog/Cargo.lock"
done

declare -A fig=()
printf '%-6s %-8s %8s %8s %8s %8s\n' round program cold comment code alone
for r in $(seq 1 "$rounds"); do
  # the library alone, cold (in the fused program's folder; the same for both)
  rm -rf "$work/lib"
  lib=$(cd "$work/fused" && secs cargo check -p shapecheck --target-dir "$work/lib")
  ls "$work"/lib/debug/deps/libshapecheck-*.rmeta >/dev/null 2>&1 || {
    echo "run-fused.sh: the library did not check"
    exit 1
  }
  fig[lib]+=" $lib"
  printf '%-6s %-8s %8.2f\n' "$r" library "$lib"
  # alternate which program goes first
  order=(fused chained)
  [ $((r % 2)) = 0 ] && order=(chained fused)
  for prog in "${order[@]}"; do
    dir=$work/$prog tgt=$work/target-$prog
    rm -rf "$tgt"
    cp "$here/$prog/src/main.rs" "$dir/src/main.rs"
    cold=$(cd "$dir" && secs cargo check --target-dir "$tgt")
    echo "// edited" >>"$dir/src/main.rs"
    comment=$(cd "$dir" && secs cargo check --target-dir "$tgt")
    # the first `let mut total = 0.0f32;` becomes 1.0: main's body changes
    sed -i '0,/let mut total = 0.0f32;/s//let mut total = 1.0f32;/' "$dir/src/main.rs"
    grep -q 'let mut total = 1.0f32;' "$dir/src/main.rs"
    code=$(cd "$dir" && secs cargo check --target-dir "$tgt")
    touch "$dir/src/main.rs"
    rm -rf "$tgt"/debug/incremental/compile_bench_"$prog"-*
    alone=$(cd "$dir" && secs cargo check --target-dir "$tgt")
    # a check that fails (a build error) would time as a fast run: refuse it
    (cd "$dir" && cargo check -q --target-dir "$tgt" >/dev/null 2>&1) || {
      echo "run-fused.sh: $prog does not check"
      exit 1
    }
    fig[$prog-cold]+=" $cold" fig[$prog-comment]+=" $comment"
    fig[$prog-code]+=" $code" fig[$prog-alone]+=" $alone"
    printf '%-6s %-8s %8.2f %8.2f %8.2f %8.2f\n' "$r" "$prog" "$cold" "$comment" "$code" "$alone"
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
echo
printf "medians over %s rounds (library alone, cold: %.2f s)\n" "$rounds" "$(median <<<"${fig[lib]}")"
printf '%-8s %8s %8s %8s\n' what fused chained ratio
for w in cold comment code alone; do
  f=$(median <<<"${fig[fused-$w]}") c=$(median <<<"${fig[chained-$w]}")
  printf '%-8s %8.2f %8.2f %7.2fx\n' "$w" "$f" "$c" "$(echo "$f / $c" | bc -l)"
done
