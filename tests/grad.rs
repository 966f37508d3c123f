//! The gradients of elementwise and select against central finite
//! differences in f64, independent of any framework: on random shapes,
//! axes, modes, ops and activations, every backward must be the derivative
//! of `L = Σ dout · out` with `out` the library's own forward. Points where
//! the forward has a kink (relu at 0, max/min at a tie) are left out of the
//! finite-difference comparison: they are found by the one-sided
//! differences disagreeing; the even split at exact ties is checked on its
//! own below.

#![allow(clippy::result_large_err)] // the library's error enums carry shapes by value

mod shape_support;

use proptest::prelude::*;
use shape_support::derived;
use shapecheck::ops::elementwise::{elementwise_backward_slices, elementwise_output_dims};
use shapecheck::ops::select::{select_backward_slices, select_output_dims};
use shapecheck::{ActivationKind, AutoBroadcast, BinaryOpKind, DynTensor};

fn numel(d: &[usize]) -> usize {
    d.iter().product()
}

/// `Σ dout · act(op(x, y))` through the library's forward.
fn loss(
    op: BinaryOpKind,
    act: ActivationKind,
    (xd, x): (&[usize], &[f64]),
    (yd, y): (&[usize], &[f64]),
    axis: isize,
    dout: &[f64],
) -> f64 {
    let x = DynTensor::new(xd, x.to_vec()).unwrap();
    let y = DynTensor::new(yd, y.to_vec()).unwrap();
    let out = x.elementwise(op, &y, axis, act).unwrap();
    out.as_slice().iter().zip(dout).map(|(o, d)| o * d).sum()
}

/// Compares `grad` with central differences of `f` in each coordinate of
/// `v`; a coordinate whose one-sided differences disagree sits on a kink
/// and is skipped. Returns how many were compared.
fn check_fd(
    v: &[f64],
    grad: &[f64],
    f: impl Fn(&[f64]) -> f64,
    what: &str,
) -> Result<usize, TestCaseError> {
    const H: f64 = 1e-6;
    let base = f(v);
    let mut compared = 0;
    for j in 0..v.len() {
        let mut p = v.to_vec();
        p[j] += H;
        let up = f(&p);
        p[j] = v[j] - H;
        let down = f(&p);
        let (fwd, bwd) = ((up - base) / H, (base - down) / H);
        let scale = 1.0 + fwd.abs().max(bwd.abs());
        if (fwd - bwd).abs() > 1e-3 * scale {
            continue; // a kink between v - h and v + h
        }
        let central = (up - down) / (2.0 * H);
        prop_assert!(
            (central - grad[j]).abs() <= 1e-5 * (1.0 + central.abs()),
            "{what}[{j}]: backward {} vs finite difference {central}",
            grad[j]
        );
        compared += 1;
    }
    Ok(compared)
}

/// Shapes Paddle's rule accepts (with some it rejects, which the test
/// skips): Y a slice of X at some offset, dims set to 1, trailing 1s
/// appended; swapped half of the time.
fn shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, isize)> {
    (
        prop::collection::vec(1usize..4, 0..5),
        any::<u64>(),
        -5isize..5,
        any::<bool>(),
    )
        .prop_map(|(x, seed, axis, swap)| {
            let mut s = seed;
            let mut next = |m: u64| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 33) % m
            };
            let start = next(x.len() as u64 + 1) as usize;
            let len = next((x.len() - start) as u64 + 1) as usize;
            let mut y: Vec<usize> = x[start..start + len]
                .iter()
                .map(|&d| if next(3) == 0 { 1 } else { d })
                .collect();
            y.extend(std::iter::repeat_n(1, next(2) as usize));
            let axis = if next(2) == 0 { start as isize } else { axis };
            if swap {
                (y, x, axis)
            } else {
                (x, y, axis)
            }
        })
}

/// Values in ±[0.5, 2.5], distinct with probability 1 (no ties), away from
/// zero (div), from a seed.
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            let m = 0.5 + 2.0 * u;
            if s & 1 == 0 {
                m
            } else {
                -m
            }
        })
        .collect()
}

const OPS: [BinaryOpKind; 6] = [
    BinaryOpKind::Mul,
    BinaryOpKind::Add,
    BinaryOpKind::Sub,
    BinaryOpKind::Div,
    BinaryOpKind::Max,
    BinaryOpKind::Min,
];
const ACTS: [ActivationKind; 4] = [
    ActivationKind::Identity,
    ActivationKind::Relu,
    ActivationKind::Tanh,
    ActivationKind::Sigmoid,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn elementwise_backward_is_the_derivative(
        (xd, yd, axis) in shapes(),
        op in prop::sample::select(OPS.to_vec()),
        act in prop::sample::select(ACTS.to_vec()),
        seed in any::<u64>(),
    ) {
        let Ok(od) = elementwise_output_dims(&xd, &yd, axis) else {
            return Ok(()); // a shape the rule rejects: the forward's tests
        };
        let x = values(numel(&xd), seed);
        let y = values(numel(&yd), seed ^ 0x9e37_79b9_7f4a_7c15);
        let dout = values(numel(&od), seed.rotate_left(17));
        let xt = DynTensor::new(&xd, x.clone()).unwrap();
        let yt = DynTensor::new(&yd, y.clone()).unwrap();
        let out = xt.elementwise(op, &yt, axis, act).unwrap();
        let dt = DynTensor::new(&od, dout.clone()).unwrap();
        let (gx, gy) = xt.elementwise_backward(op, &yt, &out, &dt, axis, act).unwrap();
        prop_assert_eq!(gx.dims(), xt.dims());
        prop_assert_eq!(gy.dims(), yt.dims());

        // the slices form: the same gradients
        let (mut sx, mut sy) = (vec![f64::NAN; x.len()], vec![f64::NAN; y.len()]);
        elementwise_backward_slices(op, act, &xd, &x, &yd, &y, axis, out.as_slice(), &dout, &mut sx, &mut sy).unwrap();
        prop_assert_eq!(sx.as_slice(), gx.as_slice());
        prop_assert_eq!(sy.as_slice(), gy.as_slice());

        check_fd(&x, gx.as_slice(), |v| loss(op, act, (&xd, v), (&yd, &y), axis, &dout), "dx")?;
        check_fd(&y, gy.as_slice(), |v| loss(op, act, (&xd, &x), (&yd, v), axis, &dout), "dy")?;
    }
}

/// Max and min split a tie evenly, summed where the operand broadcasts.
#[test]
fn ties_split_evenly() {
    let x = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 2.0, 3.0]).unwrap();
    let y = DynTensor::new(&[1], vec![2.0f64]).unwrap();
    let dout = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 4.0, 8.0]).unwrap();
    let id = ActivationKind::Identity;
    let out = x.elementwise(BinaryOpKind::Max, &y, -1, id).unwrap();
    let (gx, gy) = x
        .elementwise_backward(BinaryOpKind::Max, &y, &out, &dout, -1, id)
        .unwrap();
    assert_eq!(gx.as_slice(), &[0.0, 1.0, 2.0, 8.0]);
    assert_eq!(gy.as_slice(), &[1.0 + 1.0 + 2.0]); // 1 (x < y) + half of 2 + half of 4
    let out = x.elementwise(BinaryOpKind::Min, &y, -1, id).unwrap();
    let (gx, gy) = x
        .elementwise_backward(BinaryOpKind::Min, &y, &out, &dout, -1, id)
        .unwrap();
    assert_eq!(gx.as_slice(), &[1.0, 1.0, 2.0, 0.0]);
    assert_eq!(gy.as_slice(), &[1.0 + 2.0 + 8.0]);
}

/// Every bad input of the run-time forms is a typed error, and nothing is
/// written: a rejected shape, a `dout` or `out` of the wrong dims, gradient
/// buffers of the wrong length.
#[test]
fn run_time_errors_are_typed_and_write_nothing() {
    let x = DynTensor::new(&[2, 3], vec![1.0f32; 6]).unwrap();
    let y = DynTensor::new(&[3], vec![1.0f32; 3]).unwrap();
    let out = x.elementwise_mul(&y, -1, ActivationKind::Identity).unwrap();
    let bad = DynTensor::new(&[3, 2], vec![1.0f32; 6]).unwrap();
    let mul = BinaryOpKind::Mul;
    let id = ActivationKind::Identity;
    let e = x
        .elementwise_backward(mul, &y, &out, &bad, -1, id)
        .unwrap_err();
    assert_eq!(e.rule(), "elementwise/dout-shape");
    assert!(e.to_string().contains("dout has dims [3, 2]"), "{e}");
    let e = x
        .elementwise_backward(mul, &y, &bad, &out, -1, id)
        .unwrap_err();
    assert!(e.to_string().contains("out has dims [3, 2]"), "{e}");
    let e = x
        .elementwise_backward(mul, &y, &out, &out, 0, id)
        .unwrap_err();
    assert_eq!(e.rule(), "elementwise/broadcast");

    let (mut gx, mut gy) = ([7.0f32; 6], [7.0f32; 2]);
    let e = elementwise_backward_slices(
        mul,
        id,
        &[2, 3],
        x.as_slice(),
        &[3],
        y.as_slice(),
        -1,
        out.as_slice(),
        out.as_slice(),
        &mut gx,
        &mut gy,
    )
    .unwrap_err();
    assert_eq!(e.rule(), "shape/data-length");
    assert_eq!((gx, gy), ([7.0; 6], [7.0; 2]));

    let c = DynTensor::new(&[2], vec![true, false]).unwrap();
    let t = DynTensor::new(&[2], vec![1.0f32; 2]).unwrap();
    let d3 = DynTensor::new(&[3], vec![1.0f32; 3]).unwrap();
    let e = DynTensor::select_backward(&c, &t, &t, &d3, AutoBroadcast::None).unwrap_err();
    assert_eq!(e.rule(), "select/dout-shape");
    let e = DynTensor::select_backward(&c, &t, &d3, &t, AutoBroadcast::None).unwrap_err();
    assert_eq!(e.rule(), "select/none-shapes");
}

// -------------------------------------------------------------------- select

fn select_case() -> impl Strategy<Value = (AutoBroadcast, Vec<usize>, Vec<usize>, Vec<usize>)> {
    let mode = prop_oneof![
        Just(AutoBroadcast::None),
        Just(AutoBroadcast::Numpy),
        (-2isize..=4).prop_map(|axis| AutoBroadcast::Pdpd { axis }),
    ];
    (mode, prop::collection::vec(1..4usize, 0..=4)).prop_flat_map(|(mode, base)| {
        (
            Just(mode),
            derived(base.clone()),
            derived(base.clone()),
            derived(base),
        )
    })
}

/// `Σ dout · select(c, t, e)` through the library's forward.
fn select_loss(
    mode: AutoBroadcast,
    (cd, c): (&[usize], &[bool]),
    (td, t): (&[usize], &[f64]),
    (ed, e): (&[usize], &[f64]),
    dout: &[f64],
) -> f64 {
    let c = DynTensor::new(cd, c.to_vec()).unwrap();
    let t = DynTensor::new(td, t.to_vec()).unwrap();
    let e = DynTensor::new(ed, e.to_vec()).unwrap();
    let out = DynTensor::select(&c, &t, &e, mode).unwrap();
    out.as_slice().iter().zip(dout).map(|(o, d)| o * d).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn select_backward_is_the_derivative(
        (mode, td, cd, ed) in select_case(),
        bits in any::<u64>(),
        seed in any::<u64>(),
    ) {
        let Ok(od) = select_output_dims(mode, &cd, &td, &ed) else {
            return Ok(());
        };
        let c: Vec<bool> = (0..numel(&cd)).map(|i| bits.rotate_left(i as u32) & 1 == 1).collect();
        let t = values(numel(&td), seed);
        let e = values(numel(&ed), seed ^ 0x5555);
        let dout = values(numel(&od), seed ^ 0xaaaa);
        let ct = DynTensor::new(&cd, c.clone()).unwrap();
        let (tt, et) = (DynTensor::new(&td, t.clone()).unwrap(), DynTensor::new(&ed, e.clone()).unwrap());
        let dt = DynTensor::new(&od, dout.clone()).unwrap();
        let (gt, ge) = DynTensor::select_backward(&ct, &tt, &et, &dt, mode).unwrap();
        prop_assert_eq!(gt.dims(), tt.dims());
        prop_assert_eq!(ge.dims(), et.dims());
        let (mut st, mut se) = (vec![f64::NAN; t.len()], vec![f64::NAN; e.len()]);
        select_backward_slices(mode, &cd, &c, &td, &ed, &dout, &mut st, &mut se).unwrap();
        prop_assert_eq!(st.as_slice(), gt.as_slice());
        prop_assert_eq!(se.as_slice(), ge.as_slice());
        check_fd(&t, gt.as_slice(), |v| select_loss(mode, (&cd, &c), (&td, v), (&ed, &e), &dout), "dthen")?;
        check_fd(&e, ge.as_slice(), |v| select_loss(mode, (&cd, &c), (&td, &t), (&ed, v), &dout), "delse")?;
    }
}

// ------------------------------------------------- the static forms agree

/// The static forms (plain, `_into`, `try_` on static and on run-time
/// shapes, `try_.._into`) give the dynamic path's gradients, for an axis
/// placement (Y `[3, 1]` at axis 1 of X `[2, 3, 4]`) and every activation.
#[test]
fn static_forms_agree_with_the_dynamic_path() {
    use shapecheck::ops::Div;
    use shapecheck::prelude::*;
    use shapecheck::Activation;
    let xs = values(24, 3);
    let ys = values(3, 4);
    let ds = values(24, 5);
    let x = Tensor::<f64, shape![2, 3, 4]>::from_slice(&xs).unwrap();
    let y = Tensor::<f64, shape![3, 1]>::from_slice(&ys).unwrap();
    let dout = Tensor::<f64, shape![2, 3, 4]>::from_slice(&ds).unwrap();
    let xd = Tensor::<f64, shape![Dyn, 3, 4], Vec<f64>>::from_vec((Dyn(2), Dim, Dim), xs.clone())
        .unwrap();
    let (dx, dy) = (
        DynTensor::new(&[2, 3, 4], xs.clone()).unwrap(),
        DynTensor::new(&[3, 1], ys.clone()).unwrap(),
    );
    let dd = DynTensor::new(&[2, 3, 4], ds.clone()).unwrap();

    type X = Tensor<f64, shape![2, 3, 4]>;
    type Y = Tensor<f64, shape![3, 1]>;
    fn check<A: Activation>(
        act: A,
        (x, y, dout): (&X, &Y, &X),
        xd: &Tensor<f64, shape![Dyn, 3, 4], Vec<f64>>,
        (dx, dy, dd): (&DynTensor<f64>, &DynTensor<f64>, &DynTensor<f64>),
    ) {
        let kind = A::KIND;
        let out = x.elementwise_div(y, Axis::<1>, act).unwrap();
        let dout_dyn = dd.clone();
        let out_dyn = dx.elementwise_div(dy, 1, kind).unwrap();
        let (want_x, want_y) = dx
            .elementwise_backward(BinaryOpKind::Div, dy, &out_dyn, &dout_dyn, 1, kind)
            .unwrap();

        let (gx, gy) = x.elementwise_backward(Div, y, &out, dout, Axis::<1>, act);
        assert_eq!(
            (gx.as_slice(), gy.as_slice()),
            (want_x.as_slice(), want_y.as_slice()),
            "plain, {kind:?}"
        );

        let (mut ix, mut iy) = (
            Tensor::<f64, shape![2, 3, 4]>::full(7.0),
            Tensor::<f64, shape![3, 1]>::full(7.0),
        );
        x.elementwise_backward_into(Div, y, &out, dout, Axis::<1>, act, &mut ix, &mut iy);
        assert_eq!(
            (ix.as_slice(), iy.as_slice()),
            (want_x.as_slice(), want_y.as_slice()),
            "_into, {kind:?}"
        );

        let (tx, ty) = x
            .try_elementwise_backward(Div, y, &out, dout, Axis::<1>, act)
            .unwrap();
        assert_eq!(
            (tx.as_slice(), ty.as_slice()),
            (want_x.as_slice(), want_y.as_slice()),
            "try_, {kind:?}"
        );

        // run-time rows: out and dout typed as the forward's output, [Dyn, 3, 4]
        let out_r = xd.try_elementwise_div(y, Axis::<1>, act).unwrap();
        let dout_r = Tensor::<f64, shape![Dyn, 3, 4], Vec<f64>>::from_vec(
            (Dyn(2), Dim, Dim),
            dd.as_slice().to_vec(),
        )
        .unwrap();
        let (rx, ry) = xd
            .try_elementwise_backward(Div, y, &out_r, &dout_r, Axis::<1>, act)
            .unwrap();
        assert_eq!(
            (rx.as_slice(), ry.as_slice()),
            (want_x.as_slice(), want_y.as_slice()),
            "try_ on [Dyn, 3, 4], {kind:?}"
        );
        let (mut jx, mut jy) = (xd.clone(), Tensor::<f64, shape![3, 1]>::full(7.0));
        xd.try_elementwise_backward_into(Div, y, &out_r, &dout_r, Axis::<1>, act, &mut jx, &mut jy)
            .unwrap();
        assert_eq!(
            (jx.as_slice(), jy.as_slice()),
            (want_x.as_slice(), want_y.as_slice()),
            "try_.._into, {kind:?}"
        );
        // a gradient buffer of 3 rows for X's 2: an error, nothing written
        let mut bad =
            Tensor::<f64, shape![Dyn, 3, 4], Vec<f64>>::from_vec((Dyn(3), Dim, Dim), vec![7.0; 36])
                .unwrap();
        let e = xd
            .try_elementwise_backward_into(
                Div, y, &out_r, &dout_r, Axis::<1>, act, &mut bad, &mut jy,
            )
            .unwrap_err();
        assert_eq!(e.rule(), "shape/output");
        assert!(bad.as_slice().iter().all(|&v| v == 7.0));
    }
    let args = (&x, &y, &dout);
    let dyns = (&dx, &dy, &dd);
    check(Identity, args, &xd, dyns);
    check(Relu, args, &xd, dyns);
    check(Tanh, args, &xd, dyns);
    check(Sigmoid, args, &xd, dyns);
}
