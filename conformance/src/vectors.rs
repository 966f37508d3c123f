//! Reading the vector files: families, cases, tensors.

use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// The flat data of a tensor, typed by its dtype.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
}

impl Data {
    pub fn dtype(&self) -> &'static str {
        match self {
            Data::F32(_) => "float32",
            Data::F64(_) => "float64",
            Data::I32(_) => "int32",
            Data::I64(_) => "int64",
            Data::Bool(_) => "bool",
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> usize {
        match self {
            Data::F32(v) => v.len(),
            Data::F64(v) => v.len(),
            Data::I32(v) => v.len(),
            Data::I64(v) => v.len(),
            Data::Bool(v) => v.len(),
        }
    }
}

/// A tensor of a vector file: shape, dtype and row-major data.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorVal {
    pub shape: Vec<usize>,
    pub data: Data,
}

fn num_f64(v: &Value) -> Result<f64, String> {
    match v {
        Value::Number(n) => n.as_f64().ok_or_else(|| format!("bad number {n}")),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "nan" => Ok(f64::NAN),
            "inf" | "infinity" | "+inf" => Ok(f64::INFINITY),
            "-inf" | "-infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(format!("bad float {s:?}")),
        },
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        other => Err(format!("expected a number, found {other}")),
    }
}

fn num_i64(v: &Value) -> Result<i64, String> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return Ok(i);
            }
            let f = n.as_f64().ok_or_else(|| format!("bad number {n}"))?;
            if f.fract() == 0.0 && f.abs() < 9.0e18 {
                Ok(f as i64)
            } else {
                Err(format!("expected an integer, found {n}"))
            }
        }
        Value::Bool(b) => Ok(*b as i64),
        other => Err(format!("expected an integer, found {other}")),
    }
}

fn num_bool(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Number(_) => Ok(num_f64(v)? != 0.0),
        other => Err(format!("expected a bool, found {other}")),
    }
}

/// Parses the `data` array of a tensor of dtype `dtype`.
pub fn parse_data(dtype: &str, data: &Value) -> Result<Data, String> {
    let items: Vec<&Value> = match data {
        Value::Array(a) => a.iter().collect(),
        // a scalar written without brackets
        other => vec![other],
    };
    Ok(match dtype {
        "float32" => Data::F32(
            items
                .iter()
                .map(|v| num_f64(v).map(|f| f as f32))
                .collect::<Result<_, _>>()?,
        ),
        "float64" => Data::F64(items.iter().map(|v| num_f64(v)).collect::<Result<_, _>>()?),
        "int32" => Data::I32(
            items
                .iter()
                .map(|v| {
                    num_i64(v).and_then(|i| {
                        i32::try_from(i).map_err(|_| format!("{i} does not fit int32"))
                    })
                })
                .collect::<Result<_, _>>()?,
        ),
        "int64" => Data::I64(items.iter().map(|v| num_i64(v)).collect::<Result<_, _>>()?),
        "bool" => Data::Bool(
            items
                .iter()
                .map(|v| num_bool(v))
                .collect::<Result<_, _>>()?,
        ),
        other => return Err(format!("unsupported dtype {other:?}")),
    })
}

pub fn parse_shape(v: &Value) -> Result<Vec<usize>, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("shape is not a list: {v}"))?;
    arr.iter()
        .map(|d| {
            d.as_u64()
                .and_then(|d| usize::try_from(d).ok())
                .ok_or_else(|| format!("bad dim {d}"))
        })
        .collect()
}

impl TensorVal {
    /// Parses `{"shape": .., "dtype": .., "data": ..}`.
    pub fn parse(v: &Value) -> Result<TensorVal, String> {
        let shape = parse_shape(v.get("shape").ok_or("tensor without shape")?)?;
        let dtype = v
            .get("dtype")
            .and_then(Value::as_str)
            .ok_or("tensor without dtype")?;
        let data = parse_data(dtype, v.get("data").ok_or("tensor without data")?)?;
        let numel = shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .ok_or("element count overflows")?;
        if numel != data.len() {
            return Err(format!(
                "tensor of shape {shape:?} has {} values, expected {numel}",
                data.len()
            ));
        }
        Ok(TensorVal { shape, data })
    }

    pub fn dtype(&self) -> &'static str {
        self.data.dtype()
    }
}

/// What the framework did with a case.
#[derive(Clone, Debug)]
pub enum Expect {
    /// Accepted, with this output.
    Out(Value),
    /// Rejected (or crashed), with this message.
    Error(String),
    /// The case records neither or both of `out` and `error`: a broken
    /// vector file, a failure whatever the project does.
    Malformed(String),
}

/// One case of a vector file.
#[derive(Clone, Debug)]
pub struct Case {
    /// The family (the file's `op`).
    pub family: String,
    /// Its position in the file's `cases`.
    pub index: usize,
    /// Its `name`.
    pub name: String,
    /// The whole case object.
    pub raw: Value,
    pub expect: Expect,
}

impl Case {
    /// `name#index`, unique within a file.
    pub fn label(&self) -> String {
        format!("{}#{}", self.name, self.index)
    }

    /// A field of the case.
    pub fn field(&self, key: &str) -> Result<&Value, String> {
        self.raw
            .get(key)
            .ok_or_else(|| format!("missing field {key:?}"))
    }

    /// A tensor field of the case.
    pub fn tensor(&self, key: &str) -> Result<TensorVal, String> {
        TensorVal::parse(self.field(key)?)
    }

    /// An attribute, if present and not null.
    pub fn attr(&self, key: &str) -> Option<&Value> {
        self.raw
            .get("attrs")
            .and_then(|a| a.get(key))
            .filter(|v| !v.is_null())
    }
}

/// A vector file: its family and cases.
pub struct VectorFile {
    pub path: PathBuf,
    pub family: String,
    pub cases: Vec<Case>,
}

impl fmt::Display for VectorFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.path.display(), self.family)
    }
}

/// Reads every `*.json` file of `dir`, sorted by name.
pub fn load_dir(dir: &Path) -> Result<Vec<VectorFile>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths.iter().map(|p| load_file(p)).collect()
}

fn load_file(path: &Path) -> Result<VectorFile, String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_file(path, &text)
}

/// The family a case runs in: its file's (`op` at the top), except that
/// TensorFlow's `dynamic_partition` cases, recorded in `dynamic_stitch.json`
/// beside the op they invert, run as a family of their own,
/// `dynamic_partition`.
///
/// ```
/// use conformance::vectors::family_of;
/// assert_eq!(family_of("dynamic_stitch", Some("dynamic_partition")), "dynamic_partition");
/// assert_eq!(family_of("dynamic_stitch", Some("dynamic_stitch")), "dynamic_stitch");
/// assert_eq!(family_of("elementwise", Some("elementwise_mul")), "elementwise");
/// ```
pub fn family_of<'a>(file_op: &'a str, case_op: Option<&'a str>) -> &'a str {
    match (file_op, case_op) {
        ("dynamic_stitch", Some("dynamic_partition")) => "dynamic_partition",
        _ => file_op,
    }
}

/// Parses the contents of a vector file (`path` names it in errors). Any
/// bytes give a `VectorFile` or an error, never a panic (fuzzed by
/// `fuzz/fuzz_targets/vectors.rs`).
pub fn parse_file(path: &Path, text: &[u8]) -> Result<VectorFile, String> {
    let v: Value =
        serde_json::from_slice(text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let family = v
        .get("op")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{}: no \"op\" field", path.display()))?
        .to_string();
    let raw_cases = v
        .get("cases")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{}: no \"cases\" list", path.display()))?;
    let cases = raw_cases
        .iter()
        .enumerate()
        .map(|(index, c)| {
            let name = c
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("unnamed")
                .to_string();
            let expect = match (c.get("out"), c.get("error")) {
                (Some(out), None) => Expect::Out(out.clone()),
                (None, Some(err)) => Expect::Error(match err {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                }),
                (Some(_), Some(_)) => {
                    Expect::Malformed("the case records both out and error".into())
                }
                (None, None) => Expect::Malformed("the case records neither out nor error".into()),
            };
            let case_op = c.get("op").and_then(Value::as_str);
            Case {
                family: family_of(&family, case_op).to_string(),
                index,
                name,
                raw: c.clone(),
                expect,
            }
        })
        .collect();
    Ok(VectorFile {
        path: path.to_path_buf(),
        family,
        cases,
    })
}
