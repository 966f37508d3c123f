//! The multiplex family: Paddle's `multiplex` (row i of the output is row i
//! of candidate `index[i]`).

use super::{Family, StaticCase, Verdict};
use crate::judge::{Outcome, Tolerance};
use crate::typed::{data_json, let_tensor, rust_type, shape_macro, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::ops::multiplex::{
    multiplex_output_dims, multiplex_slices, IndexElement, MultiplexError,
};

pub struct Multiplex;

struct Inputs {
    candidates: Vec<TensorVal>,
    index: TensorVal,
}

fn inputs(case: &Case) -> Result<Inputs, String> {
    let list = case
        .field("inputs")?
        .as_array()
        .ok_or("inputs is not a list")?;
    let candidates = list
        .iter()
        .map(TensorVal::parse)
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(first) = candidates.first() {
        if let Some(other) = candidates.iter().find(|c| c.dtype() != first.dtype()) {
            return Err(format!(
                "candidates of dtypes {} and {}: mixed dtypes are not supported",
                first.dtype(),
                other.dtype()
            ));
        }
    }
    let index = case.tensor("index")?;
    if !matches!(index.data, Data::I32(_) | Data::I64(_)) {
        return Err(format!("index of dtype {} is not supported", index.dtype()));
    }
    Ok(Inputs { candidates, index })
}

fn run_index<T: Typed, I: Typed + IndexElement>(i: &Inputs, index: &[I]) -> Outcome {
    let mut cands: Vec<(&[usize], &[T])> = vec![];
    for c in &i.candidates {
        match T::slice(&c.data) {
            Some(d) => cands.push((&c.shape, d)),
            None => return Outcome::Broken("dtype mismatch".into()),
        }
    }
    let shapes: Vec<&[usize]> = i.candidates.iter().map(|c| c.shape.as_slice()).collect();
    let dims = match multiplex_output_dims(&shapes, &i.index.shape) {
        Ok(d) => d,
        Err(e) => return Outcome::Rejected(e.to_string()),
    };
    let Some(numel) = dims.numel() else {
        return Outcome::Rejected(format!("element count of {dims} overflows"));
    };
    let mut out = vec![T::default(); numel];
    match multiplex_slices(&cands, &i.index.shape, index, &mut out) {
        Ok(d) => Outcome::Accepted(TensorVal {
            shape: d.to_vec(),
            data: T::wrap(out),
        }),
        Err(e) => Outcome::Rejected(e.to_string()),
    }
}

fn run_typed<T: Typed>(i: &Inputs) -> Outcome {
    match &i.index.data {
        Data::I32(idx) => run_index::<T, i32>(i, idx),
        Data::I64(idx) => run_index::<T, i64>(i, idx),
        _ => Outcome::Broken("index dtype".into()),
    }
}

impl Family for Multiplex {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        match i.candidates.first().map(|c| &c.data) {
            Some(Data::F32(_)) => run_typed::<f32>(&i),
            Some(Data::F64(_)) => run_typed::<f64>(&i),
            Some(Data::I32(_)) => run_typed::<i32>(&i),
            Some(Data::I64(_)) => run_typed::<i64>(&i),
            Some(Data::Bool(_)) => run_typed::<bool>(&i),
            // no candidate: any element type gives the same verdict
            None => run_typed::<f32>(&i),
        }
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let shapes: Vec<&[usize]> = i.candidates.iter().map(|c| c.shape.as_slice()).collect();
        let verdict = match multiplex_output_dims(&shapes, &i.index.shape) {
            Ok(_) => Verdict::Compiles,
            // const assertions, evaluated at monomorphisation (stable Rust
            // cannot state `K >= 2` or `index rows <= candidate rows` as a bound)
            Err(
                e @ (MultiplexError::TooFewCandidates { .. } | MultiplexError::IndexRows { .. }),
            ) => Verdict::MonoError(e.to_string()),
            Err(e) => Verdict::ShapeError(e.to_string()),
        };
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
        let out_dtype = i.candidates.first().map(|c| c.dtype()).unwrap_or("float32");
        if names.is_empty() {
            let ty = rust_type(out_dtype)?;
            let rows = i.index.shape.first().copied().unwrap_or(1);
            body += &format!(
                "    let inputs: [Tensor<{ty}, {}, Vec<{ty}>>; 0] = [];\n",
                shape_macro(&[rows, 1])
            );
            body += "    let z = shapecheck::ops::multiplex::multiplex(&inputs, &index).map_err(value_error)?;\n";
        } else if names.len() == 1 {
            // the array form: its count rule is the const assertion
            body += &format!("    let inputs = [{}];\n", names.join(", "));
            body += "    let z = shapecheck::ops::multiplex::multiplex(&inputs, &index).map_err(value_error)?;\n";
        } else {
            // the listed form: candidates of different shapes are reported by
            // the rule's own message rather than as an array type mismatch
            body += &format!(
                "    let z = shapecheck::multiplex!(index; {}).map_err(value_error)?;\n",
                names.join(", ")
            );
        }
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            verdict,
            body,
            data: Value::Object(data),
            out_dtype,
        })
    }

    fn own_diagnostic(&self, message: &str) -> bool {
        // the count and row rules are const assertions: rustc reports
        // "evaluation panicked: multiplex: needs at least 2 candidate tensors ..."
        // and "evaluation panicked: multiplex: index rows must not exceed ..."
        message.starts_with("multiplex") || message.starts_with("evaluation panicked: multiplex")
    }
}
