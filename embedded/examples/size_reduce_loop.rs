//! Size baseline: Paddle's `sum` over the last axis of x [8, 16] (f32) ->
//! [8] as a hand-written loop. `size_reduce_shapecheck.rs` is the same
//! through shapecheck. Data and expected output:
//! `shapecheck_embedded::core_ops`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::core_ops::{RS_OUT, RS_X};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(x: &[f32; 128], out: &mut [f32; 8]) -> bool {
    for (r, o) in out.iter_mut().enumerate() {
        let mut acc = 0.0;
        for v in &x[r * 16..r * 16 + 16] {
            acc += *v;
        }
        *o = acc;
    }
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 8];
    let (ok, used) = stack::measure(|| measured_op(black_box(&RS_X), &mut out));
    firmware::finish(used, ok && black_box(&out)[..] == RS_OUT[..])
}
