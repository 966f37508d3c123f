// The bounds the select cases in `../fail/select_*missing_bound.rs` ask for:
// with them, the same functions compile, and each is called with shapes
// that broadcast, with the values OpenVINO's Select-1 gives.
use shapecheck::prelude::*;
use shapecheck::{try_select, SelectError, SelectShapes};

fn pick<C: SelectWith<T, E, Numpy>, T: StaticShape, E: StaticShape>(
    c: &Tensor<bool, C>,
    t: &Tensor<f32, T>,
    e: &Tensor<f32, E>,
) -> Tensor<f32, SelectOutput<C, T, E, Numpy>> {
    select(c, t, e, Numpy)
}

fn pick_pdpd<C: SelectWith<T, E, Pdpd<-1>>, T: StaticShape, E: StaticShape>(
    c: &Tensor<bool, C>,
    t: &Tensor<f32, T>,
    e: &Tensor<f32, E>,
) -> Tensor<f32, SelectOutput<C, T, E, Pdpd<-1>>> {
    select(c, t, e, Pdpd::<-1>)
}

fn pick_same<C: SelectWith<T, E, NoBroadcast>, T: StaticShape, E: StaticShape>(
    c: &Tensor<bool, C>,
    t: &Tensor<f32, T>,
    e: &Tensor<f32, E>,
) -> Tensor<f32, SelectOutput<C, T, E, NoBroadcast>> {
    select(c, t, e, NoBroadcast)
}

fn try_pick<C: SelectShapes<T, E, Numpy>, T: Shape, E: Shape>(
    c: &Tensor<bool, C, Vec<bool>>,
    t: &Tensor<f32, T, Vec<f32>>,
    e: &Tensor<f32, E, Vec<f32>>,
) -> Result<Vec<f32>, SelectError> {
    Ok(try_select(c, t, e, Numpy)?.as_slice().to_vec())
}

fn main() {
    let c = tensor![[true], [false]];
    let out = pick(&c, &tensor![1.0f32, 2.0], &tensor![0.0f32]);
    assert_eq!(out.as_slice(), &[1.0, 2.0, 0.0, 0.0]);

    let t = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let out = pick_pdpd(&tensor![true, false], &t, &tensor![9.0f32]);
    assert_eq!(out.as_slice(), &[1.0, 9.0, 3.0, 9.0]);

    let out = pick_same(&tensor![false, true], &tensor![1.0f32, 2.0], &tensor![5.0f32, 6.0]);
    assert_eq!(out.as_slice(), &[5.0, 2.0]);

    let c = Tensor::<bool, shape![Dyn], Vec<bool>>::from_vec((Dyn(2),), vec![true, false]).unwrap();
    let t = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![1.0, 2.0]).unwrap();
    let e = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![0.0; 3]).unwrap();
    assert_eq!(try_pick(&c, &t, &t).unwrap(), vec![1.0, 2.0]);
    assert_eq!(try_pick(&c, &t, &e).unwrap_err().rule(), "select/numpy-broadcast");
}
