//! The heap-less interpreter on TFLite Micro's person detection (issue 78):
//! `person_detect.tflite` parsed from flash at run time (`Model::parse`),
//! its activations placed by the planner on the device
//! (`Interpreter::planned`, `Layout::Packed`: the same offsets as `Plan`'s
//! and `model!`'s at `schedule = layers`) in `static` buffers whose lengths
//! build.rs computed on the host with the same size query
//! (`Interpreter::planned_sizes`: `tiny/person_detect.planned.rs`). No heap.
//!
//! It
//! - asks the size query again on the device (its scratch a local array,
//!   `Interpreter::plan_scratch_len` long) and fails unless it gives
//!   build.rs's numbers, and unless the activation bytes are `model!`'s
//!   `RAM_BYTES` for the same file at `schedule = layers`;
//! - prints `interpreter: ...`: the int8 arena (the input beside the
//!   planned activations), `RAM_BYTES`, and the bytes of the tensor places,
//!   the prepared steps and multipliers (`size_of` on this target) and the
//!   scratch;
//! - runs every recorded case of `tiny/person_detect.json` (read by
//!   build.rs from `SHAPECHECK_MODELS`), each `invoke` under
//!   `stack::measure`, and compares every output byte with TFLite Micro's;
//!   then, for a right output, plants a wrong byte in a copy of it
//!   (element `case % 2`, its lowest bit flipped) and fails unless the same
//!   comparison reports it there;
//! - prints `case <name>: output differs` for a case that is not TFLite
//!   Micro's, `cases: N of N TFLite Micro's, bit for bit`, the `ram:` line
//!   (`check_ram`), and ends with `finish_i8` on the first case (exit 0 only
//!   if every case was TFLite Micro's and every planted byte was caught).
//!
//! compare.sh runs it (its `INTERPRETER_FIRMWARES`; run.sh runs compare.sh).
#![no_std]
#![no_main]

use core::mem::size_of;
use core::ptr::addr_of_mut;
use shapecheck::tflite::{
    Arena, Arithmetic, Interpreter, Layout, Model, PlannedBuffers, PlannedSizes, PreparedStep,
    QuantizedMultiplier, TensorData,
};
use shapecheck_models_compare::{check_ram, finish_i8, print, print_cases, print_line, stack};

include!(concat!(env!("OUT_DIR"), "/tiny/person_detect.planned.rs"));
include!(concat!(env!("OUT_DIR"), "/tiny/person_detect.cases.rs"));

const N_OUT: usize = EXPECTEDS[0].len();

// The interpreter's buffers, `static`s (in `.bss`; the steps in `.data`, as
// `PreparedStep::EMPTY` is not all zero bytes), their lengths build.rs's.
static mut ACT_INT8: [i8; INT8] = [0; INT8];
static mut ACT_INT16: [i16; INT16] = [0; INT16];
static mut ACT_INT32: [i32; INT32] = [0; INT32];
static mut ACT_FLOAT32: [f32; FLOAT32] = [0.0; FLOAT32];
static mut TENSOR_PLACES: [usize; PLACES] = [0; PLACES];
static mut PREPARED_STEPS: [PreparedStep<'static>; STEPS] = [PreparedStep::EMPTY; STEPS];
static mut PREPARED_MULTIPLIERS: [QuantizedMultiplier; MULTIPLIERS] =
    [QuantizedMultiplier::ZERO; MULTIPLIERS];

/// The bytes of the statics above: what the interpreter keeps in RAM.
const STATIC_BYTES: usize = size_of::<[i8; INT8]>()
    + size_of::<[i16; INT16]>()
    + size_of::<[i32; INT32]>()
    + size_of::<[f32; FLOAT32]>()
    + size_of::<[usize; PLACES]>()
    + size_of::<[PreparedStep<'static>; STEPS]>()
    + size_of::<[QuantizedMultiplier; MULTIPLIERS]>();

/// Prints `why` and fails the run.
fn stop(why: &str) -> ! {
    print(&[b"person_planned: ", why.as_bytes(), b"\n"]);
    cortex_m_semihosting::debug::exit(cortex_m_semihosting::debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

/// The first element where `ours` and `theirs` differ (a length that
/// differs: the shorter one's length), or `None` when they are equal.
fn first_difference(ours: &[i8], theirs: &[i8]) -> Option<usize> {
    match ours.iter().zip(theirs).position(|(a, b)| a != b) {
        Some(i) => Some(i),
        None if ours.len() != theirs.len() => Some(ours.len().min(theirs.len())),
        None => None,
    }
}

#[cortex_m_rt::entry]
fn main() -> ! {
    let Ok(model) = Model::parse(MODEL) else {
        stop("the model does not parse")
    };

    // the size query on the device, against build.rs's constants
    let mut scratch = [0usize; SCRATCH];
    if Interpreter::plan_scratch_len(&model) != SCRATCH {
        stop("plan_scratch_len differs from build.rs's");
    }
    let Ok(sizes) = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch) else {
        stop("planned_sizes failed on the device")
    };
    let PlannedSizes {
        arena,
        activation_bytes,
        places,
        steps,
        multipliers,
    } = sizes;
    if (arena.int8, arena.int16, arena.int32, arena.float32) != (INT8, INT16, INT32, FLOAT32)
        || (activation_bytes, places, steps, multipliers)
            != (ACTIVATION_BYTES, PLACES, STEPS, MULTIPLIERS)
    {
        stop("the device's planned_sizes differ from build.rs's");
    }
    if activation_bytes != person_layers::RAM_BYTES {
        stop("the planned activation bytes are not model!'s RAM_BYTES at schedule = layers");
    }
    let input_bytes = INPUTS[0].len();
    let word = size_of::<usize>();
    let (step, multiplier) = (
        size_of::<PreparedStep<'static>>(),
        size_of::<QuantizedMultiplier>(),
    );
    print_line(&[
        ("interpreter: int8 arena ", Some(arena.int8)),
        (" B (static) = the input's ", Some(input_bytes)),
        (" B + planned activations ", Some(activation_bytes)),
        (
            " B; model! RAM_BYTES (schedule = layers) ",
            Some(person_layers::RAM_BYTES),
        ),
        (" B\n", None),
    ]);
    print_line(&[
        ("interpreter: tensor places ", Some(places)),
        (" x ", Some(word)),
        (" B = ", Some(places * word)),
        (" B; prepared steps ", Some(steps)),
        (" x ", Some(step)),
        (" B = ", Some(steps * step)),
        (" B; multipliers ", Some(multipliers)),
        (" x ", Some(multiplier)),
        (" B = ", Some(multipliers * multiplier)),
        (" B; plan scratch ", Some(SCRATCH * word)),
        (" B (stack, while planning)\n", None),
    ]);
    print_line(&[
        ("interpreter: static total ", Some(STATIC_BYTES)),
        (" B; the device's planned_sizes = build.rs's\n", None),
    ]);

    // SAFETY: single-threaded firmware; each static is borrowed once, here,
    // for the rest of the run
    let (int8, int16, int32, float32, places, steps, multipliers) = unsafe {
        (
            &mut *addr_of_mut!(ACT_INT8),
            &mut *addr_of_mut!(ACT_INT16),
            &mut *addr_of_mut!(ACT_INT32),
            &mut *addr_of_mut!(ACT_FLOAT32),
            &mut *addr_of_mut!(TENSOR_PLACES),
            &mut *addr_of_mut!(PREPARED_STEPS),
            &mut *addr_of_mut!(PREPARED_MULTIPLIERS),
        )
    };
    let arena = Arena {
        int8,
        int16,
        int32,
        float32,
        multipliers: &mut [],
    };
    let buffers = PlannedBuffers {
        places,
        steps,
        multipliers,
    };
    let Ok(mut interpreter) = Interpreter::planned(
        model,
        arena,
        buffers,
        &mut scratch,
        Layout::Packed,
        Arithmetic::Micro,
    ) else {
        stop("Interpreter::planned failed")
    };

    let (mut peak, mut wrong, mut missed) = (0, 0, 0);
    let mut first = [0i8; N_OUT];
    for (k, ((input, expected), name)) in INPUTS.iter().zip(&EXPECTEDS).zip(CASE_NAMES).enumerate()
    {
        if interpreter.set_input(0, TensorData::Int8(input)).is_err() {
            stop("set_input failed");
        }
        let (ran, used) = stack::measure(|| interpreter.invoke());
        if ran.is_err() {
            stop("invoke failed");
        }
        peak = peak.max(used);
        let mut output = [0i8; N_OUT];
        match interpreter.output(0) {
            Some(TensorData::Int8(y)) if y.len() == N_OUT => output.copy_from_slice(y),
            _ => stop("the output is not int8 of the recorded length"),
        }
        if k == 0 {
            first = output;
        }
        if first_difference(&output, expected).is_some() {
            print(&[b"case ", name.as_bytes(), b": output differs\n"]);
            wrong += 1;
            continue;
        }
        // a wrong byte planted in the (right) output: the same comparison
        // must report it, where it is
        let at = k % N_OUT;
        let mut planted = output;
        planted[at] ^= 1;
        if first_difference(&planted, expected) != Some(at) {
            print(&[
                b"case ",
                name.as_bytes(),
                b": a planted byte is not caught\n",
            ]);
            missed += 1;
        }
    }
    print_cases(CASES - wrong, CASES);
    print_line(&[
        ("planted: ", Some(CASES - wrong - missed)),
        (" of ", Some(CASES - wrong)),
        (" wrong bytes caught\n", None),
    ]);
    check_ram();
    if wrong != 0 || missed != 0 {
        cortex_m_semihosting::debug::exit(cortex_m_semihosting::debug::EXIT_FAILURE);
    }
    finish_i8(peak, &first, &EXPECTEDS[0])
}
