//! The one-op models for the firmware tests `tests/tflite_ops.rs` and
//! `tests/model_one_op_<g>.rs` (part of build.rs): TFLite Micro's one-op
//! models (`../tflite/tests/ops/<name>.tflite`) and their 8 recorded cases
//! each (`<name>.json`), as Rust data in `OUT_DIR/one_op_models.rs` (for
//! the interpreter), and as one `model!` per model in
//! `OUT_DIR/model_one_op_<g>.rs` ([`GROUPS`] files, for `model!`'s code:
//! below).
//!
//! Which models: the ones the host interpreter runs, read from the `ops!`
//! list of `../tflite/tests/interpreter_ops.rs` (every one-op model: its
//! test fails on a model of the directory not listed). Per case: every input of the model (input 0 is the
//! recording's `input`, any other the tensor of its index under
//! `tensors`) and every output (output 0 is `out`, the others from
//! `tensors`, as `split_3`'s), each as a `TensorData` of the model's type
//! for that tensor; f32 values are the recorded numbers rounded to f32, as
//! the host test reads them.
//!
//! The arena the firmware declares is as large as the largest model
//! needs, for each type (`Interpreter::arena_sizes`, called here on the
//! host): `INT8`, `INT16`, `INT32`, `FLOAT32`; and the buffers each model
//! is prepared into once (`Interpreter::prepared_sizes`): `STEPS`,
//! `MULTIPLIERS` (every layer's).
use crate::json::{self, Value};
use shapecheck_tflite::{Interpreter, Model, TensorType};
use std::fmt::Write as _;
use std::{fs, path::Path};

/// Into how many firmwares the one-op models go as `model!`s
/// (`tests/model_one_op_1.rs` .. `_<GROUPS>.rs`, each including its
/// `OUT_DIR/model_one_op_<g>.rs`): each must fit the micro:bit's 256 KiB
/// of flash (run.sh checks). The list is cut into runs of consecutive
/// models of about equal weight: each model's bytes (its file and its
/// recorded values) and [`CODE_PER_MODEL`].
pub const GROUPS: usize = 4;

/// About the code one `model!` adds to a firmware, for the cut into
/// groups: the three firmwares cut by bytes alone held 203, 209 and
/// 247 KB of flash, about 3.4 KB per model beyond their data, the last
/// (41 small models of many ops) the fullest.
const CODE_PER_MODEL: usize = 3_500;

/// One model as the firmware gets it.
struct OneOp {
    name: String,
    /// its inputs' and outputs' count
    inputs: usize,
    outputs: usize,
    /// the `.tflite` file, absolute (for `include_bytes!`)
    path: String,
    /// the firmware's flash for it: the model and every recorded value
    bytes: usize,
    /// `OneOpCase { .. }` literals, one per case
    cases: Vec<String>,
}

/// The names in the `ops!( .. );` list of interpreter_ops.rs, in order:
/// one identifier per item, `//` comments skipped.
fn listed_models(source: &str) -> Result<Vec<String>, String> {
    let start = source
        .find("\nops!(")
        .ok_or("interpreter_ops.rs has no `ops!(` list")?;
    let body = &source[start + "\nops!(".len()..];
    let end = body
        .find("\n);")
        .ok_or("interpreter_ops.rs: the `ops!(` list does not end with `);`")?;
    let mut names = Vec::new();
    for line in body[..end].lines() {
        let item = line.split("//").next().unwrap_or("").trim();
        for name in item.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                return Err(format!(
                    "interpreter_ops.rs: `{name}` in ops! is not a model name"
                ));
            }
            names.push(name.to_string());
        }
    }
    if names.is_empty() {
        return Err("interpreter_ops.rs: the ops! list is empty".into());
    }
    Ok(names)
}

/// `TensorData::<Type>(&[..])` of `values` read as `dtype`, and its bytes.
fn tensor_data(values: &Value, dtype: TensorType, what: &str) -> Result<(String, usize), String> {
    let values = values
        .as_array()
        .ok_or(format!("{what}: not a list of numbers"))?;
    let (variant, size, range) = match dtype {
        TensorType::Int8 => ("Int8", 1, Some((i64::from(i8::MIN), i64::from(i8::MAX)))),
        TensorType::Int16 => ("Int16", 2, Some((i64::from(i16::MIN), i64::from(i16::MAX)))),
        TensorType::Int32 => ("Int32", 4, Some((i64::from(i32::MIN), i64::from(i32::MAX)))),
        TensorType::Float32 => ("Float32", 4, None),
        other => {
            return Err(format!(
                "{what}: a tensor of type {other:?}, which the firmware does not feed"
            ))
        }
    };
    let mut s = format!("TensorData::{variant}(&[");
    for v in values {
        let Value::Number(text) = v else {
            return Err(format!("{what}: {v:?} is not a number"));
        };
        match range {
            Some((lo, hi)) => {
                let n: i64 = text
                    .parse()
                    .map_err(|_| format!("{what}: {text} is not an integer"))?;
                if n < lo || n > hi {
                    return Err(format!("{what}: {n} is outside {variant}"));
                }
                write!(s, "{n},").unwrap();
            }
            None => {
                // as the host test: the number read as f64, rounded to f32
                let f: f64 = text
                    .parse()
                    .map_err(|_| format!("{what}: {text} is not a number"))?;
                let f = f as f32;
                if f.is_nan() {
                    return Err(format!("{what}: a NaN, which no comparison accepts"));
                } else if f.is_infinite() {
                    let sign = if f < 0.0 { "NEG_" } else { "" };
                    write!(s, "f32::{sign}INFINITY,").unwrap();
                } else {
                    // Debug: the shortest text that reads back as this f32
                    write!(s, "{f:?}_f32,").unwrap();
                }
            }
        }
    }
    s.push_str("])");
    Ok((s, values.len() * size))
}

/// The data of tensor `index` in a case: `first` (the recording's `input`
/// or `out`) for the first input or output, else `tensors[index].data`.
fn case_tensor<'v>(
    case: &'v Value,
    k: usize,
    first: &str,
    index: usize,
    what: &str,
) -> Result<&'v Value, String> {
    if k == 0 {
        return case.get(first).ok_or(format!("{what}: no \"{first}\""));
    }
    case.get("tensors")
        .and_then(|t| t.get(&index.to_string()))
        .and_then(|t| t.get("data"))
        .ok_or(format!("{what}: tensor {index} is not recorded"))
}

/// One model: its bytes checked by `Model::parse`, its arena sizes folded
/// into `sizes`, its cases as literals.
fn one_op(dir: &Path, name: &str, sizes: &mut [usize; 6]) -> Result<OneOp, String> {
    let tflite = dir.join(format!("{name}.tflite"));
    let json_path = dir.join(format!("{name}.json"));
    println!("cargo:rerun-if-changed={}", tflite.display());
    println!("cargo:rerun-if-changed={}", json_path.display());
    let bytes = fs::read(&tflite).map_err(|e| format!("{}: {e}", tflite.display()))?;
    let model = Model::parse(&bytes).map_err(|e| format!("{name}.tflite: {e}"))?;
    let need = Interpreter::arena_sizes(&model).map_err(|e| format!("{name}.tflite: {e}"))?;
    let prepared =
        Interpreter::prepared_sizes(&model).map_err(|e| format!("{name}.tflite: {e}"))?;
    for (max, n) in sizes.iter_mut().zip([
        need.int8,
        need.int16,
        need.int32,
        need.float32,
        prepared.steps,
        prepared.multipliers,
    ]) {
        *max = (*max).max(n);
    }
    let text =
        fs::read_to_string(&json_path).map_err(|e| format!("{}: {e}", json_path.display()))?;
    let recording = json::parse(&text).map_err(|e| format!("{}: {e}", json_path.display()))?;
    let cases = recording
        .get("cases")
        .and_then(Value::as_array)
        .ok_or(format!("{name}.json has no \"cases\" list"))?;
    if cases.len() != 8 {
        return Err(format!("{name}.json has {} cases, not 8", cases.len()));
    }
    // (tensor index, type) of each input and each output, in order
    let mut inputs = Vec::new();
    for k in 0..model.inputs().len() {
        let t = model
            .input(k)
            .ok_or(format!("{name}.tflite: no input {k}"))?;
        inputs.push((t.index(), t.dtype()));
    }
    let mut outputs = Vec::new();
    for k in 0..model.outputs().len() {
        let t = model
            .output(k)
            .ok_or(format!("{name}.tflite: no output {k}"))?;
        outputs.push((t.index(), t.dtype()));
    }
    let mut total = bytes.len();
    let mut literals = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let case_name = case.get("name").and_then(Value::as_str).unwrap_or("?");
        let mut lists = [String::new(), String::new()];
        let sides = [("input", "input", &inputs), ("output", "out", &outputs)];
        for (list, (side, first, ports)) in lists.iter_mut().zip(sides) {
            for (k, &(index, dtype)) in ports.iter().enumerate() {
                let what = format!("{name}.json case {c}: {side} {k}");
                let values = case_tensor(case, k, first, index, &what)?;
                let (data, n) = tensor_data(values, dtype, &what)?;
                total += n;
                write!(list, "{data}, ").unwrap();
            }
        }
        let [ins, outs] = lists;
        literals.push(format!(
            "OneOpCase {{ name: {case_name:?}, inputs: &[{ins}], outputs: &[{outs}] }}"
        ));
    }
    Ok(OneOp {
        name: name.to_string(),
        inputs: inputs.len(),
        outputs: outputs.len(),
        path: tflite
            .canonicalize()
            .map_err(|e| format!("{}: {e}", tflite.display()))?
            .display()
            .to_string(),
        bytes: total,
        cases: literals,
    })
}

/// Writes `one_op_models.rs` ([`interpreter_models`]) and the
/// `model_one_op_<g>.rs` files ([`model_group`]) into `out`.
pub fn generate(out: &Path) -> Result<(), String> {
    let list = Path::new("../tflite/tests/interpreter_ops.rs");
    println!("cargo:rerun-if-changed={}", list.display());
    let source = fs::read_to_string(list).map_err(|e| format!("{}: {e}", list.display()))?;
    let dir = Path::new("../tflite/tests/ops");
    let mut sizes = [0usize; 6];
    let mut models = Vec::new();
    for name in listed_models(&source)? {
        models.push(one_op(dir, &name, &mut sizes)?);
    }
    let write = |file: &str, code: String| {
        fs::write(out.join(file), code).map_err(|e| format!("{file}: {e}"))
    };
    write("one_op_models.rs", interpreter_models(&models, sizes))?;
    // every group has its firmware, and no firmware lacks its group
    for g in 1..=GROUPS + 1 {
        let test = Path::new("tests").join(format!("model_one_op_{g}.rs"));
        if test.exists() != (g <= GROUPS) {
            return Err(format!(
                "one_op.rs: GROUPS is {GROUPS}, so tests/model_one_op_1.rs .. _{GROUPS}.rs, and {} {}",
                test.display(),
                if g <= GROUPS { "is missing" } else { "is one too many" }
            ));
        }
    }
    let weight = |m: &OneOp| m.bytes + CODE_PER_MODEL;
    let total: usize = models.iter().map(weight).sum();
    let mut groups: Vec<Vec<&OneOp>> = vec![Vec::new(); GROUPS];
    let mut before = 0usize;
    for m in &models {
        // the group of the model's middle, in the list's weight
        let middle = before + weight(m) / 2;
        let g = (middle * GROUPS / total.max(1)).min(GROUPS - 1);
        groups[g].push(m);
        before += weight(m);
    }
    for (g, group) in groups.iter().enumerate() {
        write(
            &format!("model_one_op_{}.rs", g + 1),
            model_group(g + 1, group),
        )?;
    }
    Ok(())
}

/// `one_op_models.rs`: the arena's sizes and `MODELS`, every listed model
/// with its cases.
fn interpreter_models(models: &[OneOp], sizes: [usize; 6]) -> String {
    let mut code = String::from(
        "// Generated by embedded/build.rs (one_op.rs) from ../tflite/tests/ops: do not edit.\n",
    );
    let [int8, int16, int32, float32, steps, multipliers] = sizes;
    for (name, n, what) in [
        (
            "INT8",
            int8,
            "int8 elements of the largest model's activations",
        ),
        (
            "INT16",
            int16,
            "int16 elements of the largest model's activations",
        ),
        (
            "INT32",
            int32,
            "int32 elements of the largest model's activations",
        ),
        (
            "FLOAT32",
            float32,
            "f32 elements of the largest model's activations",
        ),
        (
            "STEPS",
            steps,
            "prepared steps of the model with the most operators",
        ),
        (
            "MULTIPLIERS",
            multipliers,
            "prepared multipliers (every layer's) of the model with the most",
        ),
    ] {
        writeln!(code, "/// The {what}.\npub const {name}: usize = {n};").unwrap();
    }
    let bytes: usize = models.iter().map(|m| m.bytes).sum();
    writeln!(
        code,
        "/// The {} models of interpreter_ops.rs's `ops!`, in its order ({bytes} bytes of models and recorded values).",
        models.len()
    )
    .unwrap();
    code.push_str("pub static MODELS: &[OneOpModel] = &[\n");
    for m in models {
        writeln!(
            code,
            "    OneOpModel {{ name: {:?}, bytes: include_bytes!({:?}), cases: &[",
            m.name, m.path
        )
        .unwrap();
        for case in &m.cases {
            writeln!(code, "        {case},").unwrap();
        }
        code.push_str("    ] },\n");
    }
    code.push_str("];\n");
    code
}

/// `model_one_op_<g>.rs`: group `g`'s models, each in a module of its
/// name holding its `model!` (`Net`, its types in `net`), its recorded
/// cases, and `run`, which feeds every case to `Net::predict` and checks
/// every output (`shapecheck_embedded::one_op::model_input`,
/// `model_output`); and `MODELS`, the group's `ModelRun`s in order.
fn model_group(g: usize, models: &[&OneOp]) -> String {
    let mut code = format!(
        "// Generated by embedded/build.rs (one_op.rs) from ../tflite/tests/ops: do not edit.\n\
         // Group {g} of {GROUPS}: {} models.\n",
        models.len()
    );
    for m in models {
        let name = &m.name;
        let xs: Vec<String> = (0..m.inputs).map(|k| format!("x{k}")).collect();
        let ys: Vec<String> = (0..m.outputs).map(|k| format!("y{k}")).collect();
        writeln!(code, "/// `{name}.tflite` through `model!`.").unwrap();
        writeln!(code, "pub mod {name} {{").unwrap();
        writeln!(
            code,
            "    use shapecheck_embedded::one_op::{{model_input, model_output, OneOpCase}};"
        )
        .unwrap();
        writeln!(code, "    use shapecheck_embedded::Checks;").unwrap();
        writeln!(code, "    use shapecheck_tflite::TensorData;").unwrap();
        writeln!(code, "    shapecheck::model!(pub Net = {:?});", m.path).unwrap();
        writeln!(code, "    static CASES: &[OneOpCase] = &[").unwrap();
        for case in &m.cases {
            writeln!(code, "        {case},").unwrap();
        }
        writeln!(code, "    ];").unwrap();
        writeln!(
            code,
            "    /// Every recorded case through `Net::predict`, every output checked; the cases run."
        )
        .unwrap();
        writeln!(code, "    pub fn run(c: &mut Checks) -> usize {{").unwrap();
        writeln!(code, "        for (n, case) in CASES.iter().enumerate() {{").unwrap();
        for (k, x) in xs.iter().enumerate() {
            // `Input` for one input, `Input0`, `Input1`, ... for several
            let ty = if m.inputs == 1 {
                "Input".to_string()
            } else {
                format!("Input{k}")
            };
            writeln!(
                code,
                "            let Some({x}): Option<net::{ty}> = model_input(c, {name:?}, n, case, {k}) else {{ continue }};"
            )
            .unwrap();
        }
        let args: Vec<String> = xs.iter().map(|x| format!("&{x}")).collect();
        let bound = if ys.len() == 1 {
            "mut y0".to_string()
        } else {
            let muts: Vec<String> = ys.iter().map(|y| format!("mut {y}")).collect();
            format!("({})", muts.join(", "))
        };
        writeln!(
            code,
            "            let {bound} = Net::predict({});",
            args.join(", ")
        )
        .unwrap();
        for (k, y) in ys.iter().enumerate() {
            writeln!(
                code,
                "            model_output(c, {name:?}, n, case, {k}, {y}.as_mut_slice());"
            )
            .unwrap();
        }
        writeln!(code, "        }}\n        CASES.len()\n    }}\n}}").unwrap();
    }
    writeln!(
        code,
        "/// Group {g}'s models, in the order of interpreter_ops.rs's `ops!`."
    )
    .unwrap();
    code.push_str("pub static MODELS: &[shapecheck_embedded::one_op::ModelRun] = &[\n");
    for m in models {
        writeln!(
            code,
            "    shapecheck_embedded::one_op::ModelRun {{ name: {:?}, run: {}::run }},",
            m.name, m.name
        )
        .unwrap();
    }
    code.push_str("];\n");
    code
}
