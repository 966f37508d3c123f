#!/usr/bin/env bash
# Models side by side (issue 58): one firmware per model and runtime, built
# for the Cortex-M4F (thumbv7em-none-eabihf) like the firmware tests and run
# under the same QEMU (mps2-an386), at opt-level s and 3 (lto, one codegen
# unit, panic abort); and shapecheck's model! on TFLite Micro's person
# detection and the MLPerf Tiny models (issue 63: the TinyML rows, int8 in
# and out, on the first recorded case of each). Per firmware:
#   - its output under QEMU (the firmware checks it and exits 0 only if it
#     is the expected one; this script checks it again against FIRMWARES:
#     an f32 output within 1e-6, an int8 one exactly);
#   - code (.text), constants (.rodata) and static RAM (.data + .bss), each
#     the difference against its baseline: the same firmware whose
#     `predict_once` writes the expected output as a constant;
#   - the stack of one `predict_once` call, painted and scanned on the
#     target (embedded/src/stack.rs, as the firmware tests measure stack);
#   - the instructions issued from the entry of `predict_once` to its
#     return (count_instructions.py: unicorn's Cortex-M4, counted per
#     translated block so that IT and condition-failed instructions count),
#     its output compared with QEMU's bit for bit; instructions per MAC;
#   - the cycles of the same run estimated for a Cortex-M4 (count_cycles.py,
#     issue 80: count_instructions.py's count, each instruction costed by
#     the Cortex-M4 TRM's timings, load/store pipelining and branch
#     refills P = 2, zero wait states; ../shared/bench/cycles/README.md),
#     per MAC: the table's last column.
# Prints the table and ends with
#   compare: N passed, N failed
# (run.sh adds these to its own tally). Anything that keeps a row from
# being measured (a tool missing, a build error, a run that fails) is a
# failure, never a skip. Needs the Debian packages and the QEMU that run.sh
# installs and unpacks (it runs this script at its end); installs the
# Python modules of the counter (unicorn, pyelftools, capstone) with pip if
# missing.
#
# Which rows (COMPARE_SET):
#   ci (the default; run.sh runs it, and CI runs run.sh): the sine and
#     speech rows (MicroFlow's and shapecheck's) at each of OPT_LEVELS, each
#     counted; the TinyML rows at opt-level s alone, each run under QEMU
#     (output, sizes, painted stack), the instructions counted for those
#     that take seconds to count (set `tiny`: person, vww, kws, ad, sww,
#     0.6 to 20 M instructions each) but not for ResNet-8 (set
#     `tiny-large`: 92 M instructions, 14 to 60 s of counting, with the
#     machine's load: the counter is a Python hook per translated block),
#     whose instruction column reads "-"; MicroFlow's TinyML rows (set
#     `microflow-tiny`) at opt-level s, run under QEMU but not counted
#     (their counts take an hour: "-"); and the firmware of small RAM (the
#     Cortex-M0 runs and issue 70's RAM goals, set `ram` below);
#   tiny: the TinyML rows alone, at each of OPT_LEVELS, every one counted
#     (`COMPARE_SET=tiny bash embedded/compare.sh`: its 12 counts about
#     30 s, ResNet-8's two 21 s of them; docs/embedded.md);
#   all: every row at each of OPT_LEVELS, every one counted, and the M0
#     and RAM-goal runs (all but MicroFlow's TinyML rows: their counts take
#     an hour);
#   microflow-tiny: MicroFlow 0.1.3's TinyML rows alone (person, vww, kws,
#     ad, sww; issue 64), at each of OPT_LEVELS, every one counted
#     (`COMPARE_SET=microflow-tiny bash embedded/compare.sh`: MicroFlow's
#     code runs about 0.6 M instructions a second in the counter, and its
#     person detection and VWW issue 400 to 500 M instructions each: about
#     an hour of counting in all; docs/embedded.md records its figures).
#     The ci set builds and runs them at s uncounted: their ten bins add
#     about a minute to the opt-level s build of embedded/microflow/, which
#     sine's and speech's firmware need anyway (MicroFlow's person
#     detection alone from clean: 166 s, docs/embedded.md).
#   ram: the firmware of small RAM alone (M0_FIRMWARES and RAM_FIRMWARES
#     below, which the ci and all sets run too: issue 70's RAM goals,
#     person detection in a 32 KiB RAM region on the M4F and keyword
#     spotting on the M0's 16 KiB, streamed; and INTERPRETER_FIRMWARES,
#     the heap-less interpreter's planned arena in a `static`), run under
#     QEMU at opt-level s, outputs checked, each with its `ram:` line; not
#     counted, no table.
#
# The TinyML models (all but person_detect.tflite, which is in
# tflite/tests/models/) and their recorded cases (tiny/<model>.json) are not
# in the repository: models/build.rs reads them from the directory
# SHAPECHECK_MODELS names, by default ../shared/models beside the
# repository (as CI has it). Without that directory this script fails.
#
# Environment: COMPARE_SET (above), OPT_LEVELS (default "s 3"), BUILD_NICE
# (as run.sh), SHAPECHECK_MODELS (above), COMPARE_TARGET (target dirs'
# prefix, default embedded/target/compare: one dir per opt-level and crate,
# <prefix>-<opt>-<crate>, as two crates' firmware of the same name would
# overwrite each other in one dir).
set -eEuo pipefail
cd "$(dirname "$0")"

# --- the firmware: one line each ------------------------------------------
# model  runtime  crate (dir under embedded/)  firmware  baseline  MACs  expected output  set  [TFLM]
# A firmware is `bin:NAME` (src/bin/NAME.rs) or `example:NAME`
# (examples/NAME.rs) of its crate, built for thumbv7em-none-eabihf, and
# follows the protocol of microflow/src/lib.rs (an exported
# `predict_once()`, an exported static `OUTPUT` of f32, the lines
# `output: <hex bits> ...` and `predict stack: N B`, exit 0 only if the
# output is right). shapecheck's rows: its `model!` on the same files
# (embedded/models/, which reuses microflow/src/lib.rs for the protocol),
# and the float32 sine (sinef32: sine_float.tflite, which MicroFlow does not
# run; a recorded TFLite case, x = 0.4986655). The TinyML rows
# (`tiny_firmware!`, embedded/models/src/lib.rs): the int8 input of the first
# recorded case of tiny/<file>.json fed as it is, the output `finish_i8`
# prints (`output: i8 <byte> ...`) compared exactly with TFLite Micro's
# there (expected `tiny:<file>`: that case's "out"); MACs from
# ../shared/models/README.md. The float32 CNN (float_cnn, in
# tflite/tests/models/; `float_firmware!`) runs all 16 recorded cases,
# fails unless each output is TFLite Micro's to the bit, prints its
# `RAM_BYTES`, and prints the first case's f32 output, compared here to
# the bit with tiny/float_cnn.json's. The set column: `main` (sine, speech),
# `tiny` (TinyML, counted in the ci set), `tiny-large` (TinyML, counted only
# in the tiny and all sets), `microflow-tiny` (MicroFlow's TinyML rows,
# built, run and counted only in the set of that name). MicroFlow's TinyML
# rows (embedded/microflow/src/bin/{person,vww,kws,ad,sww}.rs: its
# `#[model]` on the same files, `predict_quantized` on the same int8 input,
# the output printed as int8) expect MicroFlow's own output, recorded once
# (expected `mf:NAME`: the constant NAME of embedded/microflow/src/lib.rs),
# as it is not TFLite Micro's on every model; their last column names
# TFLite Micro's output (`tiny:FILE`), which the table compares with the
# row's output bit for bit (the column "TFLM": yes or no) and prints beside
# it. A row whose expected output is `tiny:FILE` is TFLite Micro's bit for
# bit or fails; sine and speech read "-" there.
FIRMWARES=(
  "sine   microflow  microflow  bin:sine    bin:sine_baseline    288     0.41348344  main"
  "speech microflow  microflow  bin:speech  bin:speech_baseline  336000  0.15625,0.2734375,0.2734375,0.296875  main"
  "sine   shapecheck models     bin:sine    bin:sine_baseline    288     0.41348344  main"
  "speech shapecheck models     bin:speech  bin:speech_baseline  336000  0.15625,0.2734375,0.2734375,0.296875  main"
  "sinef32 shapecheck models    bin:sine_float  bin:sine_float_baseline  288  0.45281887  main"
  "person  shapecheck models  bin:person   bin:person_baseline   7157888   tiny:person_detect          tiny"
  "vww     shapecheck models  bin:vww      bin:vww_baseline      7489664   tiny:vww_96_int8            tiny"
  "kws     shapecheck models  bin:kws      bin:kws_baseline      2656768   tiny:kws_ref_model          tiny"
  "resnet8 shapecheck models  bin:resnet8  bin:resnet8_baseline  12501632  tiny:pretrainedResnet_quant tiny-large"
  "ad      shapecheck models  bin:ad       bin:ad_baseline       264192    tiny:ad01_int8              tiny"
  "sww     shapecheck models  bin:sww      bin:sww_baseline      826368    tiny:str_ww_ref_model       tiny"
  "float_cnn shapecheck models bin:float_cnn bin:float_cnn_baseline 362656  tiny:float_cnn              tiny"
  "person  microflow  microflow  bin:person  bin:person_baseline  7157888  mf:PERSON_MICROFLOW  microflow-tiny  tiny:person_detect"
  "vww     microflow  microflow  bin:vww     bin:vww_baseline     7489664  mf:VWW_MICROFLOW     microflow-tiny  tiny:vww_96_int8"
  "kws     microflow  microflow  bin:kws     bin:kws_baseline     2656768  mf:KWS_MICROFLOW     microflow-tiny  tiny:kws_ref_model"
  "ad      microflow  microflow  bin:ad      bin:ad_baseline      264192   mf:AD_MICROFLOW      microflow-tiny  tiny:ad01_int8"
  "sww     microflow  microflow  bin:sww     bin:sww_baseline     826368   mf:SWW_MICROFLOW     microflow-tiny  tiny:str_ww_ref_model"
)
# Correctness on the Cortex-M0 (thumbv6m-none-eabi, QEMU microbit: no FPU,
# 16 KiB of RAM), opt-level s, output checked and the painted stack printed,
# nothing else measured (sets ci, all and ram); the streaming wake word's
# arena (model!'s default plan), its 1,200-byte input and the frames fit
# the 16 KiB, and keyword spotting's at its streamed plan (issue 70:
# src/bin/kws_m0.rs, every recorded case, its `ram:` line: painted stack
# since reset + .data + .bss, against the 16 KiB):
# model  runtime  crate  firmware  expected output
M0_FIRMWARES=(
  "sine   shapecheck models  bin:sine  0.41348344"
  "speech shapecheck models  bin:speech  0.15625,0.2734375,0.2734375,0.296875"
  "sww    shapecheck models  bin:sww  tiny:str_ww_ref_model"
  "kws    shapecheck models  bin:kws_m0  tiny:kws_ref_model"
)
# Issue 70's RAM goal on the Cortex-M4F (sets ci, all and ram), run and
# checked as the M0 runs above, opt-level s: person detection at its
# streamed plan linked with a RAM region of 32 KiB
# (embedded/models/src/bin/person_ram32k.rs: every recorded case, an MPU
# guard below its stack, a fault that fails at once), its `ram:` line
# (painted stack since reset + .data + .bss, against the 32 KiB; the
# firmware fails if the stack reached the region's end); and after them
# the guard's own check (guard_ram32k, below).
# core  model  runtime  crate  firmware  expected output
RAM_FIRMWARES=(
  "m4 person shapecheck models  bin:person_ram32k  tiny:person_detect"
)
# The heap-less interpreter in firmware (issue 78; sets ci, all and ram),
# run and checked as the RAM goals above, opt-level s, on the M4F's 4 MiB
# map: person detection parsed from flash at run time, planned on the
# device (`Interpreter::planned`, `Layout::Packed`) into `static` buffers
# whose lengths build.rs computed with the same size query
# (embedded/models/src/bin/person_planned.rs): every recorded case bit for
# bit, a wrong byte planted in each output caught, and its `interpreter:`
# lines (the int8 arena, the planned activation bytes beside `model!`'s
# `RAM_BYTES` at `schedule = layers`, the places', steps' and multipliers'
# bytes) printed here; a run without them fails.
# core  model  runtime  crate  firmware  expected output
INTERPRETER_FIRMWARES=(
  "m4 person interpreter models  bin:person_planned  tiny:person_detect"
)
read -r -a OPT_LEVELS <<<"${OPT_LEVELS:-s 3}"
COMPARE_SET=${COMPARE_SET:-ci}
PREFIX=${COMPARE_TARGET:-$PWD/target/compare}
M4=thumbv7em-none-eabihf M0=thumbv6m-none-eabi
QEMU_BIN=target/qemu-system-arm/usr/bin/qemu-system-arm
QEMU_M4=("$QEMU_BIN" -cpu cortex-m4 -machine mps2-an386 -nographic
         -semihosting-config enable=on,target=native -kernel)
QEMU_M0=("$QEMU_BIN" -machine microbit -nographic
         -semihosting-config enable=on,target=native -kernel)
TIMEOUT=60   # seconds per QEMU run; speech and person detection take about a second
SIZE=arm-none-eabi-size
PY=${PYTHON:-python3}

passed=0 failed=0
summary() { echo "compare: $passed passed, $failed failed"; }
cannot() { echo "compare: cannot run: $*"; failed=$((failed + 1)); summary; exit 1; }
fail() { echo "compare: FAILED: $*"; failed=$((failed + 1)); }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
trap 'rc=$?; cannot "line $LINENO: \`$BASH_COMMAND\` failed (status $rc)"' ERR

# --- tools -------------------------------------------------------------------
[ -x "$QEMU_BIN" ] || cannot "no QEMU at embedded/$QEMU_BIN (bash embedded/run.sh unpacks it)"
for t in "$SIZE" arm-none-eabi-as arm-none-eabi-ld /usr/bin/cargo /usr/bin/rustc "$PY"; do
  command -v "$t" >/dev/null || cannot "$t missing (bash embedded/run.sh installs the Debian packages)"
done
if ! "$PY" -c 'import unicorn, elftools, capstone' 2>/dev/null; then
  echo "installing the counter's Python modules: unicorn 2.1.4, pyelftools 0.33, capstone 5.0.9"
  "$PY" -m pip install --quiet unicorn==2.1.4 pyelftools==0.33 capstone==5.0.9 >/dev/null 2>&1 ||
    cannot "pip install unicorn pyelftools capstone failed"
  "$PY" -c 'import unicorn, elftools, capstone' 2>/dev/null ||
    cannot "unicorn, pyelftools or capstone still not importable"
fi
case $COMPARE_SET in
  ci | tiny | all | microflow-tiny | ram) ;;
  *) cannot "COMPARE_SET must be ci, tiny, all, microflow-tiny or ram, not '$COMPARE_SET'" ;;
esac
# the TinyML models and their recorded cases (models/build.rs reads them)
repo=$(cd .. && pwd)
export SHAPECHECK_MODELS=${SHAPECHECK_MODELS:-$repo/../shared/models}
[ -d "$SHAPECHECK_MODELS/tiny" ] ||
  cannot "no TinyML models: $SHAPECHECK_MODELS/tiny is not a directory (set SHAPECHECK_MODELS to the directory of the MLPerf Tiny .tflite files and tiny/*.json; CI has ../shared/models beside the clone)"
echo "TinyML models from $SHAPECHECK_MODELS (COMPARE_SET=$COMPARE_SET)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# The counter against hand-counted assembly first: a count that is off
# fails here, not silently in the table.
if "$PY" count_instructions.py --self-test >"$log" 2>&1; then
  passed=$((passed + 1)); echo "counter self-test: ok ($(tail -n 1 "$log"))"
else
  cat "$log"; fail "count_instructions.py --self-test"
fi
# the cycle model against the same functions' cycles counted by hand
if "$PY" count_cycles.py --self-test >"$log" 2>&1; then
  passed=$((passed + 1)); echo "cycle model self-test: ok ($(tail -n 1 "$log"))"
else
  cat "$log"; fail "count_cycles.py --self-test"
fi
# the kernels' inner blocks alone, each checked against its sums in Python:
# what the M4's timings allow per MAC (docs/measurements.md)
if "$PY" bounds.py >"$log" 2>&1; then
  passed=$((passed + 1)); echo "inner blocks' bounds: ok ($(tail -n 1 "$log"))"
else
  cat "$log"; fail "bounds.py"
fi

# --- build -----------------------------------------------------------------
deb() { # as run.sh: Debian's toolchain, for these commands only
  env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS -u RUSTC_WRAPPER \
    PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 "$@"
}
build_nice=${BUILD_NICE:-0}
[[ "$build_nice" =~ ^[0-9]+$ ]] || cannot "BUILD_NICE must be a number from 0 to 19, not '$build_nice'"
# The rows of this run: "OPT COUNT LINE" (COUNT 1: the instructions are
# counted), opt-level by opt-level, in FIRMWARES' order.
opts=("${OPT_LEVELS[@]}")
# the ci set runs the TinyML rows at s, whatever OPT_LEVELS says
[ "$COMPARE_SET" = ci ] && [[ " ${opts[*]} " != *" s "* ]] && opts+=(s)
plan=()
for opt in "${opts[@]}"; do
  in_levels=0
  [[ " ${OPT_LEVELS[*]} " == *" $opt "* ]] && in_levels=1
  for line in "${FIRMWARES[@]}"; do
    read -r -a col <<<"$line"
    kind=${col[7]:-}
    case $COMPARE_SET/$kind in
      ci/main) ((in_levels)) && plan+=("$opt 1 $line") ;;
      ci/tiny) [ "$opt" = s ] && plan+=("$opt 1 $line") ;;
      ci/tiny-large | ci/microflow-tiny) [ "$opt" = s ] && plan+=("$opt 0 $line") ;;
      tiny/tiny | tiny/tiny-large | microflow-tiny/microflow-tiny) plan+=("$opt 1 $line") ;;
      all/microflow-tiny) ;;
      all/*) plan+=("$opt 1 $line") ;;
      tiny/* | microflow-tiny/* | ram/*) ;;
    esac
    case $kind in
      main | tiny | tiny-large | microflow-tiny) ;;
      *) cannot "FIRMWARES: '$line' has no set (main, tiny, tiny-large or microflow-tiny)" ;;
    esac
  done
done
((${#plan[@]})) || [ "$COMPARE_SET" = ram ] || cannot "no row to run (COMPARE_SET=$COMPARE_SET, OPT_LEVELS=${OPT_LEVELS[*]})"
# per crate and opt-level, the cargo target arguments of its firmware
declare -A targets=()
for entry in "${plan[@]}"; do
  read -r opt _ _ _ crate fw base _ <<<"$entry"
  for t in "$fw" "$base"; do
    targets["$crate $opt"]+=" --${t%%:*} ${t#*:}"
  done
done
tdir() { # OPT CRATE -> its target dir ("." as "_")
  echo "$PREFIX-$1-${2//[^A-Za-z0-9_-]/_}"
}
declare -A built=()   # "crate opt" -> 1 when its build succeeded
crates=$(printf '%s\n' "${!targets[@]}" | awk '{ print $1 }' | sort -u)
for opt in "${opts[@]}"; do
  for crate in $crates; do
    [ -n "${targets["$crate $opt"]:-}" ] || continue
    t0=$(now)
    # shellcheck disable=SC2086 # the target arguments are words
    if (cd "$crate" && deb CARGO_TARGET_DIR="$(tdir "$opt" "$crate")" CARGO_PROFILE_RELEASE_OPT_LEVEL="$opt" \
        CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort \
        nice -n "$build_nice" cargo build --release ${targets["$crate $opt"]}) >"$log" 2>&1; then
      built["$crate $opt"]=1
      echo "build ($crate, opt-level $opt): $(since "$t0") s"
    else
      cat "$log"; fail "build ($crate, opt-level $opt)"
    fi
  done
done

# --- run and measure ---------------------------------------------------------
elf() { # OPT CRATE FIRMWARE -> the ELF's path
  local dir
  dir=$(tdir "$1" "$2")/$M4/release
  shift
  case $2 in example:*) echo "$dir/examples/${2#*:}" ;; *) echo "$dir/${2#*:}" ;; esac
}
sections() { # ELF -> "text rodata data bss"
  "$SIZE" -A "$1" | awk '$1 == ".text" { t = $2 } $1 == ".rodata" { r = $2 }
    $1 == ".data" { d = $2 } $1 == ".bss" { b = $2 } END { print t + 0, r + 0, d + 0, b + 0 }'
}
# decode an `output:` line's values: "3ed3b41a ..." (f32 bits) into
# "0.41348344,...", each the shortest decimal that reads back as the same
# f32, or "i8 8f 71" (int8 bytes) into "-113,113"; with an expected list,
# exit 0 only if they agree (f32 within 1e-6, int8 exactly). Past 12
# values the list printed is cut ("..., 640 values").
floats() {
  "$PY" - "$@" <<'EOF'
import struct, sys
def f32(h):
    return struct.unpack(">f", bytes.fromhex(h))[0]
def short(x):
    for p in range(1, 10):
        s = "%.*g" % (p, x)
        if struct.pack(">f", float(s)) == struct.pack(">f", x):
            return s
    return repr(x)
words = sys.argv[1].split()
int8 = bool(words) and words[0] == "i8"
if int8:
    got = [int(h, 16) - (256 if int(h, 16) > 127 else 0) for h in words[1:]]
    text = [str(x) for x in got]
else:
    got = [f32(h) for h in words]
    text = [short(x) for x in got]
print(",".join(text) if len(text) <= 12 else ",".join(text[:8]) + f",..., {len(text)} values")
if len(sys.argv) > 2:
    if int8:
        ok = got == [int(w) for w in sys.argv[2].split(",")]
    else:
        want = [float(w) for w in sys.argv[2].split(",")]
        if len(sys.argv) > 3 and sys.argv[3] == "exact":
            # to the bit: each wanted number rounded to the nearest f32
            ok = len(got) == len(want) and all(
                struct.pack(">f", g) == struct.pack(">f", w) for g, w in zip(got, want))
        else:
            ok = len(got) == len(want) and all(abs(g - w) <= 1e-6 for g, w in zip(got, want))
    sys.exit(0 if ok else 1)
EOF
}
# an expected output into $want: as FIRMWARES writes it, for
# `tiny:FILE` the "out" of the first case of $SHAPECHECK_MODELS/tiny/FILE.json,
# for `mf:NAME` the int8 constant NAME of microflow/src/lib.rs (MicroFlow's
# recorded output) ("v,v,...", read once)
declare -A expected_of=()
expected() {
  want=$1
  [[ $1 == tiny:* || $1 == mf:* ]] || return 0
  if [ -z "${expected_of[$1]:-}" ]; then
    expected_of[$1]=$("$PY" - "$1" "$SHAPECHECK_MODELS" <<'EOF'
import json, re, sys
kind, _, name = sys.argv[1].partition(":")
if kind == "tiny":
    out = json.load(open(f"{sys.argv[2]}/tiny/{name}.json"))["cases"][0]["out"]
else:
    src = open("microflow/src/lib.rs").read()
    m = re.search(r"pub const " + name + r": \[i8; (\d+)\] = \[([^\]]*)\];", src)
    if not m:
        sys.exit(f"microflow/src/lib.rs: no int8 constant {name}")
    out = [int(v) for v in m.group(2).replace(",", " ").split()]
    if len(out) != int(m.group(1)):
        sys.exit(f"microflow/src/lib.rs: {name}: {len(out)} values for {m.group(1)}")
# int8 outputs as integers; a float32 model's (float_cnn) as the shortest
# decimal that reads back as the same f32
print(",".join(str(v) if isinstance(v, int) else repr(v) for v in out))
EOF
    ) || return 1
  fi
  want=${expected_of[$1]}
}
rows=() details=() uncounted=()
for entry in "${plan[@]}"; do
  read -r opt counted model runtime crate fw base macs expected _ tflm _ <<<"$entry"
  label="$model $runtime opt-$opt"
  [ -n "${built["$crate $opt"]:-}" ] || { fail "$label: not built"; continue; }
  # TFLite Micro's output for this row's input: `tiny:FILE` (the last
  # column, or the expected output itself); none for sine and speech
  if [ -z "$tflm" ]; then
    tflm=-
    [[ $expected != tiny:* ]] || tflm=$expected
  fi
  tflm_want=-
  if [ "$tflm" != - ]; then
    if ! expected "$tflm"; then
      fail "$label: TFLite Micro's output $tflm cannot be read"; continue
    fi
    tflm_want=$want
  fi
  if ! expected "$expected"; then
    fail "$label: the expected output $expected cannot be read"; continue
  fi
  declare -A out=() stk=() sec=()
  ok=1 ram_note=""
  for t in "$fw" "$base"; do
    f=$(elf "$opt" "$crate" "$t")
    [ -f "$f" ] || { fail "$label: $f missing after the build"; ok=0; continue; }
    status=0
    t0=$(now)
    timeout "$TIMEOUT" "${QEMU_M4[@]}" "$f" >"$log" 2>&1 || status=$?
    secs=$(since "$t0")
    o=$(sed -n 's/^output: *//p' "$log" | tail -n 1)
    s=$(sed -n 's/^predict stack: *\([0-9]*\) B$/\1/p' "$log" | tail -n 1)
    if [ "$status" != 0 ] || [ -z "$o" ] || [ -z "$s" ]; then
      cut -c 1-300 "$log"
      why="exit $status"
      [ "$status" != 124 ] || why="no exit within ${TIMEOUT} s"
      fail "$label: ${t#*:} under QEMU ($why)"
      ok=0; continue
    fi
    if ! dec=$(floats "$o" "$want"); then
      fail "$label: ${t#*:} printed $dec, expected $want"; ok=0; continue
    fi
    passed=$((passed + 1))
    out[$t]=$o stk[$t]=$s sec[$t]=$(sections "$f")
    # the model's RAM_BYTES, where the firmware prints it (float_cnn's)
    rb=$(sed -n 's/^RAM_BYTES: *\([0-9]*\) B$/\1/p' "$log" | tail -n 1)
    [ -z "$rb" ] || [ "$t" != "$fw" ] || ram_note="; RAM_BYTES $rb B"
    echo "$label: ${t#*:} ok ($secs s) -- output $dec, predict stack $s B${rb:+, RAM_BYTES $rb B}"
  done
  ((ok)) || { unset out stk sec; continue; }
  read -r t1 r1 d1 b1 <<<"${sec[$fw]}"
  read -r t0 r0 d0 b0 <<<"${sec[$base]}"
  # bit for bit TFLite Micro's? (yes, no, or - where no TFLite Micro output
  # is recorded)
  exact=- t_note=""
  if [ "$tflm_want" != - ]; then
    if floats "${out[$fw]}" "$tflm_want" exact >/dev/null; then
      exact=yes t_note="; TFLM bit-exact: yes"
    elif [[ ${out[$fw]} != i8* ]]; then
      # a float32 model's: TFLite Micro's numbers as recorded
      exact=no t_note="; TFLM bit-exact: no: output $(floats "${out[$fw]}"), TFLite Micro's $tflm_want"
    else
      exact=no t_note="; TFLM bit-exact: no: output $(floats "${out[$fw]}"), TFLite Micro's $(floats "i8 $(
        "$PY" -c 'import sys; print(" ".join("%02x" % (int(v) & 255) for v in sys.argv[1].split(",")))' "$tflm_want")")"
    fi
  fi
  set_name=tiny
  [[ $expected != mf:* ]] || set_name=microflow-tiny
  insns=- per_mac=- cyc_mac=- c_note="not counted in this set (COMPARE_SET=$set_name counts it)"
  if ((counted)); then
    # the instructions of one predict_once, and its output in the counter
    f=$(elf "$opt" "$crate" "$fw")
    read -r -a words <<<"${out[$fw]}"
    if [ "${words[0]}" = i8 ]; then
      read_spec="OUTPUT:$((${#words[@]} - 1)):i8"
    else
      read_spec="OUTPUT:${#words[@]}"
    fi
    t_count=$(now)
    # count_cycles.py: count_instructions.py's count and output, and the
    # cycles of the same run (one emulation for both)
    if ! "$PY" count_cycles.py "$f" --symbol predict_once --read "$read_spec" >"$log" 2>&1; then
      cut -c 1-300 "$log"; fail "$label: instruction count"; unset out stk sec; continue
    fi
    insns=$(sed -n 's/^instructions: //p' "$log")
    cycles=$(sed -n 's/^cycles: P=1 [0-9]*, P=2 \([0-9]*\),.*/\1/p' "$log")
    if [ -z "$cycles" ]; then
      cut -c 1-300 "$log"; fail "$label: no cycle estimate"; unset out stk sec; continue
    fi
    c_stack=$(sed -n 's/^stack: \([0-9]*\) B$/\1/p' "$log")
    c_out=$(sed -n 's/^output: //p' "$log")
    if [ "$c_out" != "${out[$fw]}" ]; then
      fail "$label: the counter's run gave output $c_out, QEMU's ${out[$fw]}"; unset out stk sec; continue
    fi
    passed=$((passed + 1))
    per_mac=$(awk -v n="$insns" -v m="$macs" 'BEGIN { printf "%.1f", n / m }')
    cyc_mac=$(awk -v n="$cycles" -v m="$macs" 'BEGIN { printf "%.2f", n / m }')
    c_note="counter: stack $c_stack B, output bit-identical to QEMU's, $cycles cycles (P=2), $(since "$t_count") s"
    # as it comes: a long set's counts (MicroFlow's, an hour) are not lost
    # if the run stops before its table
    echo "$label: ${fw#*:} counted: $insns instructions ($per_mac per MAC), $cyc_mac cycles per MAC, $c_note"
  else
    uncounted+=("$model ($runtime) opt-$opt")
  fi
  rows+=("$(awk -v m="$model" -v r="$runtime" -v o="$opt" -v code=$((t1 - t0)) -v ro=$((r1 - r0)) \
    -v ram=$((d1 + b1 - d0 - b0)) -v s="${stk[$fw]}" -v n="$insns" -v pm="$per_mac" -v x="$exact" \
    -v cm="$cyc_mac" 'BEGIN {
    printf "%-7s %-11s %-4s %8d B %10d B %10d B %9d B %12s %8s %5s %10s\n", m, r, o, code, ro, ram, s, n, pm, x, cm }')")
  details+=("$(printf '%-7s %-11s %-4s firmware text %d rodata %d data %d bss %d; baseline text %d rodata %d data %d bss %d; %s%s' \
    "$model" "$runtime" "$opt" "$t1" "$r1" "$d1" "$b1" "$t0" "$r0" "$d0" "$b0" "$c_note" "$t_note$ram_note")")
  unset out stk sec
done

# --- the Cortex-M0 and the RAM goals: correctness only --------------------------
small=()
case $COMPARE_SET in
  tiny | microflow-tiny) ;;
  *)
    for line in "${M0_FIRMWARES[@]}"; do small+=("m0 $line"); done
    for line in "${RAM_FIRMWARES[@]}"; do small+=("$line"); done
    for line in "${INTERPRETER_FIRMWARES[@]}"; do small+=("$line"); done
    ;;
esac
for line in "${small[@]}"; do
  read -r core model runtime crate fw expected <<<"$line"
  if [ "$core" = m0 ]; then
    target=$M0 qemu=("${QEMU_M0[@]}") label="$model $runtime M0 (microbit, opt-s)"
  else
    target=$M4 qemu=("${QEMU_M4[@]}") label="$model $runtime M4F (${fw#*:}, opt-s)"
  fi
  # the M4F's in the opt-level s rows' target dir (the same flags: its
  # crates built once), the M0's in one of its own
  if [ "$core" = m0 ]; then dir=$(tdir m0 "$crate"); else dir=$(tdir s "$crate"); fi
  if ! expected "$expected"; then
    fail "$label: the expected output $expected cannot be read"; continue
  fi
  t0=$(now)
  if ! (cd "$crate" && deb CARGO_TARGET_DIR="$dir" CARGO_PROFILE_RELEASE_OPT_LEVEL=s \
      CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort \
      nice -n "$build_nice" cargo build --release --target "$target" "--${fw%%:*}" "${fw#*:}") >"$log" 2>&1; then
    cat "$log"; fail "$label: build"; continue
  fi
  echo "build ($crate, $target, opt-level s): $(since "$t0") s"
  case $fw in example:*) f=$dir/$target/release/examples/${fw#*:} ;; *) f=$dir/$target/release/${fw#*:} ;; esac
  status=0
  timeout "$TIMEOUT" "${qemu[@]}" "$f" >"$log" 2>&1 || status=$?
  o=$(sed -n 's/^output: *//p' "$log" | tail -n 1)
  s=$(sed -n 's/^predict stack: *\([0-9]*\) B$/\1/p' "$log" | tail -n 1)
  ram=$(sed -n 's/^ram: //p' "$log" | tail -n 1)
  cases=$(sed -n 's/^cases: \([0-9]* of [0-9]*\) .*/\1/p' "$log" | tail -n 1)
  if [ "$status" != 0 ] || [ -z "$o" ]; then
    cut -c 1-300 "$log"; fail "$label: ${fw#*:} under QEMU (exit $status)"; continue
  fi
  if ! dec=$(floats "$o" "$want"); then
    fail "$label: ${fw#*:} printed $dec, expected $want"; continue
  fi
  if [ "$runtime" = interpreter ]; then
    # the interpreter's figures, and every case and planted byte
    figures=$(sed -n 's/^interpreter: //p' "$log")
    planted=$(sed -n 's/^planted: \([0-9]* of [0-9]*\) .*/\1/p' "$log" | tail -n 1)
    if [ -z "$figures" ] || [ -z "$cases" ] || [ -z "$planted" ]; then
      cut -c 1-300 "$log"; fail "$label: no interpreter:, cases: or planted: lines"; continue
    fi
    while IFS= read -r figure; do echo "$label: $figure"; done <<<"$figures"
    echo "$label: planted wrong bytes caught: $planted"
    # every kernel is linked: the flash it takes, against the board's 4 MiB
    read -r ft fr fd _ <<<"$(sections "$f")"
    echo "$label: flash $((ft + fr + fd)) B (code $ft, constants $fr, data $fd) of 4194304 B"
  fi
  passed=$((passed + 1))
  echo "$label: ${fw#*:} ok -- output $dec${cases:+ (cases $cases bit for bit)}, predict stack $s B${ram:+, RAM $ram}"
done
# The check of person_ram32k's stack guard (sets ci, all and ram):
# guard_ram32k, a recursion past its 32 KiB region under the same MPU guard
# and HardFault, must fault on the guard (and exit 1 at once).
if [ "$COMPARE_SET" != tiny ] && [ "$COMPARE_SET" != microflow-tiny ]; then
  label="stack guard M4F (guard_ram32k, opt-s)"
  dir=$(tdir s models)
  if (cd models && deb CARGO_TARGET_DIR="$dir" CARGO_PROFILE_RELEASE_OPT_LEVEL=s \
      CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort \
      nice -n "$build_nice" cargo build --release --target "$M4" --bin guard_ram32k) >"$log" 2>&1; then
    status=0
    timeout "$TIMEOUT" "${QEMU_M4[@]}" "$dir/$M4/release/guard_ram32k" >"$log" 2>&1 || status=$?
    caught=$(sed -n "s/^\(fault: the stack's MPU guard at .*\)/\1/p" "$log" | tail -n 1)
    if [ "$status" = 1 ] && [ -n "$caught" ]; then
      passed=$((passed + 1))
      echo "$label: ok -- a stack past the 32 KiB region: $caught"
    else
      cut -c 1-300 "$log"; fail "$label: exit $status, no fault on the guard"
    fi
  else
    cat "$log"; fail "$label: build"
  fi
fi
if [ "$COMPARE_SET" = ram ]; then
  summary
  if [ "$failed" != 0 ]; then exit 1; fi
  exit 0
fi

echo
echo "models on the Cortex-M4F (mps2-an386): one inference; code, constants and static RAM are the"
echo "firmware's minus its baseline's (predict replaced by a constant); stack painted on target;"
echo "instructions issued by predict_once, counted by emulation (count_instructions.py's count, run by count_cycles.py); TFLM: the"
echo "output bit for bit TFLite Micro's on the same input (- where none is recorded: sine, speech);"
echo "cycles/MAC: the same run's Cortex-M4 cycles estimated by the TRM's timings (count_cycles.py;"
echo "load/store pipelining, branch refill P = 2, zero wait states) per MAC"
printf '%-7s %-11s %-4s %10s %12s %12s %11s %12s %8s %5s %10s\n' model runtime opt "code" "constants" \
  "RAM static" stack instructions "per MAC" TFLM cycles/MAC
printf '%s\n' "${rows[@]}"
if ((${#uncounted[@]})); then
  echo "(-: not counted in this set, ${uncounted[*]}; \`COMPARE_SET=tiny bash embedded/compare.sh\` counts shapecheck's,"
  echo " \`COMPARE_SET=microflow-tiny bash embedded/compare.sh\` MicroFlow's TinyML rows: docs/embedded.md has their figures)"
fi
echo
echo "whole firmware, in bytes (sections from arm-none-eabi-size -A):"
printf '%s\n' "${details[@]}"
summary
if [ "$failed" != 0 ]; then exit 1; fi
