//! Size of one op through shapecheck: Paddle's `sum` over the last axis of
//! x [8, 16] (f32) -> [8], a view over a static buffer, into a caller's
//! buffer (`reduce_into`). `size_reduce_loop.rs` is the same with a
//! hand-written loop; run.sh compares the code of their `measured_op` (with
//! everything it calls) and their stack. Data and expected output:
//! `shapecheck_embedded::core_ops`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::ops::reduce::ReduceKind;
use shapecheck::prelude::*;
use shapecheck_embedded::core_ops::{RS_OUT, RS_X};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(x: &[f32; 128], out: &mut [f32; 8]) -> bool {
    let (Ok(x), Ok(mut o)) = (
        Tensor::<f32, shape![8, 16], &[f32]>::from_storage(&x[..]),
        Tensor::<f32, shape![8], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    x.reduce_into(ReduceKind::Sum, Axis::<-1>, false, &mut o)
        .is_ok()
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 8];
    let (ok, used) = stack::measure(|| measured_op(black_box(&RS_X), &mut out));
    firmware::finish(used, ok && black_box(&out)[..] == RS_OUT[..])
}
