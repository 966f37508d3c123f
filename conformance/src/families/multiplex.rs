//! The multiplex family: Paddle's `multiplex` (row i of the output is row i
//! of candidate `index[i]`).

use super::{Family, StaticCase};
use crate::judge::{Outcome, Reported, Stage, Tolerance, Validation, When};
use crate::typed::{
    data_json, dyn_tensor, from_dyn, let_tensor, rust_type, shape_macro, Typed, VALUE_ERR,
};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::ops::multiplex::{multiplex_output_dims, IndexElement, MultiplexError};
use shapecheck::DynTensor;

/// The rule of an index that is not i32 or i64 (a compile error).
const INDEX_ELEMENT: &str = "multiplex/index-element";

pub struct Multiplex;

pub(super) struct Inputs {
    pub(super) candidates: Vec<TensorVal>,
    pub(super) index: TensorVal,
}

pub(super) fn inputs(case: &Case) -> Result<Inputs, String> {
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
    Ok(Inputs { candidates, index })
}

/// Through the public API: `DynTensor::multiplex`.
fn run_index<T: Typed, I: Typed + IndexElement>(i: &Inputs) -> Outcome {
    let mut cands: Vec<DynTensor<T>> = vec![];
    for c in &i.candidates {
        match dyn_tensor::<T>(c) {
            Ok(t) => cands.push(t),
            Err(o) => return o,
        }
    }
    let index = match dyn_tensor::<I>(&i.index) {
        Ok(t) => t,
        Err(o) => return o,
    };
    match DynTensor::multiplex(&cands, &index) {
        Ok(z) => Outcome::Accepted(from_dyn(z)),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

fn run_typed<T: Typed>(i: &Inputs) -> Outcome {
    match &i.index.data {
        Data::I32(_) => run_index::<T, i32>(i),
        Data::I64(_) => run_index::<T, i64>(i),
        _ => Outcome::Broken("index dtype".into()),
    }
}

fn index_type_ok(i: &Inputs) -> bool {
    matches!(i.index.data, Data::I32(_) | Data::I64(_))
}

impl Family for Multiplex {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        if !index_type_ok(&i) {
            // `DynTensor::multiplex` takes an index of an `IndexElement`
            return Outcome::Rejected(
                Stage::Types,
                vec![Reported::new(
                    INDEX_ELEMENT,
                    format!(
                        "the index is {}: it must be int32 or int64",
                        i.index.dtype()
                    ),
                )],
            );
        }
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

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        if !index_type_ok(&i) {
            return Ok(Validation::rejects(INDEX_ELEMENT, When::Types));
        }
        let shapes: Vec<&[usize]> = i.candidates.iter().map(|c| c.shape.as_slice()).collect();
        Ok(match multiplex_output_dims(&shapes, &i.index.shape) {
            Ok(_) => Validation::accepts(&["multiplex/index-value"]),
            // const assertions, evaluated at monomorphisation (stable Rust
            // cannot state `K >= 2` or `index rows <= candidate rows` as a bound)
            Err(
                e @ (MultiplexError::TooFewCandidates { .. } | MultiplexError::IndexRows { .. }),
            ) => Validation::rejects(e.rule(), When::Mono),
            Err(e) => Validation::rejects(e.rule(), When::Compile),
        })
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
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
            body += &format!(
                "    let z = shapecheck::ops::multiplex::multiplex(&inputs, &index).run(){VALUE_ERR}?;\n"
            );
        } else if names.len() == 1 {
            // the array form: its count rule is the const assertion
            body += &format!("    let inputs = [{}];\n", names.join(", "));
            body += &format!(
                "    let z = shapecheck::ops::multiplex::multiplex(&inputs, &index).run(){VALUE_ERR}?;\n"
            );
        } else {
            // the listed form: candidates of different shapes are reported by
            // the rule's own message rather than as an array type mismatch
            body += &format!(
                "    let z = shapecheck::multiplex!(index; {}){VALUE_ERR}?;\n",
                names.join(", ")
            );
        }
        let shapes: Vec<&[usize]> = i.candidates.iter().map(|c| c.shape.as_slice()).collect();
        let valid = index_type_ok(&i) && multiplex_output_dims(&shapes, &i.index.shape).is_ok();
        if valid && names.len() >= 2 {
            // the bounded form, over the same candidates as an array (one shape)
            let rows = i.index.shape.first().copied().unwrap_or(0);
            body += &format!("    let inputs = [{}];\n", names.join(", "));
            let k = names.len();
            body += &super::stitch::bounded_checks(
                |cap| {
                    format!("shapecheck::multiplex_bounded::<{cap}, _, _, _, _, _, _, {k}>(&inputs, &index)")
                },
                |cap| {
                    format!("shapecheck::multiplex_bounded_into::<{cap}, _, _, _, _, _, _, {k}>(&inputs, &index, &mut kept)")
                },
                rows,
            );
        }
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            expr: String::new(),
            body,
            data: Value::Object(data),
            out_dtype,
        })
    }
}
