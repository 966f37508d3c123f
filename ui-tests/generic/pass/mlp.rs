// A two-layer MLP generic over the batch dim, with `B: DimLike` as its only
// bound: `h = relu(x · W1 + b1)`, `y = h · W2 + b2`, run on a `Dyn` batch, a
// brand and a static batch, and one training step with the typed backward
// (squared error, `dout = y - t` written by hand), which lowers the loss.
// The batch is x's rows, which matmul passes through without comparing:
// the plain forms take it as elementwise's take an unaligned dim. The
// forward multiplies a view (`x.view().matmul(w)`): a view's result is
// stored as its shape says (`Owned`), while an owned operand's result
// storage is chosen from the operand's (`ResultStorage`), which generic
// code can name for the operand's own shape only, not for matmul's
// `(B, Dim<8>)`. The backward steps are the `try_` forms: a plain
// backward takes a `dout` whose dims its type proves (static or branded),
// which a `Dyn` batch is not.
use shapecheck::ops::Add;
use shapecheck::prelude::*;
use shapecheck::{NoTrans, Owned};

type W1 = Tensor<f32, shape![4, 8]>;
type B1 = Tensor<f32, shape![8]>;
type W2 = Tensor<f32, shape![8, 2]>;
type B2 = Tensor<f32, shape![2]>;

struct Mlp {
    w1: W1,
    b1: B1,
    w2: W2,
    b2: B2,
}

/// The forward pass: the hidden layer and the output.
fn forward<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    w1: &W1,
    b1: &B1,
    w2: &W2,
    b2: &B2,
) -> (Owned<f32, (B, Dim<8>)>, Owned<f32, (B, Dim<2>)>) {
    let h = x.view().matmul(w1).elementwise_add(b1, Axis::<-1>, Relu);
    let y = h.view().matmul(w2).elementwise_add(b2, Axis::<-1>, Identity);
    (h, y)
}

/// Half the squared error, summed.
fn loss<B: DimLike>(y: &Owned<f32, (B, Dim<2>)>, t: &Owned<f32, (B, Dim<2>)>) -> f32 {
    y.as_slice().iter().zip(t.as_slice()).map(|(a, b)| 0.5 * (a - b) * (a - b)).sum()
}

/// One SGD step; returns the loss before it.
fn train_step<B: DimLike>(m: &mut Mlp, x: &Owned<f32, (B, Dim<4>)>, t: &Owned<f32, (B, Dim<2>)>, lr: f32) -> f32 {
    let (h, y) = forward(x, &m.w1, &m.b1, &m.w2, &m.b2);
    let before = loss(&y, t);
    // d loss / d y, by hand
    let mut dy = y.map(|v| v);
    for (d, &target) in dy.as_mut_slice().iter_mut().zip(t.as_slice()) {
        *d -= target;
    }
    // y = z2 + b2 (no activation): through the add, then the matmul
    let z2 = h.view().matmul(&m.w2);
    let (dz2, db2) = z2.try_elementwise_backward(Add, &m.b2, &y, &dy, Axis::<-1>, Identity).unwrap();
    let (dh, dw2) = h.try_matmul_backward(&m.w2, &dz2, NoTrans, NoTrans).unwrap();
    // h = relu(z1 + b1)
    let z1 = x.view().matmul(&m.w1);
    let (dz1, db1) = z1.try_elementwise_backward(Add, &m.b1, &h, &dh, Axis::<-1>, Relu).unwrap();
    let (_dx, dw1) = x.try_matmul_backward(&m.w1, &dz1, NoTrans, NoTrans).unwrap();
    // each gradient has its parameter's type
    let (dw1, db1, dw2, db2): (W1, B1, W2, B2) = (dw1, db1, dw2, db2);
    m.w1 = &m.w1 - &(&dw1 * lr);
    m.b1 = &m.b1 - &(&db1 * lr);
    m.w2 = &m.w2 - &(&dw2 * lr);
    m.b2 = &m.b2 - &(&db2 * lr);
    before
}

fn model() -> Mlp {
    let mut i = 0u32;
    let mut next = move |_: &[usize]| {
        i += 1;
        ((i * 37 % 17) as f32 - 8.0) / 16.0
    };
    Mlp {
        w1: Tensor::from_fn(&mut next),
        b1: Tensor::full(0.1),
        w2: Tensor::from_fn(&mut next),
        b2: Tensor::full(0.0),
    }
}

const X: [f32; 12] = [1.0, 0.5, -0.5, 0.25, -1.0, 0.0, 0.5, 1.0, 0.25, -0.75, 1.0, -0.5];
const T: [f32; 6] = [1.0, 0.0, 0.0, 1.0, 0.5, 0.5];

/// Forward and one step on three rows of batch dim `b`; the step lowers
/// the loss, and every batch kind computes the same.
fn run<B: DimLike>(b: B) -> (Vec<f32>, f32, f32) {
    let x: Owned<f32, (B, Dim<4>)> = Tensor::from_shape_slice((b, Dim), &X).unwrap();
    let t: Owned<f32, (B, Dim<2>)> = Tensor::from_shape_slice((b, Dim), &T).unwrap();
    let mut m = model();
    let (_, y) = forward(&x, &m.w1, &m.b1, &m.w2, &m.b2);
    assert_eq!(y.shape().0, b);
    let before = train_step(&mut m, &x, &t, 0.1);
    let (_, y2) = forward(&x, &m.w1, &m.b1, &m.w2, &m.b2);
    let after = loss(&y2, &t);
    assert!(after < before, "the step raised the loss: {before} -> {after}");
    (y.as_slice().to_vec(), before, after)
}

fn main() {
    let dynamic = run(Dyn(3));
    let branded = brand(3, |b| run(b));
    let fixed = run(Dim::<3>);
    assert_eq!(dynamic, branded);
    assert_eq!(dynamic, fixed);
}
