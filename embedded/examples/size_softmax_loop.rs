//! Size baseline: Paddle's `softmax` over the rows of x [4, 10] (f32) as a
//! hand-written loop, numerically stable as shapecheck's (each row's max
//! subtracted before `exp`; `libm::expf`, the `exp` shapecheck's float
//! trait calls without `std`). `size_softmax_shapecheck.rs` is the same
//! through shapecheck. Data and expected output:
//! `shapecheck_embedded::core_ops`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::core_ops::{softmax_ok, SM_X};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(x: &[f32; 40], out: &mut [f32; 40]) -> bool {
    for r in 0..4 {
        let row = &x[r * 10..r * 10 + 10];
        let o = &mut out[r * 10..r * 10 + 10];
        let mut max = row[0];
        for v in &row[1..] {
            if *v > max {
                max = *v;
            }
        }
        let mut sum = 0.0;
        for (o, v) in o.iter_mut().zip(row) {
            *o = libm::expf(*v - max);
            sum += *o;
        }
        for o in o.iter_mut() {
            *o /= sum;
        }
    }
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 40];
    let (ok, used) = stack::measure(|| measured_op(black_box(&SM_X), &mut out));
    firmware::finish(used, ok && softmax_ok(black_box(&out)))
}
