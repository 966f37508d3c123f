//! The pass rule. A case passes when the project did what the framework
//! did, and in the way the library itself says it should:
//! - the framework accepted: the same output (shape, dtype, values bit for
//!   bit; tanh and sigmoid within 1e-6 relative), and the library's own
//!   validator accepts the shapes too;
//! - the framework rejected (or crashed): a rejection by the rule the
//!   library's validator names for the case, at the stage it belongs to
//!   (a type or compile error for a compile-time rule of static shapes,
//!   otherwise a run-time error), every error of the case carrying that
//!   rule's identifier. Where the validator accepts the shapes and only a
//!   value is wrong (an integer division by zero, an index out of range), a
//!   run-time error of one of the family's value rules.
//!
//! A case that records neither or both of `out` and `error` is a failure of
//! the vector file.

use crate::vectors::{Case, Data, Expect, TensorVal};
use serde_json::Value;
use std::fmt;

/// Where a rejection happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The inputs' element types cannot be given to the op at all (the
    /// dynamic API takes one element type where the op needs one).
    Types,
    /// A compile error of the static program.
    Compile,
    /// An error returned when the op ran.
    Run,
    /// The API cannot express the inputs at all (dynamic_stitch with more
    /// data tensors than index tensors: the API takes pairs), in either
    /// mode: no call, no program.
    Construction,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Types => "by the types",
            Stage::Compile => "at compile time",
            Stage::Run => "at run time",
            Stage::Construction => "by construction",
        })
    }
}

/// One error the project reported for a case: the rule identifier it
/// carries (`None` if it carries none) and its first line.
#[derive(Clone, Debug)]
pub struct Reported {
    pub rule: Option<String>,
    pub message: String,
}

impl Reported {
    /// An error of the library's run-time API, with its `rule()`.
    pub fn new(rule: &str, message: impl fmt::Display) -> Reported {
        Reported {
            rule: Some(rule.to_string()),
            message: message.to_string(),
        }
    }
}

/// One gradient the project produced (gradient families, `<op>_grad`): a
/// tensor, or a list of tensors (one per candidate or data tensor).
#[derive(Clone, Debug)]
pub enum Grad {
    One(TensorVal),
    List(Vec<TensorVal>),
}

/// What the project did with a case.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// It produced this output.
    Accepted(TensorVal),
    /// It produced this output with these LoD levels (offsets), compared
    /// with the recorded `out.lod_offsets` (lod_reset).
    AcceptedWithLod(TensorVal, Vec<Vec<usize>>),
    /// It produced these outputs (an op with a list of outputs, such as
    /// dynamic_partition; the recorded `out` is a list).
    AcceptedList(Vec<TensorVal>),
    /// It produced these gradients, keyed like the case's recorded `grads`
    /// (a gradient family: the op's backward on the case's `dout`).
    Gradients(Vec<(String, Grad)>),
    /// It rejected the input at `stage` with these errors (at least one).
    Rejected(Stage, Vec<Reported>),
    /// The case could not be run (an unimplemented family, a generator or
    /// build problem, a panic): always a failure.
    Broken(String),
}

impl Outcome {
    /// A rejection by the library's run-time API.
    pub fn run_error(rule: &str, message: impl fmt::Display) -> Outcome {
        Outcome::Rejected(Stage::Run, vec![Reported::new(rule, message)])
    }
}

/// When the library's validator rejects a case, the stage at which a
/// static program over the same shapes is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// The element types: a compile error of the static program, "rejected
    /// by the types" on the dynamic path.
    Types,
    /// A trait bound: a compile error.
    Compile,
    /// A const assertion evaluated at monomorphisation: a compile error
    /// that `cargo build` reports only once the rest type-checks.
    Mono,
    /// Data (index values, LoD offsets): a run-time error in both modes.
    Run,
    /// Inputs the API cannot express: a rejection by construction in both
    /// modes ([`Stage::Construction`]).
    Construction,
}

/// The library's own verdict on a case: its run-time validator (the rule
/// function its dynamic path calls), not a rule written again here.
#[derive(Clone, Debug)]
pub struct Validation {
    /// The rule the validator names, `None` if it accepts.
    pub rule: Option<&'static str>,
    /// Where that rule rejects a static program.
    pub when: When,
    /// The rules a value can still break at run time once the shapes are
    /// accepted (division by zero, an index out of range).
    pub value_rules: &'static [&'static str],
}

impl Validation {
    pub fn accepts(value_rules: &'static [&'static str]) -> Validation {
        Validation {
            rule: None,
            when: When::Run,
            value_rules,
        }
    }

    pub fn rejects(rule: &'static str, when: When) -> Validation {
        Validation {
            rule: Some(rule),
            when,
            value_rules: &[],
        }
    }

    /// The stage a rejection must come at, in static (`true`) or dynamic mode.
    pub fn stage(&self, static_mode: bool) -> Stage {
        match (self.when, static_mode) {
            (When::Construction, _) => Stage::Construction,
            (When::Types, false) => Stage::Types,
            (When::Types | When::Compile | When::Mono, true) => Stage::Compile,
            _ => Stage::Run,
        }
    }
}

/// How values are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tolerance {
    /// Bit for bit (NaN equals NaN).
    Exact,
    /// Within 1e-6 relative (tanh, sigmoid, float32 softmax).
    Relative,
    /// Bit for bit, except that -0.0 equals 0.0 (matmul: the sign of a sum
    /// of zero products depends on where the framework's BLAS starts its
    /// sum, and differs between Paddle's own kernels).
    ExactZeroSign,
    /// Within 1e-12 relative (float64 softmax and log_softmax).
    Relative64,
    /// Within `1e-6 · max(|recorded|, 1)` (float32 log_softmax, whose
    /// framework values are within 5e-7 absolute).
    ScaledAbs,
    /// A gradient: equal values, -0.0 equal to 0.0 (the frameworks' signed
    /// zeros are not part of the rule).
    GradExact,
    /// A gradient of elementwise_div or through tanh/sigmoid: within 1e-6
    /// relative, with a floor of 4 ulps of the dtype times the gradient's
    /// scale (its largest recorded magnitude), -0.0 equal to 0.0.
    GradRelative,
}

const REL: f64 = 1e-6;

fn close(a: f64, b: f64, tol: Tolerance) -> bool {
    if a.is_nan() && b.is_nan() {
        return true;
    }
    match tol {
        Tolerance::Exact => a.to_bits() == b.to_bits(),
        Tolerance::ExactZeroSign => a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0),
        Tolerance::Relative => a == b || (a - b).abs() <= REL * a.abs().max(b.abs()),
        Tolerance::Relative64 => a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs()),
        // `a` is the recorded value
        Tolerance::ScaledAbs => a == b || (a - b).abs() <= REL * a.abs().max(1.0),
        // gradients compare through `close_grad`, which knows the scale
        Tolerance::GradExact | Tolerance::GradRelative => a == b,
    }
}

/// Two gradient values: `want` recorded, `got` produced; `floor` is 4 ulps
/// of the dtype times the gradient's scale.
fn close_grad(want: f64, got: f64, relative: bool, floor: f64) -> bool {
    if want.is_nan() && got.is_nan() {
        return true;
    }
    // `==` says -0.0 == 0.0
    want == got || (relative && (want - got).abs() <= (REL * want.abs().max(got.abs())).max(floor))
}

/// The largest finite magnitude of a recorded gradient.
fn scale<T: Copy + Into<f64>>(v: &[T]) -> f64 {
    v.iter()
        .map(|&x| x.into().abs())
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max)
}

fn check_meta(want: &TensorVal, got: &TensorVal) -> Result<(), String> {
    if want.shape != got.shape {
        return Err(format!(
            "output shape {:?}, recorded {:?}",
            got.shape, want.shape
        ));
    }
    if want.dtype() != got.dtype() {
        return Err(format!(
            "output dtype {}, recorded {}",
            got.dtype(),
            want.dtype()
        ));
    }
    if want.data.len() != got.data.len() {
        return Err(format!(
            "{} output values, recorded {}",
            got.data.len(),
            want.data.len()
        ));
    }
    Ok(())
}

/// Compares a produced gradient with the recorded one ([`Tolerance::GradExact`]
/// or [`Tolerance::GradRelative`]).
pub fn compare_gradient(want: &TensorVal, got: &TensorVal, tol: Tolerance) -> Result<(), String> {
    check_meta(want, got)?;
    let relative = tol == Tolerance::GradRelative;
    let bad = match (&want.data, &got.data) {
        (Data::F32(w), Data::F32(g)) => {
            let floor = 4.0 * f64::from(f32::EPSILON) * scale(w);
            first_mismatch(w, g, |a, b| {
                close_grad(f64::from(a), f64::from(b), relative, floor)
            })
            .map(|i| format!("at flat index {i}: got {:?}, recorded {:?}", g[i], w[i]))
        }
        (Data::F64(w), Data::F64(g)) => {
            let floor = 4.0 * f64::EPSILON * scale(w);
            first_mismatch(w, g, |a, b| close_grad(a, b, relative, floor))
                .map(|i| format!("at flat index {i}: got {:?}, recorded {:?}", g[i], w[i]))
        }
        (Data::I32(w), Data::I32(g)) => first_mismatch(w, g, |a, b| a == b)
            .map(|i| format!("at flat index {i}: got {}, recorded {}", g[i], w[i])),
        (Data::I64(w), Data::I64(g)) => first_mismatch(w, g, |a, b| a == b)
            .map(|i| format!("at flat index {i}: got {}, recorded {}", g[i], w[i])),
        _ => Some("of another dtype".into()),
    };
    match bad {
        Some(msg) => Err(format!("wrong value {msg}")),
        None => Ok(()),
    }
}

/// Compares produced gradients with the case's recorded `grads`: the same
/// keys, each a tensor or a list as recorded, each tensor by
/// [`compare_gradient`].
fn compare_gradients(case: &Case, got: &[(String, Grad)], tol: Tolerance) -> Result<(), String> {
    let recorded = case
        .raw
        .get("grads")
        .and_then(Value::as_object)
        .ok_or("gradients produced, but the case records no grads object")?;
    for (key, want) in recorded {
        let Some((_, grad)) = got.iter().find(|(k, _)| k == key) else {
            return Err(format!("no gradient of {key}, recorded one"));
        };
        match (want, grad) {
            (Value::Array(want), Grad::List(got)) => {
                if want.len() != got.len() {
                    return Err(format!(
                        "gradient of {key}: {} tensors, recorded {}",
                        got.len(),
                        want.len()
                    ));
                }
                for (k, (w, g)) in want.iter().zip(got).enumerate() {
                    let w = TensorVal::parse(w).map_err(|e| {
                        format!("cannot read the recorded gradient {key}[{k}]: {e}")
                    })?;
                    compare_gradient(&w, g, tol)
                        .map_err(|e| format!("gradient {key}[{k}]: {e}"))?;
                }
            }
            (Value::Array(_), Grad::One(_)) => {
                return Err(format!("gradient of {key}: one tensor, recorded a list"))
            }
            (want, Grad::One(got)) => {
                let w = TensorVal::parse(want)
                    .map_err(|e| format!("cannot read the recorded gradient {key}: {e}"))?;
                compare_gradient(&w, got, tol).map_err(|e| format!("gradient {key}: {e}"))?;
            }
            (_, Grad::List(_)) => {
                return Err(format!("gradient of {key}: a list, recorded one tensor"))
            }
        }
    }
    if let Some((extra, _)) = got.iter().find(|(k, _)| !recorded.contains_key(k)) {
        return Err(format!("a gradient of {extra}, recorded none"));
    }
    Ok(())
}

fn first_mismatch<T: Copy>(want: &[T], got: &[T], eq: impl Fn(T, T) -> bool) -> Option<usize> {
    want.iter().zip(got).position(|(&w, &g)| !eq(w, g))
}

/// Compares a produced tensor with the recorded one.
pub fn compare(want: &TensorVal, got: &TensorVal, tol: Tolerance) -> Result<(), String> {
    if matches!(tol, Tolerance::GradExact | Tolerance::GradRelative) {
        return compare_gradient(want, got, tol);
    }
    check_meta(want, got)?;
    let bad = match (&want.data, &got.data) {
        (Data::F32(w), Data::F32(g)) => first_mismatch(w, g, |a, b| {
            if a.is_nan() && b.is_nan() {
                true
            } else if tol == Tolerance::Exact {
                a.to_bits() == b.to_bits()
            } else if tol == Tolerance::ExactZeroSign {
                a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0)
            } else {
                close(a as f64, b as f64, tol)
            }
        })
        .map(|i| format!("at flat index {i}: got {:?}, recorded {:?}", g[i], w[i])),
        (Data::F64(w), Data::F64(g)) => first_mismatch(w, g, |a, b| close(a, b, tol))
            .map(|i| format!("at flat index {i}: got {:?}, recorded {:?}", g[i], w[i])),
        (Data::I32(w), Data::I32(g)) => first_mismatch(w, g, |a, b| {
            a == b || (tol == Tolerance::Relative && close(a as f64, b as f64, tol))
        })
        .map(|i| format!("at flat index {i}: got {}, recorded {}", g[i], w[i])),
        (Data::I64(w), Data::I64(g)) => first_mismatch(w, g, |a, b| {
            a == b || (tol == Tolerance::Relative && close(a as f64, b as f64, tol))
        })
        .map(|i| format!("at flat index {i}: got {}, recorded {}", g[i], w[i])),
        (Data::Bool(w), Data::Bool(g)) => first_mismatch(w, g, |a, b| a == b)
            .map(|i| format!("at flat index {i}: got {}, recorded {}", g[i], w[i])),
        _ => Some("dtype mismatch".into()),
    };
    match bad {
        Some(msg) => Err(format!("wrong value {msg}")),
        None => Ok(()),
    }
}

fn short(s: &str) -> String {
    let one_line = s.replace('\n', " ");
    if one_line.chars().count() > 160 {
        let cut: String = one_line.chars().take(160).collect();
        format!("{cut}...")
    } else {
        one_line
    }
}

/// Checks a rejection against the library's own verdict: the rule it
/// names, at the stage that rule belongs to, on every error reported.
fn judge_rejection(
    stage: Stage,
    errors: &[Reported],
    v: &Validation,
    static_mode: bool,
) -> Result<(), String> {
    let Some(first) = errors.first() else {
        return Err(format!("rejected {stage} without any error"));
    };
    let want_stage = v.stage(static_mode);
    match v.rule {
        Some(rule) => {
            if want_stage == Stage::Compile && stage == Stage::Run {
                return Err(format!(
                    "rejected at run time by {}, but {rule} rejects these static shapes at compile time: should have been a compile error: {}",
                    first.rule.as_deref().unwrap_or("an error without a rule id"),
                    short(&first.message)
                ));
            }
            if let Some(bad) = errors.iter().find(|e| e.rule.as_deref() != Some(rule)) {
                return Err(match &bad.rule {
                    Some(other) => format!(
                        "rejected {stage} by rule {other}, but the library's validator names {rule}: {}",
                        short(&bad.message)
                    ),
                    None => format!(
                        "rejected {stage} by an error that does not carry the rule {rule} the library's validator names: {}",
                        short(&bad.message)
                    ),
                });
            }
            if stage != want_stage {
                let hint = if want_stage == Stage::Compile && stage == Stage::Run {
                    ": should have been a compile error"
                } else {
                    ""
                };
                return Err(format!(
                    "rejected {stage} by {rule}, but that rule rejects these shapes {want_stage}{hint}: {}",
                    short(&first.message)
                ));
            }
            Ok(())
        }
        None => {
            if stage != Stage::Run {
                return Err(format!(
                    "rejected {stage}, but the library's validator accepts these shapes: {}",
                    short(&first.message)
                ));
            }
            match errors
                .iter()
                .find(|e| !e.rule.as_deref().is_some_and(|r| v.value_rules.contains(&r)))
            {
                Some(bad) => Err(format!(
                    "rejected at run time by {}, but the library's validator accepts these shapes and that is not a rule on values ({}): {}",
                    bad.rule.as_deref().unwrap_or("an error without a rule id"),
                    if v.value_rules.is_empty() {
                        "the family has none".to_string()
                    } else {
                        v.value_rules.join(", ")
                    },
                    short(&bad.message)
                )),
                None => Ok(()),
            }
        }
    }
}

/// `Ok(())` if the case passes, otherwise why it failed. `validation` is
/// the library's own verdict on the case (`Err` if it could not be
/// computed), `static_mode` which stage rejections belong to.
pub fn judge(
    case: &Case,
    outcome: &Outcome,
    tol: Tolerance,
    validation: &Result<Validation, String>,
    static_mode: bool,
) -> Result<(), String> {
    if let Expect::Malformed(why) = &case.expect {
        return Err(format!("malformed vector case: {why}"));
    }
    if let Outcome::Broken(why) = outcome {
        return Err(short(why));
    }
    let v = validation
        .as_ref()
        .map_err(|e| format!("no verdict of the library's validator: {e}"))?;
    let accepted = !matches!(outcome, Outcome::Rejected(..));
    if let (true, Some(rule)) = (accepted, v.rule) {
        let hint = if v.stage(static_mode) == Stage::Compile {
            " (a compile-time rule for these static shapes: should have been a compile error)"
        } else {
            ""
        };
        return Err(format!(
            "accepted, but the library's validator rejects it by {rule}{hint}"
        ));
    }
    match (&case.expect, outcome) {
        (Expect::Malformed(_), _) | (_, Outcome::Broken(_)) => Err("unreachable".into()),
        (Expect::Out(want), Outcome::Accepted(got)) => {
            if want.get("lod_offsets").is_some() {
                return Err("the output carries no LoD, but the framework's has one".into());
            }
            let want = parse_out(want)?;
            compare(&want, got, tol)
        }
        (Expect::Out(want), Outcome::AcceptedWithLod(got, lod)) => {
            compare(&parse_out(want)?, got, tol)?;
            let recorded: Vec<Vec<usize>> = want
                .get("lod_offsets")
                .cloned()
                .map(serde_json::from_value)
                .transpose()
                .map_err(|e| format!("cannot read the recorded lod_offsets: {e}"))?
                .unwrap_or_default();
            if &recorded == lod {
                Ok(())
            } else {
                Err(format!("output LoD {lod:?}, recorded {recorded:?}"))
            }
        }
        (Expect::Out(want), Outcome::AcceptedList(got)) => {
            let want = want
                .as_array()
                .ok_or("a list of outputs, but the recorded out is not a list")?;
            if want.len() != got.len() {
                return Err(format!("{} outputs, recorded {}", got.len(), want.len()));
            }
            for (k, (w, g)) in want.iter().zip(got).enumerate() {
                compare(&parse_out(w)?, g, tol).map_err(|e| format!("output {k}: {e}"))?;
            }
            Ok(())
        }
        (Expect::Out(_), Outcome::Gradients(got)) => compare_gradients(case, got, tol),
        (Expect::Error(err), Outcome::Gradients(_)) => Err(format!(
            "gradients produced, but the framework rejected it: {}",
            short(err)
        )),
        (Expect::Error(err), Outcome::AcceptedList(got)) => Err(format!(
            "accepted ({} outputs), but the framework rejected it: {}",
            got.len(),
            short(err)
        )),
        (Expect::Out(_), Outcome::Rejected(stage, errors)) => Err(format!(
            "rejected {stage}, but the framework accepted it: {}",
            short(
                &errors
                    .first()
                    .map(|e| e.message.clone())
                    .unwrap_or_default()
            )
        )),
        (Expect::Error(_), Outcome::Rejected(stage, errors)) => {
            judge_rejection(*stage, errors, v, static_mode)
        }
        (Expect::Error(err), Outcome::Accepted(got) | Outcome::AcceptedWithLod(got, _)) => {
            Err(format!(
                "accepted (output shape {:?}), but the framework rejected it: {}",
                got.shape,
                short(err)
            ))
        }
    }
}

fn parse_out(v: &Value) -> Result<TensorVal, String> {
    TensorVal::parse(v).map_err(|e| format!("cannot read the recorded output: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::parse_file;
    use std::path::Path;

    /// One select case of shapes [2] / [2] / [2]: recorded as accepted
    /// (`out`) or rejected (`error`), or with neither.
    fn case(expect: &str) -> Case {
        let t = |dtype: &str, data: &str| {
            format!(r#"{{"shape": [2], "dtype": "{dtype}", "data": {data}}}"#)
        };
        let verdict = match expect {
            "out" => format!(r#", "out": {}"#, t("int32", "[1, 2]")),
            "error" => r#", "error": "rejected""#.to_string(),
            _ => String::new(),
        };
        let text = format!(
            r#"{{"op": "select", "cases": [{{"name": "c", "cond": {}, "then": {}, "else": {}{verdict}}}]}}"#,
            t("bool", "[true, false]"),
            t("int32", "[1, 5]"),
            t("int32", "[7, 2]")
        );
        let mut file = parse_file(Path::new("t.json"), text.as_bytes()).expect("a vector file");
        file.cases.remove(0)
    }

    fn rejected(stage: Stage, rules: &[Option<&str>]) -> Outcome {
        Outcome::Rejected(
            stage,
            rules
                .iter()
                .map(|r| Reported {
                    rule: r.map(str::to_string),
                    message: "msg".into(),
                })
                .collect(),
        )
    }

    fn run(
        expect: &str,
        outcome: &Outcome,
        v: Validation,
        static_mode: bool,
    ) -> Result<(), String> {
        judge(
            &case(expect),
            outcome,
            Tolerance::Exact,
            &Ok(v),
            static_mode,
        )
    }

    const RULE: &str = "select/none-shapes";

    #[test]
    fn a_rejection_needs_the_validators_rule_on_every_error() {
        let v = || Validation::rejects(RULE, When::Compile);
        assert!(run("error", &rejected(Stage::Compile, &[Some(RULE)]), v(), true).is_ok());
        assert!(run(
            "error",
            &rejected(Stage::Compile, &[Some(RULE), Some(RULE)]),
            v(),
            true
        )
        .is_ok());
        let other = run(
            "error",
            &rejected(Stage::Compile, &[Some("select/numpy-broadcast")]),
            v(),
            true,
        );
        assert!(other.is_err_and(|e| e.contains("by rule select/numpy-broadcast")));
        // the second error carries no rule id
        let second = run(
            "error",
            &rejected(Stage::Compile, &[Some(RULE), None]),
            v(),
            true,
        );
        assert!(second.is_err_and(|e| e.contains("does not carry the rule")));
        assert!(run("error", &rejected(Stage::Compile, &[]), v(), true).is_err());
    }

    #[test]
    fn a_compile_time_rule_rejected_at_run_time_fails_in_static_mode_only() {
        let v = || Validation::rejects(RULE, When::Compile);
        let late = run("error", &rejected(Stage::Run, &[Some(RULE)]), v(), true);
        assert!(late.is_err_and(|e| e.contains("should have been a compile error")));
        assert!(run("error", &rejected(Stage::Run, &[Some(RULE)]), v(), false).is_ok());
        assert!(run(
            "error",
            &rejected(Stage::Compile, &[Some(RULE)]),
            v(),
            false
        )
        .is_err());
        // a static program accepted where the validator rejects
        let out = Outcome::Accepted(TensorVal {
            shape: vec![2],
            data: Data::I32(vec![1, 2]),
        });
        let acc = run("out", &out, v(), true);
        assert!(acc.is_err_and(|e| e.contains("should have been a compile error")));
    }

    #[test]
    fn value_rules_only_where_the_validator_accepts() {
        const DIV: &str = "elementwise/division-by-zero";
        let div = DIV;
        let ok = run(
            "error",
            &rejected(Stage::Run, &[Some(div)]),
            Validation::accepts(&[DIV]),
            false,
        );
        assert!(ok.is_ok());
        let shape_rule = run(
            "error",
            &rejected(Stage::Run, &[Some(RULE)]),
            Validation::accepts(&[DIV]),
            false,
        );
        assert!(shape_rule.is_err_and(|e| e.contains("validator accepts")));
        let compile = run(
            "error",
            &rejected(Stage::Compile, &[Some(div)]),
            Validation::accepts(&[DIV]),
            true,
        );
        assert!(compile.is_err());
    }

    #[test]
    fn types_rules_are_rejections_by_the_types_in_dynamic_mode() {
        let v = || Validation::rejects("select/branch-types", When::Types);
        let by_types = rejected(Stage::Types, &[Some("select/branch-types")]);
        assert!(run("error", &by_types, v(), false).is_ok());
        assert!(run("error", &by_types, v(), true).is_err());
        let compile = rejected(Stage::Compile, &[Some("select/branch-types")]);
        assert!(run("error", &compile, v(), true).is_ok());
    }

    #[test]
    fn a_case_the_api_cannot_express_is_a_rejection_by_construction() {
        const PAIRS: &str = "dynamic_stitch/pairs";
        let v = || Validation::rejects(PAIRS, When::Construction);
        let built = rejected(Stage::Construction, &[Some(PAIRS)]);
        for static_mode in [false, true] {
            assert!(run("error", &built, v(), static_mode).is_ok());
            let late = run(
                "error",
                &rejected(Stage::Run, &[Some(PAIRS)]),
                v(),
                static_mode,
            );
            assert!(late.is_err());
        }
        // the framework accepted what the API cannot say: a failure
        let acc = run("out", &built, v(), false);
        assert!(acc.is_err_and(|e| e.contains("framework accepted")));
    }

    #[test]
    fn a_case_with_neither_out_nor_error_fails_whatever_the_outcome() {
        let c = case("neither");
        assert!(matches!(c.expect, Expect::Malformed(_)));
        let v = Ok(Validation::rejects(RULE, When::Compile));
        let r = judge(
            &c,
            &rejected(Stage::Compile, &[Some(RULE)]),
            Tolerance::Exact,
            &v,
            true,
        );
        assert!(r.is_err_and(|e| e.starts_with("malformed vector case")));
    }

    #[test]
    fn accepted_output_is_compared() {
        let out = |data: Vec<i32>| {
            Outcome::Accepted(TensorVal {
                shape: vec![2],
                data: Data::I32(data),
            })
        };
        assert!(run("out", &out(vec![1, 2]), Validation::accepts(&[]), false).is_ok());
        assert!(run("out", &out(vec![1, 3]), Validation::accepts(&[]), false).is_err());
        let rej = run(
            "out",
            &rejected(Stage::Run, &[Some(RULE)]),
            Validation::accepts(&[]),
            false,
        );
        assert!(rej.is_err_and(|e| e.contains("framework accepted")));
    }

    fn f32s(shape: Vec<usize>, v: Vec<f32>) -> TensorVal {
        TensorVal {
            shape,
            data: Data::F32(v),
        }
    }

    #[test]
    fn gradients_equal_up_to_the_sign_of_zero() {
        let want = f32s(vec![2], vec![-0.0, 1.5]);
        let got = f32s(vec![2], vec![0.0, 1.5]);
        assert!(compare_gradient(&want, &got, Tolerance::GradExact).is_ok());
        let off = f32s(vec![2], vec![0.0, 1.5 + f32::EPSILON * 2.0]);
        assert!(compare_gradient(&want, &off, Tolerance::GradExact).is_err());
        let shape = f32s(vec![1, 2], vec![0.0, 1.5]);
        assert!(compare_gradient(&want, &shape, Tolerance::GradExact)
            .is_err_and(|e| e.contains("shape")));
    }

    #[test]
    fn relative_gradients_have_a_floor_of_four_ulps_of_the_scale() {
        // scale 100: the floor is 4 * eps * 100 around a value near zero
        let want = f32s(vec![2], vec![100.0, 0.0]);
        let near = f32s(vec![2], vec![100.0, 3.0 * 100.0 * f32::EPSILON]);
        assert!(compare_gradient(&want, &near, Tolerance::GradRelative).is_ok());
        let far = f32s(vec![2], vec![100.0, 5.0 * 100.0 * f32::EPSILON]);
        assert!(compare_gradient(&want, &far, Tolerance::GradRelative).is_err());
        // 1e-6 relative
        let rel = f32s(vec![2], vec![100.0 * (1.0 + 5e-7), 0.0]);
        assert!(compare_gradient(&want, &rel, Tolerance::GradRelative).is_ok());
        let beyond = f32s(vec![2], vec![100.0 * (1.0 + 1e-5), 0.0]);
        assert!(compare_gradient(&want, &beyond, Tolerance::GradRelative).is_err());
        assert!(compare_gradient(&want, &rel, Tolerance::GradExact).is_err());
    }

    #[test]
    fn gradients_are_compared_by_key() {
        let text = r#"{"op": "elementwise_grad", "cases": [{"name": "g", "op": "elementwise_mul",
            "out": {"shape": [1], "dtype": "float32", "data": [1.0]},
            "grads": {"x": {"shape": [1], "dtype": "float32", "data": [2.0]},
                      "y": [{"shape": [1], "dtype": "float32", "data": [3.0]}]}}]}"#;
        let mut file = parse_file(Path::new("g.json"), text.as_bytes()).expect("a vector file");
        let case = file.cases.remove(0);
        let x = Grad::One(f32s(vec![1], vec![2.0]));
        let y = Grad::List(vec![f32s(vec![1], vec![3.0])]);
        let check = |g: Vec<(&str, Grad)>| {
            let g = g.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            judge(
                &case,
                &Outcome::Gradients(g),
                Tolerance::GradExact,
                &Ok(Validation::accepts(&[])),
                false,
            )
        };
        assert!(check(vec![("x", x.clone()), ("y", y.clone())]).is_ok());
        assert!(check(vec![("x", x.clone())]).is_err_and(|e| e.contains("no gradient of y")));
        let extra = check(vec![("x", x.clone()), ("y", y.clone()), ("z", x.clone())]);
        assert!(extra.is_err_and(|e| e.contains("gradient of z")));
        assert!(check(vec![("x", x.clone()), ("y", x.clone())]).is_err());
        let wrong = Grad::One(f32s(vec![1], vec![2.5]));
        assert!(check(vec![("x", wrong), ("y", y)]).is_err_and(|e| e.contains("gradient x")));
    }
}
