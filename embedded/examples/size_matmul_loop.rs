//! Size baseline: Paddle's `matmul` of x [1, 16] by w [16, 16] (f32, no
//! transpose; a layer of the sine model) as a hand-written loop.
//! `size_matmul_shapecheck.rs` is the same through shapecheck. Data and
//! expected output: `shapecheck_embedded::core_ops`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::core_ops::{MM_OUT, MM_W, MM_X};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(x: &[f32; 16], w: &[f32; 256], out: &mut [f32; 16]) -> bool {
    for (j, o) in out.iter_mut().enumerate() {
        let mut acc = 0.0;
        for k in 0..16 {
            acc += x[k] * w[k * 16 + j];
        }
        *o = acc;
    }
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 16];
    let (ok, used) = stack::measure(|| measured_op(black_box(&MM_X), black_box(&MM_W), &mut out));
    firmware::finish(used, ok && black_box(&out)[..] == MM_OUT[..])
}
