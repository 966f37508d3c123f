// A caller's buffer branded like the operand: the plain `_into` form writes
// into it with no check when the op runs, and no heap.
use shapecheck::prelude::*;

fn main() {
    let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let x = Tensor::<f32, shape![Dyn, 2], &[f32]>::with_dims(&[3, 2], &data[..]).unwrap();
    let mut buf = [0.0f32; 6];
    let out = Tensor::<f32, shape![Dyn, 2], &mut [f32]>::with_dims(&[3, 2], &mut buf[..]).unwrap();
    x.with_brand(|x, rows| {
        let mut out = out.brand_rows(rows).unwrap();
        x.elementwise_mul_into(&tensor![10.0f32, 100.0], Axis::<-1>, Identity, &mut out);
    });
    assert_eq!(buf, [10.0, 200.0, 30.0, 400.0, 50.0, 600.0]);
}
