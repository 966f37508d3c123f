// softmax/float-element: softmax takes f32 or f64 (the axis, out of range
// too, is not looked at: one mistake reported, the element type)
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![2, 3]>::full(1);
    let _ = x.log_softmax(Axis::<5>);
}
