//! What the dynamic_stitch and dynamic_partition families share: their
//! cases' inputs (both ops are recorded in `dynamic_stitch.json`, an `op`
//! per case), the run through `DynTensor`, and the library's verdict from
//! the ops' rule functions.

use crate::judge::{Outcome, Reported, Stage, Validation, When};
use crate::typed::{dyn_tensor, dyn_tensors, from_dyn, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::Value;
use shapecheck::ops::partition::partition_slice_dims;
use shapecheck::ops::stitch::stitch_output_dims;
use shapecheck::{DynTensor, StitchError, StitchIndex, StitchPair};

/// The rule a different number of index and data tensors breaks: the API
/// takes `(indices, data)` pairs, so it cannot say that (TensorFlow: "List
/// argument 'indices' ... must match length ... of argument 'data'", its
/// `testMismatchedDataAndIndexListSizes`). A rejection by construction.
pub(super) const PAIRS: &str = "dynamic_stitch/pairs";

/// Why the API cannot express the case, if it cannot: as many index
/// tensors as data tensors are needed.
pub(super) fn unexpressible(case: &Case) -> Option<String> {
    if case.field("op").ok()?.as_str()? != "dynamic_stitch" {
        return None;
    }
    let len = |key: &str| case.field(key).ok()?.as_array().map(Vec::len);
    let (i, d) = (len("indices")?, len("data")?);
    (i != d).then(|| {
        format!("{i} indices tensors and {d} data tensors: the API takes (indices, data) pairs, it cannot express this")
    })
}

pub(super) enum Inputs {
    Stitch {
        indices: Vec<TensorVal>,
        data: Vec<TensorVal>,
    },
    Partition {
        data: TensorVal,
        partitions: TensorVal,
        num: usize,
    },
}

pub(super) fn tensor_list(case: &Case, key: &str) -> Result<Vec<TensorVal>, String> {
    case.field(key)?
        .as_array()
        .ok_or_else(|| format!("{key} is not a list"))?
        .iter()
        .map(TensorVal::parse)
        .collect()
}

pub(super) fn inputs(case: &Case) -> Result<Inputs, String> {
    let op = case.field("op")?.as_str().ok_or("op is not a string")?;
    let inputs = match op {
        "dynamic_stitch" => {
            let indices = tensor_list(case, "indices")?;
            let data = tensor_list(case, "data")?;
            if indices.len() != data.len() {
                return Err(format!(
                    "{} indices tensors and {} data tensors: pairs cannot say that",
                    indices.len(),
                    data.len()
                ));
            }
            Inputs::Stitch { indices, data }
        }
        "dynamic_partition" => {
            let num = case
                .attr("num_partitions")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or("bad num_partitions")?;
            Inputs::Partition {
                data: case.tensor("data")?,
                partitions: case.tensor("partitions")?,
                num,
            }
        }
        other => return Err(format!("unknown op {other:?}")),
    };
    let (data, indices): (Vec<&TensorVal>, Vec<&TensorVal>) = match &inputs {
        Inputs::Stitch { indices, data } => (data.iter().collect(), indices.iter().collect()),
        Inputs::Partition {
            data, partitions, ..
        } => (vec![data], vec![partitions]),
    };
    if let Some(first) = data.first() {
        if let Some(other) = data.iter().find(|d| d.dtype() != first.dtype()) {
            return Err(format!(
                "data of dtypes {} and {}: mixed dtypes are not supported",
                first.dtype(),
                other.dtype()
            ));
        }
    }
    if let Some(bad) = indices.iter().find(|i| i.dtype() != "int32") {
        return Err(format!(
            "indices of dtype {} are not supported",
            bad.dtype()
        ));
    }
    Ok(inputs)
}

/// Through the public API: `DynTensor::dynamic_stitch` and
/// `DynTensor::dynamic_partition`.
fn run_typed<T: Typed>(i: &Inputs) -> Result<Outcome, Outcome> {
    Ok(match i {
        Inputs::Stitch { indices, data } => {
            let idx = dyn_tensors::<i32>(indices)?;
            let dat = dyn_tensors::<T>(data)?;
            let pairs: Vec<(&DynTensor<i32>, &DynTensor<T>)> = idx.iter().zip(&dat).collect();
            match DynTensor::dynamic_stitch(&pairs) {
                Ok(out) => Outcome::Accepted(from_dyn(out)),
                Err(e) => Outcome::run_error(e.rule(), e),
            }
        }
        Inputs::Partition {
            data,
            partitions,
            num,
        } => {
            let d = dyn_tensor::<T>(data)?;
            let p = dyn_tensor::<i32>(partitions)?;
            match d.dynamic_partition(&p, *num) {
                Ok(outs) => Outcome::AcceptedList(outs.into_iter().map(from_dyn).collect()),
                Err(e) => Outcome::run_error(e.rule(), e),
            }
        }
    })
}

/// The library's rule function on the inputs' shapes, with the index
/// values given (`zeros`: every value replaced by 0, so that only the shape
/// rules can fail).
/// On success: the output's rows (stitch) or each output's rows (partition).
pub(super) fn rule_verdict(
    i: &Inputs,
    zeros: bool,
) -> Result<Result<Vec<usize>, StitchError>, String> {
    Ok(match i {
        Inputs::Stitch { indices, data } => {
            let values: Vec<Vec<i32>> = indices
                .iter()
                .map(|t| match (&t.data, zeros) {
                    (Data::I32(v), false) => v.clone(),
                    _ => vec![0; t.data.len()],
                })
                .collect();
            // only the dims and lengths matter to the rule
            let fakes: Vec<Vec<u8>> = data.iter().map(|t| vec![0; t.data.len()]).collect();
            let mut pairs: Vec<StitchPair<'_, u8>> = vec![];
            for (((it, v), dt), fake) in indices.iter().zip(&values).zip(data).zip(&fakes) {
                match StitchPair::new(&it.shape, v, &dt.shape, fake) {
                    Ok(p) => pairs.push(p),
                    Err(e) => return Ok(Err(e)),
                }
            }
            stitch_output_dims(pairs.into_iter())
                .map(|d| d.as_slice().iter().take(1).copied().collect())
        }
        Inputs::Partition {
            data,
            partitions,
            num,
        } => {
            let values: Vec<i32> = match (&partitions.data, zeros) {
                (Data::I32(v), false) => v.clone(),
                _ => vec![0; partitions.data.len()],
            };
            let mut counts = vec![0; *num];
            let verdict = partition_slice_dims(
                &data.shape,
                data.data.len(),
                &partitions.shape,
                i32::index_slice(&values),
                &mut counts,
            );
            verdict.map(|_| counts)
        }
    })
}

/// A case through the dynamic API (either op): its outcome.
pub(super) fn run_case(case: &Case) -> Outcome {
    if let Some(why) = unexpressible(case) {
        return Outcome::Rejected(Stage::Construction, vec![Reported::new(PAIRS, why)]);
    }
    let i = match inputs(case) {
        Ok(i) => i,
        Err(e) => return Outcome::Broken(e),
    };
    let dtype = match &i {
        Inputs::Stitch { data, .. } => data.first().map(|d| d.data.clone()),
        Inputs::Partition { data, .. } => Some(data.data.clone()),
    };
    let res = match dtype {
        Some(Data::F32(_)) | None => run_typed::<f32>(&i),
        Some(Data::F64(_)) => run_typed::<f64>(&i),
        Some(Data::I32(_)) => run_typed::<i32>(&i),
        Some(Data::I64(_)) => run_typed::<i64>(&i),
        Some(Data::Bool(_)) => run_typed::<bool>(&i),
    };
    res.unwrap_or_else(|o| o)
}

/// The library's verdict on a case (either op): in static mode the shape
/// rules first (a static program's shapes are types), then the values.
pub(super) fn validate_case(case: &Case, static_mode: bool) -> Result<Validation, String> {
    if unexpressible(case).is_some() {
        return Ok(Validation::rejects(PAIRS, When::Construction));
    }
    let i = inputs(case)?;
    // a static program's shapes are checked before its index values
    if static_mode {
        match rule_verdict(&i, true)? {
            Ok(_) => {}
            Err(e @ StitchError::NoPartitions) => {
                return Ok(Validation::rejects(e.rule(), When::Mono))
            }
            // only the dynamic path can have no pair
            Err(e @ StitchError::NoPairs) => return Ok(Validation::rejects(e.rule(), When::Run)),
            Err(e) => return Ok(Validation::rejects(e.rule(), When::Compile)),
        }
    }
    Ok(match rule_verdict(&i, false)? {
        Ok(_) => Validation::accepts(&[]),
        Err(e) => Validation::rejects(e.rule(), When::Run),
    })
}
