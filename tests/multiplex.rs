//! multiplex: the recorded Paddle vectors through the dynamic path, a property
//! test against a naive reference, and static/dynamic agreement.
#![allow(clippy::result_large_err)] // errors carry their dims inline (no heap)

use proptest::prelude::*;
use serde_json::Value;
use shapecheck::ops::multiplex::{multiplex_output_dims, multiplex_slices};
use shapecheck::prelude::*;
use shapecheck::{multiplex, multiplex_into, MultiplexError};

// ---------------------------------------------------------------- vectors

fn dims_of(t: &Value) -> Vec<usize> {
    t["shape"]
        .as_array()
        .expect("shape")
        .iter()
        .map(|d| d.as_u64().expect("dim") as usize)
        .collect()
}

fn data_f64(t: &Value) -> Vec<f64> {
    t["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect()
}

/// Runs one case with element type `T` through `multiplex_slices` and
/// `DynTensor::multiplex`; `Ok(bits)` holds the output as f64 bit patterns.
fn run_case<T: Copy + Default + PartialEq + std::fmt::Debug>(
    case: &Value,
    conv: impl Fn(f64) -> T,
) -> Result<(Vec<usize>, Vec<T>), MultiplexError> {
    let inputs: Vec<(Vec<usize>, Vec<T>)> = case["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|t| (dims_of(t), data_f64(t).into_iter().map(&conv).collect()))
        .collect();
    let index_dims = dims_of(&case["index"]);
    let index: Vec<i32> = data_f64(&case["index"])
        .into_iter()
        .map(|v| v as i32)
        .collect();
    let pairs: Vec<(&[usize], &[T])> = inputs
        .iter()
        .map(|(d, v)| (d.as_slice(), v.as_slice()))
        .collect();
    // the output's size by the rule: the index's rows times a candidate row
    let numel = inputs.first().map_or(0, |(d, _)| {
        index_dims.first().copied().unwrap_or(0) * d.iter().skip(1).product::<usize>()
    });
    let mut out = vec![T::default(); numel];
    let slices = multiplex_slices(&pairs, &index_dims, &index, &mut out);

    // the DynTensor path must agree, with an i64 index too
    let dyn_inputs: Vec<DynTensor<T>> = inputs
        .iter()
        .map(|(d, v)| DynTensor::new(d, v.clone()).unwrap())
        .collect();
    let dyn_index = DynTensor::new(&index_dims, index.clone()).unwrap();
    let dyn_index64 =
        DynTensor::new(&index_dims, index.iter().map(|&v| v as i64).collect()).unwrap();
    let d32 = DynTensor::multiplex(&dyn_inputs, &dyn_index);
    let d64 = DynTensor::multiplex(&dyn_inputs, &dyn_index64);
    // borrowed candidates: the same op
    let refs: Vec<&DynTensor<T>> = dyn_inputs.iter().collect();
    let dref = DynTensor::multiplex(&refs, &dyn_index);
    match &slices {
        Ok(dims) => {
            let d32 = d32.expect("DynTensor path rejected what the slice path accepted");
            assert_eq!(d32.dims(), *dims);
            assert_eq!(d32.as_slice(), out.as_slice());
            assert_eq!(d64.expect("i64 index").as_slice(), out.as_slice());
            assert_eq!(
                dref.expect("borrowed candidates").as_slice(),
                out.as_slice()
            );
        }
        Err(e) => {
            assert_eq!(d32.unwrap_err(), *e);
            assert_eq!(d64.unwrap_err(), *e);
            assert_eq!(dref.unwrap_err(), *e);
        }
    }
    slices.map(|d| (d.to_vec(), out))
}

fn check_case(case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap_or("?");
    let dtype = case["inputs"][0]["dtype"].as_str().expect("dtype");
    let expected = case.get("out");
    macro_rules! go {
        ($t:ty, $conv:expr, $bits:expr) => {{
            let got = run_case::<$t>(case, $conv);
            match (got, expected) {
                (Ok((dims, data)), Some(out)) => {
                    let want: Vec<$t> = data_f64(out).into_iter().map($conv).collect();
                    if dims != dims_of(out) {
                        return Err(format!(
                            "{name}: dims {dims:?}, expected {:?}",
                            dims_of(out)
                        ));
                    }
                    let same = data.len() == want.len()
                        && data.iter().zip(&want).all(|(a, b)| $bits(*a) == $bits(*b));
                    if !same {
                        return Err(format!("{name}: got {data:?}, expected {want:?}"));
                    }
                    Ok(())
                }
                (Err(e), None) => {
                    // the error names a rule: its text is non-empty and prefixed
                    assert!(e.to_string().starts_with("multiplex: "), "{e}");
                    Ok(())
                }
                (Ok((_, data)), None) => Err(format!(
                    "{name}: accepted ({data:?}) but Paddle rejected: {}",
                    case["error"]
                )),
                (Err(e), Some(_)) => Err(format!("{name}: rejected ({e}) but Paddle accepted")),
            }
        }};
    }
    match dtype {
        "float32" => go!(f32, |v: f64| v as f32, |x: f32| x.to_bits() as u64),
        "float64" => go!(f64, |v: f64| v, |x: f64| x.to_bits()),
        "int32" => go!(i32, |v: f64| v as i32, |x: i32| x as u64),
        "int64" => go!(i64, |v: f64| v as i64, |x: i64| x as u64),
        other => Err(format!("{name}: unexpected dtype {other}")),
    }
}

#[test]
fn conformance_vectors() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/multiplex.json"
    ))
    .unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 84);
    let failures: Vec<String> = cases.iter().filter_map(|c| check_case(c).err()).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // both outcomes are represented
    assert!(cases.iter().filter(|c| c.get("out").is_some()).count() > 30);
    assert!(cases.iter().filter(|c| c.get("error").is_some()).count() > 20);
}

// ---------------------------------------------------------------- errors, one per rule

#[test]
fn every_rule_has_its_error() {
    let a = [1, 2, 3, 4];
    let b = [5, 6, 7, 8];
    let mut out = [0; 4];
    let two = [(&[2usize, 2][..], &a[..]), (&[2, 2][..], &b[..])];
    assert_eq!(
        multiplex_slices(&two[..1], &[2, 1], &[0i32, 0], &mut out),
        Err(MultiplexError::TooFewCandidates { count: 1 })
    );
    assert_eq!(
        multiplex_slices::<i32, i32>(&[], &[2, 1], &[0, 0], &mut out),
        Err(MultiplexError::TooFewCandidates { count: 0 })
    );
    let err = multiplex_slices(
        &[(&[2, 2][..], &a[..]), (&[4, 1][..], &b[..])],
        &[2, 1],
        &[0i32, 0],
        &mut out,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        MultiplexError::CandidateShapes { position: 1, .. }
    ));
    assert_eq!(
        err.to_string(),
        "multiplex: all candidate tensors must have the same shape, but candidate 0 is [2, 2] and candidate 1 is [4, 1]"
    );
    let err = multiplex_slices(
        &[(&[4][..], &a[..]), (&[4][..], &b[..])],
        &[4, 1],
        &[0i32, 0, 0, 0],
        &mut out,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "multiplex: the rank of candidate tensors must be at least 2, but the candidates are [4] (rank 1)"
    );
    for bad in [&[2usize, 2][..], &[2][..], &[2, 1, 1][..], &[][..]] {
        let idx = vec![0i32; bad.iter().product()];
        let err = multiplex_slices(&two, bad, &idx, &mut out).unwrap_err();
        assert!(
            matches!(err, MultiplexError::IndexShape { .. }),
            "{bad:?}: {err}"
        );
    }
    assert_eq!(
        multiplex_slices(&two, &[2, 2], &[0i32; 4], &mut out)
            .unwrap_err()
            .to_string(),
        "multiplex: the index must have shape [rows, 1], but it is [2, 2]"
    );
    // more index rows than candidate rows: both shapes in the message
    let err = multiplex_slices(&two, &[3, 1], &[0i32; 3], &mut [0; 6]).unwrap_err();
    assert!(matches!(err, MultiplexError::IndexRows { .. }));
    assert_eq!(
        err.to_string(),
        "multiplex: index rows must not exceed candidate rows, but the index [3, 1] has 3 rows and the candidates [2, 2] have 2"
    );
    assert!(std::error::Error::source(&err).is_none());
    // data lengths and the output buffer
    assert!(matches!(
        multiplex_slices(
            &[(&[2, 2][..], &a[..3]), (&[2, 2][..], &b[..])],
            &[2, 1],
            &[0i32, 0],
            &mut out
        ),
        Err(MultiplexError::Shape(shapecheck::ShapeError::DataLength {
            len: 3,
            ..
        }))
    ));
    assert!(matches!(
        multiplex_slices(&two, &[2, 1], &[0i32], &mut out),
        Err(MultiplexError::Shape(shapecheck::ShapeError::DataLength {
            len: 1,
            ..
        }))
    ));
    assert!(matches!(
        multiplex_slices(&two, &[2, 1], &[0i32, 0], &mut out[..3]),
        Err(MultiplexError::Shape(shapecheck::ShapeError::DataLength {
            len: 3,
            ..
        }))
    ));
    // index values: every row checked before anything is written
    let mut out = [-9; 4];
    assert_eq!(
        multiplex_slices(&two, &[2, 1], &[1i64, -3], &mut out),
        Err(MultiplexError::NegativeIndex { row: 1, value: -3 })
    );
    assert_eq!(
        multiplex_slices(&two, &[2, 1], &[0i32, 2], &mut out),
        Err(MultiplexError::IndexOutOfRange {
            row: 1,
            value: 2,
            candidates: 2
        })
    );
    assert_eq!(
        multiplex_slices(&two, &[2, 1], &[i64::MAX, 0], &mut out)
            .unwrap_err()
            .to_string(),
        format!(
            "multiplex: index exceeds the number of candidate tensors: index[0] is {}, but there are 2 candidates",
            i64::MAX
        )
    );
    assert_eq!(out, [-9; 4], "nothing written on error");
    // zero-size candidates are valid (Paddle 3.3.1): [2, 0] -> [2, 0], [0, 3] -> [0, 3]
    let empty: [i32; 0] = [];
    let zero = [(&[2, 0][..], &empty[..]), (&[2, 0][..], &empty[..])];
    assert_eq!(
        multiplex_slices(&zero, &[2, 1], &[0i32, 1], &mut []).map(|d| d.to_vec()),
        Ok(vec![2, 0])
    );
    assert_eq!(
        multiplex_output_dims(&[&[0, 3], &[0, 3]], &[0, 1]).map(|d| d.to_vec()),
        Ok(vec![0, 3])
    );
    // index values are checked even when the output is empty (deliberately
    // stricter than Paddle, which reads none there)
    assert_eq!(
        multiplex_slices(&zero, &[2, 1], &[0i32, 2], &mut []),
        Err(MultiplexError::IndexOutOfRange {
            row: 1,
            value: 2,
            candidates: 2
        })
    );
    // an element count that overflows is an error, not a wrap
    assert!(matches!(
        multiplex_output_dims(&[&[0, usize::MAX, 3], &[0, usize::MAX, 3]], &[0, 1]),
        Err(MultiplexError::Shape(
            shapecheck::ShapeError::NumelOverflow { .. }
        ))
    ));
    // fewer index rows: the output has the index's rows
    let mut out1 = [0; 2];
    assert_eq!(
        multiplex_slices(&two, &[1, 1], &[1i32], &mut out1).map(|d| d.to_vec()),
        Ok(vec![1, 2])
    );
    assert_eq!(out1, [5, 6]);
    // success
    assert_eq!(
        multiplex_slices(&two, &[2, 1], &[1i32, 0], &mut out).map(|d| d.to_vec()),
        Ok(vec![2, 2])
    );
    assert_eq!(out, [5, 6, 3, 4]);
}

// ---------------------------------------------------------------- property test

/// What the naive reference says about one input.
#[derive(Debug, PartialEq)]
enum RefOutcome<T> {
    Out(Vec<T>),
    TooFew,
    Shapes,
    Rank,
    IndexShape,
    IndexRows,
    Negative(usize),
    OutOfRange(usize),
}

/// Straight from the rule, with explicit multi-indices.
fn reference<T: Copy>(
    inputs: &[(Vec<usize>, Vec<T>)],
    index_dims: &[usize],
    index: &[i64],
) -> RefOutcome<T> {
    if inputs.len() < 2 {
        return RefOutcome::TooFew;
    }
    let dims = &inputs[0].0;
    if dims.len() < 2 {
        return RefOutcome::Rank;
    }
    if inputs.iter().any(|(d, _)| d != dims) {
        return RefOutcome::Shapes;
    }
    if index_dims.len() != 2 || index_dims[1] != 1 {
        return RefOutcome::IndexShape;
    }
    let rows = index_dims[0];
    if rows > dims[0] {
        return RefOutcome::IndexRows;
    }
    for (row, &k) in index.iter().enumerate() {
        if k < 0 {
            return RefOutcome::Negative(row);
        }
        if k as usize >= inputs.len() {
            return RefOutcome::OutOfRange(row);
        }
    }
    let inner: usize = dims[1..].iter().product();
    let mut out = Vec::new();
    for i in 0..rows {
        let src = &inputs[index[i] as usize].1;
        for j in 0..inner {
            out.push(src[i * inner + j]);
        }
    }
    RefOutcome::Out(out)
}

fn outcome_of<T: Copy>(r: Result<shapecheck::Dims, MultiplexError>, out: Vec<T>) -> RefOutcome<T> {
    match r {
        Ok(_) => RefOutcome::Out(out),
        Err(MultiplexError::TooFewCandidates { .. }) => RefOutcome::TooFew,
        Err(MultiplexError::CandidateShapes { .. }) => RefOutcome::Shapes,
        Err(MultiplexError::CandidateRank { .. }) => RefOutcome::Rank,
        Err(MultiplexError::IndexShape { .. }) => RefOutcome::IndexShape,
        Err(MultiplexError::IndexRows { .. }) => RefOutcome::IndexRows,
        Err(MultiplexError::NegativeIndex { row, .. }) => RefOutcome::Negative(row),
        Err(MultiplexError::IndexOutOfRange { row, .. }) => RefOutcome::OutOfRange(row),
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// A case: candidate count, the candidates' dims, maybe one candidate with
/// other dims, the index dims and values.
/// Candidates as (dims, data), the index dims, the index values.
type Case = (Vec<(Vec<usize>, Vec<i32>)>, Vec<usize>, Vec<i64>);

fn case_strategy() -> impl Strategy<Value = Case> {
    (
        0usize..7,
        prop::collection::vec(0usize..4, 1..5),
        any::<u8>(),
        any::<u8>(),
    )
        .prop_flat_map(|(count, dims, shape_tweak, index_tweak)| {
            let rows = dims[0];
            let mut index_dims = vec![rows, 1];
            match index_tweak % 10 {
                0 => index_dims = vec![rows + 1 + (index_tweak as usize / 10) % 3, 1],
                1 => index_dims = vec![rows, 2],
                2 => index_dims = vec![rows],
                // fewer rows (zero included)
                3 | 4 => index_dims = vec![(index_tweak as usize / 10) % (rows + 1), 1],
                _ => {}
            }
            let n_idx: usize = index_dims.iter().product();
            let numel: usize = dims.iter().product();
            let other = (shape_tweak % 12 == 0 && count > 1).then(|| {
                let mut d = dims.clone();
                let last = d.len() - 1;
                d[last] += 1;
                d
            });
            let hi = count as i64 + 1;
            // mostly valid index values, sometimes one out of range or negative
            let idx = prop::collection::vec(
                prop_oneof![8 => 0..(count.max(1) as i64), 1 => -2..hi + 1],
                n_idx,
            );
            let data = prop::collection::vec(prop::collection::vec(any::<i32>(), numel), count);
            (Just(dims), Just(other), Just(index_dims), idx, data)
        })
        .prop_map(|(dims, other, index_dims, idx, data)| {
            let mut inputs: Vec<(Vec<usize>, Vec<i32>)> =
                data.into_iter().map(|v| (dims.clone(), v)).collect();
            if let Some(o) = other {
                let n = o.iter().product();
                let last = inputs.len() - 1;
                inputs[last] = (o, vec![7; n]);
            }
            (inputs, index_dims, idx)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn slices_match_reference((inputs, index_dims, index) in case_strategy()) {
        let want = reference(&inputs, &index_dims, &index);
        let pairs: Vec<(&[usize], &[i32])> =
            inputs.iter().map(|(d, v)| (d.as_slice(), v.as_slice())).collect();
        // the rule's output size, or a guess when the shapes are rejected
        let numel = inputs.first().map_or(0, |(d, _)| {
            index_dims[0] * d.iter().skip(1).product::<usize>()
        });
        let sentinel = i32::MIN + 17;
        let mut out = vec![sentinel; numel];
        let got = multiplex_slices(&pairs, &index_dims, &index, &mut out);
        let ok = got.is_ok();
        prop_assert_eq!(outcome_of(got, out.clone()), want);
        if !ok {
            prop_assert!(out.iter().all(|&v| v == sentinel), "written on error");
        }
        // same answer with an i32 index and through DynTensor
        let index32: Vec<i32> = index.iter().map(|&v| v as i32).collect();
        let mut out32 = vec![sentinel; numel];
        let got32 = multiplex_slices(&pairs, &index_dims, &index32, &mut out32);
        prop_assert_eq!(got32.is_ok(), ok);
        prop_assert_eq!(&out32, &out);
        if let (Ok(dyn_inputs), Ok(dyn_index)) = (
            inputs.iter().map(|(d, v)| DynTensor::new(d, v.clone())).collect::<Result<Vec<_>, _>>(),
            DynTensor::new(&index_dims, index.clone()),
        ) {
            match DynTensor::multiplex(&dyn_inputs, &dyn_index) {
                Ok(t) => { prop_assert!(ok); prop_assert_eq!(t.as_slice(), out.as_slice()); }
                Err(_) => prop_assert!(!ok),
            }
        }
    }
}

// ---------------------------------------------------------------- static vs dynamic

fn dyn_reference(
    data: &[Vec<f64>],
    dims: &[usize],
    index: &[i32],
) -> Result<Vec<f64>, MultiplexError> {
    let pairs: Vec<(&[usize], &[f64])> = data.iter().map(|v| (dims, v.as_slice())).collect();
    let rows = index.len();
    let mut out = vec![0.0; rows * dims[1..].iter().product::<usize>()];
    multiplex_slices(&pairs, &[rows, 1], index, &mut out).map(|_| out)
}

proptest! {
    #[test]
    fn static_matches_dynamic(
        data in prop::collection::vec(prop::collection::vec(-100i32..100, 24), 3),
        index in prop::collection::vec(-1i32..4, 4),
    ) {
        type S = shape![4, 3, 2];
        let data: Vec<Vec<f64>> = data.into_iter().map(|v| v.into_iter().map(|x| x as f64 / 2.0).collect()).collect();
        let inputs: [Tensor<f64, S>; 3] =
            std::array::from_fn(|k| Tensor::from_slice(&data[k]).unwrap());
        let idx = Tensor::<i32, shape![4, 1]>::from_slice(&index).unwrap();
        let want = dyn_reference(&data, &[4, 3, 2], &index);
        // inline
        let got = multiplex(&inputs, &idx).run().map(|t| t.to_vec());
        prop_assert_eq!(&got, &want);
        // heap candidates, heap result
        let heap: [Tensor<f64, S, Vec<f64>>; 3] = std::array::from_fn(|k| inputs[k].to_heap());
        let got = multiplex(&heap, &idx).run().map(|t| t.to_vec());
        prop_assert_eq!(&got, &want);
        // views into a caller's buffer
        let views: [Tensor<f64, S, &[f64]>; 3] = std::array::from_fn(|k| inputs[k].view());
        let mut buf = vec![0.0; 24];
        let mut out = Tensor::<f64, S, &mut [f64]>::from_storage(&mut buf[..]).unwrap();
        let r = multiplex_into(&views, &idx, &mut out);
        prop_assert_eq!(r.is_ok(), want.is_ok());
        if let Ok(w) = &want { prop_assert_eq!(&buf, w); } else { prop_assert!(buf.iter().all(|&v| v == 0.0)); }
        // run-time rows
        let dyn_inputs: [Tensor<f64, shape![Dyn, 6], Vec<f64>>; 3] =
            std::array::from_fn(|k| Tensor::from_vec((Dyn(4), Dim::<6>), data[k].clone()).unwrap());
        let dyn_idx = Tensor::<i32, shape![Dyn, Dyn], Vec<i32>>::from_vec((Dyn(4), Dyn(1)), index.clone()).unwrap();
        let got = multiplex(&dyn_inputs, &dyn_idx).run().map(|t| t.to_vec());
        prop_assert_eq!(&got, &want);
        // the builder's buffer form, static and run-time rows: the output at
        // the front, the rest of the buffer as it was; untouched on error
        for (k, buf_len) in [(0usize, 30usize), (1, 30), (0, 23), (1, 23)] {
            let mut buf = vec![9.5; buf_len];
            let got = if k == 0 {
                multiplex(&inputs, &idx).run_into(&mut buf).map(|t| t.to_vec())
            } else {
                multiplex(&dyn_inputs, &dyn_idx).run_into(&mut buf).map(|t| t.to_vec())
            };
            match (&want, buf_len >= 24) {
                (Ok(w), true) => {
                    prop_assert_eq!(got.as_ref(), Ok(w));
                    prop_assert_eq!(&buf[..24], w.as_slice());
                    prop_assert!(buf[24..].iter().all(|&v| v == 9.5));
                }
                // a bad index value is reported before a short buffer
                (Err(e), _) => prop_assert_eq!(got, Err(*e)),
                (Ok(_), false) => {
                    let err = got.unwrap_err();
                    prop_assert_eq!(err.rule(), "multiplex/buffer");
                    let dims = if k == 0 { "[4, 3, 2]" } else { "[4, 6]" };
                    prop_assert_eq!(err.to_string(), format!("multiplex: the output {dims} needs 24 elements, but the buffer holds 23"));
                }
            }
            if got_failed(&want, buf_len) {
                prop_assert!(buf.iter().all(|&v| v == 9.5), "written on error");
            }
        }
    }
}

/// Whether a `run_into` with this reference answer and buffer length fails.
fn got_failed(want: &Result<Vec<f64>, MultiplexError>, buf_len: usize) -> bool {
    want.is_err() || buf_len < 24
}

#[test]
fn run_into_checks_the_rule_before_the_buffer() {
    // run-time rows: 3 index rows against candidates of 2 is the rule's
    // error, whatever the buffer
    let a = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim::<2>), vec![1, 2, 3, 4])
        .unwrap();
    let idx =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(3), One), vec![0, 1, 0]).unwrap();
    let mut buf = [7; 2];
    let err = multiplex(&[a.clone(), a.clone()], &idx)
        .run_into(&mut buf)
        .unwrap_err();
    assert_eq!(err.rule(), "multiplex/index-rows");
    assert_eq!(buf, [7; 2]);
    // the same builder, reused: each form gives the same rows
    let idx = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 0]).unwrap();
    let b = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim::<2>), vec![5, 6, 7, 8])
        .unwrap();
    let candidates = [a, b];
    let op = multiplex(&candidates, &idx);
    let mut buf = [0; 4];
    let view = op.run_into(&mut buf).unwrap();
    assert_eq!(
        (view.dims().as_slice(), view.as_slice()),
        (&[2, 2][..], &[5, 6, 3, 4][..])
    );
    assert_eq!(op.run().unwrap().as_slice(), &[5, 6, 3, 4]);
    assert_eq!(op.run_bounded::<2>().unwrap().as_slice(), &[5, 6, 3, 4]);
    assert_eq!(op.output_dims().unwrap().as_slice(), &[2, 2]);
}

#[test]
fn static_run_time_dims_are_checked() {
    let a = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim::<2>), vec![1, 2, 3, 4])
        .unwrap();
    let b = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim::<2>), vec![5, 6, 7, 8])
        .unwrap();
    let wide =
        Tensor::<i32, shape![Dyn, Dyn], Vec<i32>>::from_vec((Dyn(2), Dyn(2)), vec![0, 1, 1, 0])
            .unwrap();
    assert!(matches!(
        multiplex(&[a.clone(), b.clone()], &wide).run(),
        Err(MultiplexError::IndexShape { .. })
    ));
    let zero =
        Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(0), Dim::<2>), vec![]).unwrap();
    let idx0 = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(0), One), vec![]).unwrap();
    let out = multiplex(&[zero.clone(), zero.clone()], &idx0)
        .run()
        .unwrap();
    assert_eq!(out.dims().as_slice(), &[0, 2]);
    let idx1 = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(1), One), vec![0]).unwrap();
    assert!(matches!(
        multiplex(&[zero.clone(), zero], &idx1).run(),
        Err(MultiplexError::IndexRows { .. })
    ));
    // multiplex_into checks the output's run-time dims
    let idx = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 0]).unwrap();
    let mut small =
        Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(1), Dim::<2>), vec![0, 0]).unwrap();
    assert!(matches!(
        multiplex_into(&[a.clone(), b.clone()], &idx, &mut small),
        Err(MultiplexError::Shape(
            shapecheck::ShapeError::OutputShape { .. }
        ))
    ));
}

/// The static fast path checks every index value before writing: a bad
/// value in the last row leaves the output untouched; so does a run-time
/// row rule broken through `multiplex_into`.
#[test]
fn erroring_calls_leave_the_output_untouched() {
    let a = Tensor::<i64, shape![3, 2]>::from_array([[1, 2], [3, 4], [5, 6]]);
    let b = Tensor::<i64, shape![3, 2]>::from_array([[7, 8], [9, 10], [11, 12]]);
    let mut out = Tensor::<i64, shape![3, 2]>::full(-1);
    let bad = Tensor::<i64, shape![3, 1]>::from_array([[1], [0], [2]]);
    assert_eq!(
        multiplex_into(&[a, b], &bad, &mut out),
        Err(MultiplexError::IndexOutOfRange {
            row: 2,
            value: 2,
            candidates: 2
        })
    );
    let neg = Tensor::<i32, shape![3, 1]>::from_array([[1], [0], [i32::MIN]]);
    assert_eq!(
        multiplex_into(&[a, b], &neg, &mut out),
        Err(MultiplexError::NegativeIndex {
            row: 2,
            value: i64::from(i32::MIN)
        })
    );
    let huge = Tensor::<i64, shape![3, 1]>::from_array([[i64::MAX], [0], [1]]);
    assert!(multiplex_into(&[a, b], &huge, &mut out).is_err());
    assert_eq!(out.as_slice(), &[-1; 6]);

    // fewer rows: a [2, 2] output; a bad value in it still writes nothing
    let mut out2 = Tensor::<i64, shape![2, 2]>::full(-1);
    let bad2 = Tensor::<i32, shape![2, 1]>::from_array([[0], [3]]);
    assert!(multiplex_into(&[a, b], &bad2, &mut out2).is_err());
    assert_eq!(out2.as_slice(), &[-1; 4]);
    let good2 = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    multiplex_into(&[a, b], &good2, &mut out2).unwrap();
    assert_eq!(out2.as_slice(), &[7, 8, 3, 4]);

    // a run-time index row count above the candidates': an error, nothing written
    let long =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(4), One), vec![0, 1, 0, 1]).unwrap();
    let mut out4 =
        Tensor::<i64, shape![Dyn, 2], Vec<i64>>::from_vec((Dyn(4), Dim::<2>), vec![-1; 8]).unwrap();
    assert!(matches!(
        multiplex_into(&[a, b], &long, &mut out4),
        Err(MultiplexError::IndexRows { .. })
    ));
    assert_eq!(out4.as_slice(), &[-1; 8]);

    // the dynamic path
    let cands = [
        (&[3usize, 2][..], a.as_slice()),
        (&[3, 2][..], b.as_slice()),
    ];
    let mut buf = [-1i64; 8];
    assert!(multiplex_slices(&cands, &[4, 1], &[0i32; 4], &mut buf).is_err());
    assert!(multiplex_slices(&cands, &[2, 1], &[0i32, 5], &mut buf[..4]).is_err());
    assert!(multiplex_slices(&cands, &[2, 1], &[0i32, 1], &mut buf[..5]).is_err());
    assert_eq!(buf, [-1; 8]);
}

#[test]
fn is_below_matches_the_rule() {
    use shapecheck::IndexElement;
    for count in [0usize, 1, 2, 4, 1 << 31, (1 << 31) + 5, usize::MAX] {
        for v in [i32::MIN, -2, -1, 0, 1, 3, 4, i32::MAX] {
            let want = v >= 0 && usize::try_from(v).is_ok_and(|u| u < count);
            assert_eq!(v.is_below(count), want, "{v} below {count}");
            assert_eq!(i64::from(v).is_below(count), want, "{v} below {count}");
        }
        for v in [i64::MIN, -1, i64::MAX, 1 << 40] {
            let want = v >= 0 && usize::try_from(v).is_ok_and(|u| u < count);
            assert_eq!(v.is_below(count), want, "{v} below {count}");
        }
    }
}

proptest! {
    /// Fewer index rows on the static path (inline, heap, views, run-time
    /// rows) agree with the dynamic path and its output type has those rows.
    #[test]
    fn static_fewer_rows_match_dynamic(
        data in prop::collection::vec(prop::collection::vec(-100i32..100, 12), 2),
        index in prop::collection::vec(-1i32..3, 2),
    ) {
        type S = shape![4, 3];
        let data: Vec<Vec<f64>> = data.into_iter().map(|v| v.into_iter().map(f64::from).collect()).collect();
        let inputs: [Tensor<f64, S>; 2] = std::array::from_fn(|k| Tensor::from_slice(&data[k]).unwrap());
        let idx = Tensor::<i32, shape![2, 1]>::from_slice(&index).unwrap();
        let want = dyn_reference(&data, &[4, 3], &index);
        let got: Result<Tensor<f64, shape![2, 3]>, _> = multiplex(&inputs, &idx).run();
        prop_assert_eq!(&got.map(|t| t.to_vec()), &want);
        let heap: [Tensor<f64, S, Vec<f64>>; 2] = std::array::from_fn(|k| inputs[k].to_heap());
        prop_assert_eq!(&shapecheck::multiplex!(idx; heap[0], heap[1]).map(|t| t.to_vec()), &want);
        let dyn_idx = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), index.clone()).unwrap();
        prop_assert_eq!(&multiplex(&heap, &dyn_idx).run().map(|t| t.to_vec()), &want);
    }
}
