// The checked select over three generic shapes (run-time dims allowed) with
// no bound: one error naming the public bound to add,
// `C: SelectShapes<T, E, Numpy>`.
use shapecheck::prelude::*;
use shapecheck::{try_select, SelectError};

fn pick<C: Shape, T: Shape, E: Shape>(
    c: &Tensor<bool, C, Vec<bool>>,
    t: &Tensor<f32, T, Vec<f32>>,
    e: &Tensor<f32, E, Vec<f32>>,
) -> Result<(), SelectError> {
    let _ = try_select(c, t, e, Numpy)?;
    Ok(())
}

fn main() {
    let c = Tensor::<bool, shape![Dyn], Vec<bool>>::from_vec((Dyn(2),), vec![true, false]).unwrap();
    let t = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![1.0, 2.0]).unwrap();
    let _ = pick(&c, &t, &t);
}
