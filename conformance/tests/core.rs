//! The compute core (issue 57): the conformance tool, in both modes, on the
//! recorded core vectors (`tests/vectors/core`, copies of the shared set).

mod common;

use common::check_shipped;
use std::path::PathBuf;

/// The core families the project implements, with their case counts in
/// `tests/vectors/core` (matmul.json holds Paddle's `matmul` and
/// TensorFlow's `tf_matmul` cases). One line per family: add yours when it
/// passes.
const IMPLEMENTED: &[(&str, usize)] = &[("matmul", 247)];

fn core_dir() -> PathBuf {
    common::vectors_dir("core")
}

#[test]
fn dynamic_mode_passes_the_core_vectors() {
    check_shipped("dynamic", &core_dir(), IMPLEMENTED, "core-implemented");
}

#[test]
fn static_mode_passes_the_core_vectors() {
    check_shipped("static", &core_dir(), IMPLEMENTED, "core-implemented");
}
