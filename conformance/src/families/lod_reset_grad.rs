//! The lod_reset gradient family (`lod_reset_grad`): Paddle's X@GRAD, x's
//! dense data from `dout` (the identity) under x's LoD, recorded as
//! `grads.x.lod_offsets` (every level, as offsets). Both modes compare the
//! values as every gradient family does, and the gradient's LoD with the
//! recording (a difference fails the case, rule `lod_reset/grad-lod`).

use super::lod_reset::{dyn_lod, inputs, static_lod, LodReset};
use super::{Family, StaticCase};
use crate::judge::{Grad, Outcome, Tolerance, Validation};
use crate::typed::{data_json, dyn_tensor, rust_type, shape_macro, Typed, VALUE_ERR};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{json, Map, Value};

pub struct LodResetGrad;

/// The rule a gradient whose LoD is not x's breaks.
const GRAD_LOD: &str = "lod_reset/grad-lod";

/// The recorded LoD of x's gradient, as offsets.
fn recorded_lod(case: &Case) -> Result<Vec<Vec<usize>>, String> {
    let v = case
        .raw
        .pointer("/grads/x/lod_offsets")
        .ok_or("no grads.x.lod_offsets")?;
    serde_json::from_value(v.clone()).map_err(|e| format!("bad grads.x.lod_offsets: {e}"))
}

/// Through the public API: `DynLodTensor::lod_reset_backward`.
fn run<T: Typed + Copy + shapecheck::Element>(case: &Case) -> Result<Outcome, Outcome> {
    let i = inputs(case).map_err(Outcome::Broken)?;
    let want = recorded_lod(case).map_err(Outcome::Broken)?;
    let dout = case.tensor("dout").map_err(Outcome::Broken)?;
    let x = dyn_lod::<T>(&i.x)?;
    let d = dyn_tensor::<T>(&dout)?;
    let g = x
        .lod_reset_backward(d)
        .map_err(|e| Outcome::run_error(e.rule(), e))?;
    let got = g.lod().as_offsets().to_vec();
    if got != want {
        return Ok(Outcome::run_error(
            GRAD_LOD,
            format!("the gradient's LoD is {got:?}, recorded {want:?}"),
        ));
    }
    let grad = TensorVal {
        shape: g.dense().dims().to_vec(),
        data: T::wrap(g.dense().as_slice().to_vec()),
    };
    Ok(Outcome::Gradients(vec![("x".into(), Grad::One(grad))]))
}

impl Family for LodResetGrad {
    fn dynamic(&self, case: &Case) -> Outcome {
        let r = match inputs(case).map(|i| i.x.tensor.data) {
            Ok(Data::F32(_)) => run::<f32>(case),
            Ok(Data::F64(_)) => run::<f64>(case),
            Ok(other) => return Outcome::Broken(format!("no gradients of {}", other.dtype())),
            Err(e) => return Outcome::Broken(e),
        };
        r.unwrap_or_else(|o| o)
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::GradExact
    }

    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String> {
        LodReset.validate(case, static_mode)
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let dout = case.tensor("dout")?;
        let want = recorded_lod(case)?;
        let mut body = String::new();
        let mut data = Map::new();
        body += &static_lod("x", &i.x, true)?;
        data.insert("x".into(), data_json(&i.x.tensor.data));
        data.insert("x_lod".into(), json!(i.x.lengths));
        let ty = rust_type(dout.dtype())?;
        body += &format!(
            "    let dout = Tensor::<{ty}, {shape}>::from_slice(&load::<{ty}>(d, \"dout\")?).map_err(input_error)?;\n",
            shape = shape_macro(&dout.shape)
        );
        data.insert("dout".into(), data_json(&dout.data));
        data.insert("grad_lod".into(), json!(want));
        body += "    let g = x.lod_reset_backward(dout);\n";
        body += "    let lod: Vec<Vec<usize>> = (0..g.levels()).filter_map(|k| g.level(k)).map(|o| o.as_slice().to_vec()).collect();\n";
        body += "    let want: Vec<Vec<usize>> = serde_json::from_value(d[\"grad_lod\"].clone()).map_err(input_error)?;\n";
        body += &format!(
            "    if lod != want {{ return Err(value_error({GRAD_LOD:?}, &format!(\"the gradient's LoD is {{lod:?}}, recorded {{want:?}}\"))); }}\n"
        );
        // the fallible form too, on the same inputs (its check passes)
        body += &format!("    let g2 = x.try_lod_reset_backward(g.dense().clone()){VALUE_ERR}?;\n");
        body += "    Ok(emit_grads(vec![(\"x\", emit(&g2.dense().dims(), g2.as_slice()))]))\n";
        Ok(StaticCase {
            expr: String::new(),
            body,
            data: Value::Object(data),
            out_dtype: dout.dtype(),
        })
    }
}
