//! The static mode: every case becomes a function over the static API in a
//! generated crate, built with cargo; compile errors are attributed to cases
//! by the line range of their function, run-time results come back as one
//! JSON line per case.
//!
//! Per family:
//! - `run/cf_run_<family>_<hash>/`: the cases whose shapes the library
//!   accepts (by its dynamic validator), in one crate whose `main` runs them
//!   all on data read from the set's `<family>/run-data.json` (not embedded:
//!   dims may be in the thousands), named after a hash of what it is built
//!   from so that runs generating the same program share it;
//! - `reject/`: the cases whose shapes (or element types) break a rule the
//!   type checker enforces, one function each, in one crate that must fail
//!   to build with errors inside every case's function and nowhere else,
//!   each error carrying the identifier of the rule the library's run-time
//!   validator names for the case; a case that builds is run, and a
//!   rejection at run time is then a failure ("should have been a compile
//!   error");
//! - `mono/`: cases rejected by a const assertion at monomorphisation (only
//!   reported once the crate otherwise type-checks), one package each in a
//!   workspace built with `cargo build --keep-going`.
//!
//! All crates share one `CARGO_TARGET_DIR`, so the library is built once.
//! Each folder of vectors gets `reject/` and `mono/` crates of its own
//! (`<work>/<set>/<family>/`, packages named `cf_<set>_...`, the set named
//! after the folder), so running the tool again on a folder whose cases did
//! not change rebuilds nothing that built: runs on other folders in between
//! do not rewrite its crates. (A crate that fails to build, as every
//! `reject/` crate does, is compiled again each time: cargo keeps no failed
//! build.)

use crate::families::{Family, StaticCase};
use crate::judge::{Grad, Outcome, Reported, Stage, Validation, When};
use crate::vectors::{parse_data, Case, TensorVal};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where the generated crates live and how they are built.
pub struct Builder {
    /// The workspace root (the `shapecheck` crate).
    pub root: PathBuf,
    /// Where the generated crates are written.
    pub work: PathBuf,
    /// The shared target dir of the generated crates.
    pub target: PathBuf,
    /// The name of the folder of vectors being run, which keeps its crates
    /// apart from other folders' ([`Builder::for_vectors`]).
    set: String,
    cargo: OsString,
    release: bool,
    /// Of the accepted cases with fused-expression checks, every how many
    /// runs them (the rest are type-checked only): `CONFORMANCE_EXPR_EVERY`,
    /// 1 (all) by default.
    expr_every: usize,
}

impl Builder {
    /// Finds the workspace root (`SHAPECHECK_ROOT`, or the parent of this
    /// crate's manifest dir at compile time) and the work dir
    /// (`CONFORMANCE_WORK_DIR`, or `<root>/target/conformance-static`).
    pub fn from_env() -> Builder {
        let root = std::env::var_os("SHAPECHECK_ROOT")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| PathBuf::from(".."))
            });
        let root = root.canonicalize().unwrap_or(root);
        let work = std::env::var_os("CONFORMANCE_WORK_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target").join("conformance-static"));
        let target = work.join("target");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let release = std::env::var("CONFORMANCE_STATIC_RELEASE").is_ok_and(|v| v == "1");
        let expr_every = std::env::var("CONFORMANCE_EXPR_EVERY")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or(1);
        Builder {
            root,
            work,
            target,
            set: "vectors".into(),
            cargo,
            release,
            expr_every,
        }
    }

    /// Names the crates after the folder of vectors `dir`: its last
    /// component and a hash of its full path (two folders of one name
    /// elsewhere stay apart).
    pub fn for_vectors(mut self, dir: &Path) -> Builder {
        use std::hash::{Hash, Hasher};
        let full = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        // SipHash with fixed keys: the same path gives the same name in
        // every run of this binary
        let mut h = std::hash::DefaultHasher::new();
        full.hash(&mut h);
        let name = full
            .file_name()
            .map(|n| sanitize(&n.to_string_lossy()))
            .unwrap_or_default();
        self.set = format!("{name}_{:08x}", h.finish() as u32);
        self
    }
}

impl Builder {
    /// Takes the work dir's lock (waiting for another run to finish).
    pub fn lock(&self) -> Result<std::fs::File, String> {
        std::fs::create_dir_all(&self.work)
            .map_err(|e| format!("cannot create {}: {e}", self.work.display()))?;
        let path = self.work.join(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        if file.try_lock().is_err() {
            eprintln!(
                "conformance: waiting for another static run ({})",
                path.display()
            );
            file.lock()
                .map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
        }
        Ok(file)
    }
}

/// A compile error from rustc.
#[derive(Clone, Debug)]
pub struct Diag {
    pub message: String,
    pub rendered: String,
}

impl Diag {
    fn first_line(&self) -> String {
        self.message.lines().next().unwrap_or("").to_string()
    }

    /// The rule identifier the error starts with (`<op>/<rule>: ...`, after
    /// `evaluation panicked: ` for a const assertion), if any.
    fn rule(&self) -> Option<String> {
        rule_of(&self.first_line())
    }
}

/// The identifier `<op>/<rule>` a message starts with, followed by `": "`.
pub fn rule_of(line: &str) -> Option<String> {
    let line = line.trim_start();
    let line = line.strip_prefix("evaluation panicked: ").unwrap_or(line);
    let (head, _) = line.split_once(": ")?;
    let (op, rule) = head.split_once('/')?;
    let op_ok = !op.is_empty()
        && op
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    let rule_ok = !rule.is_empty()
        && rule
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    (op_ok && rule_ok).then(|| head.to_string())
}

/// What a cargo build said.
struct BuildReport {
    /// Errors by package (target name), each with the line of its span in
    /// `src/main.rs` if it has one.
    errors: Vec<(String, Option<usize>, Diag)>,
    /// Executables by target name.
    executables: BTreeMap<String, PathBuf>,
    success: bool,
    /// Something went wrong with cargo itself.
    failure: Option<String>,
}

fn write_if_changed(path: &Path, content: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(content) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, content).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

const SUPPORT: &str = r#"//! Reading inputs from the data file and writing results (generated by the conformance tool).
#![allow(dead_code)]
use serde_json::{json, Value};

pub trait Elem: Copy {
    fn from_json(v: &Value) -> Option<Self>;
    fn to_json(self) -> Value;
}

fn float_from(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.as_str() {
            "nan" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

fn float_to(f: f64) -> Value {
    if f.is_nan() {
        json!("nan")
    } else if f.is_infinite() {
        json!(if f > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(f)
    }
}

impl Elem for f32 {
    fn from_json(v: &Value) -> Option<Self> { float_from(v).map(|f| f as f32) }
    fn to_json(self) -> Value { float_to(self as f64) }
}
impl Elem for f64 {
    fn from_json(v: &Value) -> Option<Self> { float_from(v) }
    fn to_json(self) -> Value { float_to(self) }
}
impl Elem for i32 {
    fn from_json(v: &Value) -> Option<Self> { v.as_i64().and_then(|i| i32::try_from(i).ok()) }
    fn to_json(self) -> Value { json!(self) }
}
impl Elem for i64 {
    fn from_json(v: &Value) -> Option<Self> { v.as_i64() }
    fn to_json(self) -> Value { json!(self) }
}
impl Elem for bool {
    fn from_json(v: &Value) -> Option<Self> { v.as_bool() }
    fn to_json(self) -> Value { json!(self) }
}

/// The list `key` of the case's data.
pub fn load<T: Elem>(d: &Value, key: &str) -> Result<Vec<T>, String> {
    let list = d.get(key).and_then(Value::as_array).ok_or_else(|| format!("data file: no list {key:?}"))?;
    list.iter().map(|v| T::from_json(v).ok_or_else(|| format!("data file: bad value {v} in {key:?}"))).collect()
}

/// The result of a case.
pub fn emit<T: Elem>(dims: &[usize], data: &[T]) -> Value {
    json!({"shape": dims, "data": data.iter().map(|v| v.to_json()).collect::<Vec<_>>()})
}

/// The result of a gradient case: each gradient (`emit`, or a list of
/// `emit`s) under its input's name, as the vectors key `grads`.
pub fn emit_grads(grads: Vec<(&str, Value)>) -> Value {
    let map: serde_json::Map<String, Value> = grads.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    json!({"grads": map})
}

/// A bounded tensor at its full capacity, every element a value the cases
/// rarely produce (-7, or `true`): the kept output of the bounded `_into`
/// forms, to see what they wrote.
pub fn kept_room<T: Elem + Copy + Default, S: shapecheck::storage::BoundedShape>() -> shapecheck::Tensor<T, S, shapecheck::Room<T, S>> {
    let v = T::from_json(&json!(-7)).or_else(|| T::from_json(&json!(true))).unwrap_or_default();
    let room = shapecheck::Room::<T, S>::filled_with(v);
    let shape = S::from_dims(<S::Room as shapecheck::FixedShape>::DIMS).expect("a room's dims fit its shape");
    shapecheck::Tensor::from_shape_slice(shape, shapecheck::Storage::as_slice(&room)).expect("a full room")
}

/// `t` is as [`kept_room`] made it: its dims the room's, every element the same.
pub fn untouched<T: Elem + Copy + Default + PartialEq, S: shapecheck::storage::BoundedShape>(t: &shapecheck::Tensor<T, S, shapecheck::Room<T, S>>) -> bool {
    let fresh = kept_room::<T, S>();
    t.dims() == fresh.dims() && t.as_slice() == fresh.as_slice()
}

/// Why a case returned no result: the rule identifier of the library's
/// error (`rule()`), or "input" for a generator bug.
pub struct Failure {
    pub rule: String,
    pub message: String,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure { rule: "input".into(), message }
    }
}

/// An input that does not fit its static shape (a generator bug).
pub fn input_error(e: impl std::fmt::Display) -> Failure {
    Failure { rule: "input".into(), message: format!("input: {e}") }
}

/// A run-time error of the op, with its rule.
pub fn value_error(rule: &str, e: &impl std::fmt::Display) -> Failure {
    Failure { rule: rule.to_string(), message: e.to_string() }
}

/// A fused expression's values against the plain op's, bit for bit (the
/// `Debug` form tells -0.0 from 0.0): a difference is the case's failure,
/// under the rule `expr/differs`.
pub fn same_values<T: std::fmt::Debug>(what: &str, expr: &[T], plain: &[T]) -> Result<(), Failure> {
    let (e, p) = (format!("{expr:?}"), format!("{plain:?}"));
    if e == p {
        Ok(())
    } else {
        Err(Failure { rule: "expr/differs".into(), message: format!("{what}: the expression gave {e}, the plain ops {p}") })
    }
}
"#;

const MAIN_HEAD: &str = r#"//! Generated by the conformance tool: one function per case.
#![allow(warnings)]
mod support;
use serde_json::{json, Value};
use shapecheck::prelude::*;
// the names the prelude leaves out (try_ and _into forms, bounded and backward forms)
use shapecheck::*;
use std::io::Write as _;
use support::*;

"#;

const MAIN_TAIL: &str = r#"
fn main() {
    let mut args = std::env::args().skip(1);
    let data: Value = match args.next() {
        Some(path) => {
            let text = std::fs::read_to_string(&path).expect("cannot read the data file");
            serde_json::from_str(&text).expect("the data file is not JSON")
        }
        None => Value::Null,
    };
    let only: Option<Vec<usize>> = args
        .next()
        .map(|s| s.split(',').filter(|p| !p.is_empty()).map(|p| p.parse().expect("case id")).collect());
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::io::stdout();
    for &(id, f) in CASES {
        if only.as_ref().is_some_and(|o| !o.contains(&id)) {
            continue;
        }
        let d = &data[id.to_string()];
        let line = match std::panic::catch_unwind(|| f(d)) {
            Ok(Ok(v)) => json!({"case": id, "out": v}),
            Ok(Err(e)) => json!({"case": id, "error": e.message, "rule": e.rule}),
            Err(p) => {
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                json!({"case": id, "panic": msg})
            }
        };
        let mut lock = out.lock();
        let _ = writeln!(lock, "{line}");
        let _ = lock.flush();
    }
}
"#;

impl Builder {
    fn manifest(&self, package: &str, with_workspace: bool) -> String {
        let root = self.root.display().to_string().replace('\\', "/");
        let mut s = format!(
            "[package]\nname = \"{package}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nshapecheck = {{ path = \"{root}\" }}\nserde_json = \"1\"\n"
        );
        if with_workspace {
            s += &self.profiles();
            s += "\n[workspace]\n";
        }
        s
    }

    fn profiles(&self) -> String {
        "\n[profile.dev]\ndebug = 0\n\n[profile.release]\ndebug = 0\nincremental = true\ncodegen-units = 16\nopt-level = 1\n"
            .to_string()
    }

    fn copy_lock(&self, dir: &Path) {
        let lock = dir.join("Cargo.lock");
        if !lock.exists() {
            let _ = std::fs::copy(self.root.join("Cargo.lock"), lock);
        }
    }

    /// Writes a crate with one function per case; returns the line range
    /// (1-based, inclusive) of each case's function in `src/main.rs`.
    fn write_crate(
        &self,
        dir: &Path,
        package: &str,
        cases: &[(usize, &StaticCase)],
        standalone: bool,
    ) -> Result<CaseLines, String> {
        let (src, ranges) = main_source(cases, self.expr_every);
        self.write_files(dir, package, &src, standalone)?;
        Ok(ranges)
    }

    fn write_files(
        &self,
        dir: &Path,
        package: &str,
        src: &str,
        standalone: bool,
    ) -> Result<(), String> {
        write_if_changed(&dir.join("Cargo.toml"), &self.manifest(package, standalone))?;
        write_if_changed(&dir.join("src").join("support.rs"), SUPPORT)?;
        write_if_changed(&dir.join("src").join("main.rs"), src)?;
        if standalone {
            self.copy_lock(dir);
        }
        Ok(())
    }

    /// Writes the crate of the cases that must build, under a name made of
    /// a hash of everything it is built from (its source, its manifest with
    /// the library's path and the profiles): two runs that generate the same
    /// program (the recorded vectors and a mutated copy of them, whose
    /// differences are all in the data file; a second `cargo test` with
    /// other features) share one package, which cargo then finds fresh
    /// instead of compiling it again. Returns the package name, its folder
    /// and the line range of each case.
    fn write_run_crate(
        &self,
        family: &str,
        cases: &[(usize, &StaticCase)],
    ) -> Result<(String, PathBuf, CaseLines), String> {
        use std::hash::{Hash, Hasher};
        let (src, ranges) = main_source(cases, self.expr_every);
        // SipHash with fixed keys: the same content gives the same name in
        // every run of this binary
        let mut h = std::hash::DefaultHasher::new();
        (&src, SUPPORT, self.manifest("", true), self.release).hash(&mut h);
        let pkg = format!("cf_run_{}_{:016x}", sanitize(family), h.finish());
        let dir = self.work.join("run").join(&pkg);
        self.write_files(&dir, &pkg, &src, true)?;
        Ok((pkg, dir, ranges))
    }

    /// `cargo build` of the manifest in `dir`.
    fn build(&self, dir: &Path, what: &str) -> BuildReport {
        eprintln!("conformance: building {what} ({})", dir.display());
        let mut cmd = Command::new(&self.cargo);
        cmd.arg("build")
            .arg("--manifest-path")
            .arg(dir.join("Cargo.toml"))
            .arg("--message-format=json")
            .arg("--keep-going")
            .arg("--workspace");
        if self.release {
            cmd.arg("--release");
        }
        cmd.env("CARGO_TARGET_DIR", &self.target)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let output = match cmd.output() {
            Ok(o) => o,
            Err(e) => {
                return BuildReport {
                    errors: vec![],
                    executables: BTreeMap::new(),
                    success: false,
                    failure: Some(format!("cannot run cargo: {e}")),
                }
            }
        };
        let mut report = BuildReport {
            errors: vec![],
            executables: BTreeMap::new(),
            success: output.status.success(),
            failure: None,
        };
        let mut saw_finished = false;
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let target = v
                .pointer("/target/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .replace('-', "_");
            match v.get("reason").and_then(Value::as_str) {
                Some("compiler-message") => {
                    let m = &v["message"];
                    if m.get("level").and_then(Value::as_str) != Some("error") {
                        continue;
                    }
                    let message = m["message"].as_str().unwrap_or("").to_string();
                    if message.starts_with("aborting due to") {
                        continue;
                    }
                    let rendered = m["rendered"].as_str().unwrap_or("").to_string();
                    report
                        .errors
                        .push((target, main_line(m), Diag { message, rendered }));
                }
                Some("compiler-artifact") => {
                    if let Some(exe) = v.get("executable").and_then(Value::as_str) {
                        report.executables.insert(target, PathBuf::from(exe));
                    }
                }
                Some("build-finished") => saw_finished = true,
                _ => {}
            }
        }
        if !saw_finished && !report.success {
            report.failure = Some(format!(
                "cargo build failed without a result ({})",
                output.status
            ));
        }
        report
    }

    /// Runs the executable on `data` for the cases `ids`; returns each case's
    /// result line (a crash leaves the rest unreported: they are run again
    /// without the case that crashed).
    fn execute(
        &self,
        exe: &Path,
        data_path: &Path,
        ids: &[usize],
    ) -> BTreeMap<usize, Result<Value, String>> {
        let mut results = BTreeMap::new();
        let mut pending: Vec<usize> = ids.to_vec();
        while !pending.is_empty() {
            let list: Vec<String> = pending.iter().map(|i| i.to_string()).collect();
            let output = Command::new(exe)
                .arg(data_path)
                .arg(list.join(","))
                .stdin(Stdio::null())
                .output();
            let output = match output {
                Ok(o) => o,
                Err(e) => {
                    for id in pending.drain(..) {
                        results.insert(id, Err(format!("cannot run {}: {e}", exe.display())));
                    }
                    break;
                }
            };
            for line in String::from_utf8_lossy(&output.stdout).lines() {
                if let Ok(v) = serde_json::from_str::<Value>(line) {
                    if let Some(id) = v.get("case").and_then(Value::as_u64) {
                        results.insert(id as usize, Ok(v));
                    }
                }
            }
            pending.retain(|id| !results.contains_key(id));
            if let Some(&first) = pending.first() {
                let stderr = String::from_utf8_lossy(&output.stderr);
                let tail: String = stderr.lines().rev().take(3).collect::<Vec<_>>().join(" | ");
                results.insert(
                    first,
                    Err(format!(
                        "the static program died on this case ({}): {tail}",
                        output.status
                    )),
                );
                pending.remove(0);
            }
        }
        results
    }
}

/// The line in the generated `src/main.rs` of one span: the span itself, or,
/// for a span inside a macro's expansion (`multiplex!` reports from the
/// library's source), the macro's call site there.
fn span_main_line(s: &Value) -> Option<usize> {
    let in_main = s
        .get("file_name")
        .and_then(Value::as_str)
        .is_some_and(|f| f.ends_with("src/main.rs"));
    if in_main {
        return s["line_start"].as_u64().map(|l| l as usize);
    }
    s.get("expansion")
        .and_then(|e| e.get("span"))
        .and_then(span_main_line)
}

/// The line of a diagnostic in the generated `src/main.rs`: its primary
/// span there, or else any span of its notes there.
fn main_line(m: &Value) -> Option<usize> {
    let spans = m.get("spans").and_then(Value::as_array);
    if let Some(spans) = spans {
        let primary = spans
            .iter()
            .filter(|s| s["is_primary"].as_bool() == Some(true))
            .find_map(span_main_line);
        if let Some(l) = primary.or_else(|| spans.iter().find_map(span_main_line)) {
            return Some(l);
        }
    }
    for child in m
        .get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(l) = main_line(child) {
            return Some(l);
        }
    }
    None
}

/// The outcome of a case that failed to compile with `diags` (in order):
/// a rejection at compile time, with the rule identifier of every error.
fn compile_outcome(diags: &[&Diag]) -> Outcome {
    let Some(first) = diags.first() else {
        return Outcome::Broken("no compile error".into());
    };
    if diags.iter().any(|d| d.rendered.contains("UInt<")) {
        return Outcome::Broken(format!(
            "the compile error mentions typenum's UInt: {}",
            first.first_line()
        ));
    }
    Outcome::Rejected(
        Stage::Compile,
        diags
            .iter()
            .map(|d| Reported {
                rule: d.rule(),
                message: d.first_line(),
            })
            .collect(),
    )
}

/// One emitted tensor of a result line.
fn parse_tensor(out: &Value, dtype: &str) -> Result<TensorVal, String> {
    let shape = match out.get("shape").map(crate::vectors::parse_shape) {
        Some(Ok(s)) => s,
        _ => return Err(format!("bad result tensor {out}")),
    };
    let data = parse_data(dtype, &out["data"]).map_err(|e| format!("bad result data: {e}"))?;
    Ok(TensorVal { shape, data })
}

/// The gradients of a result line (`emit_grads`), keyed by input.
fn parse_grads(grads: &Map<String, Value>, dtype: &str) -> Outcome {
    let mut out = vec![];
    for (key, g) in grads {
        let grad = match g.as_array() {
            Some(list) => list
                .iter()
                .map(|t| parse_tensor(t, dtype))
                .collect::<Result<Vec<_>, _>>()
                .map(Grad::List),
            None => parse_tensor(g, dtype).map(Grad::One),
        };
        match grad {
            Ok(grad) => out.push((key.clone(), grad)),
            Err(e) => return Outcome::Broken(format!("gradient of {key}: {e}")),
        }
    }
    Outcome::Gradients(out)
}

fn parse_result(v: &Value, dtype: &str) -> Outcome {
    if let Some(grads) = v.pointer("/out/grads").and_then(Value::as_object) {
        return parse_grads(grads, dtype);
    }
    if let Some(out) = v.get("out") {
        // a list of tensors for ops with several outputs (dynamic_partition)
        let parsed = match out.as_array() {
            Some(list) => list
                .iter()
                .map(|t| parse_tensor(t, dtype))
                .collect::<Result<Vec<_>, _>>()
                .map(Outcome::AcceptedList),
            None => parse_tensor(out, dtype).map(Outcome::Accepted),
        };
        match parsed {
            // a LoD tensor's result (lod_reset): its levels as offsets
            Ok(Outcome::Accepted(t)) => {
                match out.get("lod").map(|l| serde_json::from_value(l.clone())) {
                    Some(Ok(lod)) => Outcome::AcceptedWithLod(t, lod),
                    Some(Err(e)) => Outcome::Broken(format!("bad result LoD: {e}")),
                    None => Outcome::Accepted(t),
                }
            }
            Ok(other) => other,
            Err(e) => Outcome::Broken(e),
        }
    } else if let Some(e) = v.get("error") {
        let message = e.as_str().unwrap_or("").to_string();
        match v.get("rule").and_then(Value::as_str) {
            Some("input") | None => {
                Outcome::Broken(format!("the static program's inputs: {message}"))
            }
            Some(rule) => Outcome::run_error(rule, message),
        }
    } else if let Some(p) = v.get("panic") {
        Outcome::Broken(format!(
            "the static program panicked: {}",
            p.as_str().unwrap_or("")
        ))
    } else {
        Outcome::Broken(format!("bad result line {v}"))
    }
}

/// Runs every case of one family through the static API; one outcome per
/// case. `validations` is the library's verdict on each case (static mode):
/// it decides which crate a case goes to.
pub fn run_family(
    b: &Builder,
    family: &str,
    fam: &dyn Family,
    cases: &[&Case],
    validations: &[Result<Validation, String>],
) -> Vec<Outcome> {
    let mut outcomes: Vec<Option<Outcome>> = vec![None; cases.len()];
    let mut planned: BTreeMap<usize, StaticCase> = BTreeMap::new();
    let mut when: BTreeMap<usize, When> = BTreeMap::new();
    for (id, (case, v)) in cases.iter().zip(validations).enumerate() {
        let v = match v {
            Ok(v) => v,
            Err(e) => {
                outcomes[id] = Some(Outcome::Broken(format!(
                    "no verdict of the library's validator: {e}"
                )));
                continue;
            }
        };
        if v.when == When::Construction {
            // no program can say it: rejected without one
            outcomes[id] = Some(Outcome::Rejected(
                Stage::Construction,
                vec![Reported {
                    rule: v.rule.map(str::to_string),
                    message: "the static API cannot express these inputs".into(),
                }],
            ));
            continue;
        }
        match fam.static_case(case) {
            Ok(sc) => {
                planned.insert(id, sc);
                when.insert(id, if v.rule.is_some() { v.when } else { When::Run });
            }
            Err(e) => {
                outcomes[id] = Some(Outcome::Broken(format!(
                    "cannot write the static program: {e}"
                )))
            }
        }
    }
    let fam_dir = b.work.join(&b.set).join(sanitize(family));
    let mut run_ids: BTreeSet<usize> = BTreeSet::new();
    let mut reject_ids: Vec<usize> = vec![];
    let mut mono_ids: Vec<usize> = vec![];
    for (&id, w) in &when {
        match w {
            When::Run => {
                run_ids.insert(id);
            }
            When::Types | When::Compile => reject_ids.push(id),
            When::Mono => mono_ids.push(id),
            When::Construction => {}
        }
    }

    // shape errors: one crate, one function per case
    if !reject_ids.is_empty() {
        let dir = fam_dir.join("reject");
        let pkg = format!("cf_{}_{}_reject", b.set, sanitize(family));
        let list: Vec<(usize, &StaticCase)> =
            reject_ids.iter().map(|id| (*id, &planned[id])).collect();
        match b.write_crate(&dir, &pkg, &list, true) {
            Err(e) => {
                for id in &reject_ids {
                    outcomes[*id] = Some(Outcome::Broken(e.clone()));
                }
            }
            Ok(ranges) => {
                let report = b.build(
                    &dir,
                    &format!("{family}: {} cases with invalid shapes", list.len()),
                );
                let (per_case, outside) = attribute(&report, &ranges);
                for id in &reject_ids {
                    let diags = per_case.get(id).cloned().unwrap_or_default();
                    if !diags.is_empty() {
                        outcomes[*id] = Some(compile_outcome(&diags));
                    } else if let Some(why) = outside.as_ref() {
                        outcomes[*id] = Some(Outcome::Broken(why.clone()));
                    } else {
                        // it compiled: the static API accepts what the
                        // dynamic validator rejects; run it (a rejection
                        // at run time is still a failure: it should have
                        // been a compile error)
                        run_ids.insert(*id);
                    }
                }
            }
        }
    }

    // const assertions at monomorphisation: one package per case
    if !mono_ids.is_empty() {
        let dir = fam_dir.join("mono");
        let mut members = vec![];
        let mut failed_write = None;
        for id in &mono_ids {
            let pkg = format!("cf_{}_{}_mono_{id}", b.set, sanitize(family));
            if let Err(e) = b.write_crate(&dir.join(&pkg), &pkg, &[(*id, &planned[id])], false) {
                failed_write = Some(e);
            }
            members.push(pkg);
        }
        let ws = format!(
            "[workspace]\nresolver = \"2\"\nmembers = [{}]\n{}",
            members
                .iter()
                .map(|m| format!("\"{m}\""))
                .collect::<Vec<_>>()
                .join(", "),
            b.profiles()
        );
        if let Err(e) = write_if_changed(&dir.join("Cargo.toml"), &ws) {
            failed_write = Some(e);
        }
        b.copy_lock(&dir);
        if let Some(e) = failed_write {
            for id in &mono_ids {
                outcomes[*id] = Some(Outcome::Broken(e.clone()));
            }
        } else {
            let report = b.build(
                &dir,
                &format!(
                    "{family}: {} cases rejected at monomorphisation",
                    mono_ids.len()
                ),
            );
            for (id, pkg) in mono_ids.iter().zip(&members) {
                let diags: Vec<&Diag> = report
                    .errors
                    .iter()
                    .filter(|(t, _, _)| t == pkg)
                    .map(|(_, _, d)| d)
                    .collect();
                if !diags.is_empty() {
                    outcomes[*id] = Some(compile_outcome(&diags));
                } else if report.executables.contains_key(pkg) {
                    run_ids.insert(*id);
                } else {
                    outcomes[*id] =
                        Some(Outcome::Broken(report.failure.clone().unwrap_or_else(
                            || "the case's package was not built".into(),
                        )));
                }
            }
        }
    }

    // valid shapes: one crate that runs them all (its data file is this
    // set's, the crate may be shared: see `write_run_crate`)
    let data_path = fam_dir.join("run-data.json");
    while !run_ids.is_empty() {
        let list: Vec<(usize, &StaticCase)> =
            run_ids.iter().map(|id| (*id, &planned[id])).collect();
        let (pkg, dir, ranges) = match b.write_run_crate(family, &list) {
            Ok(r) => r,
            Err(e) => {
                for id in std::mem::take(&mut run_ids) {
                    outcomes[id] = Some(Outcome::Broken(e.clone()));
                }
                break;
            }
        };
        let report = b.build(
            &dir,
            &format!("{family}: {} cases with valid shapes", list.len()),
        );
        if let (true, Some(exe)) = (report.success, report.executables.get(&pkg)) {
            let data: Map<String, Value> = list
                .iter()
                .map(|(id, sc)| (id.to_string(), sc.data.clone()))
                .collect();
            if let Err(e) = write_if_changed(&data_path, &Value::Object(data).to_string()) {
                for id in std::mem::take(&mut run_ids) {
                    outcomes[id] = Some(Outcome::Broken(e.clone()));
                }
                break;
            }
            eprintln!("conformance: running {family}: {} cases", list.len());
            let ids: Vec<usize> = run_ids.iter().copied().collect();
            let results = b.execute(exe, &data_path, &ids);
            for id in std::mem::take(&mut run_ids) {
                outcomes[id] = Some(match results.get(&id) {
                    Some(Ok(v)) => parse_result(v, planned[&id].out_dtype),
                    Some(Err(e)) => Outcome::Broken(e.clone()),
                    None => Outcome::Broken("no result".into()),
                });
            }
            break;
        }
        let (per_case, outside) = attribute(&report, &ranges);
        if per_case.is_empty() {
            let why = outside.unwrap_or_else(|| {
                report
                    .failure
                    .clone()
                    .unwrap_or_else(|| "the crate did not build".into())
            });
            for id in std::mem::take(&mut run_ids) {
                outcomes[id] = Some(Outcome::Broken(why.clone()));
            }
            break;
        }
        // cases that do not compile are judged on their error and left out
        for (id, diags) in per_case {
            outcomes[id] = Some(compile_outcome(&diags));
            run_ids.remove(&id);
        }
    }

    outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|| Outcome::Broken("not run".into())))
        .collect()
}

type Attributed<'a> = (BTreeMap<usize, Vec<&'a Diag>>, Option<String>);

/// Errors by case (by the line range of its function), and a description of
/// the errors outside every case function, if any.
fn attribute<'a>(report: &'a BuildReport, ranges: &CaseLines) -> Attributed<'a> {
    let mut per_case: BTreeMap<usize, Vec<&Diag>> = BTreeMap::new();
    let mut outside: Vec<&Diag> = vec![];
    for (_, line, d) in &report.errors {
        let owner = line.and_then(|l| {
            ranges
                .iter()
                .find(|(_, (s, e))| (*s..=*e).contains(&l))
                .map(|(id, _)| *id)
        });
        match owner {
            Some(id) => per_case.entry(id).or_default().push(d),
            None => outside.push(d),
        }
    }
    let outside = if let Some(f) = &report.failure {
        Some(f.clone())
    } else if outside.is_empty() {
        None
    } else {
        Some(format!(
            "compile error outside every case function: {}",
            outside
                .iter()
                .map(|d| d.first_line())
                .collect::<Vec<_>>()
                .join("; ")
        ))
    };
    (per_case, outside)
}

/// Each case's line range (1-based, inclusive) in a generated `src/main.rs`,
/// by case id: how a compile error is attributed to its case.
type CaseLines = BTreeMap<usize, (usize, usize)>;

/// The `src/main.rs` of a crate with one function per case, and the line
/// range (1-based, inclusive) of each case's functions in it. A case with
/// fused-expression checks ([`StaticCase::expr`]) gets them as a second
/// function, `case_N_expr`, which every `expr_every`-th of those cases
/// calls first; the others' is never called, so rustc type-checks it (an
/// expression the type-level rule rejects is still a compile error of the
/// case) but generates no code for it, which is most of such a crate's
/// build time.
fn main_source(cases: &[(usize, &StaticCase)], expr_every: usize) -> (String, CaseLines) {
    let mut src = String::from(MAIN_HEAD);
    let mut ranges = BTreeMap::new();
    let mut table =
        String::from("const CASES: &[(usize, fn(&Value) -> Result<Value, Failure>)] = &[\n");
    let mut with_expr = 0;
    for (id, sc) in cases {
        let start = src.lines().count() + 1;
        src += &format!("fn case_{id}(d: &Value) -> Result<Value, Failure> {{\n");
        if !sc.expr.is_empty() {
            if with_expr % expr_every.max(1) == 0 {
                src += &format!("    case_{id}_expr(d)?;\n");
            }
            with_expr += 1;
        }
        src += &sc.body;
        src += "}\n";
        if !sc.expr.is_empty() {
            src += &format!("fn case_{id}_expr(d: &Value) -> Result<(), Failure> {{\n");
            src += &sc.expr;
            src += "}\n";
        }
        let end = src.lines().count();
        ranges.insert(*id, (start, end));
        src += "\n";
        table += &format!("    ({id}, case_{id}),\n");
    }
    table += "];\n";
    src += &table;
    src += MAIN_TAIL;
    (src, ranges)
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::rule_of;

    #[test]
    fn rule_ids_are_read_from_the_start_of_a_message() {
        let id = |s: &str| rule_of(s);
        assert_eq!(
            id("elementwise/equal-rank-axis: Axis<2> is invalid").as_deref(),
            Some("elementwise/equal-rank-axis")
        );
        assert_eq!(
            id("evaluation panicked: multiplex/index-rows: index [3, 1]").as_deref(),
            Some("multiplex/index-rows")
        );
        assert_eq!(
            id("dynamic_stitch/prefix: data").as_deref(),
            Some("dynamic_stitch/prefix")
        );
        // no id, an id not at the start, not followed by ": "
        assert_eq!(id("multiplex: index rows must not exceed"), None);
        assert_eq!(id("mismatched types: select/branch-types: x"), None);
        assert_eq!(id("elementwise/broadcast"), None);
        assert_eq!(id("the trait bound `A/B: C` is not satisfied"), None);
    }
}
