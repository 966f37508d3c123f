//! The elementwise gradient family (`elementwise_grad`): Paddle's X@GRAD
//! and Y@GRAD of `elementwise_{mul,add,sub,div,max,min}` with `axis` and an
//! optional `act`, from the case's `x`, `y` and `dout`.
//!
//! Both modes give the backward the recorded forward `out` (the framework's
//! rounded output, from which Paddle takes the tanh and sigmoid
//! derivatives: near saturation, `1 - out²` moves by percents with one ulp
//! of `out`, so the library's own forward output, within 1e-6 of Paddle's,
//! is not the input these gradients were recorded from).

use super::elementwise::{act_type, inputs, Inputs};
use super::{Family, StaticCase};
use crate::judge::{Grad, Outcome, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, from_dyn, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::json;
use shapecheck::ops::elementwise::{elementwise_output_dims, GradElement};
use shapecheck::{ActivationKind, BinaryOpKind};

pub struct ElementwiseGrad;

/// Through the public API: `DynTensor::elementwise_backward`.
fn run_typed<T: GradElement + Typed>(i: &Inputs, out: &TensorVal, dout: &TensorVal) -> Outcome {
    let (x, y, out, d) = match (
        dyn_tensor::<T>(&i.x),
        dyn_tensor::<T>(&i.y),
        dyn_tensor::<T>(out),
        dyn_tensor::<T>(dout),
    ) {
        (Ok(x), Ok(y), Ok(o), Ok(d)) => (x, y, o, d),
        (Err(o), _, _, _) | (_, Err(o), _, _) | (_, _, Err(o), _) | (_, _, _, Err(o)) => return o,
    };
    match x.elementwise_backward(i.op, &y, &out, &d, i.axis, i.act) {
        Ok((gx, gy)) => Outcome::Gradients(vec![
            ("x".into(), Grad::One(from_dyn(gx))),
            ("y".into(), Grad::One(from_dyn(gy))),
        ]),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

fn op_type(op: BinaryOpKind) -> &'static str {
    match op {
        BinaryOpKind::Mul => "Mul",
        BinaryOpKind::Add => "Add",
        BinaryOpKind::Sub => "Sub",
        BinaryOpKind::Div => "Div",
        BinaryOpKind::Max => "Max",
        BinaryOpKind::Min => "Min",
    }
}

impl Family for ElementwiseGrad {
    fn dynamic(&self, case: &Case) -> Outcome {
        let (i, out, dout) = match (inputs(case), case.tensor("out"), case.tensor("dout")) {
            (Ok(i), Ok(o), Ok(d)) => (i, o, d),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return Outcome::Broken(e),
        };
        match &i.x.data {
            Data::F32(_) => run_typed::<f32>(&i, &out, &dout),
            Data::F64(_) => run_typed::<f64>(&i, &out, &dout),
            _ => Outcome::Broken(format!("no gradients of {}", i.x.dtype())),
        }
    }

    fn tolerance(&self, case: &Case) -> Tolerance {
        match inputs(case) {
            Ok(i)
                if i.op == BinaryOpKind::Div
                    || matches!(i.act, ActivationKind::Tanh | ActivationKind::Sigmoid) =>
            {
                Tolerance::GradRelative
            }
            _ => Tolerance::GradExact,
        }
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        Ok(
            match elementwise_output_dims(&i.x.shape, &i.y.shape, i.axis) {
                Err(e) => Validation::rejects(e.rule(), When::Compile),
                Ok(_) => Validation::accepts(&[]),
            },
        )
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let out = case.tensor("out")?;
        let dout = case.tensor("dout")?;
        let mut body = String::new();
        body += &let_tensor("x", &i.x, "x")?;
        body += &let_tensor("y", &i.y, "y")?;
        body += &let_tensor("out", &out, "out")?;
        body += &let_tensor("dout", &dout, "dout")?;
        let (axis, act) = (i.axis, act_type(i.act));
        body += &format!(
            "    let (gx, gy) = x.elementwise_backward(shapecheck::ops::{}, &y, &out, &dout, Axis::<{axis}>, {act});\n",
            op_type(i.op)
        );
        body += "    Ok(emit_grads(vec![(\"x\", emit(&gx.dims(), gx.as_slice())), (\"y\", emit(&gy.dims(), gy.as_slice()))]))\n";
        Ok(StaticCase {
            expr: String::new(),
            body,
            data: json!({
                "x": data_json(&i.x.data),
                "y": data_json(&i.y.data),
                "out": data_json(&out.data),
                "dout": data_json(&dout.data),
            }),
            out_dtype: i.x.dtype(),
        })
    }
}
