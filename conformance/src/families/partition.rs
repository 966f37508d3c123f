//! The dynamic_partition family: TensorFlow's `dynamic_partition` (data and
//! partitions of any ranks, `num_partitions` outputs; a case's `out` is a
//! list of tensors). Recorded in `dynamic_stitch.json` beside the op it
//! inverts (`vectors::family_of` gives it a family of its own); its inputs,
//! its run through `DynTensor` and its verdict are shared with
//! dynamic_stitch (`indexed.rs`).

use super::indexed::{inputs, rule_verdict, run_case, validate_case, Inputs};
use super::{Family, StaticCase};
use crate::judge::{Outcome, Tolerance, Validation};
use crate::typed::{data_json, let_tensor, VALUE_ERR};
use crate::vectors::Case;
use serde_json::{Map, Value};

pub struct DynamicPartition;

impl Family for DynamicPartition {
    fn dynamic(&self, case: &Case) -> Outcome {
        run_case(case)
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String> {
        validate_case(case, static_mode)
    }

    /// The program: `dynamic_partition` (the heap form), then its bounded
    /// forms against it ([`partition_bounded_checks`]).
    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let mut body = String::new();
        let mut data = Map::new();
        let out_dtype = match &i {
            Inputs::Stitch { .. } => {
                return Err("a dynamic_stitch case: its own family writes it".into())
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
                    "    let outs = shapecheck::dynamic_partition(&data, &parts, shapecheck::Partitions::<{num}>).run(){VALUE_ERR}?;\n"
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
            expr: String::new(),
            body,
            data: Value::Object(data),
            out_dtype,
        })
    }
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
