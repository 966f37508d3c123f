//! Writes `models.rs`: `shapecheck::model!` on each TinyML model at the
//! default plan (the least RAM within 1.10x the layer-by-layer
//! instructions, issue 70) as `<Name>`, layer by layer (`schedule =
//! layers`) as `<Name>Layers`, and, for the models that stream below
//! their default, at their smallest plan (`ram = N`) as `<Name>Smallest`,
//! each read from the directory `SHAPECHECK_MODELS` names, by default
//! `shared/models` beside the repository (the files are not in the
//! repository). Without that directory it writes none and sets no
//! `tiny_models` cfg: the crate builds (so `cargo test --workspace` passes
//! on a fresh clone), and its tests, all `#[ignore]`d, fail when run.

use std::path::PathBuf;

// the models and the RAM budget of each one's smallest plan
// (`<Name>Smallest`'s `ram = N`), one table shared with
// embedded/models/build.rs
#[path = "budgets.rs"]
mod budgets;
use budgets::MODELS;

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
        for (name, file, smallest) in MODELS {
            let path = dir.join(format!("{file}.tflite"));
            println!("cargo::rerun-if-changed={}", path.display());
            // the default plan, layer by layer, and the smallest plan
            let path = path.display().to_string();
            code.push_str(&format!("shapecheck::model!(pub {name} = {path:?});\n"));
            code.push_str(&format!(
                "shapecheck::model!(pub {name}Layers = {path:?}, schedule = layers);\n"
            ));
            code.push_str(&format!(
                "shapecheck::model!(pub {name}Smallest = {path:?}, ram = {smallest});\n"
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
