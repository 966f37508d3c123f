//! The invariants ARCHITECTURE.md states, checked on the source tree: what
//! may import what, the one file layout of every operator folder, where
//! `DynTensor`'s methods live, the internal macros, and the size and links
//! of the two top-level documents. Each test names the invariant it checks.

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
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a file's code names through `crate::`: `crate::X` and every name
/// of `crate::{X, ..}` (first segment only).
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let names: Vec<&str> = if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            inner[..end].split(',').collect()
        } else {
            vec![rest]
        };
        for n in names {
            let first: String = n
                .trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !first.is_empty() {
                found.push(first);
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The supertraits that say what generic code may rely on, named in the
/// header of the trait that promises them (rustc sees facts about a generic
/// `S` only through its bounds' supertraits):
/// - a static shape meets its own shape and a scalar under the operators'
///   rule (numpy's, on tensors and on fused expressions) and as then and
///   else of a `select` under `Numpy`;
/// - a dim kind (so a shape's kind, whatever its dims) has a storage for
///   an owned tensor (`storage::KindBuffer`), which is what makes
///   `Owned<T, (B, Dim<8>)>` a type for a generic `B`;
/// - a dim broadcasts with itself into itself (`algebra::Broadcast`), so
///   that the checked forms accept two tensors sharing a generic batch dim.
///
/// Each is a path in a trait header, never an import: the arrows the layer
/// rules below let point up, checked by
/// `the_static_traits_promise_their_meets`.
const FACT_HEADERS: [(&str, &str, &[&str]); 3] = [
    (
        "shape.rs",
        "pub trait StaticShape:",
        &[
            "crate::ops::elementwise::OperatorShapes",
            "crate::ops::elementwise::LazyOperatorShapes",
            "crate::ops::select::SelectShapes",
            "crate::ops::select::SelectNoCheck",
            "crate::ops::select::Numpy",
            // a static operand passes matmul's plain forms (either marker)
            "crate::ops::matmul::MatmulNoCheck",
            "crate::ops::matmul::NoTrans",
            "crate::ops::matmul::Trans",
        ],
    ),
    ("dim.rs", "pub trait Kind:", &["crate::storage::KindBuffer"]),
    (
        "dim.rs",
        "pub trait DimLike:",
        &["crate::algebra::Broadcast"],
    ),
];

/// `code` split at the header of `trait_start` (to its `{`): the header,
/// and the code without it.
fn split_header(code: &str, trait_start: &str) -> (String, String) {
    let Some(at) = code.find(trait_start) else {
        return (String::new(), code.to_string());
    };
    let end = at + code[at..].find('{').unwrap_or(code.len() - at);
    (
        code[at..end].to_string(),
        format!("{}{}", &code[..at], &code[end..]),
    )
}

/// The crate modules a file's code names (lower-case first segments),
/// leaving out the paths of its [`FACT_HEADERS`].
fn crate_modules(path: &Path) -> Vec<String> {
    let mut text = code(path);
    for (file, start, _) in FACT_HEADERS {
        if rel(path) == file {
            text = split_header(&text, start).1;
        }
    }
    crate_paths(&text)
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
        .filter(|n| {
            n.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                || ROOT_FNS.contains(&n.as_str())
        })
        .collect()
}

fn rel(p: &Path) -> String {
    p.strip_prefix(src()).unwrap().display().to_string()
}

/// "dim.rs says what a dim is and depends on nothing (but the storage its
/// kinds promise, in `Kind`'s header, and a dim's broadcast with itself, in
/// `DimLike`'s); algebra.rs, the relations between
/// dims, depends on dim.rs alone."
#[test]
fn the_dim_algebra_is_at_the_bottom() {
    assert_eq!(crate_modules(&src().join("dim.rs")), Vec::<String>::new());
    assert_eq!(
        crate_modules(&src().join("algebra.rs")),
        vec!["dim".to_string()]
    );
    // its files (the bounded dim's impls, the known-without-running relations)
    for f in rust_files(&src().join("algebra")) {
        assert_eq!(crate_modules(&f), vec!["dim".to_string()], "{}", rel(&f));
    }
}

/// "`StaticShape` carries, as supertraits, the meets generic code relies
/// on, and a dim kind the storage of its owned tensors", and nothing else
/// from a higher layer: each header names exactly those facts.
#[test]
fn the_static_traits_promise_their_meets() {
    for (file, start, facts) in FACT_HEADERS {
        let (header, _) = split_header(&code(&src().join(file)), start);
        assert!(!header.is_empty(), "{file} lost `{start}`");
        let mut named: Vec<&str> = header
            .split(|c: char| c.is_whitespace() || matches!(c, '+' | '<' | '>' | ','))
            .filter(|w| {
                w.starts_with("crate::algebra")
                    || w.starts_with("crate::ops")
                    || w.starts_with("crate::storage")
            })
            .collect();
        named.sort();
        named.dedup();
        let mut want = facts.to_vec();
        want.sort();
        assert_eq!(named, want, "{file}: `{start}` names other crate paths");
    }
}

/// "Nothing below ops/ knows the operators (expr/ composes them): dims, shapes, storage, tensors,
/// the kernels, LoD tensors and DynTensor import no `crate::ops`" (the export lists, lib.rs and
/// dynamic/prelude.rs, name them, and any_error.rs gathers their errors into one).
#[test]
fn lower_layers_do_not_import_ops() {
    for f in rust_files(&src()) {
        let r = rel(&f);
        if r.starts_with("ops/")
            || r.starts_with("expr/")
            || r.starts_with("interop/")
            || r == "lib.rs"
            || r == "dynamic/prelude.rs"
            || r == "any_error.rs"
        {
            continue;
        }
        assert!(
            !crate_modules(&f).contains(&"ops".to_string()),
            "{r} imports crate::ops, but only ops/, expr/, interop/, lib.rs, dynamic/prelude.rs and any_error.rs may"
        );
    }
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

/// The checker above sees an upward import, alone or in a group, and lets a
/// module path pass.
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
