// A size-1 dim (`One`) meets a generic dim with no bound, on either side,
// in every op that broadcasts (issue 56): elementwise named forms and
// operators, select (the condition's `One` first), fused expressions.
use shapecheck::prelude::*;

fn scale_rows<W: StaticDim>(x: &Tensor<f32, (Dim<2>, W)>, col: &Tensor<f32, shape![2, 1]>) -> Owned<f32, (Dim<2>, W)> {
    x.elementwise_mul(col, Axis::<-1>, Identity)
}

fn scale_rows_flipped<W: StaticDim>(col: &Tensor<f32, shape![2, 1]>, x: &Tensor<f32, (Dim<2>, W)>) -> Owned<f32, (Dim<2>, W)> {
    col.elementwise_mul(x, Axis::<-1>, Identity)
}

fn add_op<W: StaticDim>(col: &Tensor<f32, shape![2, 1]>, x: &Tensor<f32, (Dim<2>, W)>) -> Owned<f32, (Dim<2>, W)> {
    col + x
}

fn pick<W: StaticDim>(keep: &Tensor<bool, shape![2, 1]>, x: &Tensor<f32, (Dim<2>, W)>) -> Owned<f32, (Dim<2>, W)> {
    select(keep, &Tensor::<f32, shape![]>::from_array(0.0), x, Numpy)
}

fn fused<W: StaticDim>(col: &Tensor<f32, shape![2, 1]>, x: &Tensor<f32, (Dim<2>, W)>) -> Owned<f32, (Dim<2>, W)> {
    (col.lazy() * x).relu().eval()
}

fn main() {
    let col = tensor![[2.0f32], [-1.0]];
    let x = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let want = [2.0, 4.0, 6.0, -4.0, -5.0, -6.0];
    assert_eq!(scale_rows(&x, &col).as_slice(), &want);
    assert_eq!(scale_rows_flipped(&col, &x).as_slice(), &want);
    assert_eq!(add_op(&col, &x).as_slice(), &[3.0, 4.0, 5.0, 3.0, 4.0, 5.0]);
    assert_eq!(pick(&tensor![[true], [false]], &x).as_slice(), &[0.0, 0.0, 0.0, 4.0, 5.0, 6.0]);
    assert_eq!(fused(&col, &x).as_slice(), &[2.0, 4.0, 6.0, 0.0, 0.0, 0.0]);

    // W = One: the 1 meets itself
    let narrow = tensor![[1.0f32], [4.0]];
    assert_eq!(scale_rows(&narrow, &col).as_slice(), &[2.0, -4.0]);
    assert_eq!(scale_rows_flipped(&col, &narrow).as_slice(), &[2.0, -4.0]);
}
