//! Runs the conformance tool, in both modes, on the recorded vectors
//! (`tests/vectors`) and on a copy with deliberate mistakes that it must catch.

mod common;

use common::{check_shipped, read_json, run, scratch, summary};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The families the project implements, with their case counts in
/// `tests/vectors` (dynamic_partition's cases are in `dynamic_stitch.json`).
const IMPLEMENTED: [(&str, usize); 6] = [
    ("elementwise", 248),
    ("select", 201),
    ("multiplex", 84),
    ("lod_reset", 66),
    ("dynamic_stitch", 101),
    ("dynamic_partition", 25),
];

fn vectors_dir() -> PathBuf {
    common::vectors_dir("")
}

#[test]
fn dynamic_mode_passes_the_recorded_vectors() {
    check_shipped("dynamic", &vectors_dir(), &IMPLEMENTED, "implemented");
}

#[test]
#[ignore = "long: `cargo test -p conformance -- --ignored` runs it (CI does)"]
fn static_mode_passes_the_recorded_vectors() {
    check_shipped("static", &vectors_dir(), &IMPLEMENTED, "implemented");
}

/// Writes into `dir` a copy of elementwise.json with five deliberate
/// mistakes; returns the labels (`name#index`) of the broken cases.
fn mutated_elementwise(dir: &Path) -> Vec<String> {
    let mut doc = read_json(&vectors_dir().join("elementwise.json"));
    let cases = doc["cases"].as_array_mut().expect("cases");
    let label = |c: &Value, i: usize| format!("{}#{i}", c["name"].as_str().unwrap());
    let no_act = |c: &Value| c["attrs"].get("act").is_none_or(Value::is_null);
    let nonempty_out = |c: &Value| {
        c.get("out")
            .and_then(|o| o["data"].as_array())
            .is_some_and(|d| !d.is_empty())
    };
    let mut used: Vec<usize> = vec![];
    let pick = |cases: &[Value], used: &mut Vec<usize>, f: &dyn Fn(&Value) -> bool| {
        let i = (0..cases.len())
            .find(|i| !used.contains(i) && f(&cases[*i]))
            .expect("no case to mutate");
        used.push(i);
        i
    };
    let mut labels = vec![];

    // 1. a wrong value in an accepted case
    let i = pick(cases, &mut used, &|c| nonempty_out(c) && no_act(c));
    let v = cases[i]["out"]["data"][0].as_f64().unwrap();
    cases[i]["out"]["data"][0] = if cases[i]["out"]["dtype"]
        .as_str()
        .unwrap()
        .starts_with("int")
    {
        Value::from(v as i64 + 1)
    } else {
        Value::from(v + 1.0)
    };
    labels.push(label(&cases[i], i));

    // 2. a wrong output shape (same element count)
    let i = pick(cases, &mut used, &|c| nonempty_out(c) && no_act(c));
    let mut shape = cases[i]["out"]["shape"].as_array().unwrap().clone();
    shape.insert(0, Value::from(1));
    cases[i]["out"]["shape"] = Value::Array(shape);
    labels.push(label(&cases[i], i));

    // 3. the framework "accepted" a case it rejected
    let i = pick(cases, &mut used, &|c| c.get("error").is_some());
    let fake = cases[i]["x"].clone();
    let obj = cases[i].as_object_mut().unwrap();
    obj.remove("error");
    obj.remove("framework_overflow");
    obj.insert("out".into(), fake);
    labels.push(label(&cases[i], i));

    // 4. the framework "rejected" a case it accepted
    let i = pick(cases, &mut used, &|c| c.get("out").is_some());
    let obj = cases[i].as_object_mut().unwrap();
    obj.remove("out");
    obj.insert("error".into(), Value::from("mutated: rejected"));
    labels.push(label(&cases[i], i));

    // 5. a tanh/sigmoid value off by 1e-4 relative (beyond the 1e-6 tolerance)
    let i = pick(cases, &mut used, &|c| {
        let act = c["attrs"].get("act").and_then(Value::as_str);
        matches!(act, Some("tanh" | "sigmoid"))
            && c["out"]["dtype"]
                .as_str()
                .is_some_and(|d| d.starts_with("float"))
            && c["out"]["data"]
                .as_array()
                .is_some_and(|d| d.iter().any(|v| v.as_f64().unwrap_or(0.0).abs() > 0.1))
    });
    let data = cases[i]["out"]["data"].as_array_mut().unwrap();
    let k = data
        .iter()
        .position(|v| v.as_f64().unwrap_or(0.0).abs() > 0.1)
        .unwrap();
    let v = data[k].as_f64().unwrap();
    data[k] = Value::from(v * (1.0 + 1e-4));
    labels.push(label(&cases[i], i));

    std::fs::write(dir.join("elementwise.json"), doc.to_string()).expect("write");
    labels
}

fn check_mutations(mode: &str) {
    let dir = scratch(&format!("mutated-{mode}"));
    let labels = mutated_elementwise(&dir);
    let r = run(mode, &dir);
    assert!(
        !r.success,
        "{mode} mode: mistakes not reported as a failure"
    );
    // the shipped count minus the 5 mutated cases
    let shipped = IMPLEMENTED
        .iter()
        .find(|(f, _)| *f == "elementwise")
        .map_or(0, |(_, n)| *n);
    assert_eq!(
        summary(&r.stdout, "elementwise"),
        Some(format!("elementwise: {} passed, 5 failed", shipped - 5).as_str()),
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
fn dynamic_mode_catches_mistakes() {
    check_mutations("dynamic");
}

#[test]
fn static_mode_catches_mistakes() {
    check_mutations("static");
}

/// A lod_reset.json whose first accepted case records another LoD, and whose
/// first rejected case is recorded as accepted: both must be reported.
#[test]
fn dynamic_mode_catches_a_wrong_lod() {
    let dir = scratch("mutated-lod");
    let mut doc = read_json(&vectors_dir().join("lod_reset.json"));
    let cases = doc["cases"].as_array_mut().expect("cases");
    let label = |c: &Value, i: usize| format!("{}#{i}", c["name"].as_str().unwrap());
    let ok = cases
        .iter()
        .position(|c| c.get("out").is_some())
        .expect("an accepted case");
    let offsets = cases[ok]["out"]["lod_offsets"]
        .as_array_mut()
        .expect("lod_offsets");
    // one more (empty) sequence at the end of the last level
    let last = offsets.last_mut().unwrap().as_array_mut().unwrap();
    let end = last.last().unwrap().clone();
    last.push(end);
    let bad = cases
        .iter()
        .position(|c| c.get("error").is_some())
        .expect("a rejected case");
    let mut out = cases[bad]["x"].clone();
    out["lod_offsets"] = serde_json::json!([]);
    let obj = cases[bad].as_object_mut().unwrap();
    obj.remove("error");
    obj.insert("out".into(), out);
    let labels = [label(&cases[ok], ok), label(&cases[bad], bad)];
    std::fs::write(dir.join("lod_reset.json"), doc.to_string()).expect("write");
    let r = run("dynamic", &dir);
    assert!(!r.success);
    assert_eq!(
        summary(&r.stdout, "lod_reset"),
        Some("lod_reset: 64 passed, 2 failed")
    );
    for l in &labels {
        assert!(
            r.stdout
                .lines()
                .any(|line| line.trim_start().starts_with(&format!("{l}:"))),
            "{l} not listed as failing"
        );
    }
}

/// A select.json of four cases built from the first accepted one: `then`
/// and `else` of different element types (recorded as rejected, as
/// OpenVINO does: "Argument 1 and 2 element types must match"), cond of
/// int32 (rejected: "Argument 0 must have boolean element type"), and two
/// malformed cases, one recording neither `out` nor `error`, one both.
/// Returns the labels of the malformed ones.
fn types_and_malformed(dir: &Path) -> Vec<String> {
    let mut doc = read_json(&vectors_dir().join("select.json"));
    let base = doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| {
            c.get("out").is_some()
                && c["then"]["dtype"] == "int32"
                && c["then"]["data"].as_array().is_some_and(|d| !d.is_empty())
        })
        .expect("an accepted int32 select case")
        .clone();
    let to_float = |t: &mut Value| {
        t["dtype"] = Value::from("float32");
    };
    let to_int = |t: &mut Value| {
        let data: Vec<Value> = t["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(|b| Value::from(i32::from(b.as_bool().unwrap_or(false))))
            .collect();
        t["data"] = Value::Array(data);
        t["dtype"] = Value::from("int32");
    };
    let rejected = |mut c: Value, name: &str, why: &str| {
        let obj = c.as_object_mut().expect("case");
        obj.remove("out");
        obj.insert("name".into(), Value::from(name));
        obj.insert("error".into(), Value::from(why));
        c
    };
    let mut branch = rejected(
        base.clone(),
        "branch_types",
        "Argument 1 and 2 element types must match",
    );
    to_float(&mut branch["else"]);
    let mut cond = rejected(
        base.clone(),
        "cond_int",
        "Argument 0 must have boolean element type",
    );
    to_int(&mut cond["cond"]);
    let mut neither = base.clone();
    neither.as_object_mut().expect("case").remove("out");
    neither["name"] = Value::from("neither");
    let mut both = base.clone();
    both["name"] = Value::from("both");
    both["error"] = Value::from("recorded twice");
    doc["cases"] = Value::Array(vec![branch, cond, neither, both]);
    std::fs::write(dir.join("select.json"), doc.to_string()).expect("write");
    vec!["neither#2".into(), "both#3".into()]
}

/// The element-type rules are rejections by the types (dynamic mode) or the
/// library's own compile errors (static mode); a case recording neither or
/// both of `out` and `error` fails whatever the library does.
fn check_types_and_malformed(mode: &str) {
    let dir = scratch(&format!("types-{mode}"));
    let labels = types_and_malformed(&dir);
    let r = run(mode, &dir);
    assert!(!r.success, "{mode} mode: malformed cases not reported");
    assert_eq!(
        summary(&r.stdout, "select"),
        Some("select: 2 passed, 2 failed"),
        "{mode} mode"
    );
    for l in &labels {
        assert!(
            r.stdout.lines().any(|line| line
                .trim_start()
                .starts_with(&format!("{l}: malformed vector case"))),
            "{mode} mode: {l} not reported as malformed"
        );
    }
}

#[test]
fn dynamic_mode_types_and_malformed_cases() {
    check_types_and_malformed("dynamic");
}

#[test]
fn static_mode_types_and_malformed_cases() {
    check_types_and_malformed("static");
}

/// TensorFlow's `testMismatchedDataAndIndexListSizes`: 2 index tensors and
/// 4 data tensors, which the API's pairs cannot say. A rejection by
/// construction in both modes (counted after the family's line), and a
/// failure if the framework had accepted it.
fn check_by_construction(mode: &str) {
    let dir = scratch(&format!("construction-{mode}"));
    let t = |v: Value| serde_json::json!({"shape": [1], "dtype": "float32", "data": [v]});
    let ti = |v: i32| serde_json::json!({"shape": [1], "dtype": "int32", "data": [v]});
    let case = serde_json::json!({
        "name": "tf_mismatched_list_sizes",
        "op": "dynamic_stitch",
        "indices": [ti(2), ti(1)],
        "data": [t(1.0.into()), t(2.0.into()), t(3.0.into()), t(4.0.into())],
        "error": "List argument 'indices' to 'DynamicStitch' Op with length 2 must match length 4 of argument 'data'.",
    });
    let mut accepted = case.clone();
    accepted["name"] = Value::from("accepted_mismatch");
    accepted.as_object_mut().expect("case").remove("error");
    accepted["out"] = t(1.0.into());
    let doc = serde_json::json!({"op": "dynamic_stitch", "cases": [case, accepted]});
    std::fs::write(dir.join("dynamic_stitch.json"), doc.to_string()).expect("write");
    let r = run(mode, &dir);
    assert_eq!(
        summary(&r.stdout, "dynamic_stitch"),
        Some("dynamic_stitch: 1 passed, 1 failed"),
        "{mode} mode"
    );
    assert!(
        r.stdout.lines().any(|l| {
            l
            == "dynamic_stitch: 2 of them rejected by construction (inputs the API cannot express)"
        }),
        "{mode} mode: no count of the rejections by construction"
    );
    assert!(
        r.stdout.lines().any(|l| l.trim_start().starts_with(
            "accepted_mismatch#1: rejected by construction, but the framework accepted it"
        )),
        "{mode} mode: the accepted case is not reported"
    );
}

#[test]
fn dynamic_mode_rejects_by_construction() {
    check_by_construction("dynamic");
}

#[test]
fn static_mode_rejects_by_construction() {
    check_by_construction("static");
}
