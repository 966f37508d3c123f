//! A `#![no_std]` crate without `alloc` that uses the static API on static
//! buffers: if this builds, static ops need neither std nor a heap.
#![no_std]

use shapecheck::prelude::*;

/// Paddle's multiplex on static buffers: three candidates [3, 2] as views,
/// an i32 index [3, 1], the result written into a caller's buffer (no heap).
/// `false` if a buffer has the wrong length or an index value is out of range.
pub fn multiplex_rows(
    a: &[f32; 6],
    b: &[f32; 6],
    c: &[f32; 6],
    index: &[i32; 3],
    out: &mut [f32; 6],
) -> bool {
    let (Ok(ta), Ok(tb), Ok(tc), Ok(ti), Ok(mut to)) = (
        Tensor::<f32, shape![3, 2], &[f32]>::from_storage(&a[..]),
        Tensor::<f32, shape![3, 2], &[f32]>::from_storage(&b[..]),
        Tensor::<f32, shape![3, 2], &[f32]>::from_storage(&c[..]),
        Tensor::<i32, shape![3, 1], &[i32]>::from_storage(&index[..]),
        Tensor::<f32, shape![3, 2], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    shapecheck::multiplex_into(&[ta, tb, tc], &ti, &mut to).is_ok()
}

/// Multiplex with inline candidates and an inline (stack) result.
pub fn multiplex_inline(index: [[i64; 1]; 2]) -> Option<Tensor<i32, shape![2, 2]>> {
    let x1 = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let x2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 6], [7, 8]]);
    let idx = Tensor::<i64, shape![2, 1]>::from_array(index);
    shapecheck::multiplex(&[x1, x2], &idx).ok()
}

/// `x * y` with Y `[3]` on the last axis of X `[2, 3]`, into a caller's buffer.
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

/// OpenVINO Select with numpy broadcasting on static buffers: cond [2, 3],
/// then `[2, 3]`, else `[3]` (broadcast over the rows), into a caller's buffer.
pub fn select_rows(cond: &[bool; 6], then: &[f32; 6], els: &[f32; 3], out: &mut [f32; 6]) -> bool {
    let (Ok(c), Ok(t), Ok(e), Ok(mut o)) = (
        Tensor::<bool, shape![2, 3], &[bool]>::from_storage(&cond[..]),
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&then[..]),
        Tensor::<f32, shape![3], &[f32]>::from_storage(&els[..]),
        Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    shapecheck::select_into(&c, &t, &e, Numpy, &mut o);
    true
}

/// Select with pdpd broadcasting at axis 0 and an inline (stack) result.
pub fn select_pdpd_inline() -> Tensor<i32, shape![2, 2]> {
    let c = Tensor::<bool, shape![2]>::from_array([true, false]);
    let t = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let e = Tensor::<i32, shape![2, 1]>::from_array([[10], [20]]);
    shapecheck::select(&c, &t, &e, Pdpd::<0>)
}
