//! Every `try_` form on both types (issue 69): the table below lists each
//! `pub fn try_…` of `Tensor`'s impls, with its `DynTensor` twin of the same
//! name or the reason it is `Tensor`-only, and the compile test that runs one
//! body on both types. `every_try_form_is_in_the_table` reads the sources
//! and fails when a method is missing from the table, when a twin the table
//! promises is missing, or when a `DynTensor` `try_` form has no `Tensor`
//! one; the compile tests are `ui-tests/<folder>/pass/` programs (run by
//! `tests/ui.rs`), each a macro pasting one body into a function on
//! `Tensor`s and one on `DynTensor`s and asserting the two agree.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// What a `try_` form of `Tensor` has on `DynTensor`.
enum Twin {
    /// The same name on `DynTensor`, with the same argument kinds; the
    /// compile test (a file under `ui-tests/`) calls it on both types.
    Both(&'static str),
    /// No twin, for the reason given (also in the README's `Tensor`-only list).
    TensorOnly(&'static str),
}

use Twin::{Both, TensorOnly};

/// The checked-in table: every `try_` method of `Tensor`, sorted by name.
const TABLE: &[(&str, Twin)] = &[
    ("try_arg_reduce", Both("try_forms/pass/try_arg_reduce.rs")),
    (
        "try_arg_reduce_keepdim",
        Both("try_forms/pass/try_arg_reduce_keepdim.rs"),
    ),
    ("try_argmax", Both("generic/pass/core_both_paths.rs")),
    ("try_argmin", Both("try_forms/pass/try_argmin.rs")),
    ("try_elementwise", Both("try_forms/pass/try_elementwise.rs")),
    (
        "try_elementwise_add",
        Both("generic/pass/core_both_paths.rs"),
    ),
    (
        "try_elementwise_add_into",
        Both("try_forms/pass/try_elementwise_add_into.rs"),
    ),
    (
        "try_elementwise_backward",
        Both("try_forms/pass/try_elementwise_backward.rs"),
    ),
    (
        "try_elementwise_backward_into",
        Both("try_forms/pass/try_elementwise_backward_into.rs"),
    ),
    (
        "try_elementwise_div",
        Both("try_forms/pass/try_elementwise_div.rs"),
    ),
    (
        "try_elementwise_div_into",
        Both("try_forms/pass/try_elementwise_div_into.rs"),
    ),
    (
        "try_elementwise_into",
        Both("try_forms/pass/try_elementwise_into.rs"),
    ),
    (
        "try_elementwise_max",
        Both("try_forms/pass/try_elementwise_max.rs"),
    ),
    (
        "try_elementwise_max_into",
        Both("try_forms/pass/try_elementwise_max_into.rs"),
    ),
    (
        "try_elementwise_min",
        Both("try_forms/pass/try_elementwise_min.rs"),
    ),
    (
        "try_elementwise_min_into",
        Both("try_forms/pass/try_elementwise_min_into.rs"),
    ),
    (
        "try_elementwise_mul",
        Both("generic/pass/one_prelude_both_paths.rs"),
    ),
    (
        "try_elementwise_mul_into",
        Both("try_forms/pass/try_elementwise_mul_into.rs"),
    ),
    (
        "try_elementwise_sub",
        Both("try_forms/pass/try_elementwise_sub.rs"),
    ),
    (
        "try_elementwise_sub_into",
        Both("try_forms/pass/try_elementwise_sub_into.rs"),
    ),
    (
        "try_from_dmatrix",
        TensorOnly(
            "a constructor named by its shape type; a DynTensor converts with TryFrom<&DMatrix>",
        ),
    ),
    (
        "try_full_with_shape",
        TensorOnly("a constructor named by its shape type and storage; DynTensor::full takes dims"),
    ),
    (
        "try_into_shape",
        TensorOnly(
            "changes a tensor's shape type; a DynTensor has none (to_dyn, into_static cross)",
        ),
    ),
    ("try_log_softmax", Both("try_forms/pass/try_log_softmax.rs")),
    ("try_matmul", Both("generic/pass/core_both_paths.rs")),
    (
        "try_matmul_backward",
        Both("try_forms/pass/try_matmul_backward.rs"),
    ),
    (
        "try_matmul_backward_into",
        Both("try_forms/pass/try_matmul_backward_into.rs"),
    ),
    ("try_matmul_into", Both("try_forms/pass/try_matmul_into.rs")),
    ("try_max", Both("generic/pass/core_both_paths.rs")),
    ("try_mean", Both("try_forms/pass/try_mean.rs")),
    ("try_min", Both("try_forms/pass/try_min.rs")),
    (
        "try_multiplex",
        Both("generic/pass/one_prelude_both_paths.rs"),
    ),
    ("try_prod", Both("try_forms/pass/try_prod.rs")),
    ("try_reduce", Both("try_forms/pass/try_reduce.rs")),
    (
        "try_reduce_backward",
        Both("try_forms/pass/try_reduce_backward.rs"),
    ),
    (
        "try_reduce_keepdim",
        Both("try_forms/pass/try_reduce_keepdim.rs"),
    ),
    ("try_reshape", Both("try_forms/pass/try_reshape.rs")),
    ("try_select", Both("generic/pass/one_prelude_both_paths.rs")),
    ("try_softmax", Both("generic/pass/core_both_paths.rs")),
    (
        "try_softmax_backward",
        Both("try_forms/pass/try_softmax_backward.rs"),
    ),
    ("try_sum", Both("generic/pass/core_both_paths.rs")),
    (
        "try_update",
        TensorOnly(
            "a fused expression evaluated in place; fused expressions are built on Tensors only",
        ),
    ),
    (
        "try_zeros_with_shape",
        TensorOnly("a constructor named by its shape type and storage; DynTensor::full takes dims"),
    ),
    ("try_zip_with", Both("try_forms/pass/try_zip_with.rs")),
];

/// The crate's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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

/// `text` after the generic parameters it starts with (`<T: Fn(u8) -> u8, S>`),
/// or `text` itself when it starts with none.
fn after_generics(text: &str) -> &str {
    if !text.starts_with('<') {
        return text;
    }
    let mut depth = 0;
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            // the `>` of `->` closes nothing
            '>' if previous != '-' => {
                depth -= 1;
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
        previous = c;
    }
    ""
}

/// The type an impl header (`impl<…> Tensor<…> {`, read up to its `{`) is
/// for: the last segment of its path (`crate::Tensor` is `Tensor`); a trait
/// impl's header gives the trait's name, which no method here is recorded under.
fn impl_type(header: &str) -> String {
    let rest = after_generics(header.trim_start_matches("impl").trim_start());
    let path: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    path.rsplit("::").next().unwrap_or_default().to_string()
}

/// Every `pub fn try_…` inside an impl block of `source` (rustfmt's
/// layout: an impl starts with `impl` at the start of its line, at any
/// indent (inside a `mod` too), its header runs to the first `{`, and it
/// ends at a `}` alone at the same indent), as (type, method). Free
/// functions are not returned; methods of other types are returned with
/// their type and filtered by the caller.
fn try_methods(source: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    // the open impl: its type and the line that closes it
    let mut open: Option<(String, String)> = None;
    let mut header = String::new();
    let mut indent = "";
    for line in source.lines() {
        let code = line.trim_start();
        let starts_impl = code.starts_with("impl<") || code.starts_with("impl ");
        if open.is_none() && (!header.is_empty() || starts_impl) {
            if header.is_empty() {
                indent = &line[..line.len() - code.len()];
            }
            header.push_str(code);
            header.push(' ');
            if line.contains('{') {
                open = Some((impl_type(&header), format!("{indent}}}")));
                header.clear();
            }
            continue;
        }
        let Some((ty, close)) = &open else { continue };
        if line == close {
            open = None;
            continue;
        }
        let Some(rest) = code.strip_prefix("pub fn try_") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        found.push((ty.clone(), format!("try_{name}")));
    }
    found
}

/// The `try_` methods of `ty` in the crate's sources.
fn methods_of(ty: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for path in rust_files(&root().join("src")) {
        let source = fs::read_to_string(&path).unwrap();
        for (t, name) in try_methods(&source) {
            if t == ty {
                names.insert(name);
            }
        }
    }
    names
}

/// The README's paragraph listing the `Tensor`-only `try_` forms.
fn readme_tensor_only_list() -> String {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("These `try_` forms are `Tensor`-only")
        .expect("README.md lists the Tensor-only try_ forms");
    let para = &readme[start..];
    para[..para.find("\n\n").unwrap_or(para.len())].to_string()
}

#[test]
fn the_reader_finds_the_methods_of_each_impl() {
    let planted = "\
impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// docs
    pub fn try_one<F: Fn(u8) -> u8>(&self) {}
    fn try_private(&self) {}
}

impl<T: Element> DynTensor<T>
where
    T: Copy,
{
    pub fn try_two(&self) {}
    pub fn plain(&self) {}
}

impl<T> TryFrom<u8> for crate::Tensor<T> {
    fn try_from(v: u8) -> Self {}
}

pub fn try_free() {}

impl<F: Fn(u8) -> u8> crate::dynamic::DynTensor<F> {
    pub fn try_three(&self) {}
}

mod inner {
    impl<T> Tensor<T> {
        pub fn try_four() -> Self {}
    }

    pub fn try_free_in_a_mod() {}
}
";
    let found = try_methods(planted);
    let want = [
        ("Tensor", "try_one"),
        ("DynTensor", "try_two"),
        ("DynTensor", "try_three"),
        ("Tensor", "try_four"),
    ];
    let found: Vec<(&str, &str)> = found
        .iter()
        .map(|(t, n)| (t.as_str(), n.as_str()))
        .collect();
    assert_eq!(found, want);
}

#[test]
fn every_try_form_is_in_the_table() {
    let on_tensor = methods_of("Tensor");
    let on_dyn = methods_of("DynTensor");
    // the reader sees the sources (a reader that finds nothing passes nothing)
    assert!(on_tensor.len() >= 40, "{on_tensor:?}");
    assert!(on_dyn.contains("try_sum"), "{on_dyn:?}");

    let names: Vec<&str> = TABLE.iter().map(|(n, _)| *n).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(names, sorted, "the table is sorted by name, each name once");

    let mut problems = Vec::new();
    for name in &on_tensor {
        if !names.contains(&name.as_str()) {
            problems.push(format!("Tensor::{name} is not in the table"));
        }
    }
    for name in &on_dyn {
        if !on_tensor.contains(name) {
            problems.push(format!("DynTensor::{name} has no Tensor form of that name"));
        }
    }
    let readme_list = readme_tensor_only_list();
    for (name, twin) in TABLE {
        if !on_tensor.contains(*name) {
            problems.push(format!(
                "the table lists {name}, which Tensor does not have"
            ));
        }
        match twin {
            Both(case) => {
                if !on_dyn.contains(*name) {
                    problems.push(format!(
                        "{name}: no DynTensor twin and not marked Tensor-only"
                    ));
                }
                let path = root().join("ui-tests").join(case);
                // a call, with or without a turbofish
                let calls = [format!(".{name}("), format!(".{name}::<")];
                match fs::read_to_string(&path) {
                    Ok(text)
                        if calls.iter().any(|c| text.contains(c.as_str()))
                            && text.contains("fn on_dyn_tensors") => {}
                    Ok(_) => problems.push(format!("{case} does not call {name} on both paths")),
                    Err(_) => problems.push(format!("{name}: its compile test {case} is missing")),
                }
            }
            TensorOnly(reason) => {
                assert!(!reason.is_empty());
                if on_dyn.contains(*name) {
                    problems.push(format!("{name} is marked Tensor-only but DynTensor has it"));
                }
                if !readme_list.contains(&format!("`{name}`")) {
                    problems.push(format!(
                        "{name} is Tensor-only but the README's list lacks it"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
