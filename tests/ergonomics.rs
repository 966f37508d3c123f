//! Ergonomics: `tensor!` literals (shapes, element types, values), the
//! operators `&x * &y`, `+`, `-`, `/` against a naive numpy-broadcasting
//! reference and against the named `elementwise_*` methods, and generic code
//! written with the `BroadcastWith` alias.

use proptest::prelude::*;
use shapecheck::prelude::*;

// ------------------------------------------------------------ naive reference

/// numpy broadcasting written out index by index: right-align the dims, each
/// aligned pair equal or one of them 1; for each output index read `x` and `y`
/// at the index clamped to their dims. `None` if the shapes do not broadcast.
fn numpy<T: Copy>(
    xd: &[usize],
    x: &[T],
    yd: &[usize],
    y: &[T],
    f: impl Fn(T, T) -> T,
) -> Option<(Vec<usize>, Vec<T>)> {
    let r = xd.len().max(yd.len());
    let pad = |d: &[usize]| {
        let mut p = vec![1; r - d.len()];
        p.extend_from_slice(d);
        p
    };
    let (xp, yp) = (pad(xd), pad(yd));
    let mut out = Vec::with_capacity(r);
    for (&a, &b) in xp.iter().zip(&yp) {
        if a != b && a != 1 && b != 1 {
            return None;
        }
        out.push(if a == 1 { b } else { a });
    }
    let numel: usize = out.iter().product();
    let flat = |dims: &[usize], idx: &[usize]| {
        dims.iter()
            .zip(idx)
            .fold(0, |acc, (&d, &i)| acc * d + if d == 1 { 0 } else { i })
    };
    let mut values = Vec::with_capacity(numel);
    for n in 0..numel {
        // the output index of flat position n
        let mut idx = vec![0; r];
        let mut rest = n;
        for (slot, &d) in idx.iter_mut().zip(&out).rev() {
            *slot = rest % d;
            rest /= d;
        }
        values.push(f(x[flat(&xp, &idx)], y[flat(&yp, &idx)]));
    }
    Some((out, values))
}

// ------------------------------------------------------------ tensor!

#[test]
fn tensor_literal_shapes_and_values() {
    let a = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let _: &Tensor<f64, shape![2, 3]> = &a;
    assert_eq!(a.dims().as_slice(), &[2, 3]);
    assert_eq!(a.as_slice(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(a.get(&[1, 0]), Some(&4.0));
    assert_eq!(
        a,
        Tensor::<f64, shape![2, 3]>::from_fn(|i| (i[0] * 3 + i[1] + 1) as f64)
    );

    // a suffix on one literal types them all
    let b = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let _: &Tensor<f32, shape![2, 2]> = &b;
    assert_eq!(b.as_slice(), &[1.0f32, 2.0, 3.0, 4.0]);

    // dims of size 1 are `One` (the type annotation would not compile otherwise)
    let col: Tensor<i64, (Dim<3>, One)> = tensor![[1], [2], [3]];
    assert_eq!(col.dims().as_slice(), &[3, 1]);
    assert_eq!(col.as_slice(), &[1, 2, 3]);
    let one: Tensor<i32, (One,)> = tensor![5];
    assert_eq!(one.as_slice(), &[5]);

    // rank 3, trailing commas, negative values and expressions
    let k = 3u8;
    let c = tensor![[[1, 2,], [3, 4],], [[5, 6], [7, k + 5]],];
    let _: &Tensor<u8, shape![2, 2, 2]> = &c;
    assert_eq!(c.as_slice(), &[1, 2, 3, 4, 5, 6, 7, 8]);
    let n = tensor![-1.5, -(2.0 * 2.0)];
    assert_eq!(n.as_slice(), &[-1.5, -4.0]);

    // rank 8, the most a shape has
    let deep = tensor![[[[[[[[1, 2]]]]]]], [[[[[[[3, 4]]]]]]]];
    type Rank8 = shape![2, 1, 1, 1, 1, 1, 1, 2];
    let _: &Tensor<i32, Rank8> = &deep;
    assert_eq!(deep.dims().as_slice(), &[2, 1, 1, 1, 1, 1, 1, 2]);
    assert_eq!(deep.as_slice(), &[1, 2, 3, 4]);

    // empty dims
    let e: Tensor<f32, shape![0]> = tensor![];
    assert!(e.as_slice().is_empty());
    let e2: Tensor<f32, shape![3, 0]> = tensor![[], [], []];
    assert_eq!(e2.dims().as_slice(), &[3, 0]);

    // any Copy element type
    let m = tensor![[true, false], [false, true]];
    assert_eq!(m.as_slice(), &[true, false, false, true]);
}

#[test]
fn tensor_literal_through_macro_rules() {
    macro_rules! rows {
        ($($r:expr),*) => { tensor![$($r),*] };
    }
    let t = rows!([1, 2], [3, 4], [5, 6]);
    let _: &Tensor<i32, shape![3, 2]> = &t;
    assert_eq!(t.as_slice(), &[1, 2, 3, 4, 5, 6]);
}

#[test]
fn tensor_literal_display_and_debug() {
    let t = tensor![[1, 2], [3, 4]];
    assert_eq!(t.to_string(), "[[1, 2], [3, 4]]");
    assert_eq!(format!("{t:?}"), "Tensor[2, 2] [[1, 2], [3, 4]]");
    let f = tensor![[0.5], [1.5]];
    assert_eq!(f.to_string(), "[[0.5], [1.5]]");
}

// ------------------------------------------------------------ operators

/// An operator's result, the named method's result, and the scalar op.
type Compared<S> = (Tensor<f64, S>, Tensor<f64, S>, fn(f64, f64) -> f64);
/// An operator's result and the scalar op.
type Case<T, S> = (Tensor<T, S>, fn(T, T) -> T);

/// Checks the four operators on one pair of static shapes against the naive
/// reference and against the named methods; `$out` is the expected output
/// shape, written out so that the compiler checks the output type too.
macro_rules! check_ops {
    ($xs:ty, $ys:ty, $out:ty, $x:expr, $y:expr) => {{
        let x = Tensor::<f64, $xs>::from_slice(&$x).unwrap();
        let y = Tensor::<f64, $ys>::from_slice(&$y).unwrap();
        let (xd, yd) = (x.dims(), y.dims());
        let cases: [Compared<$out>; 4] = [
            (
                &x * &y,
                x.elementwise_mul(&y, Axis::<-1>, Identity),
                |a, b| a * b,
            ),
            (
                &x + &y,
                x.elementwise_add(&y, Axis::<-1>, Identity),
                |a, b| a + b,
            ),
            (
                &x - &y,
                x.elementwise_sub(&y, Axis::<-1>, Identity),
                |a, b| a - b,
            ),
            (
                &x / &y,
                x.elementwise_div(&y, Axis::<-1>, Identity).unwrap(),
                |a, b| a / b,
            ),
        ];
        for (op, named, f) in cases {
            let (dims, want) = numpy(&xd, x.as_slice(), &yd, y.as_slice(), f).unwrap();
            assert_eq!(op.dims().as_slice(), dims.as_slice());
            assert_eq!(op.as_slice(), want.as_slice(), "{xd} op {yd}");
            assert_eq!(op, named);
        }
    }};
}

fn values(n: usize, seed: f64) -> Vec<f64> {
    (0..n).map(|i| seed + 1.5 * i as f64).collect()
}

#[test]
fn operators_broadcast_like_numpy() {
    check_ops!(
        shape![2, 3],
        shape![2, 3],
        shape![2, 3],
        values(6, 1.0),
        values(6, -2.0)
    );
    check_ops!(
        shape![2, 3],
        shape![3],
        shape![2, 3],
        values(6, 1.0),
        values(3, 0.5)
    );
    check_ops!(
        shape![3],
        shape![2, 3],
        shape![2, 3],
        values(3, 1.0),
        values(6, 0.5)
    );
    check_ops!(
        shape![2, 1],
        shape![3],
        shape![2, 3],
        values(2, 1.0),
        values(3, 7.0)
    );
    check_ops!(
        shape![1, 3],
        shape![2, 1],
        shape![2, 3],
        values(3, 1.0),
        values(2, 7.0)
    );
    check_ops!(
        shape![],
        shape![2, 2],
        shape![2, 2],
        values(1, 3.0),
        values(4, 1.0)
    );
    check_ops!(
        shape![2, 2],
        shape![],
        shape![2, 2],
        values(4, 3.0),
        values(1, 4.0)
    );
    check_ops!(
        shape![4, 1, 3],
        shape![2, 1],
        shape![4, 2, 3],
        values(12, 1.0),
        values(2, 9.0)
    );
    check_ops!(
        shape![2, 1, 3, 1],
        shape![5, 1, 4],
        shape![2, 5, 3, 4],
        values(6, -3.0),
        values(20, 2.0)
    );
    check_ops!(
        shape![0, 3],
        shape![3],
        shape![0, 3],
        values(0, 1.0),
        values(3, 2.0)
    );
    check_ops!(
        shape![1],
        shape![0],
        shape![0],
        values(1, 1.0),
        values(0, 2.0)
    );
}

proptest! {
    #[test]
    fn operators_match_the_reference_on_random_values(
        x in prop::collection::vec(-1e3f64..1e3, 12),
        y in prop::collection::vec(-1e3f64..1e3, 8),
    ) {
        // [3, 1, 4] with [2, 4]: both operands broadcast
        let a = Tensor::<f64, shape![3, 1, 4]>::from_slice(&x).unwrap();
        let b = Tensor::<f64, shape![2, 4]>::from_slice(&y).unwrap();
        let ops: [Case<f64, shape![3, 2, 4]>; 4] = [
            (&a * &b, |p, q| p * q),
            (&a + &b, |p, q| p + q),
            (&a - &b, |p, q| p - q),
            (&a / &b, |p, q| p / q),
        ];
        for (out, f) in ops {
            let (dims, want) = numpy(&[3, 1, 4], &x, &[2, 4], &y, f).unwrap();
            prop_assert_eq!(out.dims().to_vec(), dims);
            prop_assert_eq!(out.to_vec(), want);
        }
    }

    #[test]
    fn integer_operators_wrap(
        x in prop::collection::vec(any::<i32>(), 6),
        y in prop::collection::vec(any::<i32>(), 3),
    ) {
        let a = Tensor::<i32, shape![2, 3]>::from_slice(&x).unwrap();
        let b = Tensor::<i32, shape![3]>::from_slice(&y).unwrap();
        let ops: [Case<i32, shape![2, 3]>; 3] = [
            (&a * &b, i32::wrapping_mul),
            (&a + &b, i32::wrapping_add),
            (&a - &b, i32::wrapping_sub),
        ];
        for (out, f) in ops {
            let (_, want) = numpy(&[2, 3], &x, &[3], &y, f).unwrap();
            prop_assert_eq!(out.to_vec(), want);
        }
    }
}

#[test]
fn float_division_by_zero_follows_ieee() {
    let x = tensor![1.0f32, -1.0, 0.0];
    let z = tensor![0.0f32];
    let q = &x / &z;
    assert_eq!(q.as_slice()[0], f32::INFINITY);
    assert_eq!(q.as_slice()[1], f32::NEG_INFINITY);
    assert!(q.as_slice()[2].is_nan());
}

#[test]
fn integer_division_uses_the_fallible_method() {
    let a = tensor![7, -8, 9];
    let ok = a
        .elementwise_div(&tensor![2], Axis::<-1>, Identity)
        .unwrap();
    assert_eq!(ok.as_slice(), &[3, -4, 4]);
    let err = a
        .elementwise_div(&tensor![1, 0, 1], Axis::<-1>, Identity)
        .unwrap_err();
    assert_eq!(
        err,
        shapecheck::ElementwiseError::DivisionByZero { index: 1 }
    );
}

#[test]
fn operators_keep_the_left_operands_storage() {
    // views give an inline result
    let buf = [1.0f32, 2.0, 3.0, 4.0];
    let v = Tensor::<f32, shape![2, 2], &[f32]>::from_storage(&buf[..]).unwrap();
    let w = tensor![[10.0f32], [100.0]];
    let p: Tensor<f32, shape![2, 2]> = &v * &w;
    assert_eq!(p.as_slice(), &[10.0, 20.0, 300.0, 400.0]);
    // a heap tensor gives a heap result
    let h = v.to_heap();
    let q: Tensor<f32, shape![2, 2], Vec<f32>> = &h + &w;
    assert_eq!(q.as_slice(), &[11.0, 12.0, 103.0, 104.0]);
    // and the right operand may be stored anyhow
    let r: Tensor<f32, shape![2, 2]> = &w - &h;
    assert_eq!(r.as_slice(), &[9.0, 8.0, 97.0, 96.0]);
}

// ------------------------------------------------------------ generic code

/// `x * y`, generic over element type and shapes: one bound.
fn product<T: Element, S, Y>(x: &Tensor<T, S>, y: &Tensor<T, Y>) -> Tensor<T, BroadcastOf<S, Y>>
where
    S: BroadcastWith<Y>,
    Y: StaticShape,
{
    x * y
}

/// `x / y - x`: two steps, each with its own alias bound.
fn relative<S, Y>(
    x: &Tensor<f64, S>,
    y: &Tensor<f64, Y>,
) -> Tensor<f64, BroadcastOf<BroadcastOf<S, Y>, S>>
where
    S: BroadcastWith<Y>,
    Y: StaticShape,
    BroadcastOf<S, Y>: BroadcastWith<S>,
{
    &(x / y) - x
}

#[test]
fn generic_functions_over_shapes() {
    let p = product(&tensor![[1, 2], [3, 4]], &tensor![10, 100]);
    let _: &Tensor<i32, shape![2, 2]> = &p;
    assert_eq!(p.as_slice(), &[10, 200, 30, 400]);
    let p = product(&tensor![2.0], &tensor![[1.0], [2.0], [3.0]]);
    let _: &Tensor<f64, shape![3, 1]> = &p;
    assert_eq!(p.as_slice(), &[2.0, 4.0, 6.0]);

    let r = relative(&tensor![4.0, 8.0], &tensor![[2.0], [4.0]]);
    let _: &Tensor<f64, shape![2, 2]> = &r;
    assert_eq!(r.as_slice(), &[-2.0, -4.0, -3.0, -6.0]);
}
