//! One backward step of an elementwise + select chain on the target, no
//! heap: `h = relu(x * w)` (w `[3]` on x's rows, axis -1), `out =
//! select(cond, h, zero)` (numpy: `zero` is `[1]`), and from `dout` the
//! gradients of h and zero (select_backward), then of x and w
//! (elementwise_backward with the relu's derivative from `h`), each typed
//! as its input: inline tensors, and the `_into` forms into caller
//! buffers. Expected values worked out by hand (dyadic values: exact).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::ops::select::{select_backward, select_backward_into};
use shapecheck::ops::Mul;
use shapecheck::prelude::*;
use shapecheck_embedded::Checks;

#[entry]
fn main() -> ! {
    let mut c = Checks::new("grad");

    let x = Tensor::<f32, shape![4, 3]>::from_array([
        [1.0, -2.0, 3.0],
        [0.5, 1.0, -1.0],
        [2.0, 2.0, 2.0],
        [-1.0, 0.25, 4.0],
    ]);
    let w = Tensor::<f32, shape![3]>::from_array([2.0, -1.0, 0.5]);
    let cond = Tensor::<bool, shape![4, 3]>::from_array([
        [true, false, true],
        [true, true, false],
        [false, true, true],
        [true, true, true],
    ]);
    let zero = Tensor::<f32, shape![1]>::from_array([0.0]);

    // forward
    let h = x.elementwise_mul(&w, Axis::<-1>, Relu);
    c.eq(
        h.as_slice(),
        &[2.0, 2.0, 1.5, 1.0, 0.0, 0.0, 4.0, 0.0, 1.0, 0.0, 0.0, 2.0],
        "h = relu(x * w)",
    );
    let out = select(&cond, &h, &zero, Numpy);
    c.eq(
        out.as_slice(),
        &[2.0, 0.0, 1.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0],
        "out = select(cond, h, 0)",
    );

    // backward: dout typed as out, each gradient typed as its input
    let dout = Tensor::<f32, shape![4, 3]>::from_array([
        [1.0, 2.0, 3.0],
        [4.0, 5.0, 6.0],
        [7.0, 8.0, 9.0],
        [10.0, 11.0, 12.0],
    ]);
    let (dh, dzero): (Tensor<f32, shape![4, 3]>, Tensor<f32, shape![1]>) =
        select_backward(&cond, &h, &zero, &dout, Numpy);
    c.eq(
        dh.as_slice(),
        &[1.0, 0.0, 3.0, 4.0, 5.0, 0.0, 0.0, 8.0, 9.0, 10.0, 11.0, 12.0],
        "dh = where(cond, dout, 0)",
    );
    c.eq(dzero.as_slice(), &[15.0], "dzero = the falses' dout summed");
    let (dx, dw): (Tensor<f32, shape![4, 3]>, Tensor<f32, shape![3]>) =
        x.elementwise_backward(Mul, &w, &h, &dh, Axis::<-1>, Relu);
    c.eq(
        dx.as_slice(),
        &[2.0, 0.0, 1.5, 8.0, 0.0, 0.0, 0.0, 0.0, 4.5, 0.0, 0.0, 6.0],
        "dx = dh * relu'(h) * w",
    );
    c.eq(dw.as_slice(), &[3.0, 0.0, 75.0], "dw = rows of dh * relu'(h) * x summed");

    // the same step into caller buffers (stale values in them: overwritten)
    let (mut bh, mut bz, mut bx, mut bw) = ([9.0f32; 12], [9.0f32; 1], [9.0f32; 12], [9.0f32; 3]);
    if let (Some(mut th), Some(mut tz)) = (
        c.some(Tensor::<f32, shape![4, 3], &mut [f32]>::from_storage(&mut bh[..]).ok(), "dh buffer"),
        c.some(Tensor::<f32, shape![1], &mut [f32]>::from_storage(&mut bz[..]).ok(), "dzero buffer"),
    ) {
        select_backward_into(&cond, &h, &zero, &dout, Numpy, &mut th, &mut tz);
        if let (Some(mut tx), Some(mut tw)) = (
            c.some(Tensor::<f32, shape![4, 3], &mut [f32]>::from_storage(&mut bx[..]).ok(), "dx buffer"),
            c.some(Tensor::<f32, shape![3], &mut [f32]>::from_storage(&mut bw[..]).ok(), "dw buffer"),
        ) {
            x.elementwise_backward_into(Mul, &w, &h, &th, Axis::<-1>, Relu, &mut tx, &mut tw);
        }
    }
    c.eq(&bh, dh.as_slice(), "dh into a caller buffer");
    c.eq(&bz, dzero.as_slice(), "dzero into a caller buffer");
    c.eq(&bx, dx.as_slice(), "dx into a caller buffer");
    c.eq(&bw, dw.as_slice(), "dw into a caller buffer");

    c.finish()
}
