// A function generic over select's three static shapes that forgets the
// bound saying they broadcast: one error that names the three shapes and
// the rule, and says what to add (`C: SelectWith<T, E, Numpy>`; with it,
// `pass/select_rule_bound.rs` compiles and runs).
use shapecheck::prelude::*;

fn pick<C: StaticShape, T: StaticShape, E: StaticShape>(c: &Tensor<bool, C>, t: &Tensor<f32, T>, e: &Tensor<f32, E>) {
    let _ = select(c, t, e, Numpy);
}

fn main() {
    pick(&tensor![true, false], &tensor![1.0f32, 2.0], &tensor![0.0f32]);
}
