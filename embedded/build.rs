//! Writes the mps2-an386 memory map into OUT_DIR for cortex-m-rt's link.x.
//! (A `memory.x` in the package root would silently win: there is none.)
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
}
