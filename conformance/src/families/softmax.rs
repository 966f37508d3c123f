//! The softmax family: Paddle's `paddle.nn.functional.softmax` and
//! `log_softmax` along `attrs.axis`.

use super::{Family, StaticCase};
use crate::judge::{Outcome, Reported, Stage, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, from_dyn, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::ops::softmax::{rule::plan, SoftmaxElement, SoftmaxKind};

/// The rule of an element type softmax does not take (a compile error).
const FLOAT_ELEMENT: &str = "softmax/float-element";

pub struct Softmax;

struct Inputs {
    kind: SoftmaxKind,
    x: TensorVal,
    axis: isize,
}

fn inputs(case: &Case) -> Result<Inputs, String> {
    let kind = match case.field("op")?.as_str() {
        Some("softmax") => SoftmaxKind::Softmax,
        Some("log_softmax") => SoftmaxKind::LogSoftmax,
        other => return Err(format!("unknown softmax op {other:?}")),
    };
    let axis = case
        .attr("axis")
        .and_then(Value::as_i64)
        .and_then(|a| isize::try_from(a).ok())
        .unwrap_or(-1);
    Ok(Inputs {
        kind,
        x: case.tensor("x")?,
        axis,
    })
}

fn run<T: Typed + SoftmaxElement>(i: &Inputs) -> Outcome {
    let x = match dyn_tensor::<T>(&i.x) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let r = match i.kind {
        SoftmaxKind::Softmax => x.softmax(i.axis),
        SoftmaxKind::LogSoftmax => x.log_softmax(i.axis),
    };
    match r {
        Ok(z) => Outcome::Accepted(from_dyn(z)),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

fn is_float(x: &TensorVal) -> bool {
    matches!(x.data, Data::F32(_) | Data::F64(_))
}

impl Family for Softmax {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        match &i.x.data {
            Data::F32(_) => run::<f32>(&i),
            Data::F64(_) => run::<f64>(&i),
            // `DynTensor::softmax` takes a `SoftmaxElement`
            _ => Outcome::Rejected(
                Stage::Types,
                vec![Reported::new(
                    FLOAT_ELEMENT,
                    format!("x is {}: softmax takes float32 or float64", i.x.dtype()),
                )],
            ),
        }
    }

    fn tolerance(&self, case: &Case) -> Tolerance {
        match inputs(case) {
            Ok(i) => match (&i.x.data, i.kind) {
                (Data::F64(_), _) => Tolerance::Relative64,
                (_, SoftmaxKind::LogSoftmax) => Tolerance::ScaledAbs,
                _ => Tolerance::Relative,
            },
            Err(_) => Tolerance::Exact,
        }
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        if !is_float(&i.x) {
            return Ok(Validation::rejects(FLOAT_ELEMENT, When::Types));
        }
        Ok(match plan(&i.x.shape, i.axis) {
            Ok(_) => Validation::accepts(&[]),
            Err(e) => Validation::rejects(e.rule(), When::Compile),
        })
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let mut body = let_tensor("x", &i.x, "x")?;
        let mut data = Map::new();
        data.insert("x".into(), data_json(&i.x.data));
        let method = match i.kind {
            SoftmaxKind::Softmax => "softmax",
            SoftmaxKind::LogSoftmax => "log_softmax",
        };
        body += &format!("    let z = x.{method}(Axis::<{}>);\n", i.axis);
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            body,
            expr: String::new(),
            data: Value::Object(data),
            out_dtype: i.x.dtype(),
        })
    }
}
