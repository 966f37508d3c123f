//! Size of the select chain of issue 25, `select(c, t * 2, t + e)` with
//! cond [2, 3] (bool), t [4, 2, 3], e [3] (f32), as the chain of plain ops:
//! `t * 2` (2 as a rank-0 tensor) and `t + e` to inline intermediates
//! [4, 2, 3] (in the op's frame: 2 x 96 B of stack), then `select_into`
//! the caller's buffer. Beside `size_fused_select_shapecheck.rs` (fused)
//! and `size_fused_select_loop.rs` (hand-fused loop) in run.sh's table.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::select_into;
use shapecheck_embedded::fused::{SEL_C, SEL_E, SEL_OUT, SEL_T};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(cond: &[bool; 6], t: &[f32; 24], e: &[f32; 3], out: &mut [f32; 24]) -> bool {
    let (Ok(ct), Ok(tt), Ok(et), Ok(mut ot)) = (
        Tensor::<bool, shape![2, 3], &[bool]>::from_storage(&cond[..]),
        Tensor::<f32, shape![4, 2, 3], &[f32]>::from_storage(&t[..]),
        Tensor::<f32, shape![3], &[f32]>::from_storage(&e[..]),
        Tensor::<f32, shape![4, 2, 3], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    let two = Tensor::<f32, shape![]>::full(2.0);
    let doubled = tt.elementwise_mul(&two, Axis::<-1>, Identity);
    let shifted = tt.elementwise_add(&et, Axis::<-1>, Identity);
    select_into(&ct, &doubled, &shifted, Numpy, &mut ot);
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 24];
    let (ok, used) = stack::measure(|| {
        measured_op(
            black_box(&SEL_C),
            black_box(&SEL_T),
            black_box(&SEL_E),
            &mut out,
        )
    });
    firmware::finish(used, ok && black_box(&out)[..] == SEL_OUT[..])
}
