// Paddle's current rule broadcasts both ways and either operand may have the
// higher rank (test_elementwise_mul_op.py: commonuse_2, xsize_lessthan_ysize).
use shapecheck::prelude::*;

fn main() {
    // commonuse_2: (30,3,1,5) x (30,1,4,1) -> (30,3,4,5)
    let x = Tensor::<i64, shape![30, 3, 1, 5], Vec<i64>>::from_vec(Default::default(), (0..450).collect()).unwrap();
    let y = Tensor::<i64, shape![30, 1, 4, 1], Vec<i64>>::from_vec(Default::default(), (0..120).collect()).unwrap();
    let z: Tensor<i64, shape![30, 3, 4, 5], Vec<i64>> = x.elementwise_mul(&y, Axis::<-1>, Identity);
    assert_eq!(z.get(&[29, 2, 3, 4]), Some(&(449 * 119)));

    // xsize_lessthan_ysize: X (10,10), Y (2,2,10,10), axis 2
    let x = Tensor::<f64, shape![10, 10], Vec<f64>>::from_vec(Default::default(), vec![3.0; 100]).unwrap();
    let y = Tensor::<f64, shape![2, 2, 10, 10], Vec<f64>>::from_vec(Default::default(), vec![2.0; 400]).unwrap();
    let z: Tensor<f64, shape![2, 2, 10, 10], Vec<f64>> = x.elementwise_add(&y, Axis::<2>, Identity);
    assert!(z.as_slice().iter().all(|&v| v == 5.0));

    // X of lower rank placed at an axis of Y: [3, 2] into [3, 1, 1] at 0 gives [3, 2, 1]
    let x = Tensor::<f32, shape![3, 2]>::from_array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]);
    let y = Tensor::<f32, shape![3, 1, 1]>::from_array([[[10.0]], [[20.0]], [[30.0]]]);
    let z: Tensor<f32, shape![3, 2, 1]> = x.elementwise_mul(&y, Axis::<0>, Identity);
    assert_eq!(z.as_slice(), &[10.0, 20.0, 60.0, 80.0, 150.0, 180.0]);

    // identical shapes: any axis in range is accepted (Paddle compares the dims first)
    let a = Tensor::<i32, shape![2, 3]>::full(4);
    let z = a.elementwise_div(&a, Axis::<1>, Identity).unwrap();
    assert!(z.as_slice().iter().all(|&v| v == 1));
}
