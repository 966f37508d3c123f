//! The memory map for cortex-m-rt's `link.x` (QEMU's mps2-an386, the same
//! as embedded/microflow/build.rs's; its microbit for thumbv6m; and for
//! the `*_ram32k` bins, person_ram32k and guard_ram32k, the same board
//! with a RAM region of 32 KiB), and in OUT_DIR:
//! - `quant.rs`: sine's and speech's input and output quantization, read
//!   from their .tflite files;
//! - `tiny/<file>.model.rs` and `tiny/<file>.case.rs` for each TinyML model
//!   (`TINY`): its `shapecheck::model!` line on the .tflite file (at
//!   `schedule = layers` where `SHAPECHECK_TINY_SCHEDULE=layers`, else the
//!   default plan), and the
//!   first recorded case of `tiny/<file>.json` (TFLite Micro's int8 input
//!   and output); `tiny/<file>.streamed.rs`, its `model!` line with the
//!   `ram = N` budget of `tiny-models/budgets.rs` (the RAM-goal
//!   firmware's), and `tiny/<file>.cases.rs`, every recorded case;
//! - `tiny/person_detect.planned.rs`: the heap-less interpreter's buffer
//!   lengths for person detection (`Interpreter::planned_sizes`, which
//!   src/bin/person_planned.rs calls on the device again);
//! - `float/<file>.model.rs` and `float/<file>.cases.rs` for each float32
//!   model (`FLOAT`, in the repository: `tflite/tests/models/<file>.tflite`
//!   and its recording `<file>.json`): its `model!` line and every recorded
//!   case, f32 values written by their bits.
//!
//! The MLPerf Tiny files and the recorded cases are not in the repository:
//! they are read from the directory `SHAPECHECK_MODELS` names (default:
//! `../shared/models` beside the repository, as in CI);
//! person_detect.tflite from `tflite/tests/models/`. When the directory or
//! a file is missing, each file written is a `compile_error!` naming it:
//! the TinyML firmware does not build (compare.sh checks the directory
//! first and fails), and sine's and speech's still do.
use shapecheck_tflite::{Interpreter, Layout, Model, ModelTensor};
use std::{env, fmt::Write, fs, path::Path, path::PathBuf};

// the JSON reader of the firmware tests' build script
#[allow(dead_code)]
#[path = "../json.rs"]
mod json;
use json::Value;

/// The RAM region of the `*_ram32k` bins (src/bin/person_ram32k.rs, and
/// guard_ram32k.rs, the check of its stack guard), in bytes:
/// its painted stack, `.data` and `.bss` must fit it.
const RAM32K: usize = 32 * 1024;

/// (the firmware's name, the model's file stem): `<stem>.tflite` and
/// `tiny/<stem>.json`
// The `ram = N` budget of each model (tiny-models' table, each the smallest
// plan the schedule search finds): `tiny/<stem>.streamed.rs`, the model
// streamed, as the firmware of issue 70's RAM goals runs it (src/lib.rs's
// `ram_firmware!`). A planner that finds other plans changes that table,
// and the firmware follow; a budget too small fails the build naming the
// smallest `RAM_BYTES`, and the firmware's `ram:` lines show the RAM.
#[path = "../../tiny-models/budgets.rs"]
mod budgets;

/// (the firmware's name, the model's file stem) of the float32 models,
/// which are in the repository: `tflite/tests/models/<stem>.tflite` and
/// its recording `<stem>.json`
const FLOAT: [(&str, &str); 1] = [("float_cnn", "float_cnn")];

const TINY: [(&str, &str); 6] = [
    ("person", "person_detect"),
    ("vww", "vww_96_int8"),
    ("kws", "kws_ref_model"),
    ("resnet8", "pretrainedResnet_quant"),
    ("ad", "ad01_int8"),
    ("sww", "str_ww_ref_model"),
];

fn scale_zero(t: Option<ModelTensor<'_>>, what: &str) -> (f32, i64) {
    let q = t
        .and_then(|t| t.quantization())
        .unwrap_or_else(|| panic!("{what}: not quantized"));
    let scale = q.scale(0).unwrap_or_else(|| panic!("{what}: no scale"));
    let zero = q
        .zero_point(0)
        .unwrap_or_else(|| panic!("{what}: no zero point"));
    (scale, zero)
}

/// A JSON array of int8 values as Rust literals, and its length.
fn int8s(v: Option<&Value>, what: &str) -> Result<(String, usize), String> {
    let items = v
        .and_then(Value::as_array)
        .ok_or(format!("{what}: not an array"))?;
    let mut s = String::with_capacity(5 * items.len());
    for item in items {
        let Value::Number(n) = item else {
            return Err(format!("{what}: {item:?} is not a number"));
        };
        let x: i8 = n
            .parse()
            .map_err(|_| format!("{what}: {n} is not an int8"))?;
        write!(s, "{x},").unwrap();
    }
    Ok((s, items.len()))
}

/// `tiny/<stem>.case.rs`: the first case of `json` (its name, its input as
/// the exported static `INPUT`, its output as `EXPECTED`).
fn first_case(json: &Path) -> Result<String, String> {
    let text = fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    let doc = json::parse(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let case = doc
        .get("cases")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or(format!("{}: no cases", json.display()))?;
    let name = case.get("name").and_then(Value::as_str).unwrap_or("?");
    let what = format!("{} case 0 ({name})", json.display());
    let (input, n_in) = int8s(case.get("input"), &format!("{what}: input"))?;
    let (out, n_out) = int8s(case.get("out"), &format!("{what}: out"))?;
    Ok(format!(
        "/// The recorded case: {what}.\n\
         pub const CASE: &str = {what:?};\n\
         /// Its int8 input, as TFLite Micro was fed it (in flash).\n\
         #[no_mangle]\n\
         pub static INPUT: [i8; {n_in}] = [{input}];\n\
         /// TFLite Micro's int8 output for it.\n\
         pub const EXPECTED: [i8; {n_out}] = [{out}];\n"
    ))
}

/// `tiny/<stem>.cases.rs`: every case of `json`, in its order: `CASES`
/// (their number), `CASE_NAMES`, `INPUTS` (each input as TFLite Micro was
/// fed it, in flash) and `EXPECTEDS` (TFLite Micro's int8 outputs).
fn all_cases(json: &Path) -> Result<String, String> {
    let text = fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    let doc = json::parse(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let cases = doc
        .get("cases")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
        .ok_or(format!("{}: no cases", json.display()))?;
    let (mut names, mut inputs, mut outputs) = (String::new(), String::new(), String::new());
    let mut lens = None;
    for (k, case) in cases.iter().enumerate() {
        let name = case.get("name").and_then(Value::as_str).unwrap_or("?");
        let what = format!("{} case {k} ({name})", json.display());
        let (input, n_in) = int8s(case.get("input"), &format!("{what}: input"))?;
        let (out, n_out) = int8s(case.get("out"), &format!("{what}: out"))?;
        if *lens.get_or_insert((n_in, n_out)) != (n_in, n_out) {
            return Err(format!(
                "{what}: {n_in} input and {n_out} output values, not the first case's"
            ));
        }
        write!(names, "{name:?},").unwrap();
        write!(inputs, "[{input}],").unwrap();
        write!(outputs, "[{out}],").unwrap();
    }
    let (n_in, n_out) = lens.unwrap_or((0, 0));
    let n = cases.len();
    Ok(format!(
        "/// The recorded cases of {json}.\n\
         pub const CASES: usize = {n};\n\
         /// Their names.\n\
         pub const CASE_NAMES: [&str; {n}] = [{names}];\n\
         /// Their int8 inputs, as TFLite Micro was fed them (in flash).\n\
         pub static INPUTS: [[i8; {n_in}]; {n}] = [{inputs}];\n\
         /// TFLite Micro's int8 output for each.\n\
         pub static EXPECTEDS: [[i8; {n_out}]; {n}] = [{outputs}];\n",
        json = json.display()
    ))
}

/// `tiny/person_detect.planned.rs`, for src/bin/person_planned.rs (the
/// heap-less interpreter in firmware): the model's bytes (`MODEL`, in
/// flash), the lengths of every buffer `Interpreter::planned` takes at
/// `Layout::Packed` as constants (`Interpreter::planned_sizes`, the same
/// function the firmware calls on the device; `INT8` .. `FLOAT32`, `PLACES`,
/// `STEPS`, `MULTIPLIERS`, `ACTIVATION_BYTES`, and `SCRATCH`,
/// `Interpreter::plan_scratch_len`), and the model at `schedule = layers`
/// (`model!`, module `person_layers`), whose `RAM_BYTES` the firmware
/// prints beside the interpreter's activation bytes.
fn planned_sizes(model: &Path) -> Result<String, String> {
    let bytes = fs::read(model).map_err(|e| format!("{}: {e}", model.display()))?;
    let parsed = Model::parse(&bytes).map_err(|e| format!("{}: {e}", model.display()))?;
    let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&parsed)];
    let s = Interpreter::planned_sizes(&parsed, Layout::Packed, &mut scratch)
        .map_err(|e| format!("{}: {e}", model.display()))?;
    let path = model.display().to_string();
    Ok(format!(
        "/// The model's bytes ({path}), in flash.\n\
         pub static MODEL: &[u8] = include_bytes!({path:?});\n\
         /// build.rs's `Interpreter::planned_sizes(&model, Layout::Packed, ..)`.\n\
         pub const INT8: usize = {int8};\n\
         pub const INT16: usize = {int16};\n\
         pub const INT32: usize = {int32};\n\
         pub const FLOAT32: usize = {float32};\n\
         pub const ACTIVATION_BYTES: usize = {activation};\n\
         pub const PLACES: usize = {places};\n\
         pub const STEPS: usize = {steps};\n\
         pub const MULTIPLIERS: usize = {multipliers};\n\
         /// `Interpreter::plan_scratch_len(&model)`.\n\
         pub const SCRATCH: usize = {scratch};\n\
         shapecheck::model!(PersonLayers = {path:?}, schedule = layers);\n",
        int8 = s.arena.int8,
        int16 = s.arena.int16,
        int32 = s.arena.int32,
        float32 = s.arena.float32,
        activation = s.activation_bytes,
        places = s.places,
        steps = s.steps,
        multipliers = s.multipliers,
        scratch = scratch.len(),
    ))
}

/// A JSON array of numbers as f32 literals written by their bits (each
/// recorded number rounded to the nearest f32, as the host tests read
/// them: `f32::from_bits(0x…)`, so no decimal round trip), and its length.
fn float32s(v: Option<&Value>, what: &str) -> Result<(String, usize), String> {
    let items = v
        .and_then(Value::as_array)
        .ok_or(format!("{what}: not an array"))?;
    let mut s = String::with_capacity(30 * items.len());
    for item in items {
        let Value::Number(n) = item else {
            return Err(format!("{what}: {item:?} is not a number"));
        };
        let x: f64 = n
            .parse()
            .map_err(|_| format!("{what}: {n} is not a number"))?;
        write!(s, "f32::from_bits({:#010x}),", (x as f32).to_bits()).unwrap();
    }
    Ok((s, items.len()))
}

/// `float/<stem>.cases.rs`: every case of a float32 model's `json`, in its
/// order, as [`all_cases`] writes an int8 model's: `CASES`, `CASE_NAMES`,
/// `INPUTS` (f32, in flash) and `EXPECTEDS` (TFLite Micro's f32 outputs).
fn all_float_cases(json: &Path) -> Result<String, String> {
    let text = fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    let doc = json::parse(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let cases = doc
        .get("cases")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
        .ok_or(format!("{}: no cases", json.display()))?;
    let (mut names, mut inputs, mut outputs) = (String::new(), String::new(), String::new());
    let mut lens = None;
    for (k, case) in cases.iter().enumerate() {
        let name = case.get("name").and_then(Value::as_str).unwrap_or("?");
        let what = format!("{} case {k} ({name})", json.display());
        let (input, n_in) = float32s(case.get("input"), &format!("{what}: input"))?;
        let (out, n_out) = float32s(case.get("out"), &format!("{what}: out"))?;
        if *lens.get_or_insert((n_in, n_out)) != (n_in, n_out) {
            return Err(format!(
                "{what}: {n_in} input and {n_out} output values, not the first case's"
            ));
        }
        write!(names, "{name:?},").unwrap();
        write!(inputs, "[{input}],").unwrap();
        write!(outputs, "[{out}],").unwrap();
    }
    let (n_in, n_out) = lens.unwrap_or((0, 0));
    let n = cases.len();
    Ok(format!(
        "/// The recorded cases of {json}.\n\
         pub const CASES: usize = {n};\n\
         /// Their names.\n\
         pub const CASE_NAMES: [&str; {n}] = [{names}];\n\
         /// Their f32 inputs, as TFLite Micro was fed them (in flash).\n\
         #[no_mangle]\n\
         pub static INPUTS: [[f32; {n_in}]; {n}] = [{inputs}];\n\
         /// TFLite Micro's f32 output for each.\n\
         pub static EXPECTEDS: [[f32; {n_out}]; {n}] = [{outputs}];\n",
        json = json.display()
    ))
}

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    // one memory map per firmware (`-L` of its directory, per bin, as
    // cortex-m-rt's link.x includes the first `memory.x` it finds): QEMU's
    // mps2-an386 with its 4 MiB, or its microbit for thumbv6m; and
    // the `*_ram32k` bins, person detection (and its guard's check) with a
    // RAM region of 32 KiB (`RAM32K`) on the same board, RAM_BYTES' goal of
    // issue 70
    let m0 = env::var("TARGET")
        .unwrap_or_default()
        .starts_with("thumbv6m");
    let board = if m0 {
        // QEMU's microbit (nRF51, Cortex-M0), as embedded/build.rs: the
        // M0 correctness run of compare.sh
        "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 256K\n  RAM   : ORIGIN = 0x20000000, LENGTH = 16K\n}\n"
    } else {
        "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 4096K\n  RAM   : ORIGIN = 0x20000000, LENGTH = 4096K\n}\n"
    };
    let ram32k = format!(
        "MEMORY\n{{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 4096K\n  RAM   : ORIGIN = 0x20000000, LENGTH = {RAM32K}\n}}\n"
    );
    for (dir, memory) in [("board", board), ("ram32k", ram32k.as_str())] {
        fs::create_dir_all(out.join(dir)).expect("create the memory map's directory");
        fs::write(out.join(dir).join("memory.x"), memory).expect("write memory.x");
    }
    println!("cargo:rerun-if-changed=src/bin");
    let bins = fs::read_dir("src/bin").expect("read src/bin");
    for entry in bins {
        let path = entry.expect("read src/bin").path();
        let Some(bin) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let dir = if bin.ends_with("_ram32k") && !m0 {
            "ram32k"
        } else {
            "board"
        };
        println!(
            "cargo:rustc-link-arg-bin={bin}=-L{}",
            out.join(dir).display()
        );
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../json.rs");

    let mut quant = String::new();
    for (name, file) in [("SINE", "sine.tflite"), ("SPEECH", "speech.tflite")] {
        let path = format!("../../tflite/tests/models/{file}");
        println!("cargo:rerun-if-changed={path}");
        let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let model = Model::parse(&bytes).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        for (side, t) in [("INPUT", model.input(0)), ("OUTPUT", model.output(0))] {
            let (scale, zero) = scale_zero(t, &format!("{path} {side}"));
            writeln!(
                quant,
                "/// {file}'s {side} tensor: scale, zero point\npub const {name}_{side}_QUANT: (f32, i8) = ({scale:?}, {zero});"
            )
            .unwrap();
        }
    }
    fs::write(out.join("quant.rs"), quant).expect("write quant.rs");

    // the TinyML models
    println!("cargo:rerun-if-env-changed=SHAPECHECK_MODELS");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let repo = manifest.join("../..");
    let dir = env::var_os("SHAPECHECK_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/models"));
    let dir =
        fs::canonicalize(&dir).map_err(|e| format!("SHAPECHECK_MODELS={}: {e}", dir.display()));
    let tiny = out.join("tiny");
    fs::create_dir_all(&tiny).expect("create OUT_DIR/tiny");
    println!("cargo:rerun-if-env-changed=SHAPECHECK_TINY_SCHEDULE");
    let layers = match env::var("SHAPECHECK_TINY_SCHEDULE").as_deref() {
        Ok("layers") => true,
        Ok("") | Err(_) => false,
        Ok(other) => panic!(
            "SHAPECHECK_TINY_SCHEDULE is `{other}`: `layers` (the layer-by-layer plan) or unset (model!'s default plan)"
        ),
    };
    for (firmware, stem) in TINY {
        let files = dir.clone().and_then(|dir| {
            let model = if stem == "person_detect" {
                // in the repository (from microflow 0.1.3's package)
                repo.join("tflite/tests/models/person_detect.tflite")
            } else {
                dir.join(format!("{stem}.tflite"))
            };
            let model =
                fs::canonicalize(&model).map_err(|e| format!("{}: {e}", model.display()))?;
            let json = dir.join(format!("tiny/{stem}.json"));
            println!("cargo:rerun-if-changed={}", model.display());
            println!("cargo:rerun-if-changed={}", json.display());
            let name = format!("{}{}", firmware[..1].to_uppercase(), &firmware[1..]);
            let path = model.display().to_string();
            // `model!`'s default plan, or the layer-by-layer one where
            // SHAPECHECK_TINY_SCHEDULE=layers (issue 80's second column)
            let line = if layers {
                format!("shapecheck::model!({name} = {path:?}, schedule = layers);\n")
            } else {
                format!("shapecheck::model!({name} = {path:?});\n")
            };
            // the streamed plan, where a RAM-goal firmware runs one
            let streamed = match budgets::MODELS.iter().find(|(_, s, _)| *s == stem) {
                Some((_, _, ram)) => {
                    format!("shapecheck::model!({name} = {path:?}, ram = {ram});\n")
                }
                None => format!(
                    "compile_error!(\"{stem}: no ram budget in tiny-models/budgets.rs\");\n"
                ),
            };
            Ok([line, first_case(&json)?, streamed, all_cases(&json)?])
        });
        let files = files.unwrap_or_else(|e| {
            let stop = format!(
                "compile_error!({:?});\n",
                format!("{firmware}: the TinyML model or its recorded cases cannot be read ({e}); set SHAPECHECK_MODELS to the directory of the MLPerf Tiny files and tiny/*.json")
            );
            [stop.clone(), stop.clone(), stop.clone(), stop]
        });
        for (file, text) in ["model", "case", "streamed", "cases"].iter().zip(files) {
            fs::write(tiny.join(format!("{stem}.{file}.rs")), text)
                .expect("write the model's files");
        }
    }

    // the heap-less interpreter's firmware (src/bin/person_planned.rs): its
    // buffers' lengths, computed here as the device computes them
    let person = repo.join("tflite/tests/models/person_detect.tflite");
    println!("cargo:rerun-if-changed={}", person.display());
    let planned = fs::canonicalize(&person)
        .map_err(|e| format!("{}: {e}", person.display()))
        .and_then(|model| planned_sizes(&model))
        .unwrap_or_else(|e| {
            format!(
                "compile_error!({:?});\n",
                format!("person_planned: the buffers' lengths cannot be computed ({e})")
            )
        });
    fs::write(tiny.join("person_detect.planned.rs"), planned).expect("write the planned sizes");

    // the float32 models (`FLOAT`), in the repository: their `model!`
    // line and every recorded case (src/lib.rs's `float_firmware!`)
    let float = out.join("float");
    fs::create_dir_all(&float).expect("create OUT_DIR/float");
    for (firmware, stem) in FLOAT {
        let model = repo.join(format!("tflite/tests/models/{stem}.tflite"));
        let json = repo.join(format!("tflite/tests/models/{stem}.json"));
        println!("cargo:rerun-if-changed={}", model.display());
        println!("cargo:rerun-if-changed={}", json.display());
        let model = fs::canonicalize(&model)
            .unwrap_or_else(|e| panic!("{}: {e}", model.display()));
        // the type's name in CamelCase (`float_cnn` → `FloatCnn`), whose
        // module `model!` names `float_cnn`
        let name: String = firmware
            .split('_')
            .map(|w| format!("{}{}", w[..1].to_uppercase(), &w[1..]))
            .collect();
        let line = format!("shapecheck::model!({name} = {:?});\n", model.display().to_string());
        let cases = all_float_cases(&json).unwrap_or_else(|e| panic!("{e}"));
        fs::write(float.join(format!("{stem}.model.rs")), line).expect("write the model's line");
        fs::write(float.join(format!("{stem}.cases.rs")), cases).expect("write the cases");
    }
}
