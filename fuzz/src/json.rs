//! JSON for the vector-file reader's target: a generator of vector-file-like
//! documents (right and wrong keys, dtypes, shapes, numbers of every kind) and
//! a naive reference of the reader's rules for a tensor.

use crate::{byte, Unstructured};
use serde_json::{Map, Number, Value};

const KEYS: [&str; 14] = [
    "op", "cases", "name", "out", "error", "shape", "dtype", "data", "x", "y", "attrs", "axis",
    "inputs", "index",
];
const STRINGS: [&str; 12] = [
    "float32",
    "float64",
    "int32",
    "int64",
    "bool",
    "nan",
    "-Inf",
    "infinity",
    "elementwise",
    "",
    "x",
    "NaN",
];
const DTYPES: [&str; 7] = ["float32", "float64", "int32", "int64", "bool", "int8", ""];

/// A number of any kind JSON can hold: small, negative, fractional, huge,
/// past `i64` and `u64`.
pub fn number(u: &mut Unstructured<'_>) -> Value {
    match byte(u) % 12 {
        0..=4 => Value::from(i64::from(byte(u) as i8)),
        5 => Value::from(u64::MAX),
        6 => Value::from(i64::MIN),
        7 => Value::from(f64::from(byte(u) as i8) / 4.0),
        8 => Value::from(u.arbitrary::<u64>().unwrap_or(0)),
        9 => Value::from(u.arbitrary::<i64>().unwrap_or(0)),
        10 => {
            Number::from_f64(u.arbitrary::<f64>().unwrap_or(0.0)).map_or(Value::Null, Value::Number)
        }
        _ => Value::from(9.5e18),
    }
}

/// Any JSON value, `depth` levels deep at most.
pub fn value(u: &mut Unstructured<'_>, depth: u8) -> Value {
    let k = if depth == 0 { byte(u) % 5 } else { byte(u) % 8 };
    match k {
        0 => Value::Null,
        1 => Value::Bool(byte(u) & 1 == 1),
        2 => number(u),
        3 => Value::from(STRINGS[usize::from(byte(u)) % STRINGS.len()]),
        4 => Value::from(u.arbitrary::<&str>().unwrap_or("")),
        5 => Value::Array((0..byte(u) % 5).map(|_| value(u, depth - 1)).collect()),
        6 => tensor(u, depth - 1),
        _ => {
            let mut m = Map::new();
            for _ in 0..byte(u) % 5 {
                let k = KEYS[usize::from(byte(u)) % KEYS.len()];
                m.insert(k.into(), value(u, depth - 1));
            }
            Value::Object(m)
        }
    }
}

/// A tensor object, mostly well-formed: shape, dtype, data of about the
/// right length, sometimes a wrong field or a missing one.
pub fn tensor(u: &mut Unstructured<'_>, depth: u8) -> Value {
    let mut m = Map::new();
    let shape: Vec<Value> = (0..byte(u) % 4)
        .map(|_| match byte(u) {
            0..=219 => Value::from(byte(u) % 4),
            _ => number(u),
        })
        .collect();
    let numel = shape
        .iter()
        .try_fold(1u64, |a, d| a.checked_mul(d.as_u64()?))
        .unwrap_or(3)
        .min(64);
    let dtype = DTYPES[usize::from(byte(u)) % DTYPES.len()];
    let len = match byte(u) {
        0..=219 => numel,
        b => u64::from(b % 8),
    };
    let data: Vec<Value> = (0..len)
        .map(|_| match byte(u) {
            0..=149 => Value::from(i64::from(byte(u) as i8)),
            150..=179 => Value::from(f64::from(byte(u) as i8) / 2.0),
            180..=199 => Value::Bool(byte(u) & 1 == 1),
            200..=209 => Value::from(STRINGS[usize::from(byte(u)) % STRINGS.len()]),
            _ => value(u, depth.min(1)),
        })
        .collect();
    let skip = byte(u);
    if skip != 1 {
        m.insert(
            "shape".into(),
            if skip == 2 {
                number(u)
            } else {
                Value::Array(shape)
            },
        );
    }
    if skip != 3 {
        m.insert("dtype".into(), Value::from(dtype));
    }
    if skip != 4 {
        let scalar = data.len() == 1 && skip == 5;
        let d = if scalar {
            data[0].clone()
        } else {
            Value::Array(data)
        };
        m.insert("data".into(), d);
    }
    Value::Object(m)
}

/// A vector file: `{"op": .., "cases": [..]}` with cases of tensors, attrs,
/// `out` and/or `error`, some fields wrong or missing.
pub fn file(u: &mut Unstructured<'_>) -> Value {
    let mut cases = Vec::new();
    for _ in 0..byte(u) % 4 {
        let mut c = Map::new();
        if byte(u) < 200 {
            c.insert("name".into(), value(u, 0));
        }
        for _ in 0..byte(u) % 4 {
            let k = KEYS[usize::from(byte(u)) % KEYS.len()];
            let v = match byte(u) {
                0..=159 => tensor(u, 1),
                160..=199 => Value::Array((0..byte(u) % 3).map(|_| tensor(u, 1)).collect()),
                _ => value(u, 2),
            };
            c.insert(k.into(), v);
        }
        cases.push(if byte(u) < 240 {
            Value::Object(c)
        } else {
            value(u, 1)
        });
    }
    let mut m = Map::new();
    if byte(u) < 240 {
        m.insert(
            "op".into(),
            if byte(u) < 240 {
                Value::from("elementwise")
            } else {
                value(u, 0)
            },
        );
    }
    if byte(u) < 240 {
        m.insert("cases".into(), Value::Array(cases));
    }
    Value::Object(m)
}

/// What a tensor object must read as under the reader's rules, written
/// independently: its shape, dtype and element count, and for the integer
/// dtypes the values; `None` when the reader must reject it.
#[derive(Debug, PartialEq)]
pub struct RefTensor {
    pub shape: Vec<usize>,
    pub dtype: String,
    pub len: usize,
    pub ints: Option<Vec<i64>>,
}

fn ref_float(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => {
            let s = s.to_ascii_lowercase();
            if s == "nan" {
                Some(f64::NAN)
            } else if ["inf", "infinity", "+inf"].contains(&s.as_str()) {
                Some(f64::INFINITY)
            } else if ["-inf", "-infinity"].contains(&s.as_str()) {
                Some(f64::NEG_INFINITY)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn ref_int(v: &Value) -> Option<i64> {
    match v {
        Value::Bool(b) => Some(i64::from(*b)),
        Value::Number(n) => n.as_i64().or_else(|| {
            let f = n.as_f64()?;
            (f == f.trunc() && f.abs() < 9.0e18).then_some(f as i64)
        }),
        _ => None,
    }
}

/// The naive reference of `TensorVal::parse`.
pub fn ref_tensor(v: &Value) -> Option<RefTensor> {
    let o = v.as_object()?;
    let mut shape = Vec::new();
    for d in o.get("shape")?.as_array()? {
        shape.push(usize::try_from(d.as_u64()?).ok()?);
    }
    let dtype = o.get("dtype")?.as_str()?;
    let data = o.get("data")?;
    let items: Vec<&Value> = match data.as_array() {
        Some(a) => a.iter().collect(),
        None => vec![data],
    };
    let mut ints = None;
    match dtype {
        "float32" | "float64" => {
            if items.iter().any(|v| ref_float(v).is_none()) {
                return None;
            }
        }
        "int32" | "int64" => {
            let mut out = Vec::new();
            for v in &items {
                let i = ref_int(v)?;
                if dtype == "int32" && (i < i64::from(i32::MIN) || i > i64::from(i32::MAX)) {
                    return None;
                }
                out.push(i);
            }
            ints = Some(out);
        }
        "bool" => {
            if items.iter().any(|v| !v.is_boolean() && !v.is_number()) {
                return None;
            }
        }
        _ => return None,
    }
    let mut numel: usize = 1;
    for &d in &shape {
        numel = numel.checked_mul(d)?;
    }
    if numel != items.len() {
        return None;
    }
    Some(RefTensor {
        shape,
        dtype: dtype.to_string(),
        len: items.len(),
        ints,
    })
}
