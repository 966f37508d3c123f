//! The select gradient family (`select_grad`): TensorFlow's `tf.where`
//! gradients of then and else (cond has none), from the case's cond, then,
//! else and `dout`.

use super::select::{inputs, mode_value, Inputs};
use super::{Family, StaticCase};
use crate::judge::{Grad, Outcome, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, from_dyn, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::json;
use shapecheck::element::Element;
use shapecheck::ops::select::select_output_dims;
use shapecheck::DynTensor;

pub struct SelectGrad;

/// Through the public API: `DynTensor::select_backward`.
fn run_typed<T: Element + Typed>(i: &Inputs, dout: &TensorVal) -> Outcome {
    let c = match dyn_tensor::<bool>(&i.cond) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let (t, e, d) = match (
        dyn_tensor::<T>(&i.then),
        dyn_tensor::<T>(&i.els),
        dyn_tensor::<T>(dout),
    ) {
        (Ok(t), Ok(e), Ok(d)) => (t, e, d),
        (Err(o), _, _) | (_, Err(o), _) | (_, _, Err(o)) => return o,
    };
    match DynTensor::select_backward(&c, &t, &e, &d, i.mode) {
        Ok((gt, ge)) => Outcome::Gradients(vec![
            ("then".into(), Grad::One(from_dyn(gt))),
            ("else".into(), Grad::One(from_dyn(ge))),
        ]),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

impl Family for SelectGrad {
    fn dynamic(&self, case: &Case) -> Outcome {
        let (i, dout) = match (inputs(case), case.tensor("dout")) {
            (Ok(i), Ok(d)) => (i, d),
            (Err(e), _) | (_, Err(e)) => return Outcome::Broken(e),
        };
        match &i.then.data {
            Data::F32(_) => run_typed::<f32>(&i, &dout),
            Data::F64(_) => run_typed::<f64>(&i, &dout),
            Data::I32(_) => run_typed::<i32>(&i, &dout),
            Data::I64(_) => run_typed::<i64>(&i, &dout),
            Data::Bool(_) => Outcome::Broken("no gradients of bool".into()),
        }
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::GradExact
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        Ok(
            match select_output_dims(i.mode, &i.cond.shape, &i.then.shape, &i.els.shape) {
                Err(e) => Validation::rejects(e.rule(), When::Compile),
                Ok(_) => Validation::accepts(&[]),
            },
        )
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let dout = case.tensor("dout")?;
        let mut body = String::new();
        body += &let_tensor("cond", &i.cond, "cond")?;
        body += &let_tensor("then", &i.then, "then")?;
        body += &let_tensor("els", &i.els, "else")?;
        body += &let_tensor("dout", &dout, "dout")?;
        body += &format!(
            "    let (gt, ge) = shapecheck::ops::select::select_backward(&cond, &then, &els, &dout, {});\n",
            mode_value(i.mode)
        );
        body += "    Ok(emit_grads(vec![(\"then\", emit(&gt.dims(), gt.as_slice())), (\"else\", emit(&ge.dims(), ge.as_slice()))]))\n";
        Ok(StaticCase {
            expr: String::new(),
            body,
            data: json!({
                "cond": data_json(&i.cond.data),
                "then": data_json(&i.then.data),
                "else": data_json(&i.els.data),
                "dout": data_json(&dout.data),
            }),
            out_dtype: i.then.dtype(),
        })
    }
}
