// A two-layer classifier generic over the batch dim, with `B: DimLike` as
// its only bound: `p = softmax(relu(x · W1 + b1) · W2 + b2)` and the class
// of each row, `argmax(p)`, in the plain forms (no `Result`): softmax and
// argmax reduce the static class axis and pass the batch through without
// looking at it, as matmul and the elementwise add do. Run on a `Dyn`
// batch, a brand and a static batch; all three compute the same, and the
// result keeps the batch's kind (a brand stays a brand).
use shapecheck::prelude::*;
use shapecheck::Owned;

type W1 = Tensor<f32, shape![4, 8]>;
type B1 = Tensor<f32, shape![8]>;
type W2 = Tensor<f32, shape![8, 3]>;
type B2 = Tensor<f32, shape![3]>;

/// The class probabilities and the most likely class of each row.
fn classify<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    w1: &W1,
    b1: &B1,
    w2: &W2,
    b2: &B2,
) -> (Owned<f32, (B, Dim<3>)>, Owned<i64, (B,)>) {
    let h = x.view().matmul(w1).elementwise_add(b1, Axis::<-1>, Relu);
    let logits = h.view().matmul(w2).elementwise_add(b2, Axis::<-1>, Identity);
    let p = logits.softmax(Axis::<-1>);
    let class = p.argmax(Axis::<-1>);
    // the reductions and log_softmax take the batch as plainly
    let _: Owned<f32, (B,)> = p.sum(Axis::<1>);
    let _: Owned<f32, (B, One)> = p.max_keepdim(Axis::<-1>);
    let _: Owned<f32, (B, Dim<3>)> = logits.log_softmax(Axis::<1>);
    (p, class)
}

const X: [f32; 12] = [1.0, 0.5, -0.5, 0.25, -1.0, 0.0, 0.5, 1.0, 0.25, -0.75, 1.0, -0.5];

fn run<B: DimLike>(b: B) -> (Vec<f32>, Vec<i64>) {
    let mut i = 0u32;
    let mut next = move |_: &[usize]| {
        i += 1;
        ((i * 37 % 17) as f32 - 8.0) / 4.0
    };
    let (w1, b1): (W1, B1) = (Tensor::from_fn(&mut next), Tensor::full(0.1));
    let (w2, b2): (W2, B2) = (Tensor::from_fn(&mut next), Tensor::full(0.0));
    let x: Owned<f32, (B, Dim<4>)> = Tensor::from_shape_slice((b, Dim), &X).unwrap();
    let (p, class) = classify(&x, &w1, &b1, &w2, &b2);
    assert_eq!(class.shape().0, b);
    for (row, &c) in p.as_slice().chunks(3).zip(class.as_slice()) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let best = row.iter().cloned().fold(f32::MIN, f32::max);
        assert_eq!(row[c as usize], best);
    }
    (p.as_slice().to_vec(), class.as_slice().to_vec())
}

fn main() {
    let dynamic = run(Dyn(3));
    let branded = brand(3, |b| run(b));
    let fixed = run(Dim::<3>);
    assert_eq!(dynamic, branded);
    assert_eq!(dynamic, fixed);
}
