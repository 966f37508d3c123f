// Generic code that forgets the rule's bound: the error names the bound to
// write (`S: BroadcastWith<Y>` for axis -1, `S: ElementwiseShapes<Y, AXIS>`
// for any axis).
use shapecheck::prelude::*;

fn scale<S: StaticShape, Y: StaticShape>(x: &Tensor<f32, S>, y: &Tensor<f32, Y>) {
    let _ = x.elementwise_mul(y, Axis::<-1>, Identity);
}

fn main() {
    scale(&tensor![1.0f32, 2.0], &tensor![3.0f32, 4.0]);
}
