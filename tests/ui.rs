//! Compile-fail and compile-pass UI tests (trybuild), one folder per operator:
//! `ui-tests/<op>/fail/*.rs` must fail with the reviewed `.stderr` next to
//! them, `ui-tests/<op>/pass/*.rs` must build and run (`ui-tests/try_forms/`
//! has pass cases only: one body on `Tensor` and `DynTensor` per `try_` pair).
//!
//! `SHAPECHECK_UI=<op>` runs only that operator's cases, and
//! `SHAPECHECK_UI_CASE=<glob>` only the cases whose file name matches (handy
//! with `TRYBUILD=overwrite` when writing new snapshots).
//!
//! `diagnostics_policy` checks every reviewed `.stderr` against the rules of
//! a compile error (issue 14): one mistake per case and one error per
//! mistake, no list of other impls, and at most 15 lines per error. The
//! errors that Rust 1.95 prints longer (post-monomorphisation constant
//! assertions, a warning a case denies) are listed in `EXCEPTIONS` with the reason, so that the list
//! can only shrink.

use std::path::{Path, PathBuf};

#[test]
fn ui() {
    let only = std::env::var("SHAPECHECK_UI").ok();
    let case = std::env::var("SHAPECHECK_UI_CASE").unwrap_or_else(|_| "*".into());
    let t = trybuild::TestCases::new();
    for op in ops() {
        if only.as_deref().is_some_and(|o| o != op) {
            continue;
        }
        // the cases of a feature's folder need it (trybuild builds them
        // with the features this test was built with)
        if op == "model" && !cfg!(feature = "tflite") {
            continue;
        }
        let (fail, pass) = (
            format!("ui-tests/{op}/fail/{case}.rs"),
            format!("ui-tests/{op}/pass/{case}.rs"),
        );
        // trybuild takes a pattern without `*` as one file, which must
        // exist: a case's name names a file of one of the two folders
        let wanted = |p: &str| case.contains('*') || Path::new(p).exists();
        if wanted(&fail) {
            t.compile_fail(fail);
        }
        if wanted(&pass) {
            t.pass(pass);
        }
    }
}

/// The folders of `ui-tests/`, one per operator (or macro), sorted: a new
/// folder is picked up without a change here.
fn ops() -> Vec<String> {
    let mut ops: Vec<String> = std::fs::read_dir("ui-tests")
        .expect("ui-tests/ exists")
        .map(|e| e.expect("readable dir entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ops.sort();
    assert!(ops.len() >= 7, "ui-tests/ lost its folders: {ops:?}");
    ops
}

/// The longest an error may be, from its `error` line to its last non-blank line.
const MAX_LINES: usize = 15;

/// Cases whose one error breaks a rule on Rust 1.95, each with the length
/// it must stay within, whether it may list other impls, and why it cannot
/// do better (yet). A case that improves must leave the list.
const EXCEPTIONS: &[(&str, usize, bool, &str)] = &[
    // constant assertions fail at monomorphisation: rustc always adds
    // "erroneous constant encountered" and "the above error was encountered
    // while instantiating ..." (5 lines each) to the 5 of the error itself
    (
        "generic/fail/same_shape_axis_out_of_range.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "model/fail/arena_overlap.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    // arithmetic on const generics, which no stable bound states: a
    // depthwise filter's channels `c · K` for a multiplier K (with K = 1 an
    // equality, a trait: depthwise_wrong_channels), a concatenation's sum,
    // a transposed convolution's size, a slice's and a split's bounds
    (
        "model/fail/depthwise_wrong_multiplier.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "model/fail/concatenation_wrong_output.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "model/fail/concatenation_inputs_do_not_join.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "model/fail/transpose_conv_wrong_output_size.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "model/fail/slice_past_the_input.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "model/fail/split_wrong_pieces.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "model/fail/pool_window_too_large.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "multiplex/fail/index_rows.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "multiplex/fail/into_more_rows.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "multiplex/fail/macro_more_rows.stderr",
        19,
        false,
        "post-monomorphisation constant",
    ),
    (
        "multiplex/fail/one_candidate.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "multiplex/fail/zero_candidates.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "reshape/fail/element_count.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "reshape/fail/rows_element_count.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    (
        "partition/fail/num_zero.stderr",
        17,
        false,
        "post-monomorphisation constant",
    ),
    // a warning the case denies (`#![deny(unused_must_use)]`): rustc adds
    // where that lint level is set (5 lines) and `let _ = ...` (4 lines)
    // to the 7 lines of the warning itself
    (
        "multiplex/fail/builder_not_run.stderr",
        16,
        false,
        "a denied warning",
    ),
    (
        "partition/fail/builder_not_run.stderr",
        16,
        false,
        "a denied warning",
    ),
    (
        "stitch/fail/builder_not_run.stderr",
        16,
        false,
        "a denied warning",
    ),
];

/// The `error` blocks of a `.stderr`: each from its `error` line to the
/// line before the next one, trailing blank lines dropped.
fn error_blocks(text: &str) -> Vec<Vec<&str>> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("error[") || line.starts_with("error:") {
            blocks.push(vec![line]);
        } else if let Some(b) = blocks.last_mut() {
            b.push(line);
        }
    }
    for b in &mut blocks {
        while b.last().is_some_and(|l| l.trim().is_empty()) {
            b.pop();
        }
    }
    blocks
}

fn stderr_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for op in ops() {
        let dir = Path::new("ui-tests").join(op).join("fail");
        // `try_forms/` holds pass cases only (one body on both types per
        // `try_` pair, see tests/try_forms.rs)
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("readable dir entry").path();
            if path.extension().is_some_and(|e| e == "stderr") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn diagnostics_policy() {
    let mut problems = Vec::new();
    let files = stderr_files();
    assert!(files.len() > 40, "found only {} .stderr files", files.len());
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable .stderr");
        let name = path
            .strip_prefix("ui-tests")
            .expect("under ui-tests")
            .to_string_lossy()
            .replace('\\', "/");
        let blocks = error_blocks(&text);
        if blocks.len() != 1 {
            problems.push(format!("{name}: {} errors for one mistake", blocks.len()));
        }
        let exception = EXCEPTIONS.iter().find(|(n, ..)| *n == name);
        let (limit, impl_list_allowed) =
            exception.map_or((MAX_LINES, false), |(_, l, i, _)| (*l, *i));
        if text.contains("the following other types implement") && !impl_list_allowed {
            problems.push(format!("{name}: lists other impls"));
        }
        for b in &blocks {
            if b.len() > limit {
                problems.push(format!(
                    "{name}: an error of {} lines (limit {limit})",
                    b.len()
                ));
            }
        }
    }
    // an exception whose case got better must leave the list
    for (name, _, impl_list_allowed, why) in EXCEPTIONS {
        let path = Path::new("ui-tests").join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            problems.push(format!("{name}: listed in EXCEPTIONS ({why}) but missing"));
            continue;
        };
        let short = error_blocks(&text).iter().all(|b| b.len() <= MAX_LINES);
        let lists = text.contains("the following other types implement");
        if short && !(lists && *impl_list_allowed) {
            problems.push(format!(
                "{name}: now within the rules; remove it from EXCEPTIONS"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checker itself: a two-error snapshot with an impl list and a long
/// block is reported three times over.
#[test]
fn policy_checker_sees_violations() {
    let text = "error[E0277]: a\n  |\n\nerror[E0277]: b\n  = help: the following other types implement trait `X`:\n\n";
    let blocks = error_blocks(text);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0], vec!["error[E0277]: a", "  |"]);
    let long = format!("error: x\n{}", "  |\n".repeat(20));
    assert_eq!(error_blocks(&long)[0].len(), 21);
}
