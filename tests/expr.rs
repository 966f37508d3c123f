//! Fused expressions against the chain of plain ops they replace: the same
//! values bit for bit on random shapes (run-time dims, so the whole tree's
//! rule runs too), the same first failing rule, nothing written on an
//! error, and the static forms on fixed shapes.

#![allow(clippy::result_large_err)] // the library's error enums carry shapes by value

use proptest::prelude::*;
use shapecheck::expr;
use shapecheck::prelude::*;
use shapecheck::try_select;

type D1 = Tensor<f32, shape![Dyn], Vec<f32>>;
type D2 = Tensor<f32, shape![Dyn, Dyn], Vec<f32>>;
type D3 = Tensor<f32, shape![Dyn, Dyn, Dyn], Vec<f32>>;
type B3 = Tensor<bool, shape![Dyn, Dyn, Dyn], Vec<bool>>;

/// Values with both signs, ties and a few exact zeros, from a seed.
fn values(n: usize, seed: u64) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let h = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed;
            ((h >> 40) % 17) as f32 / 4.0 - 2.0
        })
        .collect()
}

fn dyn_tensor<S: Shape>(dims: &[usize], seed: u64) -> Tensor<f32, S, Vec<f32>> {
    let n = dims.iter().product();
    Tensor::with_dims(dims, values(n, seed)).unwrap()
}

/// Dims drawn so that most trees are valid: each dim the common size or 1,
/// and now and then a size that breaks the rule.
fn dims(rank: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(
        prop_oneof![6 => Just(0usize), 3 => Just(1usize), 1 => 2usize..5],
        rank,
    )
}

/// `common[i]` where `pick[i]` is 0, 1 where it is 1, the drawn size otherwise.
fn shape_from(common: &[usize], pick: &[usize]) -> Vec<usize> {
    common
        .iter()
        .zip(pick)
        .map(|(&c, &p)| match p {
            0 => c,
            1 => 1,
            other => other,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `relu(elementwise_mul(a, b, axis 1) + c) - d`, `max` with a scalar:
    /// four nodes, Paddle's axis rule in the first, against the plain
    /// `try_` ops one after the other.
    #[test]
    fn a_chain_equals_the_plain_ops_bit_for_bit(
        common in prop::collection::vec(1usize..5, 3),
        pa in dims(3), pb in dims(2), pc in dims(1), pd in dims(3),
        seed in any::<u64>(),
    ) {
        let a: D3 = dyn_tensor(&shape_from(&common, &pa), seed);
        // b [common[1], common[2]] placed at axis 1 of a
        let b: D2 = dyn_tensor(&shape_from(&common[1..], &pb), seed ^ 1);
        let c: D1 = dyn_tensor(&shape_from(&common[2..], &pc), seed ^ 2);
        let d: D3 = dyn_tensor(&shape_from(&common, &pd), seed ^ 3);

        let fused = ((a.lazy().elementwise_mul(&b, Axis::<1>, Identity) + &c).relu() - &d)
            .elementwise_max(0.5, Axis::<-1>, Identity)
            .try_eval();
        let plain = a
            .try_elementwise_mul(&b, Axis::<1>, Identity)
            .and_then(|ab| ab.try_elementwise_add(&c, Axis::<-1>, Relu))
            .and_then(|abc| abc.try_elementwise_sub(&d, Axis::<-1>, Identity))
            .and_then(|t| t.try_elementwise_max(&tensor![0.5f32], Axis::<-1>, Identity));
        match (fused, plain) {
            (Ok(f), Ok(p)) => {
                prop_assert_eq!(f.dims(), p.dims());
                let (fb, pb): (Vec<u32>, Vec<u32>) = (
                    f.as_slice().iter().map(|v| v.to_bits()).collect(),
                    p.as_slice().iter().map(|v| v.to_bits()).collect(),
                );
                prop_assert_eq!(fb, pb);
            }
            (Err(f), Err(p)) => prop_assert_eq!(f.rule(), p.rule()),
            (f, p) => prop_assert!(false, "fused {:?} but plain {:?}", f.map(|t| t.dims()), p.map(|t| t.dims())),
        }
    }

    /// `select(c, t * 2, t + e)` with numpy broadcasting (W3's chain, F2)
    /// against the plain ops, and the expression's error where theirs fails.
    #[test]
    fn a_select_chain_equals_the_plain_ops(
        common in prop::collection::vec(1usize..5, 3),
        pc in dims(3), pt in dims(3), pe in dims(2),
        seed in any::<u64>(),
    ) {
        let cd = shape_from(&common, &pc);
        let cond: B3 = Tensor::with_dims(
            &cd,
            values(cd.iter().product(), seed).iter().map(|v| *v > 0.0).collect(),
        )
        .unwrap();
        let t: D3 = dyn_tensor(&shape_from(&common, &pt), seed ^ 5);
        let e: D2 = dyn_tensor(&shape_from(&common[1..], &pe), seed ^ 6);

        let fused = expr::select(&cond, t.lazy() * 2.0, t.lazy() + &e, Numpy).try_eval();
        let two = t.try_elementwise_mul(&tensor![2.0f32], Axis::<-1>, Identity).unwrap();
        let plain = t
            .try_elementwise_add(&e, Axis::<-1>, Identity)
            .map_err(|x| x.rule())
            .and_then(|te| try_select(&cond, &two, &te, Numpy).map_err(|x| x.rule()));
        match (fused, plain) {
            (Ok(f), Ok(p)) => {
                prop_assert_eq!(f.dims(), p.dims());
                prop_assert_eq!(f.as_slice(), p.as_slice());
            }
            (Err(f), Err(p)) => prop_assert_eq!(f.rule(), p),
            (f, p) => prop_assert!(false, "fused {:?} but plain {:?}", f.map(|t| t.dims()), p.map(|t| t.dims())),
        }
    }

    /// `zip_with` and `map` against the same function applied by hand to
    /// the numpy-broadcast operands (through the plain ops' broadcasting).
    #[test]
    fn zip_with_and_map_apply_the_function_where_the_plain_op_would(
        common in prop::collection::vec(1usize..5, 2),
        px in dims(2), py in dims(2),
        seed in any::<u64>(),
    ) {
        let x: D2 = dyn_tensor(&shape_from(&common, &px), seed);
        let y: D2 = dyn_tensor(&shape_from(&common, &py), seed ^ 9);
        let f = |a: f32, b: f32| a * 3.0 - b * b;
        let fused = x.lazy().zip_with(&y, f).map(|v| v + 1.0).try_eval();
        // a - b with each side first broadcast by adding a zero tensor of the other's shape
        let zeros_y: D2 = Tensor::with_dims(&y.dims(), vec![0.0; y.as_slice().len()]).unwrap();
        let zeros_x: D2 = Tensor::with_dims(&x.dims(), vec![0.0; x.as_slice().len()]).unwrap();
        match (x.try_elementwise_add(&zeros_y, Axis::<-1>, Identity), y.try_elementwise_add(&zeros_x, Axis::<-1>, Identity)) {
            (Ok(xb), Ok(yb)) => {
                let want: Vec<f32> = xb.as_slice().iter().zip(yb.as_slice()).map(|(&a, &b)| f(a, b) + 1.0).collect();
                let got = fused.unwrap();
                prop_assert_eq!(got.as_slice(), &want[..]);
            }
            (Err(e), _) | (_, Err(e)) => prop_assert_eq!(fused.unwrap_err().rule(), e.rule()),
        }
    }
}

/// The first rule that fails is the one reported, from the leaves up, and
/// a buffer given to `try_eval_into` is untouched by a failing expression or
/// a wrong output shape.
#[test]
fn errors_are_the_first_failing_node_and_nothing_is_written() {
    let a: D2 = dyn_tensor(&[2, 3], 1);
    let bad_cols: D1 = dyn_tensor(&[4], 2);
    let bad_axis: D1 = dyn_tensor(&[3], 3);
    // the deepest node fails first: the broadcast of [2, 3] with [4]
    let e = ((a.lazy() * &bad_cols) + &bad_axis).try_eval().unwrap_err();
    assert_eq!(e.rule(), "elementwise/broadcast");
    assert!(
        e.to_string().contains("[2, 3]") && e.to_string().contains("[4]"),
        "{e}"
    );
    // axis 0 places [3] against 2 rows
    let e = a
        .lazy()
        .elementwise_add(&bad_axis, Axis::<0>, Identity)
        .try_eval()
        .unwrap_err();
    assert_eq!(e.rule(), "elementwise/broadcast");
    let mut buf = [7.0f32; 6];
    let mut out =
        Tensor::<f32, shape![Dyn, Dyn], &mut [f32]>::with_dims(&[2, 3], &mut buf[..]).unwrap();
    let e = (a.lazy() * &bad_cols).try_eval_into(&mut out).unwrap_err();
    assert_eq!(e.rule(), "elementwise/broadcast");
    assert_eq!(buf, [7.0; 6]);
    let mut out =
        Tensor::<f32, shape![Dyn, Dyn], &mut [f32]>::with_dims(&[3, 2], &mut buf[..]).unwrap();
    let e = (a.lazy() * 2.0).try_eval_into(&mut out).unwrap_err();
    assert_eq!(e.rule(), "shape/output");
    assert_eq!(buf, [7.0; 6]);

    // select: pdpd places else at axis 0 of then
    let t: D2 = dyn_tensor(&[2, 3], 4);
    let c: Tensor<bool, shape![Dyn, Dyn], Vec<bool>> =
        Tensor::with_dims(&[2, 3], vec![true; 6]).unwrap();
    let e = expr::select(&c, t.lazy(), &bad_cols, Pdpd::<0>)
        .try_eval()
        .unwrap_err();
    assert_eq!(
        e.rule(),
        try_select(&c, &t, &bad_cols, Pdpd::<0>).unwrap_err().rule()
    );
}

/// F3 (`relu(a * b + d)`, a [2, 3, 4, 5], b [3, 4, 1], d [5]) on inline
/// tensors, through `eval` and `eval_into`, against the plain ops and a hand
/// loop.
#[test]
fn f3_static_equals_the_plain_chain_and_a_hand_loop() {
    let a = Tensor::<f32, shape![2, 3, 4, 5]>::from_fn(|i| {
        (i[0] * 60 + i[1] * 20 + i[2] * 5 + i[3]) as f32 * 0.25 - 14.0
    });
    let b = Tensor::<f32, shape![3, 4, 1]>::from_fn(|i| (i[0] * 4 + i[1]) as f32 - 5.5);
    let d = Tensor::<f32, shape![5]>::from_array([1.0, -2.0, 0.5, 3.0, -0.25]);
    let fused = (a.lazy() * &b + &d).relu().eval();
    let plain = (&a * &b).elementwise_add(&d, Axis::<-1>, Relu);
    assert_eq!(fused, plain);
    let mut into = Tensor::<f32, shape![2, 3, 4, 5]>::zeros();
    (a.lazy() * &b + &d).relu().eval_into(&mut into);
    assert_eq!(into, plain);
    let (av, bv, dv) = (a.as_slice(), b.as_slice(), d.as_slice());
    for i in 0..2 {
        for j in 0..3 {
            for k in 0..4 {
                for l in 0..5 {
                    let v = av[((i * 3 + j) * 4 + k) * 5 + l] * bv[j * 4 + k] + dv[l];
                    let want = if v > 0.0 { v } else { 0.0 };
                    assert_eq!(
                        fused.as_slice()[((i * 3 + j) * 4 + k) * 5 + l].to_bits(),
                        want.to_bits()
                    );
                }
            }
        }
    }
}

/// Rows longer than one piece (64 elements), a leaf that repeats along the
/// row, and a select whose cond repeats along it.
#[test]
fn long_rows_and_repeating_leaves() {
    let x = Tensor::<f32, shape![3, 200], Vec<f32>>::from_vec(Default::default(), values(600, 11))
        .unwrap();
    let col = Tensor::<f32, shape![3, 1]>::from_array([[1.0], [-2.0], [0.5]]);
    let cond = Tensor::<bool, shape![3, 1]>::from_array([[true], [false], [true]]);
    let z = expr::select(&cond, x.lazy() * &col, x.lazy() - &col, Numpy).eval();
    let plain = select(&cond, &(&x * &col), &(&x - &col), Numpy);
    assert_eq!(z.as_slice(), plain.as_slice());
}

/// A tree of 8 tensors is the limit; the run-time path says so for more.
#[test]
fn an_expression_reads_at_most_eight_tensors() {
    let x: D1 = dyn_tensor(&[4], 1);
    let eight = x.lazy() + &x + &x + &x + &x + &x + &x + &x;
    assert_eq!(
        eight.try_eval().unwrap().as_slice(),
        x.try_elementwise_mul(&tensor![8.0f32], Axis::<-1>, Identity)
            .unwrap()
            .as_slice()
    );
    let nine = x.lazy() + &x + &x + &x + &x + &x + &x + &x + &x;
    let e = nine.try_eval().unwrap_err();
    assert_eq!(e.rule(), "expr/too-many-leaves");
}

/// Signed zeros and NaN through every op: the bits of a one-node expression
/// are the plain op's (max/min pick the same side on ties and NaN).
#[test]
fn signed_zeros_and_nan_as_the_plain_ops() {
    let x = Tensor::<f32, shape![6]>::from_array([-0.0, 0.0, f32::NAN, 1.0, -1.0, 0.0]);
    let y = Tensor::<f32, shape![6]>::from_array([0.0, -0.0, 1.0, f32::NAN, -1.0, 0.0]);
    let bits = |t: &[f32]| t.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let pairs = [
        (
            bits(
                x.lazy()
                    .elementwise_mul(&y, Axis::<-1>, Identity)
                    .eval()
                    .as_slice(),
            ),
            bits(x.elementwise_mul(&y, Axis::<-1>, Identity).as_slice()),
        ),
        (
            bits(
                x.lazy()
                    .elementwise_add(&y, Axis::<-1>, Identity)
                    .eval()
                    .as_slice(),
            ),
            bits(x.elementwise_add(&y, Axis::<-1>, Identity).as_slice()),
        ),
        (
            bits(
                x.lazy()
                    .elementwise_sub(&y, Axis::<-1>, Identity)
                    .eval()
                    .as_slice(),
            ),
            bits(x.elementwise_sub(&y, Axis::<-1>, Identity).as_slice()),
        ),
        (
            bits(
                x.lazy()
                    .elementwise_div(&y, Axis::<-1>, Identity)
                    .eval()
                    .as_slice(),
            ),
            bits(
                x.elementwise_div(&y, Axis::<-1>, Identity)
                    .unwrap()
                    .as_slice(),
            ),
        ),
        (
            bits(
                x.lazy()
                    .elementwise_max(&y, Axis::<-1>, Identity)
                    .eval()
                    .as_slice(),
            ),
            bits(x.elementwise_max(&y, Axis::<-1>, Identity).as_slice()),
        ),
        (
            bits(
                x.lazy()
                    .elementwise_min(&y, Axis::<-1>, Identity)
                    .eval()
                    .as_slice(),
            ),
            bits(x.elementwise_min(&y, Axis::<-1>, Identity).as_slice()),
        ),
        (
            bits(x.lazy().relu().eval().as_slice()),
            bits(
                x.elementwise_add(&tensor![0.0f32], Axis::<-1>, Relu)
                    .as_slice(),
            ),
        ),
    ];
    for (k, (fused, plain)) in pairs.iter().enumerate() {
        assert_eq!(fused, plain, "op {k}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// In place (`try_update`) equals evaluating into a fresh tensor, with
    /// the operand read twice and a leaf that repeats along the rows.
    #[test]
    fn in_place_equals_a_fresh_evaluation(
        rows in 1usize..5, cols in 1usize..70, col_is_one in any::<bool>(), seed in any::<u64>(),
    ) {
        let mut x: D2 = dyn_tensor(&[rows, cols], seed);
        let c: D2 = dyn_tensor(&[rows, if col_is_one { 1 } else { cols }], seed ^ 4);
        let fresh = (x.lazy() * &c + x.lazy()).relu().map(|v| v - 0.5).try_eval().unwrap();
        x.try_update(|x| (x * &c + x).relu().map(|v| v - 0.5)).unwrap();
        prop_assert_eq!(x.as_slice(), fresh.as_slice());
    }
}

/// `update` on static tensors, and `try_update` refusing an output of
/// another shape without writing.
#[test]
fn update_static_and_refusals() {
    let mut a = Tensor::<f32, shape![2, 3, 4, 5]>::from_fn(|i| {
        (i[0] * 60 + i[1] * 20 + i[2] * 5 + i[3]) as f32 - 50.0
    });
    let b = Tensor::<f32, shape![3, 4, 1]>::from_fn(|i| (i[0] * 4 + i[1]) as f32 * 0.5 - 2.0);
    let d = Tensor::<f32, shape![5]>::from_array([1.0, -2.0, 0.5, 3.0, -0.25]);
    let want = (a.lazy() * &b + &d).relu().eval();
    a.update(|a| (a * &b + &d).relu());
    assert_eq!(a, want);

    // x [1, 3] (a run-time 1) times y [2, 3]: the output [2, 3] is not x's
    let mut x: D2 = dyn_tensor(&[1, 3], 1);
    let y: D2 = dyn_tensor(&[2, 3], 2);
    let before = x.clone();
    let e = x.try_update(|x| x * &y).unwrap_err();
    assert_eq!(e.rule(), "shape/output");
    assert_eq!(x, before);
}

/// Run-time rows of every length from 0 to 100, through every node kind and
/// a leaf that repeats along the row (`col`, `[2, 1]`), against a naive loop
/// (to 1e-6: the library's tanh is computed in f64): `try_eval`, which writes
/// a fresh result front to back, and `try_eval_into` a buffer of sentinels,
/// which goes row by row.
#[test]
fn run_time_rows_of_every_length() {
    for len in 0..=100usize {
        let x = dyn_tensor::<shape![Dyn, Dyn]>(&[2, len], 31 + len as u64);
        let y = dyn_tensor::<shape![Dyn, Dyn]>(&[2, len], 57 + len as u64);
        let col = dyn_tensor::<shape![Dyn, Dyn]>(&[2, 1], 83 + len as u64);
        let cond: Tensor<bool, shape![Dyn, Dyn], Vec<bool>> =
            Tensor::with_dims(&[2, len], (0..2 * len).map(|i| i % 3 != 1).collect()).unwrap();
        let e = || {
            expr::select(
                &cond,
                (x.lazy() * &y + 0.5).relu(),
                (x.lazy().map(|v| v * 3.0).zip_with(&y, |a, b| a - b) * &col).tanh(),
                Numpy,
            )
        };
        let fused = e().try_eval().unwrap();
        let mut into: Tensor<f32, shape![Dyn, Dyn], Vec<f32>> =
            Tensor::with_dims(&[2, len], vec![f32::NAN; 2 * len]).unwrap();
        e().try_eval_into(&mut into).unwrap();
        let a = x.try_elementwise_mul(&y, Axis::<-1>, Identity).unwrap();
        let a = a
            .to_vec()
            .into_iter()
            .map(|v| (v + 0.5).max(0.0))
            .collect::<Vec<f32>>();
        let b: Vec<f32> = x
            .as_slice()
            .iter()
            .zip(y.as_slice())
            .enumerate()
            .map(|(i, (&u, &w))| ((u * 3.0 - w) * col.as_slice()[i / len.max(1)]).tanh())
            .collect();
        let want: Vec<f32> = cond
            .as_slice()
            .iter()
            .zip(a.iter().zip(&b))
            .map(|(&c, (&t, &e))| if c { t } else { e })
            .collect();
        assert_eq!(into.as_slice().len(), want.len());
        for (i, (&got, &w)) in into.as_slice().iter().zip(&want).enumerate() {
            assert!(
                (got - w).abs() <= 1e-6,
                "into, row length {len}, element {i}: {got} vs {w}"
            );
        }
        assert_eq!(fused.as_slice().len(), want.len());
        for (i, (&got, &w)) in fused.as_slice().iter().zip(&want).enumerate() {
            assert!(
                (got - w).abs() <= 1e-6,
                "row length {len}, element {i}: {got} vs {w}"
            );
        }
    }
}
