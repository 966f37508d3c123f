//! The memory map of QEMU's mps2-an386 (Cortex-M4F) for cortex-m-rt's
//! `link.x`, written into OUT_DIR: the same map as embedded/build.rs's for
//! thumbv7em, so the comparison firmware is laid out like the firmware tests.
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    fs::write(
        out.join("memory.x"),
        "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 4096K\n  RAM   : ORIGIN = 0x20000000, LENGTH = 4096K\n}\n",
    )
    .expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=build.rs");
    // the models are read by microflow's #[model] at compile time
    println!("cargo:rerun-if-changed=../../tflite/tests/models");
}
