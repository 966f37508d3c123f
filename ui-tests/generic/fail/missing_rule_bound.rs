// A function generic over two shapes (run-time dims allowed) that forgets
// its one bound: the error names the public trait to add,
// `X: ElementwiseShapes<Y, AXIS>` (with it, `pass/one_rule_bound.rs`
// compiles and runs).
use shapecheck::prelude::*;
use shapecheck::ElementwiseError;

fn diff<X: Shape, Y: Shape>(x: &Tensor<f32, X, Vec<f32>>, y: &Tensor<f32, Y, Vec<f32>>) -> Result<(), ElementwiseError> {
    let _ = x.try_elementwise_sub(y, Axis::<-1>, Identity)?;
    Ok(())
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(1), Dim), vec![1.0, 2.0]).unwrap();
    let _ = diff(&x, &x);
}
