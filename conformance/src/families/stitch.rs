//! The dynamic_stitch family: TensorFlow's `dynamic_stitch` (pairs of
//! indices and data, of any ranks). Its inputs, its run through `DynTensor`
//! and its verdict are shared with dynamic_partition (`indexed.rs`).

use super::indexed::{inputs, rule_verdict, run_case, validate_case, Inputs};
use super::{Family, StaticCase};
use crate::judge::{Outcome, Tolerance, Validation};
use crate::typed::{data_json, let_tensor, VALUE_ERR};
use crate::vectors::Case;
use serde_json::{Map, Value};

pub struct DynamicStitch;

impl Family for DynamicStitch {
    fn dynamic(&self, case: &Case) -> Outcome {
        run_case(case)
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn validate(&self, case: &Case, static_mode: bool) -> Result<Validation, String> {
        validate_case(case, static_mode)
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
            Inputs::Partition { .. } => {
                return Err("a dynamic_partition case: its own family writes it".into())
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
