//! The multiplex gradient family (`multiplex_grad`): Paddle's gradient of
//! each candidate from the case's candidates, index and `dout`.
//!
//! The library's gradient of a candidate has the candidate's shape; Paddle
//! 3.3.1's has the output's (`[index rows] + dims[1..]`) when the index has
//! fewer rows than the candidates (the cases with a `note`). Both modes
//! check that the library's rows past the index's rows are zeros (a
//! failure otherwise, rule `multiplex/grad-rows`) and compare the first
//! `index rows` rows, Paddle's whole gradient, with the recording.

use super::multiplex::{inputs, Inputs, Multiplex};
use super::{Family, StaticCase};
use crate::judge::{Grad, Outcome, Tolerance, Validation};
use crate::typed::{data_json, dyn_tensor, from_dyn, let_tensor, rust_type, Typed, VALUE_ERR};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::DynTensor;

pub struct MultiplexGrad;

/// The rule a gradient with nonzero rows past the index's breaks.
const GRAD_ROWS: &str = "multiplex/grad-rows";

/// A candidate-shaped gradient as Paddle shapes it: its first `rows` rows,
/// once the others are checked to be zeros.
fn paddle_rows(mut t: TensorVal, rows: usize) -> Result<TensorVal, String> {
    let Some(&have) = t.shape.first() else {
        return Err("a gradient of rank 0".into());
    };
    if have == rows {
        return Ok(t);
    }
    let row_len: usize = t.shape[1..].iter().product();
    let keep = rows * row_len;
    let zeros_after = match &mut t.data {
        Data::F32(v) => {
            let ok = v[keep..].iter().all(|&x| x == 0.0);
            v.truncate(keep);
            ok
        }
        Data::F64(v) => {
            let ok = v[keep..].iter().all(|&x| x == 0.0);
            v.truncate(keep);
            ok
        }
        other => return Err(format!("no gradients of {}", other.dtype())),
    };
    if !zeros_after {
        return Err(format!(
            "{GRAD_ROWS}: a candidate's gradient has nonzero values past the index's {rows} rows"
        ));
    }
    t.shape[0] = rows;
    Ok(t)
}

/// Through the public API: `DynTensor::multiplex_backward`.
fn run_typed<T: Typed + Copy + Default>(i: &Inputs, dout: &TensorVal) -> Outcome {
    let mut cands: Vec<DynTensor<T>> = vec![];
    for c in &i.candidates {
        match dyn_tensor::<T>(c) {
            Ok(t) => cands.push(t),
            Err(o) => return o,
        }
    }
    let (index, dout) = match (dyn_tensor::<i32>(&i.index), dyn_tensor::<T>(dout)) {
        (Ok(x), Ok(d)) => (x, d),
        (Err(o), _) | (_, Err(o)) => return o,
    };
    let rows = i.index.shape.first().copied().unwrap_or(0);
    match DynTensor::multiplex_backward(&cands, &index, &dout) {
        Ok(grads) => match grads
            .into_iter()
            .map(|g| paddle_rows(from_dyn(g), rows))
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(list) => Outcome::Gradients(vec![("inputs".into(), Grad::List(list))]),
            Err(e) => Outcome::Broken(e),
        },
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

impl Family for MultiplexGrad {
    fn dynamic(&self, case: &Case) -> Outcome {
        let (i, dout) = match (inputs(case), case.tensor("dout")) {
            (Ok(i), Ok(d)) => (i, d),
            (Err(e), _) | (_, Err(e)) => return Outcome::Broken(e),
        };
        if !matches!(i.index.data, Data::I32(_)) {
            return Outcome::Broken(format!("an index of {}", i.index.dtype()));
        }
        match &dout.data {
            Data::F32(_) => run_typed::<f32>(&i, &dout),
            Data::F64(_) => run_typed::<f64>(&i, &dout),
            other => Outcome::Broken(format!("no gradients of {}", other.dtype())),
        }
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::GradExact
    }

    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String> {
        Multiplex.validate(case, static_mode)
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let dout = case.tensor("dout")?;
        let mut body = String::new();
        let mut data = Map::new();
        let mut names = vec![];
        for (k, c) in i.candidates.iter().enumerate() {
            let key = format!("in{k}");
            body += &let_tensor(&key, c, &key)?;
            data.insert(key.clone(), data_json(&c.data));
            names.push(key);
        }
        body += &let_tensor("index", &i.index, "index")?;
        data.insert("index".into(), data_json(&i.index.data));
        body += &let_tensor("dout", &dout, "dout")?;
        data.insert("dout".into(), data_json(&dout.data));
        let rows = i.index.shape.first().copied().unwrap_or(0);
        let ty = rust_type(dout.dtype())?;
        body += &format!("    let inputs = [{}];\n", names.join(", "));
        body += &format!(
            "    let grads = shapecheck::multiplex_backward(&inputs, &index, &dout){VALUE_ERR}?;\n"
        );
        // Paddle's output-shaped gradients: the first `rows` rows, the
        // others checked to be zeros
        body += &format!(
            "    let rows = {rows}usize;\n\
             \x20   let mut list = vec![];\n\
             \x20   for g in grads.iter() {{\n\
             \x20       let mut dims = g.dims().to_vec();\n\
             \x20       let row_len: usize = dims[1..].iter().product();\n\
             \x20       let (keep, rest) = g.as_slice().split_at(rows * row_len);\n\
             \x20       if rest.iter().any(|v| *v != {ty}::default()) {{\n\
             \x20           return Err(value_error({GRAD_ROWS:?}, &\"a candidate's gradient has nonzero values past the index's rows\"));\n\
             \x20       }}\n\
             \x20       dims[0] = rows;\n\
             \x20       list.push(emit(&dims, keep));\n\
             \x20   }}\n"
        );
        body += "    Ok(emit_grads(vec![(\"inputs\", Value::Array(list))]))\n";
        Ok(StaticCase {
            expr: String::new(),
            body,
            data: Value::Object(data),
            out_dtype: dout.dtype(),
        })
    }
}
