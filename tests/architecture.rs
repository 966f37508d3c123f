//! The invariants ARCHITECTURE.md states, checked on the source tree: the
//! layers of `src/` and what each role's file may import, the one file
//! layout of every operator folder, where `DynTensor`'s methods live, the
//! internal macros, and the links of the two top-level documents. Each test
//! names the invariant it checks.

use std::fs;
use std::path::{Path, PathBuf};

/// The crate's `src/`.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The file's code: comment lines (`//`, `///`, `//!`) dropped.
fn code(path: &Path) -> String {
    strip_comments(&fs::read_to_string(path).unwrap())
}

fn strip_comments(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `code` without its unit-test modules (`#[cfg(test)]` or
/// `#[cfg(all(test, ..))]` followed by `mod`, to the module's closing
/// brace): a test may use the crate from above (the prelude, say).
fn without_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut lines = code.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let is_test_cfg = t.starts_with("#[cfg(test)]") || t.starts_with("#[cfg(all(test");
        if is_test_cfg
            && lines
                .peek()
                .is_some_and(|n| n.trim_start().starts_with("mod "))
        {
            let mut depth = 0i32;
            let mut opened = false;
            for inner in lines.by_ref() {
                depth += inner.matches('{').count() as i32;
                depth -= inner.matches('}').count() as i32;
                opened |= inner.contains('{');
                if opened && depth <= 0 {
                    break;
                }
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// What a file's code names through `crate::`: `crate::a::b::C` and every
/// name of `crate::{a::b, ..}`, as the path after `crate::` (`a::b::C`).
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        // `a::b::` before a group `{..}` is the prefix of each of its names
        let prefix: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let after = &rest[prefix.len()..];
        let names: Vec<String> = match after.strip_prefix('{') {
            Some(inner) if prefix.is_empty() || prefix.ends_with("::") => {
                let end = inner.find('}').unwrap_or(inner.len());
                inner[..end]
                    .split(',')
                    .map(|n| format!("{prefix}{}", n.trim()))
                    .collect()
            }
            _ => vec![prefix.clone()],
        };
        for n in names {
            let path: String = n
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            if !segments.is_empty() {
                found.push(segments.join("::"));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The modules a file's code names (paths whose first segment is lower
/// case), test modules left out.
fn crate_modules(text: &str) -> Vec<String> {
    crate_paths(&without_test_modules(text))
        .into_iter()
        .filter(|n| n.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect()
}

/// The items a file's code takes from the crate root (`crate::Tensor`,
/// `crate::{Tensor, ..}`): an arrow up to lib.rs, which re-exports them.
/// The function `multiplex`, a lower-case root item that is no module,
/// counts too (`shape` and `tensor` are modules as well as macros).
fn crate_root_items(text: &str) -> Vec<String> {
    const ROOT_FNS: [&str; 1] = ["multiplex"];
    crate_paths(text)
        .into_iter()
        .map(|p| p.split("::").next().unwrap_or_default().to_string())
        .filter(|n| {
            n.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                || ROOT_FNS.contains(&n.as_str())
        })
        .collect()
}

fn rel(p: &Path) -> String {
    p.strip_prefix(src()).unwrap().display().to_string()
}

/// The layers of `src/`, bottom first, each with the files it holds (a
/// path, or a folder ending in `/`). A file may name, through `crate::`,
/// its own layer and the layers below it, never one above. The dims and
/// their algebra sit on the shape traits (a dim's kind is a shape's kind);
/// `kernel/` needs only values; storage and tensors are one layer (a
/// `Room`'s results are tensors); the export lists are the top.
const LAYERS: [(&str, &[&str]); 18] = [
    (
        "dims: a shape as a value, ShapeError, rule_errors!",
        &["dims.rs"],
    ),
    ("error: the errors' module, Msg", &["error.rs"]),
    ("buffer: what a buffer can do", &["buffer.rs", "buffer/"]),
    (
        "shape: Shape, FixedShape, a shape's kind and its storage",
        &["shape.rs"],
    ),
    (
        "dim: what a dim is; a tuple of dims is a shape",
        &["dim.rs", "dim/"],
    ),
    ("algebra: how two dims relate", &["algebra.rs", "algebra/"]),
    ("rows: a shape's first dim", &["rows.rs"]),
    ("broadcast: placement as a value", &["broadcast.rs"]),
    ("kernel: the shared loops", &["kernel/"]),
    ("element: the numeric types", &["element.rs"]),
    (
        "storage and tensors",
        &["storage.rs", "storage/", "tensor.rs", "tensor/"],
    ),
    ("dynamic: DynTensor", &["dynamic.rs"]),
    ("lod: LoD tensors", &["lod/"]),
    ("ops: the operators", &["ops/"]),
    ("expr: fused expressions", &["expr/"]),
    ("any_error: one error for every op", &["any_error.rs"]),
    ("interop: the optional features", &["interop/"]),
    ("export lists", &["lib.rs", "dynamic/prelude.rs"]),
];

/// The layer of a file of `src/` (its path from `src/`).
fn layer_of_file(rel: &str) -> Option<usize> {
    // the longest match wins (`dynamic/prelude.rs` over `dynamic.rs`)
    let mut best: Option<(usize, usize)> = None;
    for (i, (_, files)) in LAYERS.iter().enumerate() {
        for f in files.iter() {
            let hit = if f.ends_with('/') {
                rel.starts_with(f)
            } else {
                rel == *f
            };
            if hit && best.is_none_or(|(_, len)| f.len() > len) {
                best = Some((i, f.len()));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// The layer a `crate::` path names (`ops::select`, `dim`, ...): the module
/// `a` is `a.rs` or `a/`; `dynamic::prelude` and `prelude` are export
/// lists.
fn layer_of_path(path: &str) -> Option<usize> {
    let mut parts = path.split("::");
    let first = parts.next().unwrap_or_default();
    let second = parts.next().unwrap_or_default();
    match (first, second) {
        ("prelude", _) | ("dynamic", "prelude") | ("__private", _) | ("multiplex", _) => {
            layer_of_file("lib.rs")
        }
        _ => layer_of_file(&format!("{first}.rs")).or(layer_of_file(&format!("{first}/"))),
    }
}

/// The upward imports of a file (`rel`, its path from `src/`) whose code is
/// `text`: each a message naming both layers.
fn upward_imports(rel: &str, text: &str) -> Vec<String> {
    let Some(own) = layer_of_file(rel) else {
        return vec![format!("{rel} is in no layer of LAYERS")];
    };
    let mut out = Vec::new();
    for path in crate_modules(text) {
        match layer_of_path(&path) {
            None => out.push(format!(
                "{rel} names crate::{path}, a module in no layer of LAYERS"
            )),
            Some(l) if l > own => out.push(format!(
                "{rel} (layer {own}, {}) imports crate::{path} (layer {l}, {}): an import must point down",
                LAYERS[own].0, LAYERS[l].0
            )),
            Some(_) => {}
        }
    }
    out
}

/// "Layers point down": every file of `src/` imports only its own layer and
/// the layers below it (LAYERS, bottom first), so no two files import each
/// other through a circle of layers.
#[test]
fn every_import_points_down() {
    let mut wrong = Vec::new();
    for f in rust_files(&src()) {
        wrong.extend(upward_imports(&rel(&f), &code(&f)));
    }
    assert!(wrong.is_empty(), "upward imports:\n{}", wrong.join("\n"));
}

/// The checker above sees an upward import, alone, in a group or as a path
/// in code, and lets a downward one pass.
#[test]
fn the_layer_checker_sees_an_upward_import() {
    assert_eq!(
        upward_imports("dims.rs", "use crate::dims::Dims;"),
        Vec::<String>::new()
    );
    assert_eq!(
        upward_imports("algebra.rs", "use crate::dim::{Dim, One};").len(),
        0
    );
    assert_eq!(
        upward_imports("dim.rs", "use crate::algebra::Broadcast;").len(),
        1
    );
    assert_eq!(
        upward_imports("dim.rs", "use crate::{shape::Shape, storage::Room};").len(),
        1
    );
    assert_eq!(
        upward_imports("kernel/walk.rs", "let t = crate::tensor::Tensor::zeros();").len(),
        1
    );
    assert_eq!(
        upward_imports("ops/select/api.rs", "use crate::dynamic::prelude::select;").len(),
        1
    );
    assert_eq!(
        upward_imports("ops/select/api.rs", "use crate::dynamic::DynTensor;").len(),
        0
    );
    // a unit-test module may use the crate from above
    let test_mod = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::prelude::*;\n}\n";
    assert_eq!(upward_imports("tensor/brand.rs", test_mod).len(), 0);
    assert_eq!(
        upward_imports("tensor/brand.rs", "use crate::prelude::*;").len(),
        1
    );
}

/// A file's imports of the crate, test modules left out, as full paths to
/// match a role's allowed prefixes against.
fn role_violations(rel: &str, text: &str, allowed: &[&str]) -> Vec<String> {
    crate_modules(text)
        .into_iter()
        .filter(|p| {
            !allowed
                .iter()
                .any(|a| p == a || p.starts_with(&format!("{a}::")))
        })
        .map(|p| format!("{rel} imports crate::{p}; its role allows only {allowed:?}"))
        .collect()
}

/// "An op's `rule.rs` is its shape rule on values, which every path calls:
/// it imports values and other rules only (dims, the broadcast placement,
/// the errors, stitch and partition's shared index values, lod_reset's
/// offsets, another op's rule, the one tuning constant), never a tensor,
/// a storage, a dim type, the algebra or a type-level rule."
#[test]
fn a_rule_imports_values_and_rules_only() {
    const ALLOWED: [&str; 9] = [
        "dims",
        "broadcast",
        "error",
        "shape::Dims",
        "shape::MAX_RANK",
        "ops::indexed",
        "lod::Offsets",
        "kernel::SPEED_OVER_SIZE",
        "ops::reduce::rule",
    ];
    let mut wrong = Vec::new();
    let mut rules = 0;
    for f in rust_files(&src().join("ops")) {
        if f.file_name().is_some_and(|n| n == "rule.rs") {
            rules += 1;
            wrong.extend(role_violations(&rel(&f), &code(&f), &ALLOWED));
        }
    }
    assert!(rules >= 9, "every op has a rule.rs");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// "`kernel/` holds the loops every op shares: it imports only itself and
/// the values below it (dims, the broadcast placement), never a shape
/// trait, a dim, a storage, a tensor or an op."
#[test]
fn the_kernel_imports_values_only() {
    const ALLOWED: [&str; 5] = [
        "kernel",
        "dims",
        "broadcast",
        "shape::Dims",
        "shape::MAX_RANK",
    ];
    let mut wrong = Vec::new();
    for f in rust_files(&src().join("kernel")) {
        wrong.extend(role_violations(&rel(&f), &code(&f), &ALLOWED));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// "An op's `bounds.rs` (its rule as traits) is built on the dims, the
/// algebra and the shape traits: it imports none of the shared loops
/// (`kernel/`), no other op's `kernel.rs`, and no `DynTensor`, LoD tensor
/// or fused expression."
#[test]
fn the_bounds_are_traits_over_the_algebra() {
    const NEVER: [&str; 4] = ["kernel", "dynamic", "lod", "expr"];
    let mut wrong = Vec::new();
    let mut bounds = 0;
    for f in rust_files(&src().join("ops")) {
        let r = rel(&f);
        if !(r.ends_with("/bounds.rs") || r.contains("/bounds/")) {
            continue;
        }
        bounds += 1;
        let text = code(&f);
        for p in crate_modules(&text) {
            let first = p.split("::").next().unwrap_or_default();
            if NEVER.contains(&first) || (first == "ops" && p.split("::").nth(2) == Some("kernel"))
            {
                wrong.push(format!(
                    "{r} imports crate::{p}: a bounds file holds a rule as traits, no loop, DynTensor, LoD tensor or expression"
                ));
            }
        }
    }
    assert!(bounds >= 8, "the ops' bounds files");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// "Imports name the module that defines the thing": no file in src/ but
/// lib.rs takes an item from the crate root (an upward arrow to lib.rs).
#[test]
fn nothing_imports_from_the_crate_root() {
    for f in rust_files(&src()) {
        let r = rel(&f);
        if r == "lib.rs" {
            continue;
        }
        let root = crate_root_items(&code(&f));
        assert!(
            root.is_empty(),
            "{r} takes {root:?} from the crate root; import it from the module that defines it"
        );
    }
}

/// The checker above sees an import from the crate root, alone or in a
/// group, and lets a module path pass.
#[test]
fn the_import_checker_sees_an_upward_arrow() {
    assert_eq!(crate_root_items("use crate::Tensor;"), vec!["Tensor"]);
    assert_eq!(
        crate_root_items("use crate::{dim::Dim, Shape};"),
        vec!["Shape"]
    );
    assert_eq!(
        crate_root_items("let t = crate::Tensor::zeros();"),
        vec!["Tensor"]
    );
    assert!(crate_root_items("use crate::tensor::Tensor;").is_empty());
    assert!(crate_root_items("use crate::{dim::Dim, shape::Shape};").is_empty());
}

/// "No file in src/ cites a document outside the repository: the framework
/// behaviour an op matches is stated in its mod.rs, in our words."
#[test]
fn nothing_cites_outside_the_repository() {
    for f in rust_files(&src()) {
        let text = fs::read_to_string(&f).unwrap();
        for outside in ["../shared", "op-semantics", "shared/spec", "shared/vectors"] {
            assert!(
                !text.contains(outside),
                "{} cites {outside:?}, outside the repository",
                rel(&f)
            );
        }
    }
}

/// The parts a role's file may have in its folder: the operators beside
/// the methods (`api/operators.rs`), the named forms written out one by one
/// (`api/named.rs`), the named forms on two tensors of one generic shape
/// (`api/same_shape.rs`), the plain forms' no-check rule beside the checked
/// rule (`bounds/plain.rs`).
const OP_PARTS: [&str; 4] = [
    "api/operators.rs",
    "api/named.rs",
    "api/same_shape.rs",
    "bounds/plain.rs",
];

/// The file names an operator folder may hold, one role each.
const OP_FILES: [&str; 9] = [
    "mod.rs",
    "api.rs",
    "bounds.rs",
    "rule.rs",
    "kernel.rs",
    "error.rs",
    "dynamic.rs",
    "backward.rs",
    "tests.rs",
];

/// "Every operator folder has the same files: mod.rs and rule.rs always,
/// the others when the op has something for that role (partition reports
/// through stitch's error enum, so it has no error.rs), and no other name."
#[test]
fn every_op_folder_has_the_same_file_names() {
    let mut folders = 0;
    for entry in fs::read_dir(src().join("ops")).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        folders += 1;
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        for n in &names {
            if dir.join(n).is_dir() {
                // a file's parts: only the ones named in OP_PARTS
                for part in fs::read_dir(dir.join(n)).unwrap() {
                    let part = format!("{n}/{}", part.unwrap().file_name().to_string_lossy());
                    assert!(
                        OP_PARTS.contains(&part.as_str()),
                        "{}: {part} is not one of {OP_PARTS:?}",
                        dir.display()
                    );
                }
                continue;
            }
            assert!(
                OP_FILES.contains(&n.as_str()),
                "{}: {n} is not one of {OP_FILES:?}",
                dir.display()
            );
        }
        for required in ["mod.rs", "rule.rs"] {
            assert!(
                names.iter().any(|n| n == required),
                "{}: no {required}",
                dir.display()
            );
        }
    }
    assert!(folders >= 5, "the five operators have a folder each");
}

/// "An op's DynTensor methods are in that op's dynamic.rs; dynamic.rs at the
/// root holds the type alone (interop features add conversions)."
#[test]
fn dyn_tensor_methods_live_in_each_ops_dynamic_rs() {
    for f in rust_files(&src().join("ops")) {
        let r = rel(&f);
        if r.ends_with("/dynamic.rs") {
            continue;
        }
        let text = code(&f);
        assert!(
            !text.contains("> DynTensor<") && !text.contains("> crate::dynamic::DynTensor<"),
            "{r} has an impl block of DynTensor; it belongs in the op's dynamic.rs"
        );
    }
    let root = code(&src().join("dynamic.rs"));
    assert!(!root.contains("crate::ops"), "dynamic.rs imports the ops");
}

/// "Internal macros only where they remove real repetition: at most 12
/// `macro_rules!` in src/, each listed (with what it writes) in
/// ARCHITECTURE.md."
#[test]
fn every_macro_is_listed_and_there_are_few() {
    let arch =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap();
    let mut count = 0;
    for f in rust_files(&src()) {
        for line in code(&f).lines() {
            if let Some(rest) = line.trim_start().strip_prefix("macro_rules! ") {
                count += 1;
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                assert!(
                    arch.contains(&format!("`{name}!`")),
                    "{}: `{name}!` is not in ARCHITECTURE.md's list of macros",
                    rel(&f)
                );
            }
        }
    }
    assert!(count <= 12, "{count} macro_rules! in src/ (at most 12)");
}

/// "Neither README.md, ARCHITECTURE.md nor docs/ points outside the
/// repository."
#[test]
fn the_documents_are_self_contained() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let arch = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut docs = vec![
        ("README.md".to_string(), readme),
        ("ARCHITECTURE.md".to_string(), arch),
    ];
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let p = entry.unwrap().path();
        docs.push((p.display().to_string(), fs::read_to_string(&p).unwrap()));
    }
    for (name, text) in docs {
        assert!(!text.contains("../shared"), "{name} points into ../shared");
        assert!(
            !text.contains("/work/"),
            "{name} names a path of this machine"
        );
    }
}

/// "Walks are built in kernel/ only and the stride dispatch exists once":
/// outside `src/kernel/` no code constructs a [`Walk`] (a `Walk { .. }`
/// literal, a `Walk::` constructor, `with_first_dim`) or chooses a loop by
/// a walk's stride case (`inner_strides`, a `match` arm on a stride array
/// such as `[1, _]`); an op gives the planner (`kernel/plan.rs`) its
/// rule's frame and gets its walk and loop from there. Self-contained (its
/// helpers are its own), with a check that the scanner sees what it
/// forbids.
#[test]
fn walks_are_planned_in_the_kernel_only() {
    /// Whether `text` has the identifier `ident` followed (after spaces)
    /// by `next`.
    fn ident_then(text: &str, ident: &str, next: &str) -> bool {
        let mut from = 0;
        while let Some(i) = text[from..].find(ident) {
            let at = from + i;
            let before = text[..at].chars().next_back();
            let after = text[at + ident.len()..].trim_start();
            if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && after.starts_with(next)
            {
                return true;
            }
            from = at + ident.len();
        }
        false
    }
    /// Whether a line is a match arm on a stride array: a slice pattern of
    /// at least two elements, each `0`, `1`, `_` or a name, at least one a
    /// literal stride (`[1, _] =>`, `[_, st, se] if .. =>`).
    fn stride_arm(line: &str) -> bool {
        let t = line.trim_start();
        let (Some(rest), true) = (t.strip_prefix('['), t.contains("=>")) else {
            return false;
        };
        let Some(end) = rest.find(']') else {
            return false;
        };
        let parts: Vec<&str> = rest[..end].split(',').map(str::trim).collect();
        parts.len() >= 2
            && parts.iter().any(|p| *p == "0" || *p == "1")
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    }
    /// What a line of code does that only the kernel may, if anything.
    fn kernel_only(line: &str) -> Option<&'static str> {
        if ident_then(line, "Walk", "{") || ident_then(line, "Walk", "::") {
            Some("builds a walk")
        } else if line.contains("with_first_dim") {
            Some("sets a walk's dims")
        } else if line.contains("inner_strides") || stride_arm(line) {
            Some("writes a stride dispatch")
        } else {
            None
        }
    }

    // the scanner sees a planted walk and a planted dispatch, and lets the
    // walk's type and an ordinary slice pattern pass
    assert!(kernel_only("    let w = Walk { rank: 1, ..w };").is_some());
    assert!(kernel_only("let w = Walk::from_frame(f.rank, f.out, f.ops);").is_some());
    assert!(kernel_only("        [1, _] => body.run::<true, false>(),").is_some());
    assert!(kernel_only("    match walk.inner_strides() {").is_some());
    assert!(kernel_only("fn run(walk: &Walk<2>, room: &mut Option<Walk<2>>) {").is_none());
    assert!(kernel_only("                [r, c] => Ok(to_dmatrix(r, c, data)),").is_none());
    assert!(kernel_only("    walk: LevelWalk { level, ..self.walk },").is_none());

    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    let mut found = Vec::new();
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != src.join("kernel") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            files += 1;
            let text = fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                if let Some(what) = kernel_only(line) {
                    let file = path.strip_prefix(&src).unwrap().display();
                    found.push(format!("src/{file}:{}: {what}: `{}`", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        files > 50,
        "the scan found only {files} files outside src/kernel/"
    );
    assert!(
        found.is_empty(),
        "only src/kernel/ builds walks and chooses loops by stride case; give the planner \
         (kernel/plan.rs) the op's frame instead:\n{}",
        found.join("\n")
    );
}
