//! softmax and log_softmax: property tests against a naive reference (each
//! row along the axis in f64, `exp(x - max) / sum`), the axis rule, and the
//! static path against the dynamic one.

use proptest::prelude::*;
use shapecheck::ops::softmax::{softmax_slices, SoftmaxKind};
use shapecheck::prelude::*;

/// The naive softmax (or log_softmax) of x along `axis` (already in range), in f64.
fn reference(dims: &[usize], x: &[f64], axis: usize, log: bool) -> Vec<f64> {
    let outer: usize = dims[..axis].iter().product();
    let n = dims.get(axis).copied().unwrap_or(1);
    let inner: usize = dims.get(axis + 1..).map_or(1, |d| d.iter().product());
    let mut out = vec![0.0; x.len()];
    for o in 0..outer {
        for j in 0..inner {
            let at = |k: usize| (o * n + k) * inner + j;
            let max = (0..n).map(|k| x[at(k)]).fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = (0..n).map(|k| (x[at(k)] - max).exp()).sum();
            for k in 0..n {
                out[at(k)] = if log {
                    x[at(k)] - max - sum.ln()
                } else {
                    (x[at(k)] - max).exp() / sum
                };
            }
        }
    }
    out
}

fn arb_case() -> impl Strategy<Value = (Vec<usize>, Vec<f64>, isize)> {
    prop::collection::vec(0usize..5, 0..5).prop_flat_map(|dims| {
        let numel: usize = dims.iter().product();
        let r = dims.len().max(1) as isize;
        (
            Just(dims),
            prop::collection::vec((-32i32..33).prop_map(|v| f64::from(v) / 8.0), numel),
            -r - 1..r + 1,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn softmax_matches_the_reference((dims, data, axis) in arb_case()) {
        let n = dims.len().max(1) as isize;
        let x = DynTensor::new(&dims, data.clone()).unwrap();
        let x32 = DynTensor::new(&dims, data.iter().map(|&v| v as f32).collect()).unwrap();
        for log in [false, true] {
            let kind = if log { SoftmaxKind::LogSoftmax } else { SoftmaxKind::Softmax };
            let got = x.softmax_with(kind, axis);
            if axis < -n || axis >= n {
                prop_assert_eq!(got.unwrap_err().rule(), "softmax/axis-range");
                continue;
            }
            let a = if axis < 0 { axis + n } else { axis } as usize;
            let want = reference(&dims, &data, a, log);
            let got = got.unwrap();
            prop_assert_eq!(got.dims().to_vec(), dims.clone());
            for (g, w) in got.as_slice().iter().zip(&want) {
                prop_assert!((g - w).abs() <= 1e-12 * w.abs().max(1.0), "{} vs {}", g, w);
            }
            let got32 = x32.softmax_with(kind, axis).unwrap();
            for (g, w) in got32.as_slice().iter().zip(&want) {
                let tol = if log { 1e-6 * w.abs().max(1.0) } else { 1e-6 * w.abs() };
                prop_assert!((f64::from(*g) - w).abs() <= tol, "{} vs {}", g, w);
            }
            let mut out = vec![0.0; data.len()];
            softmax_slices(kind, &dims, &data, axis, &mut out).unwrap();
            prop_assert_eq!(&out[..], got.as_slice());
        }
    }
}

#[test]
fn zero_d_and_large_values() {
    let s = DynTensor::new(&[], vec![-7.5f64]).unwrap();
    assert_eq!(s.softmax(0).unwrap().as_slice(), &[1.0]);
    assert_eq!(s.log_softmax(-1).unwrap().as_slice(), &[0.0]);
    assert_eq!(s.softmax(1).unwrap_err().rule(), "softmax/axis-range");
    // stable: exp(1000) would overflow without subtracting the max
    let x = DynTensor::new(&[2], vec![1000.0f32, 1000.0]).unwrap();
    assert_eq!(x.softmax(0).unwrap().as_slice(), &[0.5, 0.5]);
    let e = DynTensor::new(&[3, 0], Vec::<f32>::new()).unwrap();
    assert!(e.softmax(1).unwrap().as_slice().is_empty());
}

#[test]
fn static_matches_dynamic() {
    let x = Tensor::<f64, shape![2, 3, 4]>::from_fn(|i| (i[0] * 12 + i[1] * 4 + i[2]) as f64 / 8.0);
    let d = DynTensor::new(&[2, 3, 4], x.to_vec()).unwrap();
    assert_eq!(
        x.softmax(Axis::<0>).as_slice(),
        d.softmax(0).unwrap().as_slice()
    );
    assert_eq!(
        x.softmax(Axis::<-2>).as_slice(),
        d.softmax(1).unwrap().as_slice()
    );
    assert_eq!(
        x.log_softmax(Axis::<2>).as_slice(),
        d.log_softmax(-1).unwrap().as_slice()
    );
    let p: Tensor<f64, shape![2, 3, 4]> = x.softmax(Axis::<-1>);
    let row: f64 = p.as_slice()[..4].iter().sum();
    assert!((row - 1.0).abs() < 1e-15);
}

/// The f32 kernel's exp against f64's over its whole range, and its edges.
#[test]
fn f32_exp_is_within_two_ulp() {
    use shapecheck::ops::softmax::SoftmaxElement;
    let mut worst = 0.0f64;
    let mut x = -87.3f32;
    while x <= 0.0 {
        let got = f64::from(x.exp_nonpositive());
        let want = f64::from(x).exp();
        worst = worst.max((got - want).abs() / want);
        x += 0.000_37;
    }
    assert!(worst < 2.5e-7, "largest relative error {worst}");
    assert_eq!(0.0f32.exp_nonpositive(), 1.0);
    assert_eq!((-88.0f32).exp_nonpositive(), 0.0);
    assert_eq!(f32::NEG_INFINITY.exp_nonpositive(), 0.0);
    assert!(f32::NAN.exp_nonpositive().is_nan());
}
