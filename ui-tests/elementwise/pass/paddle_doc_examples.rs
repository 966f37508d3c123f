// The examples of Paddle's elementwise_mul documentation, each checked against
// a direct computation of the rule.
use shapecheck::prelude::*;

fn x() -> Tensor<f32, shape![2, 3, 4, 5]> {
    Tensor::from_fn(|i| (i[0] * 60 + i[1] * 20 + i[2] * 5 + i[3]) as f32)
}

fn main() {
    let x = x();
    // shape(Y) = (,): a scalar
    let s = Tensor::<f32, shape![]>::from_array(2.0);
    let z: Tensor<f32, shape![2, 3, 4, 5]> = x.elementwise_mul(&s, Axis::<-1>, Identity);
    assert!(z.as_slice().iter().zip(x.as_slice()).all(|(a, b)| *a == 2.0 * b));

    // shape(Y) = (5,)
    let y5 = Tensor::<f32, shape![5]>::from_fn(|i| i[0] as f32);
    let z = x.elementwise_mul(&y5, Axis::<-1>, Identity);
    assert_eq!(z.get(&[1, 2, 3, 4]), Some(&(x.get(&[1, 2, 3, 4]).unwrap() * 4.0)));

    // shape(Y) = (4, 5), axis -1 or 2: the same placement
    let y45 = Tensor::<f32, shape![4, 5]>::from_fn(|i| (i[0] * 5 + i[1]) as f32);
    let a = x.elementwise_mul(&y45, Axis::<-1>, Identity);
    let b = x.elementwise_mul(&y45, Axis::<2>, Identity);
    assert_eq!(a, b);
    assert_eq!(a.get(&[1, 1, 3, 2]), Some(&(x.get(&[1, 1, 3, 2]).unwrap() * 17.0)));

    // shape(Y) = (3, 4), axis 1
    let y34 = Tensor::<f32, shape![3, 4]>::from_fn(|i| (i[0] * 4 + i[1]) as f32);
    let z = x.elementwise_mul(&y34, Axis::<1>, Identity);
    assert_eq!(z.get(&[1, 2, 3, 4]), Some(&(x.get(&[1, 2, 3, 4]).unwrap() * 11.0)));

    // shape(Y) = (2,), axis 0
    let y2 = Tensor::<f32, shape![2]>::from_array([1.0, -1.0]);
    let z = x.elementwise_mul(&y2, Axis::<0>, Identity);
    assert_eq!(z.get(&[1, 0, 0, 0]), Some(&-60.0));

    // shape(Y) = (2, 1), axis 0: Y's trailing 1 is ignored
    let y21 = Tensor::<f32, shape![2, 1]>::from_array([[1.0], [-1.0]]);
    let z = x.elementwise_mul(&y21, Axis::<0>, Relu);
    assert_eq!(z.get(&[1, 0, 0, 0]), Some(&0.0));
    assert_eq!(z.get(&[0, 2, 3, 4]), Some(&59.0));
}
