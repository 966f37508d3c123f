// A named form on one generic shape with a scalar at an axis the rule
// rejects (-R <= axis < R, R the rank of x): the rule's own message, when
// the function is instantiated with a shape (`cargo build` reports it,
// `cargo check` does not; two tensors of one shape meet at any axis).
use shapecheck::prelude::*;
use shapecheck::Owned;

fn shifted<S: StaticShape>(x: &Tensor<f32, S>, t: &Tensor<f32, shape![]>) -> Owned<f32, S> {
    x.elementwise_add(t, Axis::<3>, Identity)
}

fn main() {
    let _ = shifted(&tensor![1.0f32, 2.0], &Tensor::full(1.0));
}
