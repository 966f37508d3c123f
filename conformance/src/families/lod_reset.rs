//! The lod_reset family: Paddle's `lod_reset(x, y, target_lod, append)` on
//! LoD tensors. x and y come with Paddle's `recursive_sequence_lengths`
//! (`lod_lengths`); the output's LoD is compared as offsets
//! (`out.lod_offsets`), level by level.
//!
//! Dynamic mode: [`DynLodTensor::lod_reset`] with Paddle's arguments as
//! recorded (an optional y, optional target offsets). Static mode: the
//! dense shapes are types (`shape![6, 2]`), the LoDs are built without a
//! heap ([`shapecheck::LodTensor::from_lengths_in`]), and the case calls the static form
//! Paddle's precedence selects: `lod_reset_like` for a y with a LoD,
//! `lod_reset_by_data` for a y without, `lod_reset` for target offsets.
//! The LoD is data, so every case compiles; its errors come at run time.

use super::{Family, StaticCase};
use crate::judge::{Outcome, Tolerance, Validation};
use crate::typed::{data_json, let_tensor, rust_type, shape_macro, Typed, VALUE_ERR};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{json, Map, Value};
use shapecheck::{
    check_lengths, lod_reset_rule, DynLodTensor, DynTensor, DynY, Element, Lengths, LodError,
    Offsets, YInput,
};

pub struct LodReset;

pub(super) struct Lod {
    pub(super) tensor: TensorVal,
    /// Paddle's recursive_sequence_lengths, top level first.
    pub(super) lengths: Vec<Vec<usize>>,
}

pub(super) struct Inputs {
    pub(super) x: Lod,
    y: Option<Lod>,
    target: Option<Vec<usize>>,
    append: bool,
}

fn lod(v: &Value, what: &str) -> Result<Lod, String> {
    let tensor = TensorVal::parse(v)?;
    let lengths = match v.get("lod_lengths") {
        None | Some(Value::Null) => vec![],
        Some(l) => serde_json::from_value(l.clone())
            .map_err(|e| format!("{what}.lod_lengths is not a list of lists of lengths: {e}"))?,
    };
    Ok(Lod { tensor, lengths })
}

pub(super) fn inputs(case: &Case) -> Result<Inputs, String> {
    let x = lod(case.field("x")?, "x")?;
    let y = case
        .raw
        .get("y")
        .filter(|v| !v.is_null())
        .map(|v| lod(v, "y"))
        .transpose()?;
    let target = case
        .attr("target_lod_offsets")
        .map(|t| {
            serde_json::from_value::<Vec<usize>>(t.clone())
                .map_err(|e| format!("target_lod_offsets {t} are not unsigned offsets: {e}"))
        })
        .transpose()?;
    let append = match case.attr("append") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| format!("bad append {v}"))?,
    };
    Ok(Inputs {
        x,
        y,
        target,
        append,
    })
}

fn lengths(l: &[Vec<usize>]) -> Vec<Lengths<'_>> {
    l.iter().map(|v| Lengths::new(v)).collect()
}

pub(super) fn dyn_lod<T: Typed>(l: &Lod) -> Result<DynLodTensor<T>, Outcome> {
    let data = T::slice(&l.tensor.data)
        .ok_or_else(|| Outcome::Broken("dtype mismatch".into()))?
        .to_vec();
    let dense =
        DynTensor::new(&l.tensor.shape, data).map_err(|e| Outcome::run_error(e.rule(), e))?;
    // an invalid LoD is refused where Paddle's set_recursive_sequence_lengths refuses it
    DynLodTensor::from_lengths(dense, &lengths(&l.lengths))
        .map_err(|e| Outcome::run_error(e.rule(), e))
}

fn run<T: Typed + Element>(i: &Inputs, y: Option<DynY<'_>>) -> Outcome {
    let x = match dyn_lod::<T>(&i.x) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let target = i.target.as_deref().map(Offsets::new);
    match x.lod_reset(y, target, i.append) {
        Ok(out) => Outcome::AcceptedWithLod(
            TensorVal {
                shape: out.dense().dims().to_vec(),
                data: T::wrap(out.dense().as_slice().to_vec()),
            },
            out.lod().as_offsets().to_vec(),
        ),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

fn run_x<U: Typed + Element>(i: &Inputs, y: Option<&DynLodTensor<U>>) -> Outcome {
    let y = y.map(|y| y.as_y());
    match &i.x.tensor.data {
        Data::F32(_) => run::<f32>(i, y),
        Data::F64(_) => run::<f64>(i, y),
        Data::I32(_) => run::<i32>(i, y),
        Data::I64(_) => run::<i64>(i, y),
        Data::Bool(_) => Outcome::Broken("x of dtype bool (Paddle refuses it)".into()),
    }
}

fn run_y<U: Typed + Element>(i: &Inputs, y: &Lod) -> Outcome {
    match dyn_lod::<U>(y) {
        Ok(y) => run_x::<U>(i, Some(&y)),
        Err(o) => o,
    }
}

impl Family for LodReset {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        match &i.y {
            None => run_x::<f32>(&i, None),
            Some(y) => match &y.tensor.data {
                Data::F32(_) => run_y::<f32>(&i, y),
                Data::F64(_) => run_y::<f64>(&i, y),
                Data::I32(_) => run_y::<i32>(&i, y),
                Data::I64(_) => run_y::<i64>(&i, y),
                Data::Bool(_) => Outcome::Broken("y of dtype bool".into()),
            },
        }
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        // the LoD is data: every rule is checked at run time, in the order
        // of the dynamic path (x's LoD, y's, then lod_reset's own rule)
        Ok(match validate_lod(&i).err() {
            None => Validation::accepts(&[]),
            Some(rule) => Validation::rejects(rule, crate::judge::When::Run),
        })
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let mut body = String::new();
        let mut data = Map::new();
        body += &static_lod("x", &i.x, true)?;
        data.insert("x".into(), data_json(&i.x.tensor.data));
        data.insert("x_lod".into(), json!(i.x.lengths));
        let append = i.append;
        match (&i.y, &i.target) {
            (Some(y), _) if !y.lengths.is_empty() => {
                body += &static_lod("y", y, false)?;
                data.insert("y".into(), data_json(&y.tensor.data));
                data.insert("y_lod".into(), json!(y.lengths));
                body += &format!("    let z = x.lod_reset_like(&y){VALUE_ERR}?;\n");
            }
            (Some(y), _) => {
                if y.tensor.dtype() != "int32" {
                    return Err(format!(
                        "y without LoD of dtype {}: the static path reads int32 offsets only",
                        y.tensor.dtype()
                    ));
                }
                body += &let_tensor("y", &y.tensor, "y")?;
                data.insert("y".into(), data_json(&y.tensor.data));
                body += &format!(
                    "    let mut buf = [0usize; {}];\n    let z = x.lod_reset_by_data(&y, {append}, &mut buf){VALUE_ERR}?;\n",
                    y.tensor.data.len()
                );
            }
            (None, Some(t)) => {
                data.insert("target".into(), json!(t));
                body += "    let target: Vec<usize> = serde_json::from_value(d[\"target\"].clone()).map_err(input_error)?;\n";
                body += &format!(
                    "    let z = x.lod_reset(shapecheck::Offsets::new(&target), {append}){VALUE_ERR}?;\n"
                );
            }
            (None, None) => {
                return Err("neither y nor target: the static forms cannot express it".into());
            }
        }
        body += "    let lod: Vec<Vec<usize>> = (0..z.levels()).filter_map(|k| z.level(k)).map(|o| o.as_slice().to_vec()).collect();\n";
        body += "    let mut v = emit(&z.dense().dims(), z.as_slice());\n";
        body += "    v[\"lod\"] = json!(lod);\n";
        body += "    Ok(v)\n";
        Ok(StaticCase {
            expr: String::new(),
            body,
            data: Value::Object(data),
            out_dtype: i.x.tensor.dtype(),
        })
    }
}

/// The rows of a dense tensor (its first dim), as `DynLodTensor` reads them.
fn rows(t: &TensorVal) -> Result<usize, LodError> {
    t.shape.first().copied().ok_or(LodError::ScalarDense)
}

/// The library's checks (`check_lengths`, Paddle's CheckLoD, on x's and
/// y's LoD, then `lod_reset_rule`): the rule of the first that fails.
fn validate_lod(i: &Inputs) -> Result<(), &'static str> {
    let x_rows = rows(&i.x.tensor).map_err(|e| e.rule())?;
    check_lengths(&lengths(&i.x.lengths), x_rows).map_err(|e| e.rule())?;
    let y_input = match &i.y {
        None => None,
        Some(y) => {
            let y_rows = rows(&y.tensor).map_err(|e| e.rule())?;
            check_lengths(&lengths(&y.lengths), y_rows).map_err(|e| e.rule())?;
            Some(match (y.lengths.last(), &y.tensor.data) {
                (Some(last), _) => YInput::Lod {
                    last: last.iter().sum(),
                },
                (None, Data::I32(v)) => YInput::Int32(v),
                (None, _) => YInput::NotInt32 {
                    dtype: y.tensor.dtype(),
                },
            })
        }
    };
    let target = i.target.as_deref().map(Offsets::new);
    lod_reset_rule(x_rows, y_input, target, i.append)
        .map(|_| ())
        .map_err(|e| e.rule())
}

/// Generated code for a LoD tensor `name` of a static dense shape, its LoD
/// built from lengths without a heap; `inline` keeps the dense data inline
/// (x), otherwise on the heap (y).
pub(super) fn static_lod(name: &str, l: &Lod, inline: bool) -> Result<String, String> {
    let ty = rust_type(l.tensor.dtype())?;
    let mut s = if inline {
        format!(
            "    let {name}_dense = Tensor::<{ty}, {shape}>::from_slice(&load::<{ty}>(d, {name:?})?).map_err(input_error)?;\n",
            shape = shape_macro(&l.tensor.shape)
        )
    } else {
        let_tensor(&format!("{name}_dense"), &l.tensor, name)?
    };
    let offsets: usize = l.lengths.iter().map(|v| v.len() + 1).sum();
    s += &format!(
        "    let {name}_lengths: Vec<Vec<usize>> = serde_json::from_value(d[\"{name}_lod\"].clone()).map_err(input_error)?;\n\
         \x20   let {name}_lengths: Vec<shapecheck::Lengths> = {name}_lengths.iter().map(|l| shapecheck::Lengths::new(l)).collect();\n\
         \x20   let mut {name}_offsets = [0usize; {offsets}];\n\
         \x20   let mut {name}_levels = [shapecheck::Offsets::new(&[]); {levels}];\n\
         \x20   let {name} = shapecheck::LodTensor::from_lengths_in({name}_dense, &{name}_lengths, &mut {name}_offsets, &mut {name}_levels){VALUE_ERR}?;\n",
        levels = l.lengths.len()
    );
    Ok(s)
}
