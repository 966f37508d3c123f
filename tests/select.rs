//! `select` (OpenVINO Select-1): reference values from OpenVINO's tests
//! (op-semantics.md §2), every recorded vector through the dynamic path,
//! property tests against a naive reference, and static/dynamic agreement.

// SelectError carries its shapes inline (no heap), which clippy finds large.
#![allow(clippy::result_large_err)]

mod shape_support;

use proptest::prelude::*;
use serde_json::Value;
use shape_support::derived;
use shapecheck::ops::select::SelectOutput;
use shapecheck::prelude::*;
use shapecheck::AutoBroadcast;
use shapecheck::{
    select, select_into, select_output_dims, select_slices, try_select, try_select_into, Dims,
    SelectError, SelectInput, SelectMode, ShapeError,
};

fn bools(v: &[u8]) -> Vec<bool> {
    v.iter().map(|&b| b != 0).collect()
}

fn dyn_select<T: Copy + Default>(
    mode: AutoBroadcast,
    c: (&[usize], &[bool]),
    t: (&[usize], &[T]),
    e: (&[usize], &[T]),
) -> Result<DynTensor<T>, SelectError> {
    DynTensor::select(
        &DynTensor::new(c.0, c.1.to_vec()).unwrap(),
        &DynTensor::new(t.0, t.1.to_vec()).unwrap(),
        &DynTensor::new(e.0, e.1.to_vec()).unwrap(),
        mode,
    )
}

// ------------------------------------------------------------ reference values

#[test]
fn openvino_reference_none_2x2x2() {
    let c = bools(&[0, 1, 1, 0, 0, 1, 0, 1]);
    let t: Vec<i32> = (1..=8).collect();
    let e: Vec<i32> = (11..=18).collect();
    let d = [2, 2, 2];
    let out = dyn_select(AutoBroadcast::None, (&d, &c), (&d, &t), (&d, &e)).unwrap();
    assert_eq!(out.dims().as_slice(), &[2, 2, 2]);
    assert_eq!(out.as_slice(), &[11, 2, 3, 14, 15, 6, 17, 8]);

    // the static path, inline
    let cs = Tensor::<bool, shape![2, 2, 2]>::from_slice(&c).unwrap();
    let ts = Tensor::<i32, shape![2, 2, 2]>::from_slice(&t).unwrap();
    let es = Tensor::<i32, shape![2, 2, 2]>::from_slice(&e).unwrap();
    let o: Tensor<i32, shape![2, 2, 2]> = select(&cs, &ts, &es, NoBroadcast);
    assert_eq!(o.as_slice(), out.as_slice());
}

#[test]
fn openvino_reference_numpy() {
    let c = bools(&[0, 1, 1, 0]);
    let t: Vec<i32> = (1..=4).collect();
    let e: Vec<i32> = (11..=18).collect();
    let out = dyn_select(AutoBroadcast::Numpy, (&[4], &c), (&[4], &t), (&[2, 4], &e)).unwrap();
    assert_eq!(out.dims().as_slice(), &[2, 4]);
    assert_eq!(out.as_slice(), &[11, 2, 3, 14, 15, 2, 3, 18]);

    let cs = Tensor::<bool, shape![4]>::from_slice(&c).unwrap();
    let ts = Tensor::<i32, shape![4]>::from_slice(&t).unwrap();
    let es = Tensor::<i32, shape![2, 4]>::from_slice(&e).unwrap();
    let o: Tensor<i32, shape![2, 4]> = select(&cs, &ts, &es, Numpy);
    assert_eq!(o.as_slice(), out.as_slice());
}

#[test]
fn openvino_reference_pdpd_minus_one() {
    let c = bools(&[0, 0, 0, 0, 0, 1, 1, 1]);
    let t: Vec<i32> = (1..=8).collect();
    let e: Vec<i32> = (11..=14).collect();
    let mode = AutoBroadcast::Pdpd { axis: -1 };
    let out = dyn_select(mode, (&[2, 4], &c), (&[2, 4], &t), (&[4], &e)).unwrap();
    assert_eq!(out.dims().as_slice(), &[2, 4]);
    assert_eq!(out.as_slice(), &[11, 12, 13, 14, 11, 6, 7, 8]);

    let cs = Tensor::<bool, shape![2, 4]>::from_slice(&c).unwrap();
    let ts = Tensor::<i32, shape![2, 4]>::from_slice(&t).unwrap();
    let es = Tensor::<i32, shape![4]>::from_slice(&e).unwrap();
    let o: Tensor<i32, shape![2, 4]> = select(&cs, &ts, &es, Pdpd::<-1>);
    assert_eq!(o.as_slice(), out.as_slice());
    // at axis 0 else's 4 meets then's 2
    let err = dyn_select(
        AutoBroadcast::Pdpd { axis: 0 },
        (&[2, 4], &c),
        (&[2, 4], &t),
        (&[4], &e),
    )
    .unwrap_err();
    assert_eq!(
        err,
        SelectError::PdpdDimMismatch {
            input: SelectInput::Else,
            source: Dims::new(&[4]).unwrap(),
            then: Dims::new(&[2, 4]).unwrap(),
            axis: 0,
            position: 0,
            source_dim: 4,
            then_dim: 2,
        }
    );
}

#[test]
fn spec_example() {
    let cond =
        Tensor::<bool, shape![3, 2]>::from_array([[false, false], [true, false], [true, true]]);
    let then = Tensor::<i64, shape![3, 2]>::from_array([[-1, 0], [1, 2], [3, 4]]);
    let els = Tensor::<i64, shape![3, 2]>::from_array([[11, 10], [9, 8], [7, 6]]);
    for out in [
        select(&cond, &then, &els, NoBroadcast),
        select(&cond, &then, &els, Numpy),
        select(&cond, &then, &els, Pdpd::<0>),
        select(&cond, &then, &els, Pdpd::<-1>),
    ] {
        assert_eq!(out.as_slice(), &[11, 10, 1, 8, 3, 4]);
    }
}

/// OpenVINO's type_prop shape cases (cond, then, else) → out.
#[test]
fn openvino_type_prop_shapes() {
    let n = AutoBroadcast::Numpy;
    type Case<'a> = (
        AutoBroadcast,
        &'a [usize],
        &'a [usize],
        &'a [usize],
        &'a [usize],
    );
    let ok: &[Case] = &[
        (n, &[2, 4], &[2, 4], &[2, 4], &[2, 4]),
        (AutoBroadcast::None, &[2, 4], &[2, 4], &[2, 4], &[2, 4]),
        (n, &[], &[2, 4], &[2, 4], &[2, 4]),
        (n, &[], &[4], &[2, 4], &[2, 4]),
        (n, &[], &[2, 4], &[4], &[2, 4]),
        (n, &[4], &[2, 4], &[4], &[2, 4]),
        (n, &[4], &[4], &[2, 4], &[2, 4]),
        // cond merged bidirectionally (the spec text says one way)
        (n, &[2, 4], &[4], &[4], &[2, 4]),
        (
            AutoBroadcast::Pdpd { axis: 0 },
            &[2, 4],
            &[2, 4],
            &[2],
            &[2, 4],
        ),
        (
            AutoBroadcast::Pdpd { axis: 1 },
            &[4],
            &[2, 4],
            &[4],
            &[2, 4],
        ),
        (
            AutoBroadcast::Pdpd { axis: 1 },
            &[1],
            &[2, 4],
            &[4],
            &[2, 4],
        ),
        (
            AutoBroadcast::Pdpd { axis: 0 },
            &[4],
            &[4, 2, 3, 8],
            &[4, 2, 3, 1],
            &[4, 2, 3, 8],
        ),
        (n, &[6, 4], &[6, 4], &[6, 4], &[6, 4]),
        (AutoBroadcast::None, &[6, 4], &[6, 4], &[6, 4], &[6, 4]),
    ];
    for &(mode, c, t, e, out) in ok {
        assert_eq!(
            select_output_dims(mode, c, t, e).unwrap().as_slice(),
            out,
            "{mode} {c:?} {t:?} {e:?}"
        );
    }
    let bad: &[(&[usize], &[usize], &[usize])] = &[
        (&[3, 5], &[2, 4], &[2, 4]),
        (&[2, 4], &[3, 5], &[2, 4]),
        (&[2, 4], &[2, 4], &[3, 5]),
        (&[2, 4], &[2, 3], &[2, 4]),
    ];
    for &(c, t, e) in bad {
        for mode in [AutoBroadcast::Numpy, AutoBroadcast::None] {
            assert!(
                select_output_dims(mode, c, t, e).is_err(),
                "{mode} {c:?} {t:?} {e:?}"
            );
        }
    }
}

#[test]
fn error_variants_and_messages() {
    let d = |x: &[usize]| Dims::new(x).unwrap();
    let e = select_output_dims(AutoBroadcast::Numpy, &[3, 5], &[2, 4], &[2, 4]).unwrap_err();
    assert_eq!(
        e,
        SelectError::NumpyMismatch {
            cond: d(&[3, 5]),
            then: d(&[2, 4]),
            els: d(&[2, 4]),
            position: 0,
            cond_dim: 3,
            then_dim: 2,
            else_dim: 2,
        }
    );
    assert_eq!(
        e.to_string(),
        "select (numpy): cond [3, 5], then [2, 4] and else [2, 4] do not broadcast: right-aligned, \
         output dim 0 meets cond 3, then 2 and else 2; the dims other than 1 must be equal"
    );
    let e = select_output_dims(AutoBroadcast::None, &[], &[4], &[4]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "select (none): cond [], then [4] and else [4] must have the same shape"
    );
    let e = select_output_dims(AutoBroadcast::Pdpd { axis: -2 }, &[], &[4], &[4]).unwrap_err();
    assert_eq!(
        e,
        SelectError::PdpdAxis {
            axis: -2,
            then: d(&[4])
        }
    );
    assert_eq!(
        e.to_string(),
        "select (pdpd, axis -2): the axis must be -1 or in [0, 1] for then [4]"
    );
    let e = select_output_dims(AutoBroadcast::Pdpd { axis: 3 }, &[], &[2, 3], &[]).unwrap_err();
    assert!(matches!(e, SelectError::PdpdAxis { axis: 3, .. }));
    // the axis may equal rank(then) for sources of trailing 1s only
    assert_eq!(
        select_output_dims(AutoBroadcast::Pdpd { axis: 2 }, &[1], &[2, 3], &[])
            .unwrap()
            .as_slice(),
        &[2, 3]
    );
    let e = select_output_dims(
        AutoBroadcast::Pdpd { axis: 0 },
        &[2, 3],
        &[2, 3],
        &[2, 3, 1],
    )
    .unwrap_err();
    assert_eq!(
        e,
        SelectError::PdpdRankHigher {
            input: SelectInput::Else,
            source: d(&[2, 3, 1]),
            then: d(&[2, 3]),
            axis: 0
        }
    );
    // runs past: trailing 1s are dropped, anything else is an error
    assert_eq!(
        select_output_dims(AutoBroadcast::Pdpd { axis: 1 }, &[], &[2, 3], &[3, 1])
            .unwrap()
            .as_slice(),
        &[2, 3]
    );
    let e = select_output_dims(AutoBroadcast::Pdpd { axis: 1 }, &[3, 2], &[2, 3], &[]).unwrap_err();
    assert_eq!(
        e,
        SelectError::PdpdRunsPast {
            input: SelectInput::Cond,
            source: d(&[3, 2]),
            then: d(&[2, 3]),
            axis: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "select (pdpd, axis 1): cond [3, 2] placed at the axis runs past the last dim of then \
         [2, 3]; only trailing dims of size 1 can be dropped"
    );
    // -1 is per source: cond [3] right-aligned, else [2, 3] at 0 of then [2, 3]
    assert_eq!(
        select_output_dims(AutoBroadcast::Pdpd { axis: -1 }, &[3], &[2, 3], &[2, 3])
            .unwrap()
            .as_slice(),
        &[2, 3]
    );
    // one way: then's 1 does not take else's 3
    let e = select_output_dims(AutoBroadcast::Pdpd { axis: 0 }, &[], &[2, 1], &[2, 3]).unwrap_err();
    assert!(
        e.to_string()
            .contains("its dim 3 is placed on then's dim 1"),
        "{e}"
    );
    // data and output lengths
    let mut out = [0; 4];
    let e = select_slices(
        AutoBroadcast::Numpy,
        &[4],
        &[true; 3],
        &[4],
        &[1; 4],
        &[4],
        &[2; 4],
        &mut out,
    )
    .unwrap_err();
    assert!(matches!(
        e,
        SelectError::Shape(ShapeError::DataLength {
            numel: 4,
            len: 3,
            ..
        })
    ));
    let e = select_slices(
        AutoBroadcast::Numpy,
        &[4],
        &[true; 4],
        &[4],
        &[1; 4],
        &[4],
        &[2; 4],
        &mut out[..3],
    )
    .unwrap_err();
    assert!(matches!(
        e,
        SelectError::Shape(ShapeError::DataLength {
            numel: 4,
            len: 3,
            ..
        })
    ));
    let e = select_output_dims(AutoBroadcast::Numpy, &[1; 9], &[], &[]).unwrap_err();
    assert!(matches!(
        e,
        SelectError::Shape(ShapeError::RankTooLarge { rank: 9 })
    ));
}

// ------------------------------------------------------------ recorded vectors

fn dims_of(t: &Value) -> Vec<usize> {
    t["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect()
}

trait Exact: Copy + Default + std::fmt::Debug {
    fn parse(v: &Value) -> Self;
    fn bits(self) -> u64;
}
impl Exact for f32 {
    fn parse(v: &Value) -> Self {
        v.as_f64().unwrap() as f32
    }
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
}
impl Exact for f64 {
    fn parse(v: &Value) -> Self {
        v.as_f64().unwrap()
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}
impl Exact for i32 {
    fn parse(v: &Value) -> Self {
        v.as_i64().unwrap() as i32
    }
    fn bits(self) -> u64 {
        self as u32 as u64
    }
}
impl Exact for i64 {
    fn parse(v: &Value) -> Self {
        v.as_i64().unwrap()
    }
    fn bits(self) -> u64 {
        self as u64
    }
}

fn data_of<T: Exact>(t: &Value) -> Vec<T> {
    t["data"].as_array().unwrap().iter().map(T::parse).collect()
}

fn run_vector<T: Exact>(case: &Value, mode: AutoBroadcast) -> Result<(), String> {
    let name = case["name"].as_str().unwrap();
    let c = &case["cond"];
    assert_eq!(c["dtype"], "bool", "{name}");
    let cd = dims_of(c);
    let cv: Vec<bool> = c["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_bool().unwrap())
        .collect();
    let (td, tv) = (dims_of(&case["then"]), data_of::<T>(&case["then"]));
    let (ed, ev) = (dims_of(&case["else"]), data_of::<T>(&case["else"]));
    let got = dyn_select(mode, (&cd, &cv), (&td, &tv), (&ed, &ev));
    let dims_only = select_output_dims(mode, &cd, &td, &ed);
    match (&case.get("out"), got) {
        (Some(out), Ok(got)) => {
            let want_dims = dims_of(out);
            let want: Vec<T> = data_of(out);
            if got.dims().as_slice() != want_dims.as_slice() {
                return Err(format!("{name}: dims {} != {want_dims:?}", got.dims()));
            }
            if dims_only.ok() != Some(got.dims()) {
                return Err(format!("{name}: select_output_dims disagrees"));
            }
            let gb: Vec<u64> = got.as_slice().iter().map(|v| v.bits()).collect();
            let wb: Vec<u64> = want.iter().map(|v| v.bits()).collect();
            if gb != wb {
                return Err(format!("{name}: {:?} != {want:?}", got.as_slice()));
            }
            // the no-heap entry point gives the same values
            let mut buf = vec![T::default(); want.len()];
            select_slices(mode, &cd, &cv, &td, &tv, &ed, &ev, &mut buf).unwrap();
            if buf.iter().map(|v| v.bits()).collect::<Vec<_>>() != wb {
                return Err(format!("{name}: select_slices disagrees"));
            }
            Ok(())
        }
        (Some(_), Err(e)) => Err(format!("{name}: rejected ({e}) but OpenVINO accepted")),
        (None, Ok(_)) => Err(format!(
            "{name}: accepted but OpenVINO rejected: {}",
            case["error"]
        )),
        (None, Err(e)) => {
            if dims_only.is_ok() {
                return Err(format!("{name}: select_output_dims accepted"));
            }
            // the error names the rule of the mode
            let rule_ok = match mode {
                AutoBroadcast::None => matches!(e, SelectError::NoneMismatch { .. }),
                AutoBroadcast::Numpy => matches!(e, SelectError::NumpyMismatch { .. }),
                AutoBroadcast::Pdpd { .. } => matches!(
                    e,
                    SelectError::PdpdRankHigher { .. }
                        | SelectError::PdpdRunsPast { .. }
                        | SelectError::PdpdDimMismatch { .. }
                        | SelectError::PdpdAxis { .. }
                ),
            };
            if !rule_ok {
                return Err(format!("{name}: wrong error for {mode}: {e}"));
            }
            Ok(())
        }
    }
}

#[test]
fn recorded_vectors_dynamic() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/select.json"
    ))
    .unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 201);
    let mut failures = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for case in cases {
        let attrs = &case["attrs"];
        let axis = attrs["axis"].as_i64().unwrap_or(-1) as isize;
        let mode =
            AutoBroadcast::from_name(attrs["auto_broadcast"].as_str().unwrap(), axis).unwrap();
        if case.get("out").is_some() {
            accepted += 1;
        } else {
            rejected += 1;
        }
        let r = match case["then"]["dtype"].as_str().unwrap() {
            "float32" => run_vector::<f32>(case, mode),
            "float64" => run_vector::<f64>(case, mode),
            "int32" => run_vector::<i32>(case, mode),
            "int64" => run_vector::<i64>(case, mode),
            other => Err(format!("unexpected dtype {other}")),
        };
        if let Err(e) = r {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((accepted, rejected), (156, 45));
}

// ------------------------------------------------------------ static path

#[test]
fn static_and_dynamic_agree() {
    fn check<C, T, E, M>(mode: M)
    where
        C: SelectWith<T, E, M>,
        T: StaticShape,
        E: StaticShape,
        M: SelectMode,
        SelectOutput<C, T, E, M>: StaticShape,
    {
        let c = Tensor::<bool, C>::from_fn(|i| i.iter().sum::<usize>() % 3 != 1);
        let t = Tensor::<i32, T>::from_fn(|i| i.iter().fold(1, |a, &x| a * 10 + x as i32));
        let e = Tensor::<i32, E>::from_fn(|i| -i.iter().fold(1, |a, &x| a * 10 + x as i32));
        let s = select(&c, &t, &e, mode);
        let d = dyn_select(
            M::KIND,
            (&c.dims(), c.as_slice()),
            (&t.dims(), t.as_slice()),
            (&e.dims(), e.as_slice()),
        )
        .unwrap();
        assert_eq!(s.dims(), d.dims());
        assert_eq!(s.as_slice(), d.as_slice());
        // the heap-stored then gives a heap result with the same values
        let h = select(&c, &t.to_heap(), &e, mode);
        assert_eq!(h.as_slice(), d.as_slice());
        // _into a caller's buffer, and the try_ forms
        let mut buf = vec![0; d.as_slice().len()];
        let mut out =
            Tensor::<i32, SelectOutput<C, T, E, M>, &mut [i32]>::from_storage(&mut buf[..])
                .unwrap();
        select_into(&c, &t, &e, mode, &mut out);
        assert_eq!(out.as_slice(), d.as_slice());
        let tr = try_select(&c, &t, &e, mode).unwrap();
        assert_eq!(tr.as_slice(), d.as_slice());
        let mut out2 = Tensor::<i32, SelectOutput<C, T, E, M>>::full(0);
        try_select_into(&c, &t, &e, mode, &mut out2).unwrap();
        assert_eq!(out2.as_slice(), d.as_slice());
    }
    check::<shape![2, 3, 4], shape![3, 1], shape![1, 4], _>(Numpy);
    check::<shape![], shape![2, 1, 3], shape![4, 1], _>(Numpy);
    check::<shape![2, 1, 4], shape![2, 1, 4], shape![2, 1, 4], _>(NoBroadcast);
    check::<shape![3, 1], shape![3, 2, 4], shape![1, 2], _>(Pdpd::<0>);
    check::<shape![2, 1, 1], shape![3, 2, 4], shape![2], _>(Pdpd::<1>);
    check::<shape![4], shape![3, 2, 4], shape![2, 1], _>(Pdpd::<-1>);
    check::<shape![1], shape![3, 2, 4], shape![4, 1], _>(Pdpd::<2>);
    check::<shape![], shape![3, 2], shape![1], _>(Pdpd::<2>);
    check::<shape![0, 3], shape![3], shape![1, 1], _>(Numpy);
    check::<shape![0, 3], shape![0, 3], shape![0, 1], _>(Pdpd::<0>);
    check::<shape![], shape![], shape![], _>(Pdpd::<0>);
}

#[test]
fn try_select_with_dyn_dims() {
    let c = Tensor::<bool, shape![Dyn, 4], Vec<bool>>::from_vec(
        (Dyn(2), Dim::<4>),
        vec![true, false, true, false, false, true, false, true],
    )
    .unwrap();
    let t = Tensor::<i32, shape![4], Vec<i32>>::from_vec((Dim::<4>,), vec![1, 2, 3, 4]).unwrap();
    let e = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(1),), vec![0]).unwrap();
    let out = try_select(&c, &t, &e, Numpy).unwrap();
    let _: &Tensor<i32, shape![Dyn, 4], Vec<i32>> = &out;
    assert_eq!(out.dims().as_slice(), &[2, 4]);
    assert_eq!(out.as_slice(), &[1, 0, 3, 0, 0, 2, 0, 4]);
    // else [3] does not broadcast with [2, 4]: a run-time error, not a panic
    let e3 = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(3),), vec![0; 3]).unwrap();
    let err = try_select(&c, &t, &e3, Numpy).unwrap_err();
    assert!(
        matches!(
            err,
            SelectError::NumpyMismatch {
                then_dim: 4,
                else_dim: 3,
                ..
            }
        ),
        "{err}"
    );
    // pdpd with a run-time trailing dim that runs past
    let t2 = Tensor::<i32, shape![2, 4], Vec<i32>>::from_vec(Default::default(), (0..8).collect())
        .unwrap();
    let c2 = Tensor::<bool, shape![4, Dyn], Vec<bool>>::from_vec((Dim::<4>, Dyn(2)), vec![true; 8])
        .unwrap();
    let e4 = Tensor::<i32, shape![4]>::from_array([-1, -2, -3, -4]);
    let err = try_select(&c2, &t2, &e4, Pdpd::<1>).unwrap_err();
    assert!(
        matches!(
            err,
            SelectError::PdpdRunsPast {
                input: SelectInput::Cond,
                ..
            }
        ),
        "{err}"
    );
    let c1 = Tensor::<bool, shape![4, Dyn], Vec<bool>>::from_vec(
        (Dim::<4>, Dyn(1)),
        vec![false, true, false, true],
    )
    .unwrap();
    let out = try_select(&c1, &t2, &e4, Pdpd::<1>).unwrap();
    assert_eq!(out.as_slice(), &[-1, 1, -3, 3, -1, 5, -3, 7]);
    // try_select_into checks the output buffer's dims
    let mut wrong =
        Tensor::<i32, shape![Dyn, 4], Vec<i32>>::from_vec((Dyn(3), Dim::<4>), vec![0; 12]).unwrap();
    let err = try_select_into(&c, &t, &e, Numpy, &mut wrong).unwrap_err();
    assert!(
        matches!(err, SelectError::Shape(ShapeError::OutputShape { .. })),
        "{err}"
    );
}

/// no_std style: views over caller buffers and `select_into`, no heap.
#[test]
fn views_and_select_into_without_heap() {
    static COND: [bool; 6] = [true, false, false, true, true, false];
    static THEN: [f32; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    static ELSE: [f32; 3] = [-1.0, -2.0, -3.0];
    let mut out_buf = [0.0f32; 6];
    let c = Tensor::<bool, shape![2, 3], &[bool]>::from_storage(&COND[..]).unwrap();
    let t = Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&THEN[..]).unwrap();
    let e = Tensor::<f32, shape![3], &[f32]>::from_storage(&ELSE[..]).unwrap();
    {
        let mut o =
            Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut out_buf[..]).unwrap();
        select_into(&c, &t, &e, Numpy, &mut o);
    }
    assert_eq!(out_buf, [1.0, -2.0, -3.0, 4.0, 5.0, -3.0]);
    // a view result is stored inline
    let r: Tensor<f32, shape![2, 3]> = select(&c, &t, &e, Pdpd::<-1>);
    assert_eq!(r.as_slice(), &out_buf);
    // the no-heap dynamic path (cond [2, 3] cannot sit at axis 1 of then [2, 3])
    let mut out = [0.0f32; 6];
    let args = (
        &[2usize, 3][..],
        &COND[..],
        &[2usize, 3][..],
        &THEN[..],
        &[3usize][..],
        &ELSE[..],
    );
    let err = select_slices(
        AutoBroadcast::Pdpd { axis: 1 },
        args.0,
        args.1,
        args.2,
        args.3,
        args.4,
        args.5,
        &mut out,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            SelectError::PdpdRunsPast {
                input: SelectInput::Cond,
                ..
            }
        ),
        "{err}"
    );
    let d = select_slices(
        AutoBroadcast::Pdpd { axis: -1 },
        &[2, 3],
        &COND,
        &[2, 3],
        &THEN,
        &[3],
        &ELSE,
        &mut out,
    )
    .unwrap();
    assert_eq!(d.as_slice(), &[2, 3]);
    assert_eq!(out, out_buf);
}

// ------------------------------------------------------------ property tests

/// The naive reference, written independently of the library: explicit
/// multi-indices, OpenVINO's reference placement for pdpd (trim every
/// trailing 1, then place at the axis).
fn reference(
    mode: AutoBroadcast,
    cd: &[usize],
    c: &[bool],
    td: &[usize],
    t: &[i32],
    ed: &[usize],
    e: &[i32],
) -> Option<(Vec<usize>, Vec<i32>)> {
    // each operand as dims in the output frame (1 = broadcast)
    let (out, frames): (Vec<usize>, [Vec<usize>; 3]) = match mode {
        AutoBroadcast::None => {
            if cd != td || td != ed {
                return None;
            }
            (td.to_vec(), [td.to_vec(), td.to_vec(), td.to_vec()])
        }
        AutoBroadcast::Numpy => {
            let r = cd.len().max(td.len()).max(ed.len());
            let pad = |d: &[usize]| -> Vec<usize> {
                let mut v = vec![1; r - d.len()];
                v.extend_from_slice(d);
                v
            };
            let (pc, pt, pe) = (pad(cd), pad(td), pad(ed));
            let mut out = Vec::new();
            for i in 0..r {
                let non1: Vec<usize> = [pc[i], pt[i], pe[i]]
                    .into_iter()
                    .filter(|&x| x != 1)
                    .collect();
                if non1.windows(2).any(|w| w[0] != w[1]) {
                    return None;
                }
                out.push(non1.first().copied().unwrap_or(1));
            }
            (out, [pc, pt, pe])
        }
        AutoBroadcast::Pdpd { axis } => {
            let place = |src: &[usize]| -> Option<Vec<usize>> {
                if src.len() > td.len() || axis < -1 || axis > td.len() as isize {
                    return None;
                }
                let off = if axis == -1 {
                    td.len() - src.len()
                } else {
                    axis as usize
                };
                let mut trimmed = src.to_vec();
                while trimmed.last() == Some(&1) {
                    trimmed.pop();
                }
                if off + trimmed.len() > td.len() {
                    return None;
                }
                let mut frame = vec![1; td.len()];
                for (j, &s) in trimmed.iter().enumerate() {
                    if s != 1 && s != td[off + j] {
                        return None;
                    }
                    frame[off + j] = s;
                }
                Some(frame)
            };
            let pe = place(ed)?;
            let pc = place(cd)?;
            (td.to_vec(), [pc, td.to_vec(), pe])
        }
    };
    let numel: usize = out.iter().product();
    let mut res = Vec::with_capacity(numel);
    for flat in 0..numel {
        // unravel
        let mut idx = vec![0; out.len()];
        let mut rem = flat;
        for k in (0..out.len()).rev() {
            idx[k] = rem % out[k];
            rem /= out[k];
        }
        let offset = |frame: &[usize]| -> usize {
            let mut o = 0;
            for k in 0..frame.len() {
                let i = if frame[k] == 1 { 0 } else { idx[k] };
                o = o * frame[k] + i;
            }
            o
        };
        let [fc, ft, fe] = &frames;
        res.push(if c[offset(fc)] {
            t[offset(ft)]
        } else {
            e[offset(fe)]
        });
    }
    Some((out, res))
}

fn mode_strategy() -> impl Strategy<Value = AutoBroadcast> {
    prop_oneof![
        Just(AutoBroadcast::None),
        Just(AutoBroadcast::Numpy),
        (-2isize..=5).prop_map(|axis| AutoBroadcast::Pdpd { axis }),
    ]
}

fn case_strategy() -> impl Strategy<Value = (AutoBroadcast, Vec<usize>, Vec<usize>, Vec<usize>)> {
    (mode_strategy(), prop::collection::vec(0..4usize, 0..=4)).prop_flat_map(|(mode, base)| {
        (
            Just(mode),
            derived(base.clone()),
            derived(base.clone()),
            derived(base),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn select_slices_matches_reference(
        (mode, then_dims, cond_dims, else_dims) in case_strategy(),
        pool_c in prop::collection::vec(any::<bool>(), 1..=128),
        pool_v in prop::collection::vec(-1000i32..1000, 1..=128),
    ) {
        let numel = |d: &[usize]| d.iter().product::<usize>();
        let c: Vec<bool> = pool_c.iter().copied().cycle().take(numel(&cond_dims)).collect();
        let t: Vec<i32> = pool_v.iter().copied().cycle().take(numel(&then_dims)).collect();
        let e: Vec<i32> = pool_v.iter().rev().map(|v| v + 5000).cycle().take(numel(&else_dims)).collect();
        let want = reference(mode, &cond_dims, &c, &then_dims, &t, &else_dims, &e);
        let dims = select_output_dims(mode, &cond_dims, &then_dims, &else_dims);
        match want {
            Some((wd, wv)) => {
                let dims = dims.map_err(|e| TestCaseError::fail(format!("rejected: {e}")))?;
                prop_assert_eq!(dims.as_slice(), wd.as_slice());
                let mut out = vec![i32::MIN; wv.len()];
                let got = select_slices(mode, &cond_dims, &c, &then_dims, &t, &else_dims, &e, &mut out);
                prop_assert_eq!(got.map(|d| d.as_slice().to_vec()), Ok(wd));
                prop_assert_eq!(out, wv);
            }
            None => {
                prop_assert!(dims.is_err(), "accepted {:?} {:?} {:?} under {}", cond_dims, then_dims, else_dims, mode);
                let mut out = vec![0; 256];
                prop_assert!(select_slices(mode, &cond_dims, &c, &then_dims, &t, &else_dims, &e, &mut out).is_err());
            }
        }
    }
}
