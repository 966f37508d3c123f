// pdpd over generic shapes with no bound: one error saying that nothing
// says cond and else fit into then, and naming `C: SelectWith<T, E, Pdpd<-1>>`.
use shapecheck::prelude::*;

fn pick<C: StaticShape, T: StaticShape, E: StaticShape>(c: &Tensor<bool, C>, t: &Tensor<f32, T>, e: &Tensor<f32, E>) {
    let _ = select(c, t, e, Pdpd::<-1>);
}

fn main() {
    pick(&tensor![true, false], &tensor![1.0f32, 2.0], &tensor![0.0f32]);
}
