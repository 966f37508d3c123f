// A bounded tensor (rows `Bounded<8>`: a run-time size, at most 8) where the
// plain form needs shapes known to the compiler: its rows meet a static 3.
use shapecheck::prelude::*;
use shapecheck::Room;

fn main() {
    type S = (Bounded<8>, Dim<2>);
    let x = Tensor::<f32, S, Room<f32, S>>::from_shape_slice(
        <S as Shape>::from_dims(&[3, 2]).unwrap(),
        &[1.0; 6],
    )
    .unwrap();
    let y = Tensor::<f32, shape![3, 2]>::full(2.0);
    let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
}
