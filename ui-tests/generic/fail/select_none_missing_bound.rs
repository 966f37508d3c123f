// NoBroadcast over generic shapes with no bound: one error saying that
// nothing says the three are one shape, naming `C: SelectWith<T, E, NoBroadcast>`.
use shapecheck::prelude::*;

fn pick<C: StaticShape, T: StaticShape, E: StaticShape>(c: &Tensor<bool, C>, t: &Tensor<f32, T>, e: &Tensor<f32, E>) {
    let _ = select(c, t, e, NoBroadcast);
}

fn main() {
    pick(&tensor![true, false], &tensor![1.0f32, 2.0], &tensor![0.0f32, 1.0]);
}
