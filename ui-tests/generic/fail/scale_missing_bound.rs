// A function generic over x's shape that multiplies it by a `[3]` operand
// with the named form but forgets the bound that says they broadcast: one
// error that names both shapes and the rule, and the public bounds to add
// (`S: BroadcastWith<..>` / `S: ElementwiseShapes<..>`).
use shapecheck::prelude::*;

fn scale<S: Shape>(x: &Tensor<f32, S, Vec<f32>>, y: &Tensor<f32, shape![3]>) {
    let _ = x.elementwise_mul(y, Axis::<-1>, Identity);
}

fn main() {
    let x = Tensor::<f32, shape![2, 3], Vec<f32>>::from_vec((Dim, Dim), vec![1.0; 6]).unwrap();
    scale(&x, &tensor![1.0f32, 2.0, 3.0]);
}
