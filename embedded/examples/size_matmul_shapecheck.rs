//! Size of one op through shapecheck: Paddle's `matmul` of x [1, 16] by
//! w [16, 16] (f32, no transpose; a layer of the sine model), views over
//! static buffers, into a caller's buffer (`matmul_into`).
//! `size_matmul_loop.rs` is the same with a hand-written loop; run.sh
//! compares the code of their `measured_op` (with everything it calls) and
//! their stack. Data and expected output: `shapecheck_embedded::core_ops`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::NoTrans;
use shapecheck_embedded::core_ops::{MM_OUT, MM_W, MM_X};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(x: &[f32; 16], w: &[f32; 256], out: &mut [f32; 16]) -> bool {
    let (Ok(x), Ok(w), Ok(mut o)) = (
        Tensor::<f32, shape![1, 16], &[f32]>::from_storage(&x[..]),
        Tensor::<f32, shape![16, 16], &[f32]>::from_storage(&w[..]),
        Tensor::<f32, shape![1, 16], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    x.matmul_into(&w, NoTrans, NoTrans, &mut o);
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 16];
    let (ok, used) = stack::measure(|| measured_op(black_box(&MM_X), black_box(&MM_W), &mut out));
    firmware::finish(used, ok && black_box(&out)[..] == MM_OUT[..])
}
