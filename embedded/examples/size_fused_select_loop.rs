//! Size baseline: the select chain of issue 25, `select(c, t * 2, t + e)`
//! with cond [2, 3] (bool), t [4, 2, 3], e [3] (f32), numpy broadcasting, as
//! a hand-fused loop over the same arrays. `size_fused_select_shapecheck.rs`
//! is the fused expression; run.sh compares their code and stack.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::fused::{SEL_C, SEL_E, SEL_OUT, SEL_T};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(cond: &[bool; 6], t: &[f32; 24], e: &[f32; 3], out: &mut [f32; 24]) -> bool {
    for i0 in 0..4 {
        for i1 in 0..2 {
            for i2 in 0..3 {
                let i = (i0 * 2 + i1) * 3 + i2;
                out[i] = if cond[i1 * 3 + i2] {
                    t[i] * 2.0
                } else {
                    t[i] + e[i2]
                };
            }
        }
    }
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 24];
    let (ok, used) = stack::measure(|| {
        measured_op(
            black_box(&SEL_C),
            black_box(&SEL_T),
            black_box(&SEL_E),
            &mut out,
        )
    });
    firmware::finish(used, ok && black_box(&out)[..] == SEL_OUT[..])
}
