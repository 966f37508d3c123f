// The reductions on static shapes: output types computed at compile time,
// inline results, and generic code through `Reduce` and `ReduceOutput`.
use shapecheck::prelude::*;
use shapecheck::All;
use shapecheck::{Reduce, ReduceOutput};

/// The mean of each row of any static shape.
fn row_means<S>(x: &Tensor<f32, S>) -> Tensor<f32, ReduceOutput<S, Axis<-1>>>
where
    S: StaticShape + Reduce<Axis<-1>>,
    ReduceOutput<S, Axis<-1>>: StaticShape,
{
    x.mean(Axis::<-1>)
}

fn main() {
    let x = Tensor::<i32, shape![2, 3, 4]>::from_fn(|i| (i[0] * 12 + i[1] * 4 + i[2]) as i32);
    let a: Tensor<i64, shape![3, 4]> = x.sum(Axis::<0>);
    assert_eq!(a.as_slice()[0], 12);
    let b: Tensor<i64, shape![2, 1, 4]> = x.sum_keepdim(Axis::<-2>);
    assert_eq!(b.as_slice()[..2], [12, 15]);
    let c: Tensor<i32, shape![3]> = x.max((Axis::<0>, Axis::<2>));
    assert_eq!(c.as_slice(), &[15, 19, 23]);
    let d: Tensor<i32, shape![1, 1, 1]> = x.min_keepdim(All);
    assert_eq!(d.as_slice(), &[0]);
    let e: Tensor<i32, shape![]> = x.prod((Axis::<2>, Axis::<1>, Axis::<0>));
    assert_eq!(e.as_slice(), &[0]);
    let f: Tensor<i64, shape![2, 4]> = x.argmax(Axis::<1>);
    assert_eq!(f.as_slice(), &[2; 8]);
    let g: Tensor<i64, shape![]> = x.argmin(All);
    assert_eq!(g.as_slice(), &[0]);
    let h: Tensor<i64, shape![1]> = Tensor::<f32, shape![]>::full(3.0).argmax_keepdim(Axis::<0>);
    assert_eq!(h.as_slice(), &[0]);
    let m = row_means(&tensor![[1.0f32, 2.0], [3.0, 5.0]]);
    assert_eq!(m.as_slice(), &[1.5, 4.0]);
}
