// The batch dim branded once, then three ops through the plain forms.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, -2.0, 3.0, -4.0, 5.0, -6.0]).unwrap();
    let scale = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(2), One), vec![2.0, 0.5]).unwrap();
    let bias = tensor![0.5f32, 0.5, 0.5];
    let out = x.with_brand(|x, batch| {
        let scale = scale.brand_rows(batch)?;
        let y = x.elementwise_mul(&scale, Axis::<-1>, Identity);
        let z = y.elementwise_add(&bias, Axis::<-1>, Relu);
        let m = z.elementwise_max(&x, Axis::<-1>, Identity);
        Ok::<_, ShapeError>(m.unbrand_rows())
    }).unwrap();
    assert_eq!(out.as_slice(), &[2.5, 0.0, 6.5, 0.0, 5.0, 0.0]);
}
