//! lod_reset: the dynamic path and the static forms against a naive
//! transcription of Paddle's kernel (op-semantics.md §5), a few edge cases,
//! and the recorded Paddle vectors.

mod lod_support;

use lod_support::*;
use proptest::prelude::*;
use serde_json::Value;
use shapecheck::prelude::*;
use shapecheck::{DynLodTensor, DynY, LodError, LodResetError, LodTensor, Offsets};

// ------------------------------------------------------------- lod_reset

/// x's levels, x's rows, y, target offsets, append.
type ResetCase = (Vec<Vec<usize>>, usize, Option<Y>, Option<Vec<usize>>, bool);

#[derive(Clone, Debug)]
enum Y {
    Lod(Vec<Vec<usize>>),
    Data(Vec<i32>),
}

/// Paddle's lod_reset kernel (op-semantics.md §5), on x's row count and levels.
fn naive_reset(
    rows: usize,
    x_lod: &[Vec<usize>],
    y: Option<&Y>,
    target: Option<&[usize]>,
    append: bool,
) -> Result<Vec<Vec<usize>>, &'static str> {
    let level0: Vec<i64> = match (y, target) {
        (Some(Y::Lod(l)), _) if !l.is_empty() => {
            return if *l.last().unwrap().last().unwrap() == rows {
                Ok(l.clone())
            } else {
                Err("y lod end")
            };
        }
        (Some(Y::Lod(_)), _) => return Err("y lod empty"),
        (Some(Y::Data(d)), _) => d.iter().map(|&v| v as i64).collect(),
        (None, Some(t)) => t.iter().map(|&v| v as i64).collect(),
        (None, None) => return Err("none"),
    };
    if level0.len() <= 1 {
        return Err("short");
    }
    if level0[0] != 0 {
        return Err("start");
    }
    if *level0.last().unwrap() != rows as i64 {
        return Err("end");
    }
    if !level0.windows(2).all(|w| w[0] <= w[1]) {
        return Err("decreasing");
    }
    let level0: Vec<usize> = level0.iter().map(|&v| v as usize).collect();
    let mut out = if append { x_lod.to_vec() } else { vec![] };
    out.push(level0);
    Ok(out)
}

fn reset_kind(e: &LodResetError) -> &'static str {
    match e {
        LodResetError::YLodRows { .. } => "y lod end",
        // y without LoD whose data are not int32 (here f64 / i64): Paddle
        // fails to read them as int32; the static form refuses any y without LoD
        LodResetError::YWithoutLod | LodResetError::YNotInt32 { .. } => "y lod empty",
        LodResetError::NoSource => "none",
        LodResetError::TooShort { .. } => "short",
        LodResetError::BadStart { .. } => "start",
        LodResetError::BadEnd { .. } => "end",
        LodResetError::Decreasing { .. } => "decreasing",
        other => panic!("unexpected {other:?}"),
    }
}

/// A new level near the valid ones for `rows`: offsets from 0 to rows,
/// with some changed (negative values only in y's int32 data).
fn near_level(rows: usize) -> impl Strategy<Value = Vec<i64>> {
    (
        prop::collection::vec(0i64..=rows as i64, 0..5),
        0usize..7,
        -2i64..3,
    )
        .prop_map(move |(mut mid, how, delta)| {
            if how != 4 {
                mid.sort(); // how 4: the middle offsets in any order
            }
            let mut l = vec![0i64];
            l.extend(mid);
            l.push(rows as i64);
            match how {
                0 => l[0] += delta,
                1 => *l.last_mut().unwrap() += delta,
                2 => l.truncate(delta.clamp(0, 1) as usize),
                3 => l.reverse(),
                _ => {}
            }
            l
        })
}

fn reset_case() -> impl Strategy<Value = ResetCase> {
    nested_lengths().prop_flat_map(|(lengths, rows)| {
        let x_lod = naive_offsets(&lengths).unwrap();
        let y = prop_oneof![
            Just(None),
            near_level(rows).prop_map(|l| Some(Y::Data(l.iter().map(|&v| v as i32).collect()))),
            (nested_lengths(), any::<bool>()).prop_map({
                let x_lod = x_lod.clone();
                move |((yl, _), same)| {
                    // y's LoD is valid over y's own rows; half the time those are x's
                    Some(Y::Lod(match (same, x_lod.is_empty()) {
                        (true, false) => x_lod.clone(),
                        (true, true) => vec![vec![0, rows]],
                        (false, _) => naive_offsets(&yl).unwrap(),
                    }))
                }
            }),
        ];
        let target = prop_oneof![
            Just(None),
            near_level(rows).prop_map(|l| {
                Some(
                    l.into_iter()
                        .map(|v| v.max(0) as usize)
                        .collect::<Vec<usize>>(),
                )
            }),
        ];
        (Just(x_lod), Just(rows), y, target, any::<bool>())
    })
}

fn y_rows(y: &Y) -> usize {
    match y {
        Y::Lod(l) => l.last().and_then(|l| l.last()).copied().unwrap_or(0),
        Y::Data(_) => 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// The dynamic path and the static forms against the naive kernel.
    #[test]
    fn lod_reset_is_the_naive_kernel((x_lod, rows, y, target, append) in reset_case()) {
        let want = naive_reset(rows, &x_lod, y.as_ref(), target.as_deref(), append);
        let x_levels = to_offsets(&x_lod);

        // dynamic: Paddle's arguments as they are
        let dx = DynLodTensor::new(DynTensor::new(&[rows, 2], dense(rows).to_vec()).unwrap(), &x_levels[..]).unwrap();
        let y_data_t;
        let y_lod_t;
        let dy = match &y {
            None => None,
            Some(Y::Data(d)) => {
                y_data_t = DynTensor::new(&[d.len()], d.clone()).unwrap();
                Some(DynY::data(&y_data_t))
            }
            Some(Y::Lod(l)) => {
                let yr = y_rows(y.as_ref().unwrap());
                y_lod_t = DynLodTensor::new(DynTensor::full(&[yr, 1], 0.5f64).unwrap(), shapecheck::OwnedLod::from_offsets(l.clone())).unwrap();
                Some(y_lod_t.as_y())
            }
        };
        let got = dx.lod_reset(dy, target.as_deref().map(Offsets::new), append);
        match (&want, got) {
            (Ok(w), Ok(out)) => {
                prop_assert_eq!(&out.lod().as_offsets().to_vec(), w);
                prop_assert_eq!(out.dense().as_slice(), &dense(rows).to_vec()[..]);
            }
            (Err(w), Err(e)) => prop_assert_eq!(*w, reset_kind(&e), "{}", e),
            (w, g) => prop_assert!(false, "naive {:?}, got {:?}", w, g.map(|o| o.lod().clone())),
        }

        // static: the form Paddle's precedence selects
        let x = LodTensor::new(dense(rows), &x_levels[..]).unwrap();
        let got: Result<Vec<Vec<usize>>, LodResetError> = match (&y, &target) {
            (Some(Y::Lod(l)), _) => {
                let yl = to_offsets(l);
                let yr = y_rows(y.as_ref().unwrap());
                let yt = LodTensor::new(Tensor::<i64, shape![Dyn], Vec<i64>>::with_dims(&[yr], vec![0; yr]).unwrap(), &yl[..]).unwrap();
                x.view().lod_reset_like(&yt).map(|o| o.to_owned_lod().into_offsets())
            }
            (Some(Y::Data(d)), _) => {
                let yt = Tensor::<i32, shape![Dyn], &[i32]>::with_dims(&[d.len()], &d[..]).unwrap();
                let mut buf = vec![usize::MAX; d.len()];
                let r = x.view().lod_reset_by_data(&yt, append, &mut buf).map(|o| o.to_owned_lod().into_offsets());
                if r.is_err() {
                    prop_assert!(buf.iter().all(|&v| v == usize::MAX), "buffer written on error");
                }
                r
            }
            (None, Some(t)) => x.view().lod_reset(Offsets::new(t), append).map(|o| o.to_owned_lod().into_offsets()),
            (None, None) => Err(LodResetError::NoSource),
        };
        match (&want, got) {
            (Ok(w), Ok(g)) => prop_assert_eq!(&g, w),
            (Err(w), Err(e)) => prop_assert_eq!(*w, reset_kind(&e), "{}", e),
            (w, g) => prop_assert!(false, "naive {:?}, static {:?}", w, g),
        }
    }
}

#[test]
fn a_y_without_lod_of_another_type_is_refused() {
    let x = DynLodTensor::from_lengths(DynTensor::full(&[3, 1], 0.0f32).unwrap(), &[]).unwrap();
    let y = DynLodTensor::from_lengths(DynTensor::new(&[1, 2], vec![0.0f32, 3.0]).unwrap(), &[])
        .unwrap();
    let err = x.lod_reset(Some(y.as_y()), None, false).unwrap_err();
    assert_eq!(err, LodResetError::YNotInt32 { dtype: "float32" });
    assert_eq!(
        err.to_string(),
        "lod_reset: y carries no LoD, so its elements are read as offsets, which must be int32; y holds float32"
    );
}

#[test]
fn an_append_that_does_not_nest_is_kept_and_walking_it_is_an_error() {
    // Paddle's vector lod_reset_append: [[0, 2, 5, 7]] + [0, 7]
    let levels = [Offsets::new(&[0, 2, 5, 7])];
    let x = LodTensor::new(Tensor::<i64, shape![7, 1]>::full(1), &levels[..]).unwrap();
    let out = x.lod_reset(Offsets::new(&[0, 7]), true).unwrap();
    assert_eq!(
        out.to_owned_lod().into_offsets(),
        vec![vec![0, 2, 5, 7], vec![0, 7]]
    );
    let nesting = LodError::LevelMismatch {
        level: 0,
        last: 7,
        below: 1,
    };
    assert_eq!(out.check(), Err(nesting));
    assert_eq!(out.sequences(0).err(), Some(nesting));
    assert_eq!(out.sequences(1).unwrap().count(), 1);
}

// --------------------------------------------------------------- vectors

/// Every recorded case through the dynamic path's rule: accepted exactly
/// where Paddle accepted, with its offsets (the conformance tool checks
/// values and the static path too).
#[test]
fn recorded_vectors_dynamic() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/lod_reset.json"
    ))
    .unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 66);
    let lens = |v: &Value| -> Vec<Vec<usize>> {
        serde_json::from_value(v["lod_lengths"].clone()).unwrap()
    };
    for case in cases {
        let x = &case["x"];
        let rows = x["shape"][0].as_u64().unwrap() as usize;
        let x_lod = naive_offsets(&lens(x)).unwrap();
        let append = case["attrs"]["append"].as_bool().unwrap_or(false);
        let target: Option<Vec<usize>> = case["attrs"]
            .get("target_lod_offsets")
            .map(|t| serde_json::from_value(t.clone()).unwrap());
        let y = case.get("y").map(|y| {
            let l = lens(y);
            if l.is_empty() {
                Y::Data(
                    y["data"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_i64().unwrap() as i32)
                        .collect(),
                )
            } else {
                Y::Lod(naive_offsets(&l).unwrap())
            }
        });
        let want = naive_reset(rows, &x_lod, y.as_ref(), target.as_deref(), append);
        match case.get("out") {
            Some(out) => {
                let recorded: Vec<Vec<usize>> =
                    serde_json::from_value(out["lod_offsets"].clone()).unwrap();
                assert_eq!(want, Ok(recorded), "{}", case["name"]);
            }
            None => assert!(want.is_err(), "{}", case["name"]),
        }
        // and the library agrees with the naive kernel on it
        let x_levels = to_offsets(&x_lod);
        let dx =
            DynLodTensor::new(DynTensor::full(&[rows, 1], 0.0f32).unwrap(), &x_levels[..]).unwrap();
        let yd;
        let yl;
        let dy = match &y {
            None => None,
            Some(Y::Data(d)) => {
                yd = DynTensor::new(&[d.len()], d.clone()).unwrap();
                Some(DynY::data(&yd))
            }
            Some(Y::Lod(l)) => {
                let yr = *l.last().unwrap().last().unwrap();
                yl = DynLodTensor::new(
                    DynTensor::full(&[yr], 0.0f32).unwrap(),
                    shapecheck::OwnedLod::from_offsets(l.clone()),
                )
                .unwrap();
                Some(yl.as_y())
            }
        };
        let got = dx.lod_reset(dy, target.as_deref().map(Offsets::new), append);
        assert_eq!(
            got.map(|o| o.lod().as_offsets().to_vec())
                .map_err(|e| reset_kind(&e)),
            want,
            "{}",
            case["name"]
        );
    }
}
