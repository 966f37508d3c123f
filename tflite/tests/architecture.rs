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

// ---------------------------------------------------------------------------
// The layers (issue 77, ARCHITECTURE.md's code map of `tflite/src`): each
// folder of `src/` is a layer, and a module names through `crate::` only its
// own layer and those below; an op names no other op (a family's modules, one
// op folder, may name each other); nothing names an item through the crate
// root's re-exports. Unit-test modules (`#[cfg(test)]` items, `*tests.rs`)
// aside.

/// The layers of `src/`, bottom first: the first part of a module's path.
/// `reference` (feature `reference`, the tests' kernels written plainly) sits
/// above the ops whose parameter types it takes, and nothing of the library
/// names it.
const LAYERS: [&str; 9] = [
    "base",
    "format",
    "arith",
    "kernel",
    "shared",
    "ops",
    "reference",
    "registry",
    "runtime",
];

/// A module's layer and, in `ops/`, its op (family) folder.
fn place(rel: &str) -> (usize, Option<&str>) {
    let mut parts = rel.trim_end_matches(".rs").split('/');
    let first = parts.next().unwrap_or("");
    let layer = LAYERS
        .iter()
        .position(|l| *l == first)
        .unwrap_or(LAYERS.len());
    let op = if first == "ops" {
        parts.next().filter(|p| *p != "mod")
    } else {
        None
    };
    (layer, op)
}

/// `text` without comments and without `#[cfg(test)]` items (the
/// attribute and the item it is on, to its closing brace or semicolon).
fn library_code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    let mut kept = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let after = &rest[at..];
        let brace = after.find('{');
        let semi = after.find(';');
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => s + 1,
            (Some(b), _) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (i, c) in after[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    kept.push_str(rest);
    kept
}

/// Every `crate::a::b...` path named in `code`, as its parts (a `use
/// crate::{a::x, b::y}` group gives one path per member's first part).
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for member in group[..end].split(',') {
                let first = member.trim().split("::").next().unwrap_or("").trim();
                if !first.is_empty() {
                    paths.push(vec![first.to_string()]);
                }
            }
            continue;
        }
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        paths.push(
            path.split("::")
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        );
    }
    paths
}

/// The imports of `files` (relative path, text) that break the layer
/// order, one line each.
fn layer_violations(files: &[(String, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (rel, text) in files {
        let file = rel.rsplit('/').next().unwrap_or("");
        if rel == "lib.rs" || file == "tests.rs" || file.ends_with("_tests.rs") {
            continue;
        }
        let (layer, op) = place(rel);
        if layer == LAYERS.len() {
            bad.push(format!("{rel}: in no layer"));
            continue;
        }
        for path in crate_paths(&library_code(text)) {
            let Some(first) = path.first() else { continue };
            let Some(target) = LAYERS.iter().position(|l| l == first) else {
                bad.push(format!(
                    "{rel}: crate::{} goes through the crate root",
                    path.join("::")
                ));
                continue;
            };
            let target_op = if first == "ops" {
                path.get(1).map(String::as_str)
            } else {
                None
            };
            if target > layer {
                bad.push(format!(
                    "{rel}: crate::{} is in layer {} ({}), above its own {} ({})",
                    path.join("::"),
                    target,
                    LAYERS[target],
                    layer,
                    LAYERS[layer]
                ));
            } else if LAYERS[target] == "reference" {
                bad.push(format!(
                    "{rel}: crate::{} is the tests' reference",
                    path.join("::")
                ));
            } else if layer == target && op.is_some() && target_op.is_some() && op != target_op {
                bad.push(format!(
                    "{rel}: crate::{} is another op's module",
                    path.join("::")
                ));
            }
        }
    }
    bad
}

#[test]
fn every_import_points_down() {
    let files = sources();
    // every layer is a folder of src/ (the test sees the real tree)
    for layer in LAYERS.iter().filter(|l| **l != "reference") {
        assert!(src().join(layer).is_dir(), "no folder src/{layer}");
    }
    assert_eq!(layer_violations(&files), Vec::<String>::new());
}

#[test]
fn the_layer_checker_sees_upward_and_sideways_imports() {
    let planted = |rel: &str, text: &str| vec![(rel.to_string(), text.to_string())];
    // an op naming the registry, the interpreter, or another op
    assert_eq!(
        layer_violations(&planted("ops/add.rs", "use crate::registry::Step;")).len(),
        1
    );
    assert_eq!(
        layer_violations(&planted(
            "ops/add.rs",
            "fn f() { crate::runtime::interpreter::x(); }"
        ))
        .len(),
        1
    );
    assert_eq!(
        layer_violations(&planted("ops/tanh.rs", "use crate::ops::logistic::lut;")).len(),
        1
    );
    // a group import, and a path through the crate root
    assert_eq!(
        layer_violations(&planted(
            "format/model.rs",
            "use crate::{registry::op_row, base::x};"
        ))
        .len(),
        1
    );
    assert_eq!(
        layer_violations(&planted("kernel/shape.rs", "use crate::OpShape;")).len(),
        1
    );
    // a family's modules may name each other, a layer its own and lower ones
    assert!(layer_violations(&planted(
        "ops/conv/depthwise_conv/mod.rs",
        "use crate::ops::conv::ConvLayer; use crate::shared::broadcast::Lane;"
    ))
    .is_empty());
    // test modules and comments do not count
    assert!(layer_violations(&planted(
        "shared/elementwise.rs",
        "// crate::registry::Step\n#[cfg(test)]\nmod tests { use crate::registry::Step; }"
    ))
    .is_empty());
}

/// The op family folder (`ops/<family>`) of each op code the registry names,
/// read from its row: the module its `prepare` calls.
fn op_modules() -> Vec<(String, String)> {
    let registry = fs::read_to_string(src().join("registry/mod.rs")).unwrap();
    let mut out = Vec::new();
    let mut op: Option<String> = None;
    for line in registry.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("op: BuiltinOp::") {
            op = Some(rest.trim_end_matches(',').to_string());
        } else if let (Some(name), Some(at)) = (&op, line.find("crate::ops::")) {
            if line.starts_with("prepare:") {
                let module = line[at + "crate::ops::".len()..]
                    .split("::")
                    .next()
                    .unwrap()
                    .to_string();
                out.push((name.clone(), module));
                op = None;
            }
        }
    }
    out
}

#[test]
fn an_op_is_named_in_its_module_and_its_row() {
    let modules = op_modules();
    assert!(modules.len() >= 56, "{} rows read", modules.len());
    let mut bad = Vec::new();
    for (rel, text) in sources() {
        let file = rel.rsplit('/').next().unwrap_or("");
        if file == "tests.rs" || file.ends_with("_tests.rs") {
            continue;
        }
        let code = library_code(&text);
        for (op, module) in &modules {
            let named = format!("BuiltinOp::{op}");
            let mentions = code.match_indices(&named).filter(|(at, _)| {
                // the whole name: BuiltinOp::RELU is not BuiltinOp::RELU6
                !code[at + named.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            let allowed = rel.starts_with(&format!("ops/{module}"))
                || rel.starts_with("registry/")
                || rel == "format/types.rs"
                // the planner: a reshape's output is its input, re-viewed
                || (op == "RESHAPE" && rel.starts_with("runtime/"));
            if !allowed && mentions.count() > 0 {
                bad.push(format!("{rel} names {named}"));
            }
        }
    }
    assert_eq!(bad, Vec::<String>::new());
}
