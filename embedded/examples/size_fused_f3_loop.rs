//! Size baseline: F3 of issue 25, `relu(a * b + d)` with a [2, 3, 4, 5],
//! b [3, 4, 1], d [5] (f32, numpy broadcasting), as a hand-fused loop over
//! the same arrays. `size_fused_f3_shapecheck.rs` is the fused expression;
//! run.sh compares their code and stack.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::fused::{F3_A, F3_B, F3_D, F3_OUT};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(a: &[f32; 120], b: &[f32; 12], d: &[f32; 5], out: &mut [f32; 120]) -> bool {
    for i0 in 0..2 {
        for i1 in 0..3 {
            for i2 in 0..4 {
                let bv = b[i1 * 4 + i2];
                for i3 in 0..5 {
                    let i = ((i0 * 3 + i1) * 4 + i2) * 5 + i3;
                    let v = a[i] * bv + d[i3];
                    out[i] = if v > 0.0 { v } else { 0.0 };
                }
            }
        }
    }
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 120];
    let (ok, used) = stack::measure(|| {
        measured_op(
            black_box(&F3_A),
            black_box(&F3_B),
            black_box(&F3_D),
            &mut out,
        )
    });
    firmware::finish(used, ok && black_box(&out)[..] == F3_OUT[..])
}
