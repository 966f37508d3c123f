//! The dynamic_stitch family: TensorFlow's `dynamic_stitch` (pairs of
//! indices and data, of any ranks) and `dynamic_partition` (same file,
//! `op` per case; a partition's `out` is a list of tensors).

use super::{Family, StaticCase, Verdict};
use crate::judge::{Outcome, Tolerance};
use crate::typed::{data_json, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::ops::stitch::{partition_slice_dims, stitch_output_dims};
use shapecheck::{DynTensor, StitchError, StitchIndex, StitchPair};

pub struct DynamicStitch;

enum Inputs {
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

fn tensor_list(case: &Case, key: &str) -> Result<Vec<TensorVal>, String> {
    case.field(key)?
        .as_array()
        .ok_or_else(|| format!("{key} is not a list"))?
        .iter()
        .map(TensorVal::parse)
        .collect()
}

fn inputs(case: &Case) -> Result<Inputs, String> {
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

fn dyn_tensor<T: Typed>(t: &TensorVal) -> Result<DynTensor<T>, String> {
    let data = T::slice(&t.data).ok_or("dtype mismatch")?;
    DynTensor::new(&t.shape, data.to_vec()).map_err(|e| format!("input: {e}"))
}

fn accepted<T: Typed>(t: DynTensor<T>) -> TensorVal {
    TensorVal {
        shape: t.dims().to_vec(),
        data: T::wrap(t.into_vec()),
    }
}

fn run_typed<T: Typed>(i: &Inputs) -> Result<Outcome, String> {
    Ok(match i {
        Inputs::Stitch { indices, data } => {
            let idx = indices
                .iter()
                .map(dyn_tensor::<i32>)
                .collect::<Result<Vec<_>, _>>()?;
            let dat = data
                .iter()
                .map(dyn_tensor::<T>)
                .collect::<Result<Vec<_>, _>>()?;
            let pairs: Vec<(&DynTensor<i32>, &DynTensor<T>)> = idx.iter().zip(&dat).collect();
            match DynTensor::dynamic_stitch(&pairs) {
                Ok(out) => Outcome::Accepted(accepted(out)),
                Err(e) => Outcome::Rejected(e.to_string()),
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
                Ok(outs) => Outcome::AcceptedList(outs.into_iter().map(accepted).collect()),
                Err(e) => Outcome::Rejected(e.to_string()),
            }
        }
    })
}

/// The library's verdict on the shapes alone (every index value replaced
/// by 0, so that only the shape rules can fail).
fn shape_verdict(i: &Inputs) -> Result<Verdict, String> {
    let res = match i {
        Inputs::Stitch { indices, data } => {
            let zeros: Vec<Vec<i32>> = indices.iter().map(|t| vec![0; t.data.len()]).collect();
            // only the dims and lengths matter to the shape rules
            let fakes: Vec<Vec<u8>> = data.iter().map(|t| vec![0; t.data.len()]).collect();
            let mut pairs: Vec<StitchPair<'_, u8>> = vec![];
            for (((it, z), dt), fake) in indices.iter().zip(&zeros).zip(data).zip(&fakes) {
                pairs.push(
                    StitchPair::new(&it.shape, z, &dt.shape, fake).map_err(|e| e.to_string())?,
                );
            }
            stitch_output_dims(pairs.into_iter()).map(|_| ())
        }
        Inputs::Partition {
            data,
            partitions,
            num,
        } => {
            let zeros = vec![0i32; partitions.data.len()];
            let mut counts = vec![0; *num];
            partition_slice_dims(
                &data.shape,
                data.data.len(),
                &partitions.shape,
                i32::index_slice(&zeros),
                &mut counts,
            )
            .map(|_| ())
        }
    };
    Ok(match res {
        Ok(()) => Verdict::Compiles,
        Err(e @ StitchError::NoPartitions) => Verdict::MonoError(e.to_string()),
        Err(
            e @ (StitchError::PrefixMismatch { .. }
            | StitchError::SliceMismatch { .. }
            | StitchError::PartitionPrefix { .. }),
        ) => Verdict::ShapeError(e.to_string()),
        // a rank of 9 for the output is a compile error as well
        Err(e @ StitchError::Shape(shapecheck::ShapeError::RankTooLarge { .. })) => {
            Verdict::ShapeError(e.to_string())
        }
        Err(e) => return Err(format!("unexpected verdict on the shapes: {e}")),
    })
}

impl Family for DynamicStitch {
    fn dynamic(&self, case: &Case) -> Outcome {
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
        res.unwrap_or_else(Outcome::Broken)
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let verdict = shape_verdict(&i)?;
        let mut body = String::new();
        let mut data = Map::new();
        let out_dtype = match &i {
            Inputs::Stitch { indices, data: d } => {
                let mut chain = String::new();
                for (m, (it, dt)) in indices.iter().zip(d).enumerate() {
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
                if chain.is_empty() {
                    return Err("no pair: the static API cannot write that".into());
                }
                body += &format!("    let z = {chain}.run().map_err(value_error)?;\n");
                body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
                d.first().map(|t| t.dtype()).unwrap_or("float32")
            }
            Inputs::Partition {
                data: dt,
                partitions,
                num,
            } => {
                body += &let_tensor("data", dt, "data")?;
                body += &let_tensor("parts", partitions, "parts")?;
                data.insert("data".into(), data_json(&dt.data));
                data.insert("parts".into(), data_json(&partitions.data));
                body += &format!(
                    "    let outs = shapecheck::dynamic_partition(&data, &parts, shapecheck::Partitions::<{num}>).map_err(value_error)?;\n"
                );
                body += "    Ok(Value::Array(outs.iter().map(|z| emit(&z.dims(), z.as_slice())).collect()))\n";
                dt.dtype()
            }
        };
        Ok(StaticCase {
            verdict,
            body,
            data: Value::Object(data),
            out_dtype,
        })
    }

    fn own_diagnostic(&self, message: &str) -> bool {
        // NUM = 0 is a const assertion: "evaluation panicked: dynamic_partition: ..."
        message.starts_with("dynamic_stitch")
            || message.starts_with("dynamic_partition")
            || message.starts_with("evaluation panicked: dynamic_partition")
    }
}
