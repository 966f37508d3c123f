//! Size of one op through shapecheck: OpenVINO's Select, numpy broadcast,
//! cond [2, 3] (bool), then [4, 2, 3], else [2, 3] (f64) -> [4, 2, 3],
//! views over static buffers into a caller's buffer. `size_select_loop.rs`
//! is the same as a hand-written loop. Data and expected output: a recorded
//! case of tests/vectors/select.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::select_into;
use shapecheck_embedded::vectors::size_select_shapecheck::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = select select_numpy_valid#3

#[no_mangle]
#[inline(never)]
fn measured_op(cond: &[bool; 6], then: &[f64; 24], els: &[f64; 6], out: &mut [f64; 24]) -> bool {
    let (Ok(c), Ok(t), Ok(e), Ok(mut o)) = (
        Tensor::<bool, shape![2, 3], &[bool]>::from_storage(&cond[..]),
        Tensor::<f64, shape![4, 2, 3], &[f64]>::from_storage(&then[..]),
        Tensor::<f64, shape![2, 3], &[f64]>::from_storage(&els[..]),
        Tensor::<f64, shape![4, 2, 3], &mut [f64]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    select_into(&c, &t, &e, Numpy, &mut o);
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
