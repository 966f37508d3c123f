//! The reduce family: Paddle's `sum`, `mean`, `max`, `min`, `prod`
//! (`axis` null, an int or a list; `keepdim`) and `argmax` / `argmin`
//! (`axis` null or an int; int64 indices).

use super::{Family, StaticCase};
use crate::judge::{Outcome, Tolerance, Validation, When};
use crate::typed::{data_json, dyn_tensor, from_dyn, let_tensor, Typed};
use crate::vectors::{Case, Data, TensorVal};
use serde_json::{Map, Value};
use shapecheck::ops::reduce::{
    reduce_output_dims, ArgKind, ReduceElement, ReduceError, ReduceKind, Reduction,
};
use shapecheck::DynTensor;

pub struct Reduce;

/// A case's inputs: the op, x, the axes (`None`: null) and keepdim.
struct Inputs {
    op: Reduction,
    x: TensorVal,
    axes: Option<Vec<isize>>,
    /// The axis was a list (`[0]`), not an int (`0`).
    listed: bool,
    keepdim: bool,
}

fn op_of(name: &str) -> Result<Reduction, String> {
    Ok(match name {
        "sum" => Reduction::Reduce(ReduceKind::Sum),
        "mean" => Reduction::Reduce(ReduceKind::Mean),
        "max" => Reduction::Reduce(ReduceKind::Max),
        "min" => Reduction::Reduce(ReduceKind::Min),
        "prod" => Reduction::Reduce(ReduceKind::Prod),
        "argmax" => Reduction::Arg(ArgKind::ArgMax),
        "argmin" => Reduction::Arg(ArgKind::ArgMin),
        other => return Err(format!("unknown reduce op {other:?}")),
    })
}

fn inputs(case: &Case) -> Result<Inputs, String> {
    let op = op_of(case.field("op")?.as_str().ok_or("op is not a string")?)?;
    let x = case.tensor("x")?;
    let axis_of = |v: &Value| {
        v.as_i64()
            .and_then(|a| isize::try_from(a).ok())
            .ok_or(format!("axis {v} is not an int"))
    };
    let (axes, listed) = match case.attr("axis") {
        None | Some(Value::Null) => (None, false),
        Some(Value::Array(list)) => (
            Some(list.iter().map(axis_of).collect::<Result<Vec<_>, _>>()?),
            true,
        ),
        Some(v) => (Some(vec![axis_of(v)?]), false),
    };
    let keepdim = case
        .attr("keepdim")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if matches!(op, Reduction::Arg(_)) && listed {
        return Err("argmax / argmin take one axis, not a list".into());
    }
    Ok(Inputs {
        op,
        x,
        axes,
        listed,
        keepdim,
    })
}

fn outcome<U: Typed>(r: Result<DynTensor<U>, ReduceError>) -> Outcome {
    match r {
        Ok(z) => Outcome::Accepted(from_dyn(z)),
        Err(e) => Outcome::run_error(e.rule(), e),
    }
}

/// Through the public API: `DynTensor::sum`, `mean`, ..., `argmax`, `argmin`.
fn run<T: Typed + ReduceElement>(i: &Inputs) -> Outcome
where
    T::Sum: Typed,
{
    let x = match dyn_tensor::<T>(&i.x) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let axes = i.axes.as_deref().unwrap_or(&[]);
    let k = i.keepdim;
    match i.op {
        Reduction::Reduce(ReduceKind::Sum) => outcome(x.sum(axes, k)),
        Reduction::Reduce(ReduceKind::Mean) => outcome(x.mean(axes, k)),
        Reduction::Reduce(ReduceKind::Max) => outcome(x.max(axes, k)),
        Reduction::Reduce(ReduceKind::Min) => outcome(x.min(axes, k)),
        Reduction::Reduce(ReduceKind::Prod) => outcome(x.prod(axes, k)),
        Reduction::Arg(ArgKind::ArgMax) => outcome(x.argmax(axes.first().copied(), k)),
        Reduction::Arg(ArgKind::ArgMin) => outcome(x.argmin(axes.first().copied(), k)),
    }
}

/// The output dtype: sum of int32 is int64, the arg kinds int64.
fn out_dtype(i: &Inputs) -> &'static str {
    match (i.op, i.x.dtype()) {
        (Reduction::Arg(_), _) | (Reduction::Reduce(ReduceKind::Sum), "int32") => "int64",
        (_, d) => d,
    }
}

impl Family for Reduce {
    fn dynamic(&self, case: &Case) -> Outcome {
        let i = match inputs(case) {
            Ok(i) => i,
            Err(e) => return Outcome::Broken(e),
        };
        match &i.x.data {
            Data::F32(_) => run::<f32>(&i),
            Data::F64(_) => run::<f64>(&i),
            Data::I32(_) => run::<i32>(&i),
            Data::I64(_) => run::<i64>(&i),
            Data::Bool(_) => Outcome::Broken("bool reductions are not recorded".into()),
        }
    }

    fn tolerance(&self, _case: &Case) -> Tolerance {
        Tolerance::Exact
    }

    fn validate(&self, case: &Case, _static_mode: bool) -> Result<Validation, String> {
        let i = inputs(case)?;
        Ok(
            match reduce_output_dims(&i.x.shape, i.axes.as_deref(), i.keepdim, i.op) {
                Ok(_) => Validation::accepts(&[]),
                // max / min / argmax / argmin over a zero-size dim: the static
                // forms' constant check, evaluated at monomorphisation
                Err(e @ ReduceError::EmptyReduction { .. }) => {
                    Validation::rejects(e.rule(), When::Mono)
                }
                Err(e) => Validation::rejects(e.rule(), When::Compile),
            },
        )
    }

    fn static_case(&self, case: &Case) -> Result<StaticCase, String> {
        let i = inputs(case)?;
        let mut body = let_tensor("x", &i.x, "x")?;
        let mut data = Map::new();
        data.insert("x".into(), data_json(&i.x.data));
        let axes = match &i.axes {
            None => "shapecheck::All".to_string(),
            Some(list) if list.is_empty() => "shapecheck::All".to_string(),
            Some(list) if !i.listed => format!("Axis::<{}>", list.first().copied().unwrap_or(0)),
            Some(list) => {
                let parts: Vec<String> = list.iter().map(|a| format!("Axis::<{a}>")).collect();
                format!("({},)", parts.join(", "))
            }
        };
        let method = format!("{}{}", i.op.name(), if i.keepdim { "_keepdim" } else { "" });
        body += &format!("    let z = x.{method}({axes});\n");
        body += "    Ok(emit(&z.dims(), z.as_slice()))\n";
        Ok(StaticCase {
            body,
            expr: String::new(),
            data: Value::Object(data),
            out_dtype: out_dtype(&i),
        })
    }
}
