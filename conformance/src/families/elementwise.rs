//! The elementwise family: `elementwise_{mul,add,sub,div,max,min}` with
//! Paddle's `axis` and an optional `act`.

use super::{Family, StaticCase, Verdict};
use crate::judge::{Outcome, Tolerance};
use crate::typed::{data_json, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{json, Value};
use shapecheck::element::Element;
use shapecheck::ops::elementwise::{elementwise_output_dims, elementwise_slices};
use shapecheck::{ActivationKind, BinaryOpKind};

pub struct Elementwise;

struct Inputs {
    op: BinaryOpKind,
    act: ActivationKind,
    act_name: Option<String>,
    axis: isize,
    x: TensorVal,
    y: TensorVal,
}

fn inputs(case: &Case) -> Result<Inputs, String> {
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
    if x.dtype() != y.dtype() {
        return Err(format!(
            "X is {} and Y is {}: mixed dtypes are not supported",
            x.dtype(),
            y.dtype()
        ));
    }
    Ok(Inputs {
        op,
        act,
        act_name,
        axis,
        x,
        y,
    })
}

fn run_typed<T: Element + Typed>(i: &Inputs) -> Outcome {
    let (Some(x), Some(y)) = (T::slice(&i.x.data), T::slice(&i.y.data)) else {
        return Outcome::Broken("dtype mismatch".into());
    };
    let dims = match elementwise_output_dims(&i.x.shape, &i.y.shape, i.axis) {
        Ok(d) => d,
        Err(e) => return Outcome::Rejected(e.to_string()),
    };
    let Some(numel) = dims.numel() else {
        return Outcome::Rejected(format!("element count of {dims} overflows"));
    };
    let mut out = vec![T::default(); numel];
    match elementwise_slices(i.op, i.act, &i.x.shape, x, &i.y.shape, y, i.axis, &mut out) {
        Ok(d) => Outcome::Accepted(TensorVal {
            shape: d.to_vec(),
            data: T::wrap(out),
        }),
        Err(e) => Outcome::Rejected(e.to_string()),
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

fn act_type(act: ActivationKind) -> &'static str {
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

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        // the library's own dynamic validator decides whether the shapes are
        // a compile error; value errors (division by zero) come at run time
        let verdict = match elementwise_output_dims(&i.x.shape, &i.y.shape, i.axis) {
            Ok(_) => Verdict::Compiles,
            Err(e) => Verdict::ShapeError(e.to_string()),
        };
        let mut body = String::new();
        body += &let_tensor("x", &i.x, "x")?;
        body += &let_tensor("y", &i.y, "y")?;
        let call = format!(
            "x.{}(&y, Axis::<{}>, {})",
            method(i.op),
            i.axis,
            act_type(i.act)
        );
        if i.op == BinaryOpKind::Div {
            body += &format!("    let z = {call}.map_err(value_error)?;\n");
        } else {
            body += &format!("    let z = {call};\n");
        }
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        let _ = i.act_name;
        Ok(StaticCase {
            verdict,
            body,
            data: json!({"x": data_json(&i.x.data), "y": data_json(&i.y.data)}),
            out_dtype: i.x.dtype(),
        })
    }

    fn own_diagnostic(&self, message: &str) -> bool {
        message.starts_with("elementwise")
    }
}
