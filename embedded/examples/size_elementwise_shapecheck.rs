//! Size of one op through shapecheck: Paddle's `elementwise_mul` of
//! X [2, 3, 4, 5] by Y [3, 4] at axis 1 (f32), views over static buffers,
//! into a caller's buffer. `size_elementwise_loop.rs` is the same firmware
//! with a hand-written loop; run.sh compares the code of their
//! `measured_op` (with everything it calls) and their stack.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck_embedded::{firmware, stack};

static X: [f32; 120] = {
    let mut a = [0.0; 120];
    let mut i = 0;
    while i < 120 {
        a[i] = i as f32;
        i += 1;
    }
    a
};
static Y: [f32; 12] = [
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0,
];

#[no_mangle]
#[inline(never)]
fn measured_op(x: &[f32; 120], y: &[f32; 12], out: &mut [f32; 120]) -> bool {
    let (Ok(xt), Ok(yt), Ok(mut ot)) = (
        Tensor::<f32, shape![2, 3, 4, 5], &[f32]>::from_storage(&x[..]),
        Tensor::<f32, shape![3, 4], &[f32]>::from_storage(&y[..]),
        Tensor::<f32, shape![2, 3, 4, 5], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    xt.elementwise_mul_into(&yt, Axis::<1>, Identity, &mut ot);
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 120];
    let (ok, used) = stack::measure(|| measured_op(black_box(&X), black_box(&Y), &mut out));
    let sum: f32 = black_box(&out).iter().sum();
    // sum of i * ((i / 5) % 12 + 1) for i in 0..120
    firmware::finish(used, ok && sum == 53_560.0)
}
