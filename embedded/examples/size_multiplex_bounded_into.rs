//! Size of one op through shapecheck's bounded form written in place:
//! Paddle's multiplex of four f32 candidates [4, 4] by an i32 index [4, 1],
//! views over static buffers, into a `Room` tensor with rows `Bounded<4>`
//! that the caller keeps (no heap, no caller slice):
//! `run_bounded_into`. The same shapes and data as
//! `size_multiplex_bounded.rs` (the result returned by value) and
//! `size_multiplex_shapecheck.rs` (`multiplex_into` a caller's buffer),
//! whose rows it sits beside. Data and expected output: Paddle's documented
//! case in tests/vectors/multiplex.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::multiplex;
use shapecheck::prelude::*;
use shapecheck::Room;
use shapecheck_embedded::vectors::size_multiplex_bounded_into::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = multiplex multiplex_doc#0

type Cand<'a> = Tensor<f32, shape![4, 4], &'a [f32]>;
type Out = (Bounded<4>, Dim<4>);

/// Writes the result into `out`, the caller's bounded tensor; `false` on
/// an error (then `out` is as it was).
#[no_mangle]
#[inline(never)]
fn measured_op(
    inputs: [&[f32; 16]; 4],
    index: &[i32; 4],
    out: &mut Tensor<f32, Out, Room<f32, Out>>,
) -> bool {
    let (Ok(a), Ok(b), Ok(c), Ok(d), Ok(i)) = (
        Cand::from_storage(&inputs[0][..]),
        Cand::from_storage(&inputs[1][..]),
        Cand::from_storage(&inputs[2][..]),
        Cand::from_storage(&inputs[3][..]),
        Tensor::<i32, shape![4, 1], &[i32]>::from_storage(&index[..]),
    ) else {
        return false;
    };
    multiplex(&[a, b, c, d], &i).run_bounded_into(out).is_ok()
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
    // The kept tensor starts as one row of the first candidate, so the
    // check below sees every element written and the rows grown to 4.
    let (Ok(first), Ok(one)) = (
        Cand::from_storage(&cands[0][..]),
        Tensor::<i32, shape![1, 1], &[i32]>::from_storage(&[0][..]),
    ) else {
        firmware::finish(0, false)
    };
    let Ok(mut out) = multiplex(&[first, first], &one).run_bounded::<4>() else {
        firmware::finish(0, false)
    };
    let (ok, used) = stack::measure(|| measured_op(black_box(cands), black_box(index), &mut out));
    let out = black_box(&out);
    firmware::finish(
        used,
        ok && out.dims().as_slice() == [4, 4] && out.as_slice() == v::OUT.data,
    )
}
