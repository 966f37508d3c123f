// Reshape in functions generic over the batch dim, run with a run-time
// batch, a brand, a bounded batch and a static one, on every storage; no
// bound beyond `B: DimLike`.
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck::Storage;

/// Flatten each [2, 3] row to 6, scale it, and back to [2, 3].
fn flatten_scale<B: DimLike>(
    x: Tensor<f32, (B, Dim<2>, Dim<3>), Vec<f32>>,
    w: &Tensor<f32, shape![6]>,
) -> Tensor<f32, (B, Dim<2>, Dim<3>), Vec<f32>> {
    let flat = x.reshape_rows::<(B, Dim<6>)>();
    flat.elementwise_mul(w, Axis::<1>, Identity).reshape_rows()
}

/// Any storage, any first dim: a view of the rows as [4] each.
fn rows_of_four<B: DimLike, St: Storage<u8>>(x: Tensor<u8, (B, Dim<2>, Dim<2>), St>) -> Tensor<u8, (B, Dim<4>), St> {
    x.reshape_rows()
}

fn main() {
    let w = Tensor::<f32, shape![6]>::from_array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let x = Tensor::<f32, shape![Dyn, 2, 3], Vec<f32>>::with_dims(&[2, 2, 3], vec![1.0; 12]).unwrap();
    let y = flatten_scale(x.clone(), &w);
    assert_eq!(y.dims().as_slice(), &[2, 2, 3]);
    assert_eq!(&y.as_slice()[..6], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);

    let s = Tensor::<f32, shape![2, 2, 3], Vec<f32>>::from_vec((Dim, Dim, Dim), vec![1.0; 12]).unwrap();
    let ys: Tensor<f32, shape![2, 2, 3], Vec<f32>> = flatten_scale(s, &w);
    assert_eq!(ys.as_slice(), y.as_slice());

    x.with_brand(|xb, _rows| {
        let yb = flatten_scale(xb.clone(), &w);
        assert_eq!(yb.as_slice(), y.as_slice());
    });

    let b = BoundedTensor::<u8, shape![Dyn, 2, 2], 3>::from_shape_slice(
        (Bounded::new(2).unwrap(), Dim, Dim),
        &[1, 2, 3, 4, 5, 6, 7, 8],
    )
    .unwrap();
    let r = rows_of_four(b);
    assert_eq!(r.get(&[1, 0]), Some(&5));

    let inline = tensor![[[1u8, 2], [3, 4]]];
    assert_eq!(rows_of_four(inline).as_slice(), &[1, 2, 3, 4]);
    assert_eq!(rows_of_four(inline.view()).get(&[0, 3]), Some(&4));
}
