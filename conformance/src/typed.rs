//! Going between the vector files' typed data and Rust element types, for
//! the dynamic runs and for the generated static programs.

use crate::judge::Outcome;
use crate::vectors::{Data, TensorVal};
use serde_json::Value;

/// An element type the vectors use (`Send + Sync`: with shapecheck's
/// `rayon` feature, which `--all-features` turns on, dynamic_stitch asks it).
pub trait Typed: Copy + Default + Send + Sync + 'static {
    /// The data as a slice of this type, if it has this dtype.
    fn slice(d: &Data) -> Option<&[Self]>;
    /// Wraps values of this type.
    fn wrap(v: Vec<Self>) -> Data;
}

macro_rules! typed {
    ($t:ty, $variant:ident) => {
        impl Typed for $t {
            fn slice(d: &Data) -> Option<&[Self]> {
                match d {
                    Data::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: Vec<Self>) -> Data {
                Data::$variant(v)
            }
        }
    };
}
typed!(f32, F32);
typed!(f64, F64);
typed!(i32, I32);
typed!(i64, I64);
typed!(bool, Bool);

/// The Rust type of a dtype.
pub fn rust_type(dtype: &str) -> Result<&'static str, String> {
    Ok(match dtype {
        "float32" => "f32",
        "float64" => "f64",
        "int32" => "i32",
        "int64" => "i64",
        "bool" => "bool",
        other => return Err(format!("unsupported dtype {other:?}")),
    })
}

fn float_json(f: f64) -> Value {
    if f.is_nan() {
        Value::String("nan".into())
    } else if f.is_infinite() {
        Value::String(if f > 0.0 { "inf" } else { "-inf" }.into())
    } else {
        serde_json::Number::from_f64(f)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// The data as a JSON list the generated programs read back exactly.
pub fn data_json(d: &Data) -> Value {
    Value::Array(match d {
        Data::F32(v) => v.iter().map(|&f| float_json(f as f64)).collect(),
        Data::F64(v) => v.iter().map(|&f| float_json(f)).collect(),
        Data::I32(v) => v.iter().map(|&i| Value::from(i)).collect(),
        Data::I64(v) => v.iter().map(|&i| Value::from(i)).collect(),
        Data::Bool(v) => v.iter().map(|&b| Value::from(b)).collect(),
    })
}

/// `shape![..]` for dims.
pub fn shape_macro(dims: &[usize]) -> String {
    let inner: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    format!("shape![{}]", inner.join(", "))
}

/// Generated code that builds a heap tensor of `t`'s static shape from the
/// data file entry `key` (`let NAME = ...;`).
pub fn let_tensor(name: &str, t: &TensorVal, key: &str) -> Result<String, String> {
    let ty = rust_type(t.dtype())?;
    Ok(format!(
        "    let {name} = Tensor::<{ty}, {shape}, Vec<{ty}>>::from_vec(Default::default(), load::<{ty}>(d, {key:?})?).map_err(input_error)?;\n",
        shape = shape_macro(&t.shape)
    ))
}

/// The tensor `t` as a [`shapecheck::DynTensor`] (the dynamic API's input):
/// a [`ShapeError`](shapecheck::ShapeError) is the library's rejection at run
/// time, a dtype other than `T` a bug of the caller.
pub fn dyn_tensor<T: Typed>(t: &TensorVal) -> Result<shapecheck::DynTensor<T>, Outcome> {
    let data = T::slice(&t.data)
        .ok_or_else(|| Outcome::Broken(format!("{} data read as another type", t.dtype())))?;
    shapecheck::DynTensor::new(&t.shape, data.to_vec()).map_err(|e| Outcome::run_error(e.rule(), e))
}

/// [`dyn_tensor`] of each tensor of a list, in order; the first failure.
pub fn dyn_tensors<T: Typed>(ts: &[TensorVal]) -> Result<Vec<shapecheck::DynTensor<T>>, Outcome> {
    ts.iter().map(dyn_tensor::<T>).collect()
}

/// A [`shapecheck::DynTensor`] result as a tensor of the vectors.
pub fn from_dyn<T: Typed>(t: shapecheck::DynTensor<T>) -> TensorVal {
    TensorVal {
        shape: t.dims().to_vec(),
        data: T::wrap(t.into_vec()),
    }
}

/// Generated code checking fused expressions against the plain ops' result
/// `z` (of dims `out`, element type `dtype`): `one` is the op as a one-node
/// expression, `chained` the op followed by more nodes and `plain` the same
/// chain of plain ops. Each expression is evaluated into a heap tensor of
/// the output's static shape filled with a value the op does not produce
/// (NaN, or a large negative integer; twice, `true` then `false`, for
/// `bool`), so that an element it failed to write shows.
pub fn expr_checks(
    dtype: &str,
    out: &[usize],
    one: &str,
    chained: Option<(&str, &str)>,
) -> Result<String, String> {
    let ty = rust_type(dtype)?;
    let fills: &[&str] = match dtype {
        "float32" => &["f32::NAN"],
        "float64" => &["f64::NAN"],
        "int32" => &["-2147480000"],
        "int64" => &["-9223372036854770000"],
        _ => &["true", "false"],
    };
    let n: usize = out.iter().product();
    let shape = shape_macro(out);
    let mut body = String::new();
    for fill in fills {
        body += &format!(
            "    let mut e = Tensor::<{ty}, {shape}, Vec<{ty}>>::from_vec(Default::default(), vec![{fill}; {n}]).map_err(input_error)?;\n    ({one}).eval_into(&mut e);\n    same_values(\"one node\", e.as_slice(), z.as_slice())?;\n"
        );
    }
    if let Some((chained, plain)) = chained {
        body += &format!(
            "    let mut e = Tensor::<{ty}, {shape}, Vec<{ty}>>::from_vec(Default::default(), vec![{fill}; {n}]).map_err(input_error)?;\n    ({chained}).eval_into(&mut e);\n    let p = {plain};\n    same_values(\"chained\", e.as_slice(), p.as_slice())?;\n",
            fill = fills[0]
        );
    }
    Ok(body)
}

/// What generated code appends to an op's `Result` to report its error
/// with the error's rule identifier (`value_error` in the generated support).
pub const VALUE_ERR: &str = ".map_err(|e| value_error(e.rule(), &e))";
