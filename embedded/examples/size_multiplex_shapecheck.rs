//! Size of one op through shapecheck: Paddle's multiplex of four f32
//! candidates [4, 4] by an i32 index [4, 1], views over static buffers into
//! a caller's buffer. `size_multiplex_loop.rs` is the same as a hand-written
//! loop. Data and expected output: Paddle's documented case in
//! tests/vectors/multiplex.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::multiplex;
use shapecheck::prelude::*;
use shapecheck_embedded::vectors::size_multiplex_shapecheck::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = multiplex multiplex_doc#0

type Cand<'a> = Tensor<f32, shape![4, 4], &'a [f32]>;

#[no_mangle]
#[inline(never)]
fn measured_op(inputs: [&[f32; 16]; 4], index: &[i32; 4], out: &mut [f32; 16]) -> bool {
    let (Ok(a), Ok(b), Ok(c), Ok(d), Ok(i)) = (
        Cand::from_storage(&inputs[0][..]),
        Cand::from_storage(&inputs[1][..]),
        Cand::from_storage(&inputs[2][..]),
        Cand::from_storage(&inputs[3][..]),
        Tensor::<i32, shape![4, 1], &[i32]>::from_storage(&index[..]),
    ) else {
        return false;
    };
    multiplex(&[a, b, c, d], &i).run_into(&mut out[..]).is_ok()
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
