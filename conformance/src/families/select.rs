//! The select family: OpenVINO Select-1 with `auto_broadcast` none / numpy / pdpd.

use super::{Family, StaticCase};
use crate::judge::{Outcome, Reported, Stage, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, expr_checks, from_dyn, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{json, Value};
use shapecheck::ops::select::{select_output_dims, AutoBroadcast};
use shapecheck::DynTensor;

pub struct Select;

pub(super) struct Inputs {
    pub(super) mode: AutoBroadcast,
    pub(super) cond: TensorVal,
    pub(super) then: TensorVal,
    pub(super) els: TensorVal,
}

pub(super) fn inputs(case: &Case) -> Result<Inputs, String> {
    let name = match case.attr("auto_broadcast") {
        None => "numpy",
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return Err(format!("bad auto_broadcast {other}")),
    };
    let axis = match case.attr("axis") {
        // what OpenVINO builds for the string "pdpd"
        None => 0,
        Some(v) => v
            .as_i64()
            .and_then(|a| isize::try_from(a).ok())
            .ok_or_else(|| format!("bad axis {v}"))?,
    };
    let mode = AutoBroadcast::from_name(name, axis)
        .ok_or_else(|| format!("unknown auto_broadcast {name:?}"))?;
    let cond = case.tensor("cond")?;
    let then = case.tensor("then")?;
    let els = case.tensor("else")?;
    Ok(Inputs {
        mode,
        cond,
        then,
        els,
    })
}

/// Through the public API: `DynTensor::select`.
fn run_typed<T: Typed>(i: &Inputs) -> Outcome {
    let c = match dyn_tensor::<bool>(&i.cond) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let (t, e) = match (dyn_tensor::<T>(&i.then), dyn_tensor::<T>(&i.els)) {
        (Ok(t), Ok(e)) => (t, e),
        (Err(o), _) | (_, Err(o)) => return o,
    };
    match DynTensor::select(&c, &t, &e, i.mode) {
        Ok(z) => Outcome::Accepted(from_dyn(z)),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

/// The element-type rules (OpenVINO: "Argument 0 must have boolean element
/// type", "Argument 1 and 2 element types must match"): the rule and why.
fn type_rule(i: &Inputs) -> Option<(&'static str, String)> {
    if i.cond.dtype() != "bool" {
        return Some((
            "select/cond-bool",
            format!("cond is {}: it must be bool", i.cond.dtype()),
        ));
    }
    if i.then.dtype() != i.els.dtype() {
        return Some((
            "select/branch-types",
            format!(
                "then is {} and else is {}: their element types must match",
                i.then.dtype(),
                i.els.dtype()
            ),
        ));
    }
    None
}

pub(super) fn mode_value(mode: AutoBroadcast) -> String {
    match mode {
        AutoBroadcast::None => "NoBroadcast".into(),
        AutoBroadcast::Numpy => "Numpy".into(),
        AutoBroadcast::Pdpd { axis } => format!("Pdpd::<{axis}>"),
    }
}

impl Family for Select {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        if let Some((rule, why)) = type_rule(&i) {
            // `DynTensor::select` takes a bool cond and one element type
            return Outcome::Rejected(Stage::Types, vec![Reported::new(rule, why)]);
        }
        match &i.then.data {
            Data::F32(_) => run_typed::<f32>(&i),
            Data::F64(_) => run_typed::<f64>(&i),
            Data::I32(_) => run_typed::<i32>(&i),
            Data::I64(_) => run_typed::<i64>(&i),
            Data::Bool(_) => run_typed::<bool>(&i),
        }
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        if let Some((rule, _)) = type_rule(&i) {
            return Ok(Validation::rejects(rule, When::Types));
        }
        Ok(
            match select_output_dims(i.mode, &i.cond.shape, &i.then.shape, &i.els.shape) {
                Err(e) => Validation::rejects(e.rule(), When::Compile),
                Ok(_) => Validation::accepts(&[]),
            },
        )
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let inputs = let_tensor("cond", &i.cond, "cond")?
            + &let_tensor("then", &i.then, "then")?
            + &let_tensor("els", &i.els, "else")?;
        let mode = mode_value(i.mode);
        let op =
            format!("    let z = shapecheck::ops::select::select(&cond, &then, &els, {mode});\n");
        let mut body = inputs.clone() + &op;
        let mut expr = String::new();
        // the same select as a fused expression, and chained (then doubled
        // by itself first, for numbers)
        let one = format!("shapecheck::expr::select(&cond, &then, &els, {mode})");
        match (
            type_rule(&i),
            select_output_dims(i.mode, &i.cond.shape, &i.then.shape, &i.els.shape),
        ) {
            (None, Ok(out)) => {
                let chained = (i.then.dtype() != "bool").then(|| {
                    (
                        format!("shapecheck::expr::select(&cond, then.lazy() + &then, &els, {mode})"),
                        format!("shapecheck::ops::select::select(&cond, &(&then + &then), &els, {mode})"),
                    )
                });
                let checks = expr_checks(
                    i.then.dtype(),
                    &out,
                    &one,
                    chained.as_ref().map(|(c, p)| (c.as_str(), p.as_str())),
                )?;
                expr = inputs + &op + &checks + "    Ok(())\n";
            }
            (None, Err(_)) => body += &format!("    let _rejected_too = {one};\n"),
            _ => {}
        }
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            body,
            expr,
            data: json!({
                "cond": data_json(&i.cond.data),
                "then": data_json(&i.then.data),
                "else": data_json(&i.els.data),
            }),
            out_dtype: i.then.dtype(),
        })
    }
}
