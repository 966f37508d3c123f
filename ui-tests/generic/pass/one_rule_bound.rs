// `fail/missing_rule_bound.rs` with the bound its error names: one public
// bound, `X: ElementwiseShapes<Y, -1>`, is all a generic `try_` form needs;
// the output shape is `ElementwiseOutput<X, Y, -1>`.
use shapecheck::prelude::*;
use shapecheck::{ElementwiseError, ElementwiseOutput, ElementwiseShapes};

fn diff<X, Y>(x: &Tensor<f32, X, Vec<f32>>, y: &Tensor<f32, Y, Vec<f32>>) -> Result<Tensor<f32, ElementwiseOutput<X, Y, -1>, Vec<f32>>, ElementwiseError>
where
    X: ElementwiseShapes<Y, -1>,
    Y: Shape,
{
    x.try_elementwise_sub(y, Axis::<-1>, Identity)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    let y = Tensor::<f32, shape![2], Vec<f32>>::from_vec((Dim,), vec![1.0, 1.0]).unwrap();
    assert_eq!(diff(&x, &y).unwrap().as_slice(), &[0.0, 1.0, 2.0, 3.0]);
    // a run-time dim that does not match: the typed error, no panic
    let z = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![0.0; 3]).unwrap();
    assert_eq!(diff(&x, &z).unwrap_err().rule(), "elementwise/broadcast");
}
