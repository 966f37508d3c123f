//! Reductions and argmax / argmin: property tests against a naive reference
//! (every element visited by its multi-index), the rule's edges (Paddle's
//! 0-d and empty-axis cases), and the static path against the dynamic one,
//! output types included.

use proptest::prelude::*;
use shapecheck::ops::reduce::{reduce_output_dims, ArgKind, ReduceKind};
use shapecheck::prelude::*;
use shapecheck::All;
use shapecheck::ReduceOutput;

/// The multi-index of flat position `i` in `dims`.
fn unflat(mut i: usize, dims: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; dims.len()];
    for k in (0..dims.len()).rev() {
        idx[k] = i % dims[k];
        i /= dims[k];
    }
    idx
}

/// Which dims `axes` reduce (None or empty: all), or None where Paddle errs.
fn reduced(dims: &[usize], axes: Option<&[isize]>) -> Option<Vec<bool>> {
    let r = dims.len();
    let n = r.max(1) as isize;
    let mut red = vec![false; r.max(1)];
    match axes {
        None | Some([]) => red.iter_mut().for_each(|b| *b = true),
        Some(list) => {
            for &a in list {
                if a < -n || a >= n {
                    return None;
                }
                let s = if a < 0 { a + n } else { a } as usize;
                if red[s] {
                    return None;
                }
                red[s] = true;
            }
        }
    }
    red.truncate(r);
    Some(red)
}

/// The naive reduction: the output dims and, per output element, the
/// x values it reduces, in x's order.
fn groups(dims: &[usize], red: &[bool], keepdim: bool) -> (Vec<usize>, Vec<Vec<usize>>) {
    let out: Vec<usize> = dims
        .iter()
        .zip(red)
        .filter_map(|(&d, &r)| match (r, keepdim) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let kept: Vec<usize> = dims
        .iter()
        .zip(red)
        .filter(|(_, r)| !**r)
        .map(|(&d, _)| d)
        .collect();
    let n_out: usize = kept.iter().product();
    let mut g = vec![vec![]; n_out];
    let numel: usize = dims.iter().product();
    for i in 0..numel {
        let idx = unflat(i, dims);
        let mut o = 0;
        for (k, &d) in dims.iter().enumerate() {
            if !red[k] {
                o = o * d + idx[k];
            }
        }
        g[o].push(i);
    }
    (out, g)
}

fn arb_case() -> impl Strategy<Value = (Vec<usize>, Vec<i32>, Option<Vec<isize>>, bool)> {
    prop::collection::vec(0usize..4, 0..5).prop_flat_map(|dims| {
        let numel: usize = dims.iter().product();
        let r = dims.len() as isize;
        (
            Just(dims),
            prop::collection::vec(-3i32..4, numel),
            prop::option::of(prop::collection::vec(-r - 1..r + 1, 0..4)),
            any::<bool>(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_reduction_matches_the_reference((dims, data, axes, keepdim) in arb_case()) {
        let x = DynTensor::new(&dims, data.clone()).unwrap();
        let list = axes.clone().unwrap_or_default();
        let red = reduced(&dims, axes.as_deref());
        let sum = x.sum(&list, keepdim);
        let Some(red) = red else {
            prop_assert!(sum.is_err());
            let rule = sum.unwrap_err().rule();
            prop_assert!(rule == "reduce/axis-range" || rule == "reduce/duplicate-axis");
            return Ok(());
        };
        let (out, g) = groups(&dims, &red, keepdim);
        let sum = sum.unwrap();
        prop_assert_eq!(sum.dims().to_vec(), out.clone());
        let want: Vec<i64> = g.iter().map(|ix| ix.iter().map(|&i| i64::from(data[i])).sum()).collect();
        prop_assert_eq!(sum.as_slice(), &want[..]);
        let prod = x.prod(&list, keepdim).unwrap();
        let want: Vec<i32> = g.iter().map(|ix| ix.iter().fold(1i32, |a, &i| a.wrapping_mul(data[i]))).collect();
        prop_assert_eq!(prod.as_slice(), &want[..]);
        let empty = g.iter().any(|ix| ix.is_empty()) || (g.is_empty() && red.iter().zip(&dims).any(|(&r, &d)| r && d == 0));
        match x.max(&list, keepdim) {
            Ok(m) => {
                prop_assert!(!empty);
                let want: Vec<i32> = g.iter().map(|ix| ix.iter().map(|&i| data[i]).max().unwrap()).collect();
                prop_assert_eq!(m.as_slice(), &want[..]);
            }
            Err(e) => {
                prop_assert_eq!(e.rule(), "reduce/empty");
                prop_assert!(red.iter().zip(&dims).any(|(&r, &d)| r && d == 0));
            }
        }
        if let Ok(m) = x.min(&list, keepdim) {
            let want: Vec<i32> = g.iter().map(|ix| ix.iter().map(|&i| data[i]).min().unwrap()).collect();
            prop_assert_eq!(m.as_slice(), &want[..]);
        }
        let xf = DynTensor::new(&dims, data.iter().map(|&v| v as f64 * 0.5).collect()).unwrap();
        let mean = xf.mean(&list, keepdim).unwrap();
        for (o, ix) in mean.as_slice().iter().zip(&g) {
            let s: f64 = ix.iter().map(|&i| data[i] as f64 * 0.5).sum();
            let want = s / ix.len() as f64;
            prop_assert!(o.to_bits() == want.to_bits() || (o.is_nan() && want.is_nan()));
        }
        prop_assert_eq!(reduce_output_dims(&dims, axes.as_deref(), keepdim, ReduceKind::Sum).unwrap().to_vec(), out);
    }

    #[test]
    fn argmax_and_argmin_match_the_reference((dims, data, axis, keepdim) in arb_case()) {
        let axis = axis.and_then(|a| a.first().copied());
        let x = DynTensor::new(&dims, data.clone()).unwrap();
        for kind in [ArgKind::ArgMax, ArgKind::ArgMin] {
            let got = x.arg_reduce(kind, axis, keepdim);
            let list: Vec<isize> = axis.into_iter().collect();
            let Some(red) = reduced(&dims, axis.map(|_| &list[..])) else {
                prop_assert_eq!(got.unwrap_err().rule(), "reduce/axis-range");
                continue;
            };
            if red.iter().zip(&dims).any(|(&r, &d)| r && d == 0) {
                prop_assert_eq!(got.unwrap_err().rule(), "reduce/empty");
                continue;
            }
            let got = got.unwrap();
            let (mut out, g) = groups(&dims, &red, keepdim);
            if dims.is_empty() && keepdim && axis.is_some() {
                out = vec![1]; // Paddle: a 0-d x over an axis with keepdim is [1]
            }
            prop_assert_eq!(got.dims().to_vec(), out);
            for (o, ix) in got.as_slice().iter().zip(&g) {
                // the position along the reduced dims (flattened) of the first best
                let mut best = 0;
                for (k, &i) in ix.iter().enumerate() {
                    let better = match kind {
                        ArgKind::ArgMax => data[i] > data[ix[best]],
                        ArgKind::ArgMin => data[i] < data[ix[best]],
                    };
                    if better {
                        best = k;
                    }
                }
                prop_assert_eq!(*o, best as i64);
            }
        }
    }
}

/// A long f32 row from a few values, so that ties, NaN, -0.0 and 0.0 meet
/// across the kernel's blocks of 256 and its lanes of 16.
fn arb_long_row() -> impl Strategy<Value = Vec<f32>> {
    let values = prop::sample::select(vec![-2.0f32, -0.0, 0.0, 1.0, 3.0, f32::NAN]);
    (1usize..1100).prop_flat_map(move |n| prop::collection::vec(values.clone(), n))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// argmax / argmin of long rows against the element-by-element loop
    /// (the first index on ties; a NaN never better and nothing better than
    /// a NaN, so a NaN first element gives 0).
    #[test]
    fn arg_of_long_float_rows_matches_the_loop(row in arb_long_row(), rows in 1usize..3) {
        let n = row.len();
        let data: Vec<f32> = (0..rows).flat_map(|r| row.iter().cycle().skip(r * 7).take(n).copied()).collect();
        let x = DynTensor::new(&[rows, n], data.clone()).unwrap();
        for kind in [ArgKind::ArgMax, ArgKind::ArgMin] {
            let got = x.arg_reduce(kind, Some(-1), false).unwrap();
            for (r, o) in got.as_slice().iter().enumerate() {
                let v = &data[r * n..(r + 1) * n];
                let mut best = 0;
                for k in 1..n {
                    let better = match kind {
                        ArgKind::ArgMax => v[k] > v[best],
                        ArgKind::ArgMin => v[k] < v[best],
                    };
                    if better {
                        best = k;
                    }
                }
                prop_assert_eq!(*o, best as i64, "row {} of {:?}", r, kind);
            }
        }
    }
}

/// f32 data of dims of 1 to 11 (rank 2 to 4, the last at least 2) and a
/// list of axes to reduce, the last one kept, from values where sums
/// round, signed zeros and NaN.
fn arb_float_case() -> impl Strategy<Value = (Vec<usize>, Vec<f32>, Vec<isize>)> {
    (prop::collection::vec(1usize..12, 1..4), 2usize..12).prop_flat_map(|(mut dims, last)| {
        dims.push(last);
        let numel: usize = dims.iter().product();
        let r = dims.len() as isize;
        let values = prop::sample::select(vec![0.1f32, -0.7, 3.3, 1e7, -1e7, 0.0, -0.0, f32::NAN]);
        (
            Just(dims),
            prop::collection::vec(values, numel),
            prop::sample::subsequence((0..r - 1).collect::<Vec<_>>(), 1..=(r - 1) as usize),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// f32 sum, max and min over axes before a kept last one against the
    /// fold of each output element's values in x's order, to the bit: with
    /// the inner run kept each element takes x's rows in order (also where
    /// several reduced rows are folded into one output row per pass); max
    /// and min pass over NaN as the kernel's `if v > m` does and keep the
    /// first of 0.0 and -0.0.
    #[test]
    fn float_folds_take_the_values_in_order((dims, data, axes) in arb_float_case()) {
        let x = DynTensor::new(&dims, data.clone()).unwrap();
        let red = reduced(&dims, Some(&axes)).unwrap();
        let (_, g) = groups(&dims, &red, false);
        let sum = x.sum(&axes, false).unwrap();
        let max = x.max(&axes, false).unwrap();
        let min = x.min(&axes, false).unwrap();
        for (k, ix) in g.iter().enumerate() {
            let s = ix.iter().fold(0.0f32, |a, &i| a + data[i]);
            prop_assert!(sum.as_slice()[k].to_bits() == s.to_bits() || (s.is_nan() && sum.as_slice()[k].is_nan()));
            let m = ix.iter().fold(f32::NEG_INFINITY, |a, &i| if data[i] > a { data[i] } else { a });
            prop_assert_eq!(max.as_slice()[k].to_bits(), m.to_bits());
            let m = ix.iter().fold(f32::INFINITY, |a, &i| if data[i] < a { data[i] } else { a });
            prop_assert_eq!(min.as_slice()[k].to_bits(), m.to_bits());
        }
    }
}

#[test]
fn paddle_edges() {
    let s = DynTensor::new(&[], vec![-4i32]).unwrap();
    assert_eq!(s.sum(&[], true).unwrap().dims().rank(), 0); // 0-d stays 0-d
    assert_eq!(s.sum(&[-1], true).unwrap().as_slice(), &[-4i64]);
    assert_eq!(s.sum(&[-2], false).unwrap_err().rule(), "reduce/axis-range");
    assert_eq!(
        s.sum(&[0, 0], false).unwrap_err().rule(),
        "reduce/duplicate-axis"
    );
    assert_eq!(s.argmax(Some(0), true).unwrap().dims().as_slice(), &[1]);
    assert_eq!(s.argmax(None, true).unwrap().dims().rank(), 0);
    let e = DynTensor::new(&[2, 0], Vec::<f32>::new()).unwrap();
    assert_eq!(e.sum(&[1], true).unwrap().as_slice(), &[0.0, 0.0]);
    assert_eq!(e.prod(&[1], false).unwrap().as_slice(), &[1.0, 1.0]);
    assert_eq!(e.max(&[0], false).unwrap().dims().as_slice(), &[0]);
    assert_eq!(
        e.min(&[1], false).unwrap_err().to_string(),
        "reduce: min over dim 1 of x [2, 0], which has size 0: min needs at least one element"
    );
    // the last axis of a long row: the lanes and the remainder
    let x = DynTensor::new(&[3, 37], (0..111).map(|v| v as f32).collect()).unwrap();
    assert_eq!(
        x.sum(&[-1], false).unwrap().as_slice(),
        &[666.0, 2035.0, 3404.0]
    );
    assert_eq!(x.argmax(Some(1), false).unwrap().as_slice(), &[36, 36, 36]);
}

/// The static path agrees with the dynamic one, output types included.
fn same_as_dynamic<S, Ax>(axes: &[isize], keepdim: bool)
where
    S: StaticShape + shapecheck::Reduce<Ax>,
    ReduceOutput<S, Ax>: StaticShape,
    Ax: Default,
{
    let x = Tensor::<i32, S>::from_fn(|i| {
        i.iter()
            .enumerate()
            .map(|(k, &v)| (v as i32 + 1) * (k as i32 * 3 - 2))
            .sum()
    });
    let d = DynTensor::new(S::DIMS, x.as_slice().to_vec()).unwrap();
    let s = x.sum(Ax::default());
    let want = d.sum(axes, keepdim).unwrap();
    assert_eq!(s.dims(), want.dims());
    assert_eq!(s.as_slice(), want.as_slice());
    let m = x.max(Ax::default());
    assert_eq!(m.as_slice(), d.max(axes, false).unwrap().as_slice());
}

#[test]
fn static_matches_dynamic_on_every_axis_of_rank_3() {
    type S = shape![2, 3, 4];
    same_as_dynamic::<S, Axis<0>>(&[0], false);
    same_as_dynamic::<S, Axis<1>>(&[1], false);
    same_as_dynamic::<S, Axis<2>>(&[2], false);
    same_as_dynamic::<S, Axis<-1>>(&[-1], false);
    same_as_dynamic::<S, Axis<-2>>(&[-2], false);
    same_as_dynamic::<S, Axis<-3>>(&[-3], false);
    same_as_dynamic::<S, (Axis<0>, Axis<2>)>(&[0, 2], false);
    same_as_dynamic::<S, (Axis<-1>, Axis<0>, Axis<1>)>(&[-1, 0, 1], false);
    same_as_dynamic::<S, All>(&[], false);
    same_as_dynamic::<shape![5], Axis<0>>(&[0], false);
    same_as_dynamic::<shape![2, 1, 3, 2], (Axis<1>, Axis<3>)>(&[1, 3], false);
    same_as_dynamic::<shape![], All>(&[], false);
    same_as_dynamic::<shape![], Axis<-1>>(&[-1], false);
}

#[test]
fn static_keepdim_and_arg_forms() {
    let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 5.0, 5.0], [7.0, -1.0, 7.0]]);
    let k: Tensor<f32, shape![2, 1]> = x.max_keepdim(Axis::<1>);
    assert_eq!(k.as_slice(), &[5.0, 7.0]);
    let a: Tensor<i64, shape![2]> = x.argmax(Axis::<-1>);
    assert_eq!(a.as_slice(), &[1, 0]);
    let b: Tensor<i64, shape![1, 3]> = x.argmin_keepdim(Axis::<0>);
    assert_eq!(b.as_slice(), &[0, 1, 0]);
    let c: Tensor<i64, shape![1, 1]> = x.argmax_keepdim(All);
    assert_eq!(c.as_slice(), &[3]);
    let m: Tensor<f32, shape![1, 1]> = x.mean_keepdim((Axis::<0>, Axis::<1>));
    assert_eq!(m.as_slice(), &[4.0]);
    // a run-time dim: the checked form
    let y = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], x.to_vec()).unwrap();
    let s = y.try_reduce::<f32, _>(ReduceKind::Sum, Axis::<0>).unwrap();
    assert_eq!(s.as_slice(), &[8.0, 4.0, 12.0]);
}

/// No heap on the static path: the results are inline arrays.
#[test]
fn static_results_are_inline() {
    let x = Tensor::<f64, shape![4, 4]>::full(0.5);
    let s: Tensor<f64, shape![4], shapecheck::Inline<f64, shape![4]>> = x.sum(Axis::<0>);
    assert_eq!(s.as_slice(), &[2.0; 4]);
}

/// A reduction ending a fused expression against the plain ops, unfused:
/// exact for integers, max and min; within rounding for float sums (the
/// fused fold has one accumulator per output element).
mod fused {
    use proptest::prelude::*;
    use shapecheck::prelude::*;
    use shapecheck::All;

    proptest! {
        #[test]
        fn fused_reductions_match_the_unfused_ops(
            xs in proptest::collection::vec(-100i32..100, 24),
            ys in proptest::collection::vec(-5i32..5, 4),
            bs in proptest::collection::vec(-50i32..50, 2),
            fs in proptest::collection::vec(-3.0f64..3.0, 24),
        ) {
            let x = Tensor::<i32, shape![2, 3, 4]>::from_fn(|i| xs[i[0] * 12 + i[1] * 4 + i[2]]);
            let y = Tensor::<i32, shape![4]>::from_fn(|i| ys[i[0]]);
            let b = Tensor::<i32, shape![2, 1, 1]>::from_fn(|i| bs[i[0]]);
            let z = x.elementwise_mul(&y, Axis::<-1>, Identity).elementwise_add(&b, Axis::<-1>, Relu);
            let e = (x.lazy() * &y + &b).relu();
            let s: Tensor<i64, shape![2, 4]> = e.sum(Axis::<1>);
            prop_assert_eq!(s, z.sum(Axis::<1>));
            prop_assert_eq!(e.sum_keepdim((Axis::<0>, Axis::<-1>)), z.sum_keepdim((Axis::<0>, Axis::<-1>)));
            prop_assert_eq!(e.sum(All), z.sum(All));
            prop_assert_eq!(e.mean(Axis::<2>), z.mean(Axis::<2>));
            prop_assert_eq!(e.max(Axis::<0>), z.max(Axis::<0>));
            prop_assert_eq!(e.min_keepdim(Axis::<-2>), z.min_keepdim(Axis::<-2>));
            prop_assert_eq!(e.prod((Axis::<2>, Axis::<0>)), z.prod((Axis::<2>, Axis::<0>)));
            prop_assert_eq!(e.mean_keepdim(All), z.mean_keepdim(All));
            prop_assert_eq!(e.max_keepdim(All), z.max_keepdim(All));
            prop_assert_eq!(e.min(All), z.min(All));
            prop_assert_eq!(e.prod_keepdim(Axis::<1>), z.prod_keepdim(Axis::<1>));

            let f = Tensor::<f64, shape![2, 3, 4]>::from_fn(|i| fs[i[0] * 12 + i[1] * 4 + i[2]]);
            let g = Tensor::<f64, shape![3, 1]>::from_array([[0.5], [-1.0], [2.0]]);
            let zf = f.elementwise_mul(&g, Axis::<-1>, Identity).elementwise_add(&g, Axis::<-1>, Tanh);
            let ef = (f.lazy() * &g + &g).tanh();
            for (a, w) in ef.sum(Axis::<-1>).iter().zip(zf.sum(Axis::<-1>).iter()) {
                prop_assert!((a - w).abs() < 1e-12);
            }
            for (a, w) in ef.mean((Axis::<0>, Axis::<1>)).iter().zip(zf.mean((Axis::<0>, Axis::<1>)).iter()) {
                prop_assert!((a - w).abs() < 1e-12);
            }
            prop_assert_eq!(ef.max(Axis::<1>), zf.max(Axis::<1>));
        }
    }

    /// Rows longer than the fused fold's stack row (256): pieces of 256 and
    /// a remainder, each reduced run cut across them.
    #[test]
    fn fused_reductions_over_long_rows() {
        let x = Tensor::<i32, shape![3, 600]>::from_fn(|i| {
            (i[0] as i32 * 31 + i[1] as i32 * 7) % 19 - 9
        });
        let y = Tensor::<i32, shape![600]>::from_fn(|i| (i[0] % 5) as i32 - 2);
        let b = Tensor::<i32, shape![3, 1]>::from_array([[3], [-4], [0]]);
        let z = x
            .elementwise_mul(&y, Axis::<-1>, Identity)
            .elementwise_add(&b, Axis::<-1>, Identity);
        let e = x.lazy() * &y + &b;
        assert_eq!(e.sum(Axis::<1>), z.sum(Axis::<1>));
        assert_eq!(e.sum_keepdim(Axis::<0>), z.sum_keepdim(Axis::<0>));
        assert_eq!(e.max(Axis::<-1>), z.max(Axis::<-1>));
        assert_eq!(e.min(All), z.min(All));
        let f =
            Tensor::<f64, shape![2, 700]>::from_fn(|i| ((i[0] * 13 + i[1] * 5) % 17) as f64 / 4.0);
        let g = f.lazy() * 2.0;
        let w = f.map(|v| v * 2.0);
        assert_eq!(g.max(Axis::<1>), w.max(Axis::<1>));
        for (a, v) in g.sum(Axis::<1>).iter().zip(w.sum(Axis::<1>).iter()) {
            assert!((a - v).abs() < 1e-9);
        }
    }
}
