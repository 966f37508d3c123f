//! The matmul family: Paddle's `paddle.matmul(x, y, transpose_x,
//! transpose_y)` (op `matmul`), and TensorFlow's `tf.linalg.matmul(a, b,
//! transpose_a, transpose_b, adjoint_a, adjoint_b)` (op `tf_matmul`, same
//! file) run through the same library op with TF's attributes mapped here.
//!
//! TF's rules beyond Paddle's are the adapter's, not the library's: a 1-D
//! operand (TF needs rank 2 or more) and a transpose and an adjoint both
//! set on one operand are inputs the adapter does not express (rejected by
//! construction, in both modes, as `tf_matmul/rank` and `tf_matmul/flags`);
//! otherwise, for real dtypes, an adjoint is a transpose.

use super::{Family, StaticCase};
use crate::judge::{Outcome, Reported, Stage, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, from_dyn, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{json, Value};
use shapecheck::element::Element;
use shapecheck::ops::matmul::matmul_output_dims;

/// x and y of different element types, or a non-numeric one (a compile error).
const ELEMENT_TYPE: &str = "matmul/element-type";
/// TF: an operand of rank below 2.
const TF_RANK: &str = "tf_matmul/rank";
/// TF: a transpose and an adjoint both set on one operand.
const TF_FLAGS: &str = "tf_matmul/flags";

pub struct Matmul;

struct Inputs {
    tf: bool,
    transpose_x: bool,
    transpose_y: bool,
    /// TF's both-flags error on x or y.
    both_flags: bool,
    x: TensorVal,
    y: TensorVal,
}

fn flag(case: &Case, key: &str) -> Result<bool, String> {
    match case.attr(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("bad {key} {other}")),
    }
}

fn inputs(case: &Case) -> Result<Inputs, String> {
    let tf = case.raw.get("op").and_then(Value::as_str) == Some("tf_matmul");
    let (transpose_x, transpose_y, both_flags) = if tf {
        let (ta, tb) = (flag(case, "transpose_a")?, flag(case, "transpose_b")?);
        let (aa, ab) = (flag(case, "adjoint_a")?, flag(case, "adjoint_b")?);
        // real dtypes: an adjoint is a transpose
        (ta || aa, tb || ab, (ta && aa) || (tb && ab))
    } else {
        (
            flag(case, "transpose_x")?,
            flag(case, "transpose_y")?,
            false,
        )
    };
    Ok(Inputs {
        tf,
        transpose_x,
        transpose_y,
        both_flags,
        x: case.tensor("x")?,
        y: case.tensor("y")?,
    })
}

/// The rules decided before the op: TF's own (the adapter's), then the
/// element types.
fn before_op(i: &Inputs) -> Option<(&'static str, When, String)> {
    if i.tf && i.both_flags {
        let why = "a transpose and an adjoint are both set on one operand (TF: only one of them)";
        return Some((TF_FLAGS, When::Construction, why.into()));
    }
    if i.tf && (i.x.shape.len() < 2 || i.y.shape.len() < 2) {
        let why = format!(
            "TF's matmul needs rank 2 or more: a {:?}, b {:?}",
            i.x.shape, i.y.shape
        );
        return Some((TF_RANK, When::Construction, why));
    }
    if i.x.dtype() != i.y.dtype() || i.x.dtype() == "bool" {
        let why = format!(
            "x is {} and y is {}: one numeric element type",
            i.x.dtype(),
            i.y.dtype()
        );
        return Some((ELEMENT_TYPE, When::Types, why));
    }
    None
}

/// Through the public API: `DynTensor::matmul`.
fn run_typed<T: Element + Typed>(i: &Inputs) -> Outcome {
    let (x, y) = match (dyn_tensor::<T>(&i.x), dyn_tensor::<T>(&i.y)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(o), _) | (_, Err(o)) => return o,
    };
    match x.matmul(&y, i.transpose_x, i.transpose_y) {
        Ok(z) => Outcome::Accepted(from_dyn(z)),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

fn marker(t: bool) -> &'static str {
    if t {
        "Trans"
    } else {
        "NoTrans"
    }
}

impl Family for Matmul {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        if let Some((rule, when, why)) = before_op(&i) {
            let stage = if when == When::Construction {
                Stage::Construction
            } else {
                Stage::Types
            };
            return Outcome::Rejected(stage, vec![Reported::new(rule, why)]);
        }
        match &i.x.data {
            Data::F32(_) => run_typed::<f32>(&i),
            Data::F64(_) => run_typed::<f64>(&i),
            Data::I32(_) => run_typed::<i32>(&i),
            Data::I64(_) => run_typed::<i64>(&i),
            Data::Bool(_) => Outcome::Broken("bool matmul reached the op".into()),
        }
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        // exact values; a zero's sign is the BLAS's (4 recorded float64
        // cases give -0.0 where Paddle's float32 kernels and TF give 0.0)
        Tolerance::ExactZeroSign
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        if let Some((rule, when, _)) = before_op(&i) {
            return Ok(Validation::rejects(rule, when));
        }
        Ok(
            match matmul_output_dims(&i.x.shape, &i.y.shape, i.transpose_x, i.transpose_y) {
                // every shape rule is a trait bound for static shapes
                Err(e) => Validation::rejects(e.rule(), When::Compile),
                Ok(_) => Validation::accepts(&[]),
            },
        )
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let inputs = let_tensor("x", &i.x, "x")? + &let_tensor("y", &i.y, "y")?;
        let call = if !i.transpose_x && !i.transpose_y {
            "x.matmul(&y)".to_string()
        } else {
            format!(
                "x.matmul_t(&y, {}, {})",
                marker(i.transpose_x),
                marker(i.transpose_y)
            )
        };
        let body =
            inputs + &format!("    let z = {call};\n") + "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            body,
            expr: String::new(),
            data: json!({"x": data_json(&i.x.data), "y": data_json(&i.y.data)}),
            out_dtype: i.x.dtype(),
        })
    }
}
