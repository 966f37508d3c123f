// The programs of issue 32, as a user writes them in functions of their
// own: generic over the batch dim (called with `Dyn` rows, a brand, a
// static batch and a capacity), over a static shape, over two shapes that
// broadcast, and over a capacity. Each asserts its values. The batch dim
// and the capacity need no bound, and `Owned` names their results; a static
// shape `S` needs only `S: StaticShape` to meet a tensor of its own shape
// and a scalar (`shape![]`).
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck::Owned;

/// A layer generic over the batch dim: under `Axis::<1>` the batch meets no dim of `w`.
fn gate<B: DimLike>(x: &Owned<f32, (B, Dim<8>)>, w: &Tensor<f32, shape![8]>) -> Owned<f32, (B, Dim<8>)> {
    x.elementwise_mul(w, Axis::<1>, Sigmoid)
}

/// Same-shape operands and a scalar.
fn lerp<S: StaticShape>(a: &Tensor<f32, S>, b: &Tensor<f32, S>, t: &Tensor<f32, shape![]>) -> Owned<f32, S> {
    &(&(b - a) * t) + a
}

/// Two shapes that broadcast (`BroadcastWith`); their output, a static
/// shape, meets a scalar with no further bound.
fn scaled_diff<X, Y>(x: &Tensor<f32, X>, y: &Tensor<f32, Y>, k: &Tensor<f32, shape![]>) -> Owned<f32, BroadcastOf<X, Y>>
where
    X: BroadcastWith<Y>,
    Y: StaticShape,
{
    &(x - y) * k
}

/// A capacity dim crosses a plain op without a heap.
fn clip<const CAP: usize>(x: &BoundedTensor<f32, shape![Dyn, 3], CAP>) -> Owned<f32, (Bounded<CAP>, Dim<3>)> {
    x.elementwise_max(&tensor![0.0f32, 0.0, 0.0], Axis::<1>, Identity)
}

/// An optimiser step over any static shape: same-shape operands and a scalar.
fn sgd_step<S: StaticShape>(p: &mut Tensor<f32, S>, g: &Tensor<f32, S>, lr: &Tensor<f32, shape![]>) {
    *p = &*p - &(g * lr);
}

/// A fused layer over any static shape: `relu(x * w + b)`, its value and
/// the gradients of the three tensors it reads.
fn fused_layer<S: StaticShape>(
    x: &Tensor<f32, S>,
    w: &Tensor<f32, S>,
    b: &Tensor<f32, S>,
) -> (Owned<f32, S>, Owned<f32, S>, Owned<f32, S>, Owned<f32, S>) {
    let y = (x.lazy() * w + b).relu();
    let value = y.try_eval().unwrap();
    let ((gx, gw), gb) = y.backward(&Tensor::full(1.0));
    (value, gx, gw, gb)
}

fn sigmoid(v: f32) -> f32 {
    1.0 / (1.0 + (-v).exp())
}

fn run_gate<B: DimLike>(b: B) {
    let data: Vec<f32> = (0..16).map(|v| v as f32).collect();
    let x: Owned<f32, (B, Dim<8>)> = Tensor::from_shape_slice((b, Dim), &data).unwrap();
    let w = Tensor::<f32, shape![8]>::full(-1.0);
    let g = gate(&x, &w);
    assert_eq!(g.shape().0, b);
    for (i, v) in g.as_slice().iter().enumerate() {
        assert!((*v - sigmoid(-(i as f32))).abs() <= 1e-6, "{i}: {v}");
    }
}

fn main() {
    run_gate(Dyn(2));
    run_gate(Dim::<2>);
    run_gate(Bounded::<4>::new(2).unwrap());
    let rows = Tensor::<f32, shape![Dyn, 8], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 16]).unwrap();
    rows.with_brand_view(|x, _| run_gate(x.shape().0));

    let t = Tensor::<f32, shape![]>::full(0.25);
    let l = lerp(&tensor![[0.0f32, 4.0], [8.0, -4.0]], &tensor![[4.0f32, 8.0], [0.0, 4.0]], &t);
    assert_eq!(l.as_slice(), &[1.0, 5.0, 6.0, -2.0]);
    let l1 = lerp(&tensor![2.0f32], &tensor![6.0f32], &t);
    assert_eq!(l1.as_slice(), &[3.0]);

    let d = scaled_diff(&tensor![[1.0f32], [2.0]], &tensor![1.0f32, 2.0, 3.0], &Tensor::full(2.0));
    assert_eq!(d.dims().as_slice(), &[2, 3]);
    assert_eq!(d.as_slice(), &[0.0, -2.0, -4.0, 2.0, 0.0, -2.0]);

    let mut p = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    sgd_step(&mut p, &tensor![[10.0f32, 20.0], [-10.0, 0.0]], &Tensor::full(0.1));
    assert_eq!(p.as_slice(), &[0.0, 0.0, 4.0, 4.0]);

    let (v, gx, gw, gb) = fused_layer(&tensor![1.0f32, -2.0, 3.0], &tensor![2.0f32, 2.0, -1.0], &tensor![0.5f32, 0.5, 0.5]);
    assert_eq!(v.as_slice(), &[2.5, 0.0, 0.0]); // relu(2.5), relu(-3.5), relu(-2.5)
    assert_eq!(gx.as_slice(), &[2.0, 0.0, 0.0]);
    assert_eq!(gw.as_slice(), &[1.0, 0.0, 0.0]);
    assert_eq!(gb.as_slice(), &[1.0, 0.0, 0.0]);

    let x = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, -2.0, 3.0], [-4.0, 5.0, -6.0]]).run_bounded::<4>().unwrap();
    let c = clip(&x);
    assert_eq!(c.dims().as_slice(), &[2, 3]);
    assert_eq!(c.as_slice(), &[0.0, 5.0, 0.0, 1.0, 0.0, 3.0]);
}
