// A function generic over two static shapes that multiplies them with the
// operator but forgets the bound that says they broadcast: one error that
// names both shapes and the rule, and says what to add (`S: BroadcastWith<Y>`).
use shapecheck::prelude::*;

fn outer<S: StaticShape, Y: StaticShape>(x: &Tensor<f32, S>, y: &Tensor<f32, Y>) {
    let _ = x * y;
}

fn main() {
    outer(&tensor![[1.0f32], [2.0]], &tensor![3.0f32, 4.0]);
}
