//! Size baseline: Paddle's `elementwise_mul` of X [2, 3, 4, 5] by Y [3, 4]
//! at axis 1 (f32) as a hand-written loop. `size_elementwise_shapecheck.rs`
//! is the same firmware through shapecheck; run.sh compares the code of
//! their `measured_op` (with everything it calls) and their stack.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
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
    for a in 0..2 {
        for b in 0..3 {
            for c in 0..4 {
                let yv = y[b * 4 + c];
                for d in 0..5 {
                    let i = ((a * 3 + b) * 4 + c) * 5 + d;
                    out[i] = x[i] * yv;
                }
            }
        }
    }
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
