//! The gradient families of dynamic_stitch (`dynamic_stitch_grad`, the
//! gradient of each data tensor) and dynamic_partition
//! (`dynamic_partition_grad`, the gradient of the data), recorded from
//! TensorFlow 2.21.
//!
//! TensorFlow's stitch gradient is a gather of `dout` at each pair's
//! indices: an overwritten duplicate index gets its row's gradient too
//! (TF issue #7397). The library's default is the derivative (zero there);
//! these cases run its explicit TensorFlow option, `StitchGrad::TfGather`.
//! The derivative is checked against finite differences in
//! `tests/grad_rows.rs`.

use super::indexed::{inputs, tensor_list, validate_case, Inputs};
use super::{Family, StaticCase};
use crate::judge::{Grad, Outcome, Tolerance, Validation};
use crate::typed::{
    data_json, dyn_tensor, dyn_tensors, from_dyn, let_tensor, rust_type, Typed, VALUE_ERR,
};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::{DynTensor, StitchGrad};

pub struct DynamicStitchGrad;
pub struct DynamicPartitionGrad;

/// Through the public API: `DynTensor::dynamic_stitch_backward` and
/// `DynTensor::dynamic_partition_backward`.
fn run_typed<T: Typed + Copy + Default>(
    i: &Inputs,
    dout: &[TensorVal],
) -> Result<Outcome, Outcome> {
    let douts = dyn_tensors::<T>(dout)?;
    Ok(match i {
        Inputs::Stitch { indices, data } => {
            let idx = dyn_tensors::<i32>(indices)?;
            let dat = dyn_tensors::<T>(data)?;
            let pairs: Vec<(&DynTensor<i32>, &DynTensor<T>)> = idx.iter().zip(&dat).collect();
            let [dout] = &douts[..] else {
                return Err(Outcome::Broken("one dout for dynamic_stitch".into()));
            };
            match DynTensor::dynamic_stitch_backward(&pairs, dout, StitchGrad::TfGather) {
                Ok(g) => Outcome::Gradients(vec![(
                    "data".into(),
                    Grad::List(g.into_iter().map(from_dyn).collect()),
                )]),
                Err(e) => Outcome::run_error(e.rule(), e),
            }
        }
        Inputs::Partition {
            data, partitions, ..
        } => {
            let d = dyn_tensor::<T>(data)?;
            let p = dyn_tensor::<i32>(partitions)?;
            match d.dynamic_partition_backward(&p, &douts) {
                Ok(g) => Outcome::Gradients(vec![("data".into(), Grad::One(from_dyn(g)))]),
                Err(e) => Outcome::run_error(e.rule(), e),
            }
        }
    })
}

fn dynamic(case: &Case) -> Outcome {
    let i = match inputs(case) {
        Ok(i) => i,
        Err(e) => return Outcome::Broken(e),
    };
    let dout = match &i {
        Inputs::Stitch { .. } => case.tensor("dout").map(|d| vec![d]),
        Inputs::Partition { .. } => tensor_list(case, "dout"),
    };
    let dout = match dout {
        Ok(d) => d,
        Err(e) => return Outcome::Broken(e),
    };
    let r = match dout.first().map(|d| &d.data) {
        Some(Data::F64(_)) => run_typed::<f64>(&i, &dout),
        _ => run_typed::<f32>(&i, &dout),
    };
    r.unwrap_or_else(|o| o)
}

/// `shape![Dyn, slice..]` for the rows-dynamic tensors of a partition's douts.
fn dyn_rows_shape(slice: &[usize]) -> String {
    let mut dims = vec!["Dyn".to_string()];
    dims.extend(slice.iter().map(|d| d.to_string()));
    format!("shape![{}]", dims.join(", "))
}

fn static_case(case: &Case) -> Result<StaticCase, String> {
    let i = inputs(case)?;
    let mut body = String::new();
    let mut data = Map::new();
    let out_dtype;
    match &i {
        Inputs::Stitch { indices, data: dat } => {
            let dout = case.tensor("dout")?;
            out_dtype = dout.dtype();
            let mut chain = String::new();
            for (m, (it, dt)) in indices.iter().zip(dat).enumerate() {
                let (ik, dk) = (format!("i{m}"), format!("d{m}"));
                body += &let_tensor(&ik, it, &ik)?;
                body += &let_tensor(&dk, dt, &dk)?;
                data.insert(ik.clone(), data_json(&it.data));
                data.insert(dk.clone(), data_json(&dt.data));
                chain += &if m == 0 {
                    format!("shapecheck::dynamic_stitch(&{ik}, &{dk})")
                } else {
                    format!(".pair(&{ik}, &{dk})")
                };
            }
            body += &let_tensor("dout", &dout, "dout")?;
            data.insert("dout".into(), data_json(&dout.data));
            // the nested list of gradients, `(((), g0), g1)`
            let mut pattern = "()".to_string();
            for m in 0..indices.len() {
                pattern = format!("({pattern}, g{m})");
            }
            body += &format!(
                "    let {pattern} = {chain}.backward_with(&dout, shapecheck::StitchGrad::TfGather){VALUE_ERR}?;\n"
            );
            let list: Vec<String> = (0..indices.len())
                .map(|m| format!("emit(&g{m}.dims(), g{m}.as_slice())"))
                .collect();
            body += &format!(
                "    Ok(emit_grads(vec![(\"data\", Value::Array(vec![{}]))]))\n",
                list.join(", ")
            );
        }
        Inputs::Partition {
            data: dt,
            partitions,
            num,
        } => {
            let dout = tensor_list(case, "dout")?;
            out_dtype = dt.dtype();
            body += &let_tensor("data", dt, "data")?;
            body += &let_tensor("parts", partitions, "parts")?;
            data.insert("data".into(), data_json(&dt.data));
            data.insert("parts".into(), data_json(&partitions.data));
            let ty = rust_type(dt.dtype())?;
            let slice = dt.shape.get(partitions.shape.len()..).unwrap_or(&[]);
            let shape = dyn_rows_shape(slice);
            let mut names = vec![];
            for (k, d) in dout.iter().enumerate() {
                let key = format!("dout{k}");
                body += &format!(
                    "    let {key} = Tensor::<{ty}, {shape}, Vec<{ty}>>::from_vec(<{shape} as Shape>::from_dims(&{dims:?}).map_err(input_error)?, load::<{ty}>(d, {key:?})?).map_err(input_error)?;\n",
                    dims = d.shape
                );
                data.insert(key.clone(), data_json(&d.data));
                names.push(key);
            }
            body += &format!(
                "    let g = shapecheck::dynamic_partition_backward(&data, &parts, Partitions::<{num}>, &[{}]){VALUE_ERR}?;\n",
                names.join(", ")
            );
            body += "    Ok(emit_grads(vec![(\"data\", emit(&g.dims(), g.as_slice()))]))\n";
        }
    }
    Ok(StaticCase {
        expr: String::new(),
        body,
        data: Value::Object(data),
        out_dtype,
    })
}

impl Family for DynamicStitchGrad {
    fn dynamic(&self, case: &Case) -> Outcome {
        dynamic(case)
    }
    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::GradExact
    }
    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String> {
        validate_case(case, static_mode)
    }
    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        static_case(case)
    }
}

impl Family for DynamicPartitionGrad {
    fn dynamic(&self, case: &Case) -> Outcome {
        dynamic(case)
    }
    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::GradExact
    }
    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String> {
        validate_case(case, static_mode)
    }
    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        static_case(case)
    }
}
