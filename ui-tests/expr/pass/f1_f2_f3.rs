// The three chains, static shapes, evaluated fresh and into buffers.
use shapecheck::expr;
use shapecheck::prelude::*;

fn main() {
    // F1's chain on small shapes
    let x = Tensor::<f32, shape![2, 3, 4]>::full(1.0);
    let y = Tensor::<f32, shape![3, 4]>::full(-2.0);
    let b = Tensor::<f32, shape![4]>::full(3.0);
    let f1: Tensor<f32, shape![2, 3, 4]> = (x.lazy() * &y + &b).relu().eval();
    assert_eq!(f1.as_slice()[0], 1.0);
    // F2: select of two expressions
    let c = Tensor::<bool, shape![3, 4]>::full(false);
    let f2: Tensor<f32, shape![2, 3, 4]> = expr::select(&c, x.lazy() * 2.0, x.lazy() + &b, Numpy).eval();
    assert_eq!(f2.as_slice()[0], 4.0);
    // F3 into a caller's buffer
    let a = Tensor::<f32, shape![2, 3, 4, 5]>::full(1.0);
    let bb = Tensor::<f32, shape![3, 4, 1]>::full(2.0);
    let d = Tensor::<f32, shape![5]>::full(-1.0);
    let mut buf = [0.0f32; 120];
    let mut out = Tensor::<f32, shape![2, 3, 4, 5], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    (a.lazy() * &bb + &d).relu().eval_into(&mut out);
    assert_eq!(buf[119], 1.0);
}
