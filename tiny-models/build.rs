//! Writes `models.rs`: two `shapecheck::model!` per TinyML model (at a
//! RAM budget, `ram = N`, streamed where the model can stream, as
//! `<Name>`; layer by layer, the default, as `<Name>Layers`), each read
//! from the directory `SHAPECHECK_MODELS` names, by default `shared/models`
//! beside the repository (the files are not in the repository). Without
//! that directory it writes none and sets no `tiny_models` cfg: the crate
//! builds (so `cargo test --workspace` passes on a fresh clone), and its
//! tests, all `#[ignore]`d, fail when run.

use std::path::PathBuf;

/// (the model's name in Rust, its file, the RAM budget of `<Name>`: the
/// smallest plan the schedule search finds, so that the streamed runs are
/// what is tested; the floor where the model does not stream)
const MODELS: [(&str, &str, usize); 7] = [
    ("Person", "person_detect", 14_208),
    ("Vww", "vww_96_int8", 14_208),
    ("Kws", "kws_ref_model", 5_760),
    ("Resnet8", "pretrainedResnet_quant", 26_112),
    ("Ad", "ad01_int8", 768),
    ("Sww", "str_ww_ref_model", 4_008),
    ("ResnetLarge", "pretrainedResnet_large_int8", 65_280),
];

fn main() {
    println!("cargo::rerun-if-env-changed=SHAPECHECK_MODELS");
    println!("cargo::rustc-check-cfg=cfg(tiny_models)");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut code = String::new();
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let beside = manifest.join("../../shared/models");
    println!("cargo::rerun-if-changed={}", beside.display());
    let dir = match std::env::var_os("SHAPECHECK_MODELS") {
        Some(dir) => Some(
            std::fs::canonicalize(&dir)
                .unwrap_or_else(|e| panic!("SHAPECHECK_MODELS={}: {e}", dir.to_string_lossy())),
        ),
        None => std::fs::canonicalize(&beside).ok(),
    };
    if let Some(dir) = dir {
        for (name, file, ram) in MODELS {
            let path = dir.join(format!("{file}.tflite"));
            println!("cargo::rerun-if-changed={}", path.display());
            // at the RAM budget (streamed runs, issue 70) and layer by
            // layer (the default, written out)
            code.push_str(&format!(
                "shapecheck::model!(pub {name} = {:?}, ram = {ram});\n",
                path.display().to_string()
            ));
            code.push_str(&format!(
                "shapecheck::model!(pub {name}Layers = {:?}, schedule = layers);\n",
                path.display().to_string()
            ));
        }
        code.push_str(&format!(
            "/// The directory the models were read from.\npub const MODELS_DIR: &str = {:?};\n",
            dir.display().to_string()
        ));
        println!("cargo::rustc-cfg=tiny_models");
    }
    std::fs::write(out.join("models.rs"), code).expect("OUT_DIR is writable");
}
