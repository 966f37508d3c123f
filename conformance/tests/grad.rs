//! The gradient mode: the conformance tool, in both modes, on the recorded
//! gradient vectors (`tests/vectors/grad`, copies of the shared set) and on
//! a copy with deliberate mistakes that it must catch.

mod common;

use common::{check_shipped, families, read_json, run, scratch, summary};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The gradient families the project implements, with their case counts in
/// `tests/vectors/grad`. One line per family: add yours when its backward
/// passes.
const IMPLEMENTED: &[(&str, usize)] = &[
    ("elementwise_grad", 148),
    ("select_grad", 124),
    ("multiplex_grad", 63),
    ("dynamic_stitch_grad", 65),
    ("dynamic_partition_grad", 43),
    ("lod_reset_grad", 8),
];

fn grad_dir() -> PathBuf {
    common::vectors_dir("grad")
}

#[test]
fn dynamic_mode_passes_the_gradient_vectors() {
    check_shipped("dynamic", &grad_dir(), IMPLEMENTED, "grad-implemented");
}

#[test]
#[ignore = "long: `cargo test -p conformance -- --ignored` runs it (CI does)"]
fn static_mode_passes_the_gradient_vectors() {
    check_shipped("static", &grad_dir(), IMPLEMENTED, "grad-implemented");
}

/// The first gradient tensor of a case (`grads`' first key, or the first
/// tensor of a list) with a nonzero value.
fn first_grad(case: &mut Value) -> Option<&mut Value> {
    let grads = case.get_mut("grads")?.as_object_mut()?;
    grads.values_mut().find_map(|g| {
        let t = match g {
            Value::Array(list) => list.first_mut()?,
            t => t,
        };
        let nonzero = t["data"]
            .as_array()
            .is_some_and(|d| d.iter().any(|v| v.as_f64().is_some_and(|f| f.abs() > 0.1)));
        nonzero.then_some(t)
    })
}

/// Writes into `dir` a copy of the first implemented family's file with four
/// deliberate mistakes, and one harmless change (a recorded 0 written -0.0,
/// a signed zero the frameworks do produce); returns the labels of the four.
fn mutated(dir: &Path, family: &str) -> Vec<String> {
    let (file, _) = families(&grad_dir())
        .into_iter()
        .find(|(_, op)| op == family)
        .expect("the family's file");
    let mut doc = read_json(&grad_dir().join(&file));
    let cases = doc["cases"].as_array_mut().expect("cases");
    let label = |c: &Value, i: usize| format!("{}#{i}", c["name"].as_str().unwrap());
    let eligible: Vec<usize> = (0..cases.len())
        .filter(|&i| first_grad(&mut cases[i].clone()).is_some())
        .collect();
    let mut picked = eligible.into_iter();
    let mut labels = vec![];

    // 1. a wrong gradient value (+1)
    let i = picked.next().expect("a case to mutate");
    let t = first_grad(&mut cases[i]).unwrap();
    let k = t["data"]
        .as_array()
        .unwrap()
        .iter()
        .position(|v| v.as_f64().is_some_and(|f| f.abs() > 0.1))
        .unwrap();
    let v = t["data"][k].as_f64().unwrap();
    t["data"][k] = Value::from(v + 1.0);
    labels.push(label(&cases[i], i));

    // 2. a wrong gradient shape (same element count)
    let i = picked.next().expect("a case to mutate");
    let t = first_grad(&mut cases[i]).unwrap();
    t["shape"].as_array_mut().unwrap().insert(0, Value::from(1));
    labels.push(label(&cases[i], i));

    // 3. a gradient off by 1e-4 relative (beyond every tolerance)
    let i = picked.next().expect("a case to mutate");
    let t = first_grad(&mut cases[i]).unwrap();
    let data = t["data"].as_array_mut().unwrap();
    let k = data
        .iter()
        .position(|v| v.as_f64().is_some_and(|f| f.abs() > 0.1))
        .unwrap();
    let v = data[k].as_f64().unwrap();
    data[k] = Value::from(v * (1.0 + 1e-4));
    labels.push(label(&cases[i], i));

    // 4. a gradient recorded for an input that has none
    let i = picked.next().expect("a case to mutate");
    let g = first_grad(&mut cases[i]).unwrap().clone();
    cases[i]["grads"]["no_such_input"] = g;
    labels.push(label(&cases[i], i));

    // harmless: a recorded 0 becomes -0.0 in a case left correct
    let zero = picked.find(|&i| {
        cases[i]["grads"].as_object().unwrap().values().any(|t| {
            t.get("data")
                .and_then(Value::as_array)
                .is_some_and(|d| d.iter().any(|v| v.as_f64() == Some(0.0)))
        })
    });
    if let Some(i) = zero {
        for t in cases[i]["grads"].as_object_mut().unwrap().values_mut() {
            if let Some(d) = t.get_mut("data").and_then(Value::as_array_mut) {
                for v in d.iter_mut().filter(|v| v.as_f64() == Some(0.0)) {
                    *v = serde_json::json!(-0.0);
                }
            }
        }
    }

    std::fs::write(dir.join(&file), doc.to_string()).expect("write");
    labels
}

fn check_mutations(mode: &str) {
    let Some(&(family, shipped)) = IMPLEMENTED.first() else {
        return;
    };
    let dir = scratch(&format!("grad-mutated-{mode}"));
    let labels = mutated(&dir, family);
    let r = run(mode, &dir);
    assert!(
        !r.success,
        "{mode} mode: mistakes not reported as a failure"
    );
    assert_eq!(
        summary(&r.stdout, family),
        Some(format!("{family}: {} passed, 4 failed", shipped - 4).as_str()),
        "{mode} mode"
    );
    for l in &labels {
        assert!(
            r.stdout
                .lines()
                .any(|line| line.trim_start().starts_with(&format!("{l}:"))),
            "{mode} mode: {l} not listed as failing"
        );
    }
}

#[test]
fn dynamic_mode_catches_wrong_gradients() {
    check_mutations("dynamic");
}

#[test]
fn static_mode_catches_wrong_gradients() {
    check_mutations("static");
}
