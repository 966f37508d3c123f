//! One module per operator family: how to run a case through the dynamic API
//! and how to write it as a program over the static API.

mod elementwise;
mod elementwise_grad;
mod indexed;
mod lod_reset;
mod lod_reset_grad;
mod matmul;
mod multiplex;
mod multiplex_grad;
mod partition;
mod reduce;
mod select;
mod select_grad;
mod softmax;
mod stitch;
mod stitch_grad;

use crate::judge::{Outcome, Tolerance, Validation};
use crate::vectors::Case;
use serde_json::Value;

/// A case written against the static API.
pub struct StaticCase {
    /// The body of `fn case_N(d: &Value) -> Result<Value, Failure>`: it
    /// builds the inputs from `d` (the case's entry in the data file), runs
    /// the op, and returns `emit(dims, data)`, or `Err` for a run-time error
    /// (`value_error(rule, error)`).
    pub body: String,
    /// Checks of the same op written as fused expressions (elementwise and
    /// select; empty elsewhere): the body of `fn case_N_expr(d: &Value) ->
    /// Result<(), Failure>`, which builds the inputs and `z` as `body` does
    /// and compares each expression's values with `z`. Every accepted
    /// case's checks are type-checked; which of them are also run is the
    /// builder's choice (`CONFORMANCE_EXPR_EVERY`, docs/conformance.md).
    pub expr: String,
    /// The case's entry in the data file.
    pub data: Value,
    /// The dtype of the output.
    pub out_dtype: &'static str,
}

/// An operator family the project implements.
pub trait Family: Sync {
    /// Runs the case through the dynamic API (the public `DynTensor`
    /// methods and the stitch and LoD entry points).
    fn dynamic(&self, case: &Case) -> Outcome;
    /// How the case's values are compared.
    fn tolerance(&self, case: &Case) -> Tolerance;
    /// The library's own verdict on the case: the rule its run-time
    /// validator (the rule function the dynamic path calls) names, and where
    /// that rule rejects a static program. `static_mode`: the static
    /// program's shapes are types, so a shape rule comes before any rule on
    /// values (dynamic_stitch checks its index values first at run time).
    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String>;
    /// Writes the case against the static API.
    fn static_case(&self, case: &Case) -> Result<StaticCase, String>;
}

/// The implementation of a family, `None` if the project has none yet.
pub fn lookup(family: &str) -> Option<&'static dyn Family> {
    match family {
        "elementwise" => Some(&elementwise::Elementwise),
        "select" => Some(&select::Select),
        "multiplex" => Some(&multiplex::Multiplex),
        "lod_reset" => Some(&lod_reset::LodReset),
        "dynamic_stitch" => Some(&stitch::DynamicStitch),
        "dynamic_partition" => Some(&partition::DynamicPartition),
        "elementwise_grad" => Some(&elementwise_grad::ElementwiseGrad),
        "select_grad" => Some(&select_grad::SelectGrad),
        "multiplex_grad" => Some(&multiplex_grad::MultiplexGrad),
        "dynamic_stitch_grad" => Some(&stitch_grad::DynamicStitchGrad),
        "dynamic_partition_grad" => Some(&stitch_grad::DynamicPartitionGrad),
        "lod_reset_grad" => Some(&lod_reset_grad::LodResetGrad),
        "matmul" => Some(&matmul::Matmul),
        "reduce" => Some(&reduce::Reduce),
        "softmax" => Some(&softmax::Softmax),
        _ => None,
    }
}
