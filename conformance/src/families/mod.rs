//! One module per operator family: how to run a case through the dynamic API
//! and how to write it as a program over the static API.

mod elementwise;
mod lod_reset;
mod multiplex;
mod select;
mod stitch;

use crate::judge::{Outcome, Tolerance};
use crate::vectors::Case;
use serde_json::Value;

/// How the static API is expected to treat a case, by the library's own
/// dynamic validator (no rule is duplicated here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The shapes are valid: the program compiles; it may still return a
    /// value error (an index out of range, an integer division by zero).
    Compiles,
    /// The shapes break a rule the type checker enforces: a compile error
    /// (the dynamic validator's message is kept for reports).
    ShapeError(String),
    /// A rule checked when the op is monomorphised (a const assertion, such
    /// as multiplex's "at least 2 candidates"): reported by `cargo build`
    /// only once everything else type-checks, so the case is built as a
    /// crate of its own.
    MonoError(String),
}

/// A case written against the static API.
pub struct StaticCase {
    pub verdict: Verdict,
    /// The body of `fn case_N(d: &Value) -> Result<Value, String>`: it builds
    /// the inputs from `d` (the case's entry in the data file), runs the op,
    /// and returns `emit(dims, data)`, or `Err` for a run-time error.
    pub body: String,
    /// The case's entry in the data file.
    pub data: Value,
    /// The dtype of the output.
    pub out_dtype: &'static str,
}

/// An operator family the project implements.
pub trait Family: Sync {
    /// Runs the case through the dynamic API.
    fn dynamic(&self, case: &Case) -> Outcome;
    /// How the case's values are compared.
    fn tolerance(&self, case: &Case) -> Tolerance;
    /// Writes the case against the static API.
    fn static_case(&self, case: &Case) -> Result<StaticCase, String>;
    /// `true` if a compile error message is the project's own diagnostic for
    /// this family.
    fn own_diagnostic(&self, message: &str) -> bool;
}

/// The implementation of a family, `None` if the project has none yet.
pub fn lookup(family: &str) -> Option<&'static dyn Family> {
    match family {
        "elementwise" => Some(&elementwise::Elementwise),
        "select" => Some(&select::Select),
        "multiplex" => Some(&multiplex::Multiplex),
        "lod_reset" => Some(&lod_reset::LodReset),
        "dynamic_stitch" => Some(&stitch::DynamicStitch),
        _ => None,
    }
}
