//! Size of one op through shapecheck: Paddle's `softmax` over the rows of
//! x [4, 10] (f32; logits of 4 samples, 10 classes), a view over a static
//! buffer, into a caller's buffer (`softmax_into`). `size_softmax_loop.rs`
//! is the same with a hand-written loop (the same `libm::expf`); run.sh
//! compares the code of their `measured_op` (with everything it calls) and
//! their stack. Data and expected output: `shapecheck_embedded::core_ops`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::ops::softmax::SoftmaxKind;
use shapecheck::prelude::*;
use shapecheck_embedded::core_ops::{softmax_ok, SM_X};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(x: &[f32; 40], out: &mut [f32; 40]) -> bool {
    let (Ok(x), Ok(mut o)) = (
        Tensor::<f32, shape![4, 10], &[f32]>::from_storage(&x[..]),
        Tensor::<f32, shape![4, 10], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    x.softmax_into(SoftmaxKind::Softmax, Axis::<-1>, &mut o)
        .is_ok()
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 40];
    let (ok, used) = stack::measure(|| measured_op(black_box(&SM_X), &mut out));
    firmware::finish(used, ok && softmax_ok(black_box(&out)))
}
