// Dims past typenum's 1024 table, rank 8, zero-size dims and scalars.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4099], Vec<f32>>::from_vec(Default::default(), vec![1.5; 3 * 4099]).unwrap();
    let y = Tensor::<f32, shape![4099], Vec<f32>>::from_vec(Default::default(), vec![2.0; 4099]).unwrap();
    let z = x.elementwise_mul(&y, Axis::<-1>, Identity);
    assert_eq!(z.dims().as_slice(), &[3, 4099]);
    assert!(z.as_slice().iter().all(|&v| v == 3.0));

    let a = Tensor::<i32, shape![2, 1, 2, 1, 2, 1, 2, 1]>::full(3);
    let b = Tensor::<i32, shape![1, 2, 1, 2, 1, 2, 1, 2]>::full(5);
    let c: Tensor<i32, shape![2, 2, 2, 2, 2, 2, 2, 2]> = a.elementwise_mul(&b, Axis::<-1>, Identity);
    assert!(c.as_slice().iter().all(|&v| v == 15));

    let e = Tensor::<f64, shape![0, 3]>::full(1.0);
    let f = Tensor::<f64, shape![3]>::full(1.0);
    let g: Tensor<f64, shape![0, 3]> = e.elementwise_sub(&f, Axis::<-1>, Identity);
    assert!(g.as_slice().is_empty());

    let s = Tensor::<i64, shape![]>::from_array(7);
    let t = s.elementwise_max(&s, Axis::<-1>, Identity);
    assert_eq!(t.as_slice(), &[7]);
}
