//! Where the crate's `asm!` and `unsafe` may be (ARCHITECTURE.md, "Adding
//! a TFLite op"; issue 69): `asm!` only in the DSP loops, each kernel's
//! `ops/conv/**/dsp.rs` and the shared `arith/dsp.rs`; `#[allow(unsafe_code)]` only
//! there and in `base/bytes.rs`, the crate root denying it everywhere else.

use std::fs;
use std::path::{Path, PathBuf};

/// The files of the DSP loops, relative to `src/`.
const DSP_FILES: [&str; 4] = [
    "arith/dsp.rs",
    "ops/conv/dsp.rs",
    "ops/conv/depthwise_conv/dsp.rs",
    "ops/conv/fully_connected/dsp.rs",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `src/` (relative path, text), sorted.
fn sources() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![src()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src()).unwrap().to_string_lossy();
                let rel = rel.replace('\\', "/");
                out.push((rel, fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The lines of code, comments dropped.
fn code(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//"))
}

#[test]
fn asm_is_only_in_the_dsp_files() {
    let mut found = Vec::new();
    for (rel, text) in sources() {
        if code(&text).any(|l| l.contains("asm!(")) {
            found.push(rel);
        }
    }
    // every DSP file has its asm, and nothing else has any
    assert_eq!(found, {
        let mut want: Vec<String> = DSP_FILES.iter().map(|f| f.to_string()).collect();
        want.sort();
        want
    });
}

#[test]
fn unsafe_code_is_allowed_only_on_the_dsp_modules_and_bytes() {
    let mut allowed = Vec::new();
    for (rel, text) in sources() {
        let lines: Vec<&str> = code(&text).collect();
        for (i, line) in lines.iter().enumerate() {
            if line.contains("allow(unsafe_code)") {
                // the item it allows: the next line that is not an attribute
                let item = lines[i + 1..]
                    .iter()
                    .find(|l| !l.trim_start().starts_with("#["))
                    .map_or("", |l| l.trim());
                allowed.push(format!("{rel}: {item}"));
            }
        }
    }
    assert_eq!(
        allowed,
        [
            "arith/mod.rs: pub(crate) mod dsp;",
            "base/bytes.rs: pub(crate) fn as_i8(bytes: &[u8]) -> &[i8] {",
            "ops/conv/depthwise_conv/mod.rs: pub(crate) mod dsp;",
            "ops/conv/fully_connected/mod.rs: pub(crate) mod dsp;",
            "ops/conv/mod.rs: pub(crate) mod dsp;",
        ]
    );
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    assert!(lib.contains("#![deny(unsafe_code)]"));
}
