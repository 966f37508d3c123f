//! The elementwise family: `elementwise_{mul,add,sub,div,max,min}` with
//! Paddle's `axis` and an optional `act`.

use super::{Family, StaticCase};
use crate::judge::{Outcome, Reported, Stage, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, expr_checks, from_dyn, let_tensor, Typed, VALUE_ERR};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{json, Value};
use shapecheck::element::Element;
use shapecheck::ops::elementwise::elementwise_output_dims;
use shapecheck::{ActivationKind, BinaryOpKind};

/// The rule of X and Y of different element types (a compile error).
const ELEMENT_TYPE: &str = "elementwise/element-type";

pub struct Elementwise;

pub(super) struct Inputs {
    pub(super) op: BinaryOpKind,
    pub(super) act: ActivationKind,
    pub(super) axis: isize,
    pub(super) x: TensorVal,
    pub(super) y: TensorVal,
}

pub(super) fn inputs(case: &Case) -> Result<Inputs, String> {
    let op_name = case
        .raw
        .get("op")
        .and_then(Value::as_str)
        .unwrap_or(&case.family);
    let op = BinaryOpKind::from_name(op_name).ok_or_else(|| format!("unknown op {op_name:?}"))?;
    let act_name = match case.attr("act") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(format!("bad act {other}")),
    };
    let act = ActivationKind::from_name(act_name.as_deref().unwrap_or(""))
        .map_err(|e| format!("{e}: {act_name:?}"))?;
    let axis = match case.attr("axis") {
        None => -1,
        Some(v) => v
            .as_i64()
            .and_then(|a| isize::try_from(a).ok())
            .ok_or_else(|| format!("bad axis {v}"))?,
    };
    let x = case.tensor("x")?;
    let y = case.tensor("y")?;
    Ok(Inputs {
        op,
        act,
        axis,
        x,
        y,
    })
}

/// Through the public API: `DynTensor::elementwise`.
fn run_typed<T: Element + Typed>(i: &Inputs) -> Outcome {
    let (x, y) = match (dyn_tensor::<T>(&i.x), dyn_tensor::<T>(&i.y)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(o), _) | (_, Err(o)) => return o,
    };
    match x.elementwise(i.op, &y, i.axis, i.act) {
        Ok(z) => Outcome::Accepted(from_dyn(z)),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

fn method(op: BinaryOpKind) -> &'static str {
    match op {
        BinaryOpKind::Mul => "elementwise_mul",
        BinaryOpKind::Add => "elementwise_add",
        BinaryOpKind::Sub => "elementwise_sub",
        BinaryOpKind::Div => "elementwise_div",
        BinaryOpKind::Max => "elementwise_max",
        BinaryOpKind::Min => "elementwise_min",
    }
}

pub(super) fn act_type(act: ActivationKind) -> &'static str {
    match act {
        ActivationKind::Identity => "Identity",
        ActivationKind::Relu => "Relu",
        ActivationKind::Tanh => "Tanh",
        ActivationKind::Sigmoid => "Sigmoid",
    }
}

impl Family for Elementwise {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        if i.x.dtype() != i.y.dtype() {
            // `DynTensor::elementwise` takes one element type
            return Outcome::Rejected(
                Stage::Types,
                vec![Reported::new(
                    ELEMENT_TYPE,
                    format!(
                        "X is {} and Y is {}: the operands must have one element type",
                        i.x.dtype(),
                        i.y.dtype()
                    ),
                )],
            );
        }
        match &i.x.data {
            Data::F32(_) => run_typed::<f32>(&i),
            Data::F64(_) => run_typed::<f64>(&i),
            Data::I32(_) => run_typed::<i32>(&i),
            Data::I64(_) => run_typed::<i64>(&i),
            Data::Bool(_) => Outcome::Broken("bool elementwise is not supported".into()),
        }
    }

    fn tolerance(&self, case: &Case) -> Tolerance {
        match inputs(case).map(|i| i.act) {
            Ok(ActivationKind::Tanh | ActivationKind::Sigmoid) => Tolerance::Relative,
            _ => Tolerance::Exact,
        }
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        if i.x.dtype() != i.y.dtype() {
            return Ok(Validation::rejects(ELEMENT_TYPE, When::Types));
        }
        Ok(
            match elementwise_output_dims(&i.x.shape, &i.y.shape, i.axis) {
                // every shape rule is a trait bound for static shapes
                Err(e) => Validation::rejects(e.rule(), When::Compile),
                Ok(_) if i.op == BinaryOpKind::Div => {
                    Validation::accepts(&["elementwise/division-by-zero"])
                }
                Ok(_) => Validation::accepts(&[]),
            },
        )
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let inputs = let_tensor("x", &i.x, "x")? + &let_tensor("y", &i.y, "y")?;
        let call = format!(
            "x.{}(&y, Axis::<{}>, {})",
            method(i.op),
            i.axis,
            act_type(i.act)
        );
        let op = if i.op == BinaryOpKind::Div {
            format!("    let z = {call}{VALUE_ERR}?;\n")
        } else {
            format!("    let z = {call};\n")
        };
        let mut body = inputs.clone() + &op;
        let mut expr = String::new();
        // the same op as a fused expression (integer division is not one)
        let int_div = i.op == BinaryOpKind::Div && !i.x.dtype().starts_with("float");
        let one = format!("x.lazy().{}", &call[2..]);
        match elementwise_output_dims(&i.x.shape, &i.y.shape, i.axis) {
            Ok(out) if !int_div && i.x.dtype() == i.y.dtype() => {
                // and chained: times its own output, then relu
                let chained = format!("{one}.elementwise_mul(&z, Axis::<-1>, Identity).relu()");
                let plain = "z.elementwise_mul(&z, Axis::<-1>, Relu)";
                expr = inputs
                    + &op
                    + &expr_checks(i.x.dtype(), &out, &one, Some((&chained, plain)))?
                    + "    Ok(())\n";
            }
            // a rejected case: the expression is rejected by the same rule
            Err(_) if !int_div && i.x.dtype() == i.y.dtype() => {
                body += &format!("    let _rejected_too = {one};\n");
            }
            _ => {}
        }
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            body,
            expr,
            data: json!({"x": data_json(&i.x.data), "y": data_json(&i.y.data)}),
            out_dtype: i.x.dtype(),
        })
    }
}
