//! Size baseline: Paddle's multiplex of four f32 candidates [4, 4] by an
//! i32 index [4, 1], as a hand-written loop with the library's guarantee
//! (every index checked before anything is written). The same through
//! shapecheck: `size_multiplex_shapecheck.rs`. Data and expected output:
//! Paddle's documented case in tests/vectors/multiplex.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::vectors::size_multiplex_loop::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = multiplex multiplex_doc#0

#[no_mangle]
#[inline(never)]
fn measured_op(inputs: [&[f32; 16]; 4], index: &[i32; 4], out: &mut [f32; 16]) -> bool {
    if index.iter().any(|&k| k < 0 || k as usize >= inputs.len()) {
        return false;
    }
    for (row, &k) in index.iter().enumerate() {
        let src = &inputs[k as usize][row * 4..row * 4 + 4];
        out[row * 4..row * 4 + 4].copy_from_slice(src);
    }
    true
}

#[entry]
fn main() -> ! {
    let mut cands = [&[0.0f32; 16]; 4];
    for (slot, c) in cands.iter_mut().zip(v::INPUTS) {
        match <&[f32; 16]>::try_from(c.data) {
            Ok(a) => *slot = a,
            Err(_) => firmware::finish(0, false),
        }
    }
    let Ok(index) = <&[i32; 4]>::try_from(v::INDEX.data) else {
        firmware::finish(0, false)
    };
    let mut out = [0.0f32; 16];
    let (ok, used) = stack::measure(|| measured_op(black_box(cands), black_box(index), &mut out));
    firmware::finish(used, ok && black_box(&out)[..] == *v::OUT.data)
}
