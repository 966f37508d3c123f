//! The memory map of QEMU's mps2-an386 (Cortex-M4F) for cortex-m-rt's
//! `link.x`, written into OUT_DIR: the same map as embedded/build.rs's for
//! thumbv7em, so the comparison firmware is laid out like the firmware tests.
//!
//! And for the TinyML firmware (src/bin/{person,vww,kws,ad,sww}.rs), in
//! OUT_DIR, `tiny/<stem>.input.rs`: the int8 input of the first recorded
//! case of `tiny/<stem>.json` as the exported static `INPUT`, a MicroFlow
//! buffer (`Buffer4D`, or `Buffer2D` for a 2-D input: the anomaly
//! detector's), and TFLite Micro's output for it as `TFLM_EXPECTED` (the
//! same case shapecheck's firmware feeds, embedded/models/build.rs). The
//! recorded cases are read from the directory `SHAPECHECK_MODELS` names
//! (default `../shared/models` beside the repository, as in CI); a missing
//! file gives a `compile_error!` naming it. MicroFlow's `#[model]` itself
//! reads the .tflite files by the literal relative paths in the bins
//! (relative to this crate's directory, where cargo runs rustc).
use std::{env, fmt::Write, fs, path::PathBuf};

// the JSON reader of the firmware tests' build script
#[allow(dead_code)]
#[path = "../json.rs"]
mod json;
use json::Value;

/// The recorded cases' file stems (`tiny/<stem>.json`).
const TINY: [&str; 5] = [
    "person_detect",
    "vww_96_int8",
    "kws_ref_model",
    "ad01_int8",
    "str_ww_ref_model",
];

fn numbers(v: Option<&Value>, what: &str) -> Result<Vec<i64>, String> {
    let items = v
        .and_then(Value::as_array)
        .ok_or(format!("{what}: not an array"))?;
    items
        .iter()
        .map(|item| match item {
            Value::Number(n) => n
                .parse()
                .map_err(|_| format!("{what}: {n} is not an integer")),
            _ => Err(format!("{what}: {item:?} is not a number")),
        })
        .collect()
}

fn input_rs(json: &std::path::Path) -> Result<String, String> {
    let text = fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    let doc = json::parse(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let shape = numbers(
        doc.get("input").and_then(|i| i.get("shape")),
        &format!("{}: input shape", json.display()),
    )?;
    let oq = doc.get("output");
    let scale = match oq.and_then(|o| o.get("scale")) {
        Some(Value::Number(n)) => n.clone(),
        _ => return Err(format!("{}: no output scale", json.display())),
    };
    let zero: i64 = match oq.and_then(|o| o.get("zero_point")) {
        Some(Value::Number(n)) => n
            .parse()
            .map_err(|_| format!("{}: output zero point {n}", json.display()))?,
        _ => return Err(format!("{}: no output zero point", json.display())),
    };
    let case = doc
        .get("cases")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or(format!("{}: no cases", json.display()))?;
    let name = case.get("name").and_then(Value::as_str).unwrap_or("?");
    let what = format!("{} case 0 ({name})", json.display());
    let input = numbers(case.get("input"), &format!("{what}: input"))?;
    let out = numbers(case.get("out"), &format!("{what}: out"))?;
    if input
        .iter()
        .chain(&out)
        .any(|&x| !(-128..=127).contains(&x))
    {
        return Err(format!("{what}: a value is not an int8"));
    }
    let list = |v: &[i64]| {
        v.iter().fold(String::new(), |mut s, x| {
            write!(s, "{x},").unwrap();
            s
        })
    };
    let (ty, value) = match shape[..] {
        // NHWC, one batch: MicroFlow's Buffer4D is [SMatrix<[i8; C], H, W>; 1],
        // nalgebra's storage column-major ([[_; H]; W]: column w, row h)
        [1, h, w, c] => {
            let (h, w, c) = (h as usize, w as usize, c as usize);
            if input.len() != h * w * c {
                return Err(format!(
                    "{what}: {} input values for {shape:?}",
                    input.len()
                ));
            }
            let mut s = String::new();
            for x in 0..w {
                s.push('[');
                for y in 0..h {
                    let at = (y * w + x) * c;
                    write!(s, "[{}],", list(&input[at..at + c])).unwrap();
                }
                s.push_str("],");
            }
            (
                format!("microflow::buffer::Buffer4D<i8, 1, {h}, {w}, {c}>"),
                format!("[nalgebra::SMatrix::from_array_storage(nalgebra::ArrayStorage([{s}]))]"),
            )
        }
        // [1, N]: Buffer2D<i8, 1, N>, one row (storage [[_; 1]; N])
        [1, n] => {
            let n = n as usize;
            if input.len() != n {
                return Err(format!(
                    "{what}: {} input values for {shape:?}",
                    input.len()
                ));
            }
            let s = input.iter().fold(String::new(), |mut s, x| {
                write!(s, "[{x}],").unwrap();
                s
            });
            (
                format!("microflow::buffer::Buffer2D<i8, 1, {n}>"),
                format!("nalgebra::SMatrix::from_array_storage(nalgebra::ArrayStorage([{s}]))"),
            )
        }
        _ => {
            return Err(format!(
                "{what}: input shape {shape:?} is not [1, H, W, C] or [1, N]"
            ))
        }
    };
    Ok(format!(
        "/// The recorded case: {what}.\n\
         pub const CASE: &str = {what:?};\n\
         /// Its int8 input, as TFLite Micro was fed it (in flash).\n\
         #[no_mangle]\n\
         pub static INPUT: {ty} = {value};\n\
         /// The output tensor's scale and zero point.\n\
         #[allow(dead_code)]\n\
         pub const OUTPUT_QUANT: (f32, i8) = ({scale}_f32, {zero});\n\
         /// TFLite Micro's int8 output for it.\n\
         #[allow(dead_code)]\n\
         pub const TFLM_EXPECTED: [i8; {}] = [{}];\n",
        out.len(),
        list(&out)
    ))
}

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    fs::write(
        out.join("memory.x"),
        "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 4096K\n  RAM   : ORIGIN = 0x20000000, LENGTH = 4096K\n}\n",
    )
    .expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../json.rs");
    // the models are read by microflow's #[model] at compile time
    println!("cargo:rerun-if-changed=../../tflite/tests/models");

    println!("cargo:rerun-if-env-changed=SHAPECHECK_MODELS");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dir = env::var_os("SHAPECHECK_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../../shared/models"));
    let tiny = out.join("tiny");
    fs::create_dir_all(&tiny).expect("create OUT_DIR/tiny");
    for stem in TINY {
        let json = dir.join(format!("tiny/{stem}.json"));
        println!("cargo:rerun-if-changed={}", json.display());
        let text = input_rs(&json).unwrap_or_else(|e| {
            format!(
                "compile_error!({:?});\n",
                format!("{stem}: the recorded case cannot be read ({e}); set SHAPECHECK_MODELS to the directory of tiny/*.json")
            )
        });
        fs::write(tiny.join(format!("{stem}.input.rs")), text).expect("write the input");
    }
}
