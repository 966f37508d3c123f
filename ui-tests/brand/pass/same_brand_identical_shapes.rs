// Equal ranks at an axis other than -1 or 0 need identical shapes: two
// tensors with the same brand are known to be, so the plain form accepts them.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim), vec![1, 2, 3, 4]).unwrap();
    let y = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim), vec![10, 20, 30, 40]).unwrap();
    let sum = x.with_brand(|x, rows| {
        let y = y.brand_rows(rows)?;
        Ok::<_, ShapeError>(x.elementwise_add(&y, Axis::<1>, Identity).unbrand_rows())
    }).unwrap();
    assert_eq!(sum.as_slice(), &[11, 22, 33, 44]);
}
