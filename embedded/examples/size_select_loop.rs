//! Size baseline: OpenVINO's Select, numpy broadcast, cond [2, 3] (bool),
//! then [4, 2, 3], else [2, 3] (f64) -> [4, 2, 3], as a hand-written loop.
//! `size_select_shapecheck.rs` is the same through shapecheck. Data and
//! expected output: a recorded case of tests/vectors/select.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::vectors::size_select_loop::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = select select_numpy_valid#3

#[no_mangle]
#[inline(never)]
fn measured_op(cond: &[bool; 6], then: &[f64; 24], els: &[f64; 6], out: &mut [f64; 24]) -> bool {
    for a in 0..4 {
        for i in 0..6 {
            out[a * 6 + i] = if cond[i] { then[a * 6 + i] } else { els[i] };
        }
    }
    true
}

#[entry]
fn main() -> ! {
    let (Ok(cond), Ok(then), Ok(els)) = (
        <&[bool; 6]>::try_from(v::COND.data),
        <&[f64; 24]>::try_from(v::THEN.data),
        <&[f64; 6]>::try_from(v::ELSE.data),
    ) else {
        firmware::finish(0, false)
    };
    let mut out = [0.0f64; 24];
    let (ok, used) =
        stack::measure(|| measured_op(black_box(cond), black_box(then), black_box(els), &mut out));
    firmware::finish(used, ok && black_box(&out)[..] == *v::OUT.data)
}
