// A fused expression over two generic static shapes that forgets the bound
// that says they broadcast: one error that names both shapes and the rule,
// and says what to add (`S: BroadcastWith<Y>`).
use shapecheck::prelude::*;

fn fused<S: StaticShape, Y: StaticShape>(x: &Tensor<f32, S>, y: &Tensor<f32, Y>) {
    let _ = (x.lazy() * y).relu();
}

fn main() {
    fused(&tensor![[1.0f32], [2.0]], &tensor![3.0f32, 4.0]);
}
