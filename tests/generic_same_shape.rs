//! The named elementwise forms on two tensors of one generic shape, or a
//! tensor and a scalar, with no bound beyond `S: StaticShape` (plain forms)
//! or `S: Shape` (`try_` forms): each generic function is called with concrete shapes and
//! checked against the same call written with those shapes (the inherent
//! methods), every op and activation, several axes; the `try_` forms also
//! on run-time dims that differ or broadcast, and an integer division by zero.
#![allow(clippy::result_large_err)]
use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::{ElementwiseError, Owned, ResultStorage, Storage};

/// Every plain form at axis `AXIS`, as a user's layer writes them.
fn plain_all<S: StaticShape, const AXIS: isize>(
    x: &Tensor<f32, S>,
    y: &Tensor<f32, S>,
) -> [Owned<f32, S>; 6] {
    let a = Axis::<AXIS>;
    [
        x.elementwise_mul(y, a, Identity),
        x.elementwise_add(y, a, Relu),
        x.elementwise_sub(y, a, Tanh),
        x.elementwise_max(y, a, Identity),
        x.elementwise_min(y, a, Sigmoid),
        x.elementwise_div(y, a, Identity).unwrap(),
    ]
}

/// Every plain form with a scalar operand (`shape![]`).
fn plain_scalar<S: StaticShape, const AXIS: isize>(
    x: &Tensor<f32, S>,
    t: &Tensor<f32, shape![]>,
) -> [Owned<f32, S>; 6] {
    let a = Axis::<AXIS>;
    [
        x.elementwise_mul(t, a, Identity),
        x.elementwise_add(t, a, Relu),
        x.elementwise_sub(t, a, Tanh),
        x.elementwise_max(t, a, Identity),
        x.elementwise_min(t, a, Sigmoid),
        x.elementwise_div(t, a, Identity).unwrap(),
    ]
}

/// The same calls on concrete shapes: the inherent methods.
macro_rules! concrete_all {
    ($x:expr, $y:expr, $axis:expr) => {{
        let (x, y, a) = ($x, $y, $axis);
        [
            x.elementwise_mul(y, a, Identity),
            x.elementwise_add(y, a, Relu),
            x.elementwise_sub(y, a, Tanh),
            x.elementwise_max(y, a, Identity),
            x.elementwise_min(y, a, Sigmoid),
            x.elementwise_div(y, a, Identity).unwrap(),
        ]
    }};
}

/// Every `try_` form, for any shape.
fn try_all<S: Shape, B, const AXIS: isize>(
    x: &Tensor<f32, S, B>,
    y: &Tensor<f32, S, B>,
) -> Result<Vec<Vec<f32>>, ElementwiseError>
where
    B: Storage<f32> + ResultStorage<f32, S>,
{
    let a = Axis::<AXIS>;
    Ok(vec![
        x.try_elementwise_mul(y, a, Identity)?.as_slice().to_vec(),
        x.try_elementwise_add(y, a, Relu)?.as_slice().to_vec(),
        x.try_elementwise_sub(y, a, Tanh)?.as_slice().to_vec(),
        x.try_elementwise_max(y, a, Identity)?.as_slice().to_vec(),
        x.try_elementwise_min(y, a, Sigmoid)?.as_slice().to_vec(),
        x.try_elementwise_div(y, a, Identity)?.as_slice().to_vec(),
    ])
}

fn values(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(-4.0f32..4.0, n).prop_map(|v| {
        // no zero divisor: 0.5 stands in for values near 0
        v.into_iter()
            .map(|e| if e.abs() < 0.25 { 0.5 } else { e })
            .collect()
    })
}

proptest! {
    #[test]
    fn plain_forms_match_the_concrete_calls(xs in values(6), ys in values(6)) {
        type S = shape![2, 3];
        let x = Tensor::<f32, S>::from_slice(&xs).unwrap();
        let y = Tensor::<f32, S>::from_slice(&ys).unwrap();
        prop_assert_eq!(plain_all::<S, -1>(&x, &y), concrete_all!(&x, &y, Axis::<-1>));
        prop_assert_eq!(plain_all::<S, 0>(&x, &y), concrete_all!(&x, &y, Axis::<0>));
        prop_assert_eq!(plain_all::<S, 1>(&x, &y), concrete_all!(&x, &y, Axis::<1>));
        prop_assert_eq!(plain_all::<S, -2>(&x, &y), concrete_all!(&x, &y, Axis::<-2>));
        prop_assert_eq!(plain_all::<S, 7>(&x, &y), concrete_all!(&x, &y, Axis::<7>));
        prop_assert_eq!(plain_all::<S, -16>(&x, &y), concrete_all!(&x, &y, Axis::<-16>));
        // the try_ forms give the same values
        let tried = try_all::<S, _, 1>(&x, &y).unwrap();
        let plain: Vec<Vec<f32>> = plain_all::<S, 1>(&x, &y).iter().map(|t| t.as_slice().to_vec()).collect();
        prop_assert_eq!(tried, plain);
    }

    #[test]
    fn a_scalar_operand_matches_the_concrete_calls(xs in values(6), t in values(1)) {
        type S = shape![2, 3];
        let x = Tensor::<f32, S>::from_slice(&xs).unwrap();
        let t = Tensor::<f32, shape![]>::full(t[0]);
        prop_assert_eq!(plain_scalar::<S, -1>(&x, &t), concrete_all!(&x, &t, Axis::<-1>));
        prop_assert_eq!(plain_scalar::<S, 0>(&x, &t), concrete_all!(&x, &t, Axis::<0>));
        prop_assert_eq!(plain_scalar::<S, 1>(&x, &t), concrete_all!(&x, &t, Axis::<1>));
        prop_assert_eq!(plain_scalar::<S, -2>(&x, &t), concrete_all!(&x, &t, Axis::<-2>));
    }

    #[test]
    fn other_ranks_and_a_scalar_shape(xs in values(24), ys in values(24)) {
        type S3 = shape![2, 3, 4];
        let x = Tensor::<f32, S3>::from_slice(&xs).unwrap();
        let y = Tensor::<f32, S3>::from_slice(&ys).unwrap();
        prop_assert_eq!(plain_all::<S3, 2>(&x, &y), concrete_all!(&x, &y, Axis::<2>));
        type S0 = shape![];
        let (x0, y0) = (Tensor::<f32, S0>::full(xs[0]), Tensor::<f32, S0>::full(ys[0]));
        prop_assert_eq!(plain_all::<S0, -1>(&x0, &y0), concrete_all!(&x0, &y0, Axis::<-1>));
    }

    #[test]
    fn try_forms_on_run_time_dims(xs in values(6), ys in values(6)) {
        type D = shape![Dyn, 3];
        let x = Tensor::<f32, D, Vec<f32>>::from_vec((Dyn(2), Dim), xs.clone()).unwrap();
        let y = Tensor::<f32, D, Vec<f32>>::from_vec((Dyn(2), Dim), ys.clone()).unwrap();
        let xs_static = Tensor::<f32, shape![2, 3]>::from_slice(&xs).unwrap();
        let ys_static = Tensor::<f32, shape![2, 3]>::from_slice(&ys).unwrap();
        let want: Vec<Vec<f32>> = concrete_all!(&xs_static, &ys_static, Axis::<-1>)
            .iter().map(|t| t.as_slice().to_vec()).collect();
        prop_assert_eq!(try_all::<D, _, -1>(&x, &y).unwrap(), want);
        // one row of y broadcasts over x's two (numpy's rule, the output x's rows)
        let y1 = Tensor::<f32, D, Vec<f32>>::from_vec((Dyn(1), Dim), ys[..3].to_vec()).unwrap();
        let row = Tensor::<f32, shape![3]>::from_slice(&ys[..3]).unwrap();
        let want: Vec<f32> = xs_static.elementwise_max(&row, Axis::<-1>, Identity).as_slice().to_vec();
        let got = x.try_elementwise_max(&y1, Axis::<-1>, Identity).unwrap();
        prop_assert_eq!(got.dims().as_slice().to_vec(), vec![2, 3]);
        prop_assert_eq!(got.as_slice(), &want[..]);
    }
}

/// Two run-time row counts of one shape type that differ: the rule's error,
/// naming both shapes, and no output.
#[test]
fn try_forms_report_dims_that_differ() {
    fn add<S: Shape>(
        x: &Tensor<f32, S, Vec<f32>>,
        y: &Tensor<f32, S, Vec<f32>>,
    ) -> Result<Vec<f32>, ElementwiseError> {
        Ok(x.try_elementwise_add(y, Axis::<-1>, Identity)?
            .as_slice()
            .to_vec())
    }
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    let y = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    let err = add(&x, &y).unwrap_err();
    assert_eq!(err.rule(), "elementwise/broadcast");
    let text = err.to_string();
    assert!(text.contains("[2, 2]") && text.contains("[3, 2]"), "{text}");
    assert_eq!(add(&x, &x).unwrap(), vec![2.0; 4]);
}

/// A scalar operand in the `try_` forms over any shape (run-time dims
/// included), as in the plain forms over a static one.
#[test]
fn try_forms_take_a_scalar() {
    fn shift<S: Shape>(
        x: &Tensor<f32, S, Vec<f32>>,
        t: &Tensor<f32, shape![]>,
    ) -> Result<Vec<f32>, ElementwiseError> {
        Ok(x.try_elementwise_add(t, Axis::<-1>, Relu)?
            .as_slice()
            .to_vec())
    }
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec(
        (Dyn(2), Dim),
        vec![1.0, -2.0, 3.0, -4.0],
    )
    .unwrap();
    let t = Tensor::<f32, shape![]>::full(1.5);
    assert_eq!(shift(&x, &t).unwrap(), vec![2.5, 0.0, 4.5, 0.0]);
    let xs = Tensor::<f32, shape![2, 2]>::from_slice(&[1.0, -2.0, 3.0, -4.0]).unwrap();
    assert_eq!(
        shift(&x, &t).unwrap(),
        xs.elementwise_add(&t, Axis::<-1>, Relu).as_slice()
    );
}

/// An integer division by zero in a plain form over a generic shape is the
/// error `elementwise/division-by-zero`, as in the inherent form.
#[test]
fn an_integer_division_by_zero() {
    fn div<S: StaticShape>(
        x: &Tensor<i32, S>,
        y: &Tensor<i32, S>,
    ) -> Result<Owned<i32, S>, ElementwiseError> {
        x.elementwise_div(y, Axis::<-1>, Identity)
    }
    let x = tensor![[6, 8], [9, 12]];
    assert_eq!(
        div(&x, &tensor![[3, 2], [3, 4]]).unwrap(),
        tensor![[2, 4], [3, 3]]
    );
    let err = div(&x, &tensor![[3, 0], [3, 4]]).unwrap_err();
    assert_eq!(err.rule(), "elementwise/division-by-zero");
}

/// A result over a heap tensor stays on the heap, as the inherent form's.
#[test]
fn a_heap_operand_keeps_a_heap_result() {
    fn clip<S: StaticShape>(
        x: &Tensor<f32, S, Vec<f32>>,
        lo: &Tensor<f32, S, Vec<f32>>,
    ) -> Tensor<f32, S, Vec<f32>> {
        x.elementwise_max(lo, Axis::<-1>, Identity)
    }
    let x = Tensor::<f32, shape![2, 2], Vec<f32>>::from_vec((Dim, Dim), vec![-1.0, 2.0, -3.0, 4.0])
        .unwrap();
    let lo = Tensor::<f32, shape![2, 2], Vec<f32>>::from_vec((Dim, Dim), vec![0.0; 4]).unwrap();
    assert_eq!(clip(&x, &lo).as_slice(), &[0.0, 2.0, 0.0, 4.0]);
}
