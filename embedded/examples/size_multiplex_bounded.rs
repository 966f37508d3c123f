//! Size of one op through shapecheck's bounded form: Paddle's multiplex of
//! four f32 candidates [4, 4] by an i32 index [4, 1], views over static
//! buffers, the result returned in a `Room` with rows `Bounded<4>` (no heap,
//! no caller buffer): `multiplex_bounded::<4, ..>`. The same shapes and data
//! as `size_multiplex_shapecheck.rs` (`multiplex_into` a caller's buffer),
//! whose row it sits beside. Data and expected output: Paddle's documented
//! case in tests/vectors/multiplex.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::multiplex;
use shapecheck::prelude::*;
use shapecheck::Room;
use shapecheck_embedded::vectors::size_multiplex_bounded::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = multiplex multiplex_doc#0

type Cand<'a> = Tensor<f32, shape![4, 4], &'a [f32]>;
type Out = (Bounded<4>, Dim<4>);

/// The bounded result, `None` on an error; its room is the caller's return
/// slot (as the caller-buffer form's buffer is the caller's).
#[no_mangle]
#[inline(never)]
fn measured_op(
    inputs: [&[f32; 16]; 4],
    index: &[i32; 4],
) -> Option<Tensor<f32, Out, Room<f32, Out>>> {
    let (Ok(a), Ok(b), Ok(c), Ok(d), Ok(i)) = (
        Cand::from_storage(&inputs[0][..]),
        Cand::from_storage(&inputs[1][..]),
        Cand::from_storage(&inputs[2][..]),
        Cand::from_storage(&inputs[3][..]),
        Tensor::<i32, shape![4, 1], &[i32]>::from_storage(&index[..]),
    ) else {
        return None;
    };
    multiplex(&[a, b, c, d], &i).run_bounded::<4>().ok()
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
    let (out, used) = stack::measure(|| measured_op(black_box(cands), black_box(index)));
    let ok = black_box(&out)
        .as_ref()
        .is_some_and(|t| t.dims().as_slice() == [4, 4] && t.as_slice() == v::OUT.data);
    firmware::finish(used, ok)
}
