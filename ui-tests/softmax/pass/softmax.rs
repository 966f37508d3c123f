// softmax and log_softmax on static shapes, negative axes included.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f64, shape![2, 3]>::from_fn(|i| i[1] as f64);
    let p: Tensor<f64, shape![2, 3]> = x.softmax(Axis::<-1>);
    let row: f64 = p.as_slice()[..3].iter().sum();
    assert!((row - 1.0).abs() < 1e-12);
    let q = x.softmax(Axis::<0>);
    assert_eq!(q.as_slice(), &[0.5; 6]);
    let l = x.log_softmax(Axis::<-2>);
    assert!((l.as_slice()[0] + core::f64::consts::LN_2).abs() < 1e-12);
    assert_eq!(Tensor::<f32, shape![]>::full(7.0).softmax(Axis::<0>).as_slice(), &[1.0]);
}
