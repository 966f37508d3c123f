//! The dynamic_stitch family: TensorFlow's `dynamic_stitch` (pairs of
//! indices and data, of any ranks) and `dynamic_partition` (same file,
//! `op` per case; a partition's `out` is a list of tensors).

use super::{Family, StaticCase};
use crate::judge::{Outcome, Reported, Stage, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, from_dyn, let_tensor, Typed, VALUE_ERR};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::ops::partition::partition_slice_dims;
use shapecheck::ops::stitch::stitch_output_dims;
use shapecheck::{DynTensor, StitchError, StitchIndex, StitchPair};

pub struct DynamicStitch;

/// The rule a different number of index and data tensors breaks: the API
/// takes `(indices, data)` pairs, so it cannot say that (TensorFlow: "List
/// argument 'indices' ... must match length ... of argument 'data'", its
/// `testMismatchedDataAndIndexListSizes`). A rejection by construction.
const PAIRS: &str = "dynamic_stitch/pairs";

/// Why the API cannot express the case, if it cannot: as many index
/// tensors as data tensors are needed.
fn unexpressible(case: &Case) -> Option<String> {
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

fn tensor_list(case: &Case, key: &str) -> Result<Vec<TensorVal>, String> {
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
fn rule_verdict(i: &Inputs, zeros: bool) -> Result<Result<Vec<usize>, StitchError>, String> {
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

impl Family for DynamicStitch {
    fn dynamic(&self, case: &Case) -> Outcome {
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

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String> {
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
                Err(e @ StitchError::NoPairs) => {
                    return Ok(Validation::rejects(e.rule(), When::Run))
                }
                Err(e) => return Ok(Validation::rejects(e.rule(), When::Compile)),
            }
        }
        Ok(match rule_verdict(&i, false)? {
            Ok(_) => Validation::accepts(&[]),
            Err(e) => Validation::rejects(e.rule(), When::Run),
        })
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
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
                body += &format!("    let z = {chain}.run(){VALUE_ERR}?;\n");
                if let Ok(Ok(rows)) = rule_verdict(&i, false) {
                    let rows = rows.first().copied().unwrap_or(0);
                    body += &bounded_checks(
                        |cap| format!("{chain}.run_bounded::<{cap}>()"),
                        |cap| format!("{chain}.run_bounded_into::<{cap}>(&mut kept)"),
                        rows,
                    );
                }
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
                    "    let outs = shapecheck::dynamic_partition(&data, &parts, shapecheck::Partitions::<{num}>){VALUE_ERR}?;\n"
                );
                if let Ok(Ok(counts)) = rule_verdict(&i, false) {
                    let most = counts.iter().copied().max().unwrap_or(0);
                    body += &partition_bounded_checks(*num, most);
                }
                body += "    Ok(Value::Array(outs.iter().map(|z| emit(&z.dims(), z.as_slice())).collect()))\n";
                dt.dtype()
            }
        };
        Ok(StaticCase {
            body,
            data: Value::Object(data),
            out_dtype,
        })
    }
}

/// The bounded form of a valid case, in the static program after the heap
/// form `z`: `call(CAP)` with a capacity equal to the output's `rows` and
/// one larger gives `z` (dims and elements); one short gives
/// `shape/capacity`. The `_into` form, `into(CAP)` writing to `kept` (a
/// full room of a value no case produces): the exact capacity gives `z`;
/// one short gives `shape/capacity` and leaves `kept` untouched. A
/// difference is reported as the rule `bounded`.
pub(super) fn bounded_checks(
    call: impl Fn(usize) -> String,
    into: impl Fn(usize) -> String,
    rows: usize,
) -> String {
    let mut code = String::new();
    for cap in [rows, rows + 1] {
        code += &format!(
            "    let b = {}{VALUE_ERR}?;\n    \
             if (b.dims(), b.as_slice()) != (z.dims(), z.as_slice()) {{ \
             return Err(value_error(\"bounded\", &\"capacity {cap}: the bounded form differs from the heap form\")); }}\n",
            call(cap)
        );
    }
    code += &format!(
        "    let mut kept = kept_room();\n    {}{VALUE_ERR}?;\n    \
         if (kept.dims(), kept.as_slice()) != (z.dims(), z.as_slice()) {{ \
         return Err(value_error(\"bounded\", &\"capacity {rows}: the bounded _into form differs from the heap form\")); }}\n",
        into(rows)
    );
    if let Some(short) = rows.checked_sub(1) {
        code += &format!(
            "    match {} {{ Err(e) if e.rule() == \"shape/capacity\" => {{}} \
             _ => return Err(value_error(\"bounded\", &\"capacity {short}: the bounded form is not shape/capacity\")) }}\n",
            call(short)
        );
        code += &format!(
            "    let mut kept = kept_room();\n    \
             match {} {{ Err(e) if e.rule() == \"shape/capacity\" => {{}} \
             _ => return Err(value_error(\"bounded\", &\"capacity {short}: the bounded _into form is not shape/capacity\")) }}\n    \
             if !untouched(&kept) {{ \
             return Err(value_error(\"bounded\", &\"capacity {short}: the bounded _into form wrote its output\")); }}\n",
            into(short)
        );
    }
    code
}

/// [`bounded_checks`] for dynamic_partition: capacities equal to and one
/// larger than the largest output's rows give `outs`; one short gives
/// `shape/capacity`.
fn partition_bounded_checks(num: usize, most: usize) -> String {
    let call = |cap: usize| {
        format!("shapecheck::dynamic_partition_bounded::<{cap}, {num}, _, _, _, _, _, _>(&data, &parts, shapecheck::Partitions::<{num}>)")
    };
    let mut code = String::new();
    for cap in [most, most + 1] {
        code += &format!(
            "    let b = {}{VALUE_ERR}?;\n    \
             if b.iter().zip(&outs).any(|(b, z)| (b.dims(), b.as_slice()) != (z.dims(), z.as_slice())) {{ \
             return Err(value_error(\"bounded\", &\"dynamic_partition_bounded::<{cap}> differs from the heap form\")); }}\n",
            call(cap)
        );
    }
    let into = |cap: usize| {
        format!("shapecheck::dynamic_partition_bounded_into::<{cap}, {num}, _, _, _, _, _, _>(&data, &parts, shapecheck::Partitions::<{num}>, &mut kept)")
    };
    code += &format!(
        "    let mut kept: [_; {num}] = core::array::from_fn(|_| kept_room());\n    {}{VALUE_ERR}?;\n    \
         if kept.iter().zip(&outs).any(|(b, z)| (b.dims(), b.as_slice()) != (z.dims(), z.as_slice())) {{ \
         return Err(value_error(\"bounded\", &\"dynamic_partition_bounded_into::<{most}> differs from the heap form\")); }}\n",
        into(most)
    );
    if let Some(short) = most.checked_sub(1) {
        code += &format!(
            "    match {} {{ Err(e) if e.rule() == \"shape/capacity\" => {{}} \
             _ => return Err(value_error(\"bounded\", &\"dynamic_partition_bounded::<{short}> is not shape/capacity\")) }}\n",
            call(short)
        );
        code += &format!(
            "    let mut kept: [_; {num}] = core::array::from_fn(|_| kept_room());\n    \
             match {} {{ Err(e) if e.rule() == \"shape/capacity\" => {{}} \
             _ => return Err(value_error(\"bounded\", &\"dynamic_partition_bounded_into::<{short}> is not shape/capacity\")) }}\n    \
             if !kept.iter().all(untouched) {{ \
             return Err(value_error(\"bounded\", &\"dynamic_partition_bounded_into::<{short}> wrote its outputs\")); }}\n",
            into(short)
        );
    }
    code
}
