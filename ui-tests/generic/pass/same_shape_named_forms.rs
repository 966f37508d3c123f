// The named forms on two tensors of one generic shape need no bound beyond
// what the shape is (`StaticShape` for the plain forms, `Shape` for the
// `try_` forms), as the operators need none; the prelude brings them in.
use shapecheck::prelude::*;
use shapecheck::{ElementwiseError, Owned};

/// A clamp layer over any static shape.
fn clamp<S: StaticShape>(x: &Tensor<f32, S>, lo: &Tensor<f32, S>, hi: &Tensor<f32, S>) -> Owned<f32, S> {
    x.elementwise_max(lo, Axis::<-1>, Identity).elementwise_min(hi, Axis::<-1>, Identity)
}

/// A residual step over any shape, run-time dims included: checked when it runs.
fn residual<S: Shape>(x: &Tensor<f32, S, Vec<f32>>, f: &Tensor<f32, S, Vec<f32>>) -> Result<Tensor<f32, S, Vec<f32>>, ElementwiseError> {
    x.try_elementwise_add(f, Axis::<-1>, Relu)
}

fn main() {
    let c = clamp(&tensor![[-2.0f32, 0.5], [3.0, 1.0]], &Tensor::full(0.0), &Tensor::full(1.0));
    assert_eq!(c, tensor![[0.0f32, 0.5], [1.0, 1.0]]);
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, -2.0, 3.0, -4.0]).unwrap();
    let r = residual(&x, &x).unwrap();
    assert_eq!(r.as_slice(), &[2.0, 0.0, 6.0, 0.0]);
    let other = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![0.0; 6]).unwrap();
    assert_eq!(residual(&x, &other).unwrap_err().rule(), "elementwise/broadcast");
}
