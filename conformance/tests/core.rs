//! The compute core's vectors (`tests/vectors/core`, copies of the shared
//! set): the conformance tool in both modes passes every case of each
//! family the project implements.

mod common;

use common::check_shipped;
use std::path::PathBuf;

/// The core families the project implements, with their case counts in
/// `tests/vectors/core`. One line per family: add yours when it passes.
/// matmul.json holds Paddle's `matmul` and TensorFlow's `tf_matmul` cases.
const IMPLEMENTED: &[(&str, usize)] = &[("matmul", 247), ("reduce", 300), ("softmax", 200)];

fn core_dir() -> PathBuf {
    common::vectors_dir("core")
}

#[test]
fn dynamic_mode_passes_the_core_vectors() {
    check_shipped("dynamic", &core_dir(), IMPLEMENTED, "core-implemented");
}

#[test]
#[ignore = "long: `cargo test -p conformance -- --ignored` runs it (CI does)"]
fn static_mode_passes_the_core_vectors() {
    check_shipped("static", &core_dir(), IMPLEMENTED, "core-implemented");
}
