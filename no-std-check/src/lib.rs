//! A `#![no_std]` crate without `alloc` that uses the static API on static
//! buffers: if this builds, static ops need neither std nor a heap.
#![no_std]

use shapecheck::prelude::*;

/// `x * y` with Y [3] on the last axis of X [2, 3], into a caller's buffer.
pub fn scale_rows(x: &[f32; 6], y: &[f32; 3], out: &mut [f32; 6]) -> bool {
    let (Ok(xt), Ok(yt), Ok(mut ot)) = (
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&x[..]),
        Tensor::<f32, shape![3], &[f32]>::from_storage(&y[..]),
        Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    xt.elementwise_mul_into(&yt, Axis::<-1>, Relu, &mut ot);
    true
}

/// An inline (stack) tensor result: no heap anywhere.
pub fn add_inline() -> Tensor<i32, shape![2, 2]> {
    let a = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let b = Tensor::<i32, shape![2]>::from_array([10, 20]);
    a.elementwise_add(&b, Axis::<-1>, Identity)
}
