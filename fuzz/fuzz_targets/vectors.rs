//! The conformance tool's vector-file reader (`conformance::vectors`):
//! `parse_file` on arbitrary bytes (about half the inputs) or on generated
//! vector-file-like JSON, then `Case::tensor`/`field`/`attr` on every field of
//! every case and `TensorVal::parse` on every object and list element.
//!
//! Invariants: no panic, every rejection is an error message; a file is
//! accepted exactly when it is a JSON object with a string `op` and a list
//! `cases`; each case's name and verdict follow the reader's rules; a tensor
//! is accepted exactly when the naive reference (`shapecheck_fuzz::json`)
//! accepts it, with the same shape, dtype, length and integer values.
#![no_main]

use conformance::vectors::{parse_file, Data, Expect, TensorVal};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use shapecheck_fuzz::json::{file, ref_tensor};
use shapecheck_fuzz::*;
use std::path::Path;

/// `TensorVal::parse` against the reference.
fn check_tensor(v: &Value) {
    let got = TensorVal::parse(v);
    let want = ref_tensor(v);
    match (&got, &want) {
        (Ok(t), Some(w)) => {
            assert_eq!(t.shape, w.shape, "{v}");
            assert_eq!(t.dtype(), w.dtype, "{v}");
            assert_eq!(t.data.len(), w.len, "{v}");
            let ints: Option<Vec<i64>> = match &t.data {
                Data::I32(d) => Some(d.iter().map(|&x| i64::from(x)).collect()),
                Data::I64(d) => Some(d.clone()),
                _ => None,
            };
            assert_eq!(ints, w.ints, "{v}");
        }
        (Err(e), None) => assert!(!e.is_empty()),
        _ => panic!("reader {got:?}, reference {want:?}, on {v}"),
    }
}

fuzz_target!(|bytes: &[u8]| {
    // raw bytes when they start with `{` (the seeds) or an odd byte, else
    // a generated file
    let rest = bytes.get(1..).unwrap_or_default();
    let text: Vec<u8> = match bytes.first() {
        Some(b'{') => bytes.to_vec(),
        Some(b) if b & 1 == 1 => rest.to_vec(),
        _ => file(&mut Unstructured::new(rest)).to_string().into_bytes(),
    };
    let parsed = parse_file(Path::new("fuzz.json"), &text);
    let json: Option<Value> = serde_json::from_slice(&text).ok();
    let want_ok = json.as_ref().is_some_and(|j| {
        j.get("op").is_some_and(Value::is_string) && j.get("cases").is_some_and(Value::is_array)
    });
    let file = match parsed {
        Err(e) => {
            assert!(!want_ok, "rejected a well-formed file: {e}");
            assert!(e.contains("fuzz.json"), "error does not name the file: {e}");
            return;
        }
        Ok(f) => f,
    };
    assert!(want_ok, "accepted a malformed file");
    let Some(json) = json else { return };
    assert_eq!(Some(file.family.as_str()), json["op"].as_str());
    let raw_cases = json["cases"].as_array().map_or(&[][..], |c| &c[..]);
    assert_eq!(file.cases.len(), raw_cases.len());
    for (i, (case, raw)) in file.cases.iter().zip(raw_cases).enumerate() {
        assert_eq!(case.index, i);
        assert_eq!(&case.raw, raw);
        assert_eq!(
            case.name,
            raw.get("name").and_then(Value::as_str).unwrap_or("unnamed")
        );
        assert!(!case.label().is_empty());
        let is_out = raw.get("out").is_some() && raw.get("error").is_none();
        assert_eq!(matches!(case.expect, Expect::Out(_)), is_out);
        let _ = case.attr("axis");
        let Some(obj) = raw.as_object() else {
            assert!(case.tensor("x").is_err());
            continue;
        };
        for (key, v) in obj {
            assert!(case.field(key).is_ok());
            let _ = case.tensor(key);
            check_tensor(v);
            if let Some(list) = v.as_array() {
                list.iter().for_each(check_tensor);
            }
        }
        assert!(case.field("no such field").is_err());
    }
});
