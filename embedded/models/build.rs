//! The memory map for cortex-m-rt's `link.x` (QEMU's mps2-an386, the same
//! as embedded/microflow/build.rs's; its microbit for thumbv6m), and
//! `quant.rs` in OUT_DIR: each model's input and output quantization, read
//! from its .tflite file.
use shapecheck_tflite::{Model, ModelTensor};
use std::{env, fmt::Write, fs, path::PathBuf};

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

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let memory = if env::var("TARGET")
        .unwrap_or_default()
        .starts_with("thumbv6m")
    {
        // QEMU's microbit (nRF51, Cortex-M0), as embedded/build.rs: the
        // M0 correctness run of compare.sh
        "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 256K\n  RAM   : ORIGIN = 0x20000000, LENGTH = 16K\n}\n"
    } else {
        "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 4096K\n  RAM   : ORIGIN = 0x20000000, LENGTH = 4096K\n}\n"
    };
    fs::write(out.join("memory.x"), memory).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=build.rs");

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
}
