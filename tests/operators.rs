//! The operators with a number on one side (`&x * k`, `k - &x`, ...):
//! against a naive loop written here, and against the same op with a
//! `shape![]` tensor of `k` (numpy's rule, which they follow), on static,
//! run-time and capacity shapes, floats and wrapping integers. And the
//! operators of `DynTensor` (`&x * &y` a `Result`, numbers as on `Tensor`)
//! against its named methods and the static path.
use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck::BinaryOpKind;
use shapecheck::Owned;

fn dyn_f32(rows: usize, data: &[f32]) -> Tensor<f32, shape![Dyn, 3], Vec<f32>> {
    Tensor::from_vec((Dyn(rows), Dim), data[..rows * 3].to_vec()).unwrap()
}

proptest! {
    #[test]
    fn float_numbers_on_either_side_match_a_naive_loop(
        rows in 0usize..5,
        data in prop::collection::vec(-100.0f32..100.0, 15),
        k in prop_oneof![Just(0.0f32), Just(-0.0), Just(1.0), -50.0f32..50.0],
    ) {
        let x = dyn_f32(rows, &data);
        let xs = &data[..rows * 3];
        let naive = |f: fn(f32, f32) -> f32| xs.iter().map(|&v| f(v, k)).collect::<Vec<_>>();
        let naive_left = |f: fn(f32, f32) -> f32| xs.iter().map(|&v| f(k, v)).collect::<Vec<_>>();
        prop_assert_eq!((&x * k).as_slice().to_vec(), naive(|a, b| a * b));
        prop_assert_eq!((&x + k).as_slice().to_vec(), naive(|a, b| a + b));
        prop_assert_eq!((&x - k).as_slice().to_vec(), naive(|a, b| a - b));
        let q = &x / k;
        for (got, want) in q.as_slice().iter().zip(naive(|a, b| a / b)) {
            // bit for bit, NaN included (0 / 0)
            prop_assert_eq!(got.to_bits(), want.to_bits());
        }
        prop_assert_eq!((k * &x).as_slice().to_vec(), naive_left(|a, b| a * b));
        prop_assert_eq!((k + &x).as_slice().to_vec(), naive_left(|a, b| a + b));
        prop_assert_eq!((k - &x).as_slice().to_vec(), naive_left(|a, b| a - b));
        for (got, want) in (k / &x).as_slice().iter().zip(naive_left(|a, b| a / b)) {
            prop_assert_eq!(got.to_bits(), want.to_bits());
        }
        // the result keeps x's shape and its run-time rows
        prop_assert_eq!((&x * k).dims().as_slice().to_vec(), vec![rows, 3]);
    }

    #[test]
    fn integer_numbers_wrap_as_the_tensor_ops_do(
        data in prop::collection::vec(any::<i32>(), 6),
        k in any::<i32>(),
    ) {
        let x = Tensor::<i32, shape![2, 3]>::from_fn(|i| data[i[0] * 3 + i[1]]);
        let kt = Tensor::<i32, shape![]>::full(k);
        prop_assert_eq!(&x * k, &x * &kt);
        prop_assert_eq!(&x + k, &x + &kt);
        prop_assert_eq!(&x - k, &x - &kt);
        prop_assert_eq!(k - &x, &kt - &x);
        let want: Vec<i32> = data.iter().map(|&v| k.wrapping_mul(v)).collect();
        prop_assert_eq!((k * &x).as_slice().to_vec(), want.clone());
        let want: Vec<i32> = data.iter().map(|&v| v.wrapping_sub(k)).collect();
        prop_assert_eq!((&x - k).as_slice().to_vec(), want.clone());
    }

    #[test]
    fn a_number_is_a_shape_brackets_tensor(
        data in prop::collection::vec(-10.0f64..10.0, 24),
        k in -10.0f64..10.0,
    ) {
        let x = Tensor::<f64, shape![2, 3, 4]>::from_fn(|i| data[i[0] * 12 + i[1] * 4 + i[2]]);
        let kt = Tensor::<f64, shape![]>::full(k);
        prop_assert_eq!(&x * k, &x * &kt);
        prop_assert_eq!(&x + k, &x + &kt);
        prop_assert_eq!(&x - k, &x - &kt);
        prop_assert_eq!(&x / k, &x / &kt);
        prop_assert_eq!(k - &x, &kt - &x);
        prop_assert_eq!(k / &x, &kt / &x);
    }
}

/// Any shape, run-time dims included: a number needs no shape bound.
fn half<S: Shape>(x: &Owned<f32, S>) -> Owned<f32, S> {
    x * 0.5
}

/// A layer generic over the batch dim, a number on each side.
fn one_minus_twice<B: DimLike>(x: &Owned<f32, (B, Dim<2>)>) -> Owned<f32, (B, Dim<2>)> {
    &(1.0 - x) * 2.0
}

#[test]
fn generic_code_needs_no_bound_for_a_number() {
    let s = tensor![[1.0f32, -2.0], [3.0, 4.0]];
    assert_eq!(half(&s).as_slice(), &[0.5, -1.0, 1.5, 2.0]);
    assert_eq!(one_minus_twice(&s).as_slice(), &[0.0, 6.0, -4.0, -6.0]);

    let d =
        Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(1), Dim), vec![1.0, 2.0]).unwrap();
    assert_eq!(half(&d).as_slice(), &[0.5, 1.0]);
    assert_eq!(one_minus_twice(&d).dims().as_slice(), &[1, 2]);
    assert_eq!(one_minus_twice(&d).as_slice(), &[0.0, -2.0]);

    d.clone().with_brand(|x, _| {
        assert_eq!(one_minus_twice(&x).as_slice(), &[0.0, -2.0]);
    });
}

#[test]
fn a_capacity_tensor_stays_in_its_room() {
    let x: BoundedTensor<f32, shape![Dyn, 3], 4> = dynamic_stitch(
        &tensor![1, 0],
        &tensor![[1.0f32, -2.0, 3.0], [-4.0, 5.0, -6.0]],
    )
    .run_bounded::<4>()
    .unwrap();
    // `Owned` of a capacity shape is its room: no heap
    let y: Owned<f32, (Bounded<4>, Dim<3>)> = &x * 10.0;
    assert_eq!(y.dims().as_slice(), &[2, 3]);
    assert_eq!(y.as_slice(), &[-40.0, 50.0, -60.0, 10.0, -20.0, 30.0]);
    let z = 100.0 - &y;
    assert_eq!(z.as_slice(), &[140.0, 50.0, 160.0, 90.0, 120.0, 70.0]);
}

#[test]
fn views_give_owned_results() {
    let buf = [1.0f32, 2.0, 3.0, 4.0];
    let v = Tensor::<f32, shape![2, 2], &[f32]>::from_storage(&buf[..]).unwrap();
    let w: Tensor<f32, shape![2, 2]> = &v + 1.0;
    assert_eq!(w.as_slice(), &[2.0, 3.0, 4.0, 5.0]);
}

/// Dims of up to rank 3 for x, and for y x's trailing dims with some set to 1
/// or dropped (so most pairs broadcast), or anything (so some do not).
fn dyn_pair() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    prop::collection::vec(1usize..4, 0..=3).prop_flat_map(|x| {
        let n = x.len();
        let fitting = (0..=n, prop::collection::vec(any::<bool>(), n)).prop_map({
            let x = x.clone();
            move |(skip, ones)| {
                let y: Vec<usize> = x[skip..]
                    .iter()
                    .zip(&ones[skip..])
                    .map(|(&d, &one)| if one { 1 } else { d })
                    .collect();
                y
            }
        });
        let any_y = prop::collection::vec(1usize..4, 0..=3);
        (Just(x), prop_oneof![3 => fitting, 1 => any_y])
    })
}

fn dyn_of(dims: &[usize], seed: i32) -> DynTensor<i32> {
    let n: usize = dims.iter().product();
    DynTensor::new(dims, (0..n as i32).map(|v| v * 7 - seed).collect()).unwrap()
}

proptest! {
    #[test]
    fn dyn_operators_are_the_methods_at_axis_minus_1((xd, yd) in dyn_pair(), k in -5i32..5) {
        let (x, y) = (dyn_of(&xd, 3), dyn_of(&yd, 11));
        for (got, op) in [
            (&x * &y, BinaryOpKind::Mul),
            (&x + &y, BinaryOpKind::Add),
            (&x - &y, BinaryOpKind::Sub),
        ] {
            let want = x.elementwise(op, &y, -1, ActivationKind::Identity);
            match (got, want) {
                (Ok(g), Ok(w)) => {
                    prop_assert_eq!(g.dims(), w.dims());
                    prop_assert_eq!(g.as_slice(), w.as_slice());
                }
                (Err(g), Err(w)) => prop_assert_eq!(g, w),
                (g, w) => prop_assert!(false, "{:?} against {:?}", g.map(|t| t.dims()), w.map(|t| t.dims())),
            }
        }
        let want: Vec<i32> = x.as_slice().iter().map(|&v| k.wrapping_sub(v)).collect();
        prop_assert_eq!((k - &x).as_slice().to_vec(), want);
        let want: Vec<i32> = x.as_slice().iter().map(|&v| v.wrapping_mul(k)).collect();
        prop_assert_eq!((&x * k).as_slice().to_vec(), want);
        prop_assert_eq!((&x * k).dims(), x.dims());
    }
}

#[test]
fn dyn_operators_match_the_static_ones() {
    let s = Tensor::<f32, shape![2, 3]>::from_fn(|i| (i[0] * 3 + i[1]) as f32 - 2.5);
    let b = tensor![0.5f32, -1.0, 2.0];
    let (ds, db) = (s.to_dyn(), b.to_dyn());
    assert_eq!((&ds * &db).unwrap().as_slice(), (&s * &b).as_slice());
    assert_eq!((&ds / &db).unwrap().as_slice(), (&s / &b).as_slice());
    assert_eq!((&ds - 1.5).as_slice(), (&s - 1.5).as_slice());
    assert_eq!((1.5 / &ds).as_slice(), (1.5 / &s).as_slice());
    // a pair numpy rejects is the method's error, before anything is written
    let col = DynTensor::new(&[2], vec![1.0f32, 2.0]).unwrap();
    let err = (&ds + &col).unwrap_err();
    assert_eq!(err.rule(), "elementwise/broadcast");
    assert_eq!(
        err,
        ds.elementwise_add(&col, -1, ActivationKind::Identity)
            .unwrap_err()
    );
}

/// `DynTensor`'s owned operands are the same op as borrowed ones, for
/// every pairing (`Tensor`'s operators take references only).
#[test]
fn owned_dyn_operands_are_the_borrowed_op() {
    let x = Tensor::<f32, shape![2, 3]>::from_fn(|i| (i[0] * 3 + i[1]) as f32 - 2.0);
    let y = tensor![1.0f32, -2.0, 0.5];
    let (dx, dy) = (x.to_dyn(), y.to_dyn());
    let want = (&dx * &dy).unwrap();
    assert_eq!(want.as_slice(), (&x * &y).as_slice());
    assert_eq!((dx.clone() * &dy).unwrap(), want);
    assert_eq!((&dx * dy.clone()).unwrap(), want);
    assert_eq!((dx.clone() * dy.clone()).unwrap(), want);
    assert_eq!((dx.clone() / dy.clone()).unwrap(), (&dx / &dy).unwrap());
    assert_eq!(dx.clone() * 3.0, &dx * 3.0);
    assert_eq!(3.0 - dx.clone(), 3.0 - &dx);
    assert_eq!((dx.clone() + dx.clone()).unwrap(), &dx * 2.0);
    let col = DynTensor::new(&[2], vec![1.0f32, 2.0]).unwrap();
    assert_eq!((dx * col).unwrap_err().rule(), "elementwise/broadcast");
}

proptest! {
    /// A number on the left of a fused expression (`k - x.lazy()`) is the
    /// plain `k - &x`, and its gradient is the derivative in `x` alone.
    #[test]
    fn a_number_on_the_left_of_an_expression(
        data in prop::collection::vec(0.5f32..10.0, 6),
        k in -5.0f32..5.0,
    ) {
        let x = Tensor::<f32, shape![2, 3]>::from_fn(|i| data[i[0] * 3 + i[1]]);
        prop_assert_eq!((k * x.lazy()).eval(), k * &x);
        prop_assert_eq!((k + x.lazy()).eval(), k + &x);
        prop_assert_eq!((k - x.lazy()).eval(), k - &x);
        prop_assert_eq!((k / x.lazy()).eval(), k / &x);
        // fused with more nodes, and the gradients: d(k - x)/dx = -1,
        // d(k * x)/dx = k, d(k / x)/dx = -k / x^2
        prop_assert_eq!((k - x.lazy() * 2.0).relu().eval(), (k - &(&x * 2.0)).map(|v| v.max(0.0)));
        let ones = Tensor::full(1.0f32);
        let ((), g) = (k - x.lazy()).backward(&ones);
        prop_assert_eq!(g, Tensor::full(-1.0));
        let ((), g) = (k * x.lazy()).backward(&ones);
        prop_assert_eq!(g, Tensor::full(k));
        let ((), g) = (k / x.lazy()).backward(&ones);
        for (gv, xv) in g.iter().zip(x.iter()) {
            prop_assert!((gv + k / (xv * xv)).abs() <= 1e-4 * (1.0 + (k / (xv * xv)).abs()));
        }
    }
}

/// On run-time rows the same, checked when it runs.
#[test]
fn a_number_on_the_left_of_a_run_time_expression() {
    let d =
        Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0])
            .unwrap();
    let e = (5.0 - d.lazy()).try_eval().unwrap();
    assert_eq!(e.dims().as_slice(), &[2, 2]);
    assert_eq!(e.as_slice(), &[4.0, 3.0, 2.0, 1.0]);
    let i = tensor![1i32, i32::MIN];
    assert_eq!((0 - i.lazy()).eval(), 0 - &i); // wrapping, as the plain op
}
