//! The select family: OpenVINO Select-1 with `auto_broadcast` none / numpy / pdpd.

use super::{Family, StaticCase, Verdict};
use crate::judge::{Outcome, Tolerance};
use crate::typed::{data_json, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{json, Value};
use shapecheck::ops::select::{select_output_dims, select_slices, AutoBroadcast};

pub struct Select;

struct Inputs {
    mode: AutoBroadcast,
    cond: TensorVal,
    then: TensorVal,
    els: TensorVal,
}

fn inputs(case: &Case) -> Result<Inputs, String> {
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
    if cond.dtype() != "bool" {
        return Err(format!("cond is {}, not bool", cond.dtype()));
    }
    if then.dtype() != els.dtype() {
        return Err(format!(
            "then is {} and else is {}: mixed dtypes are not supported",
            then.dtype(),
            els.dtype()
        ));
    }
    Ok(Inputs {
        mode,
        cond,
        then,
        els,
    })
}

fn run_typed<T: Typed>(i: &Inputs) -> Outcome {
    let (Some(c), Some(t), Some(e)) = (
        bool::slice(&i.cond.data),
        T::slice(&i.then.data),
        T::slice(&i.els.data),
    ) else {
        return Outcome::Broken("dtype mismatch".into());
    };
    let dims = match select_output_dims(i.mode, &i.cond.shape, &i.then.shape, &i.els.shape) {
        Ok(d) => d,
        Err(e) => return Outcome::Rejected(e.to_string()),
    };
    let Some(numel) = dims.numel() else {
        return Outcome::Rejected(format!("element count of {dims} overflows"));
    };
    let mut out = vec![T::default(); numel];
    match select_slices(
        i.mode,
        &i.cond.shape,
        c,
        &i.then.shape,
        t,
        &i.els.shape,
        e,
        &mut out,
    ) {
        Ok(d) => Outcome::Accepted(TensorVal {
            shape: d.to_vec(),
            data: T::wrap(out),
        }),
        Err(e) => Outcome::Rejected(e.to_string()),
    }
}

fn mode_value(mode: AutoBroadcast) -> String {
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

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let verdict = match select_output_dims(i.mode, &i.cond.shape, &i.then.shape, &i.els.shape) {
            Ok(_) => Verdict::Compiles,
            Err(e) => Verdict::ShapeError(e.to_string()),
        };
        let mut body = String::new();
        body += &let_tensor("cond", &i.cond, "cond")?;
        body += &let_tensor("then", &i.then, "then")?;
        body += &let_tensor("els", &i.els, "else")?;
        body += &format!(
            "    let z = shapecheck::ops::select::select(&cond, &then, &els, {});\n",
            mode_value(i.mode)
        );
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            verdict,
            body,
            data: json!({
                "cond": data_json(&i.cond.data),
                "then": data_json(&i.then.data),
                "else": data_json(&i.els.data),
            }),
            out_dtype: i.then.dtype(),
        })
    }

    fn own_diagnostic(&self, message: &str) -> bool {
        message.starts_with("select")
    }
}
