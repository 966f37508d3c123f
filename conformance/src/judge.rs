//! The pass rule: accepted exactly where the framework accepts, rejected
//! exactly where it rejects (or crashed), values bit-exact (tanh and sigmoid
//! within 1e-6 relative), output shape equal to the recorded one.

use crate::vectors::{Case, Data, Expect, TensorVal};
use serde_json::Value;

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
    /// It rejected the input with this message.
    Rejected(String),
    /// The case could not be run (an unimplemented family, a generator or
    /// build problem, a panic): always a failure.
    Broken(String),
}

/// How values are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tolerance {
    /// Bit for bit (NaN equals NaN).
    Exact,
    /// Within 1e-6 relative (tanh, sigmoid).
    Relative,
}

const REL: f64 = 1e-6;

fn close(a: f64, b: f64, tol: Tolerance) -> bool {
    if a.is_nan() && b.is_nan() {
        return true;
    }
    match tol {
        Tolerance::Exact => a.to_bits() == b.to_bits(),
        Tolerance::Relative => a == b || (a - b).abs() <= REL * a.abs().max(b.abs()),
    }
}

fn first_mismatch<T: Copy>(want: &[T], got: &[T], eq: impl Fn(T, T) -> bool) -> Option<usize> {
    want.iter().zip(got).position(|(&w, &g)| !eq(w, g))
}

/// Compares a produced tensor with the recorded one.
pub fn compare(want: &TensorVal, got: &TensorVal, tol: Tolerance) -> Result<(), String> {
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
    let bad = match (&want.data, &got.data) {
        (Data::F32(w), Data::F32(g)) => first_mismatch(w, g, |a, b| {
            if a.is_nan() && b.is_nan() {
                true
            } else if tol == Tolerance::Exact {
                a.to_bits() == b.to_bits()
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

/// `Ok(())` if the case passes, otherwise why it failed.
pub fn judge(case: &Case, outcome: &Outcome, tol: Tolerance) -> Result<(), String> {
    match (&case.expect, outcome) {
        (_, Outcome::Broken(why)) => Err(short(why)),
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
        (Expect::Error(err), Outcome::AcceptedList(got)) => Err(format!(
            "accepted ({} outputs), but the framework rejected it: {}",
            got.len(),
            short(err)
        )),
        (Expect::Out(_), Outcome::Rejected(err)) => Err(format!(
            "rejected, but the framework accepted it: {}",
            short(err)
        )),
        (Expect::Error(_), Outcome::Rejected(_)) => Ok(()),
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
