//! Sets `cfg(shapecheck_dsp)` where the target has the DSP extension of the
//! Cortex-M (SMLAD, SXTB16; see src/dsp.rs and each kernel's dsp.rs): every ARMv7E-M target
//! (`thumbv7em-*`: the extension is part of the architecture), and ARMv8-M
//! Mainline (`thumbv8m.main-*`) when the build enables its optional `dsp`
//! feature (`-C target-feature=+dsp`, or a `target-cpu` that has it).
//! Chosen from the target's name because stable rustc does not set
//! `target_feature = "dsp"` for `thumbv7em-none-eabihf`.
use std::env;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shapecheck_dsp)");
    println!("cargo::rerun-if-changed=build.rs");
    let target = env::var("TARGET").unwrap_or_default();
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let dsp_feature = features.split(',').any(|f| f == "dsp");
    if target.starts_with("thumbv7em-") || (target.starts_with("thumbv8m.main-") && dsp_feature) {
        println!("cargo::rustc-cfg=shapecheck_dsp");
    }
}
