//! Size of a fused expression: the select chain of issue 25 (F2's form on
//! small shapes), `select(c, t * 2, t + e)` with cond [2, 3] (bool),
//! t [4, 2, 3], e [3] (f32), numpy broadcasting, views over static buffers,
//! `eval_into` a caller's buffer. `size_fused_select_loop.rs` is the same
//! as a hand-fused loop, `size_fused_select_chain.rs` as the chain of plain
//! ops. Data and expected output: `shapecheck_embedded::fused`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::expr;
use shapecheck::prelude::*;
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
    expr::select(&ct, tt.lazy() * 2.0, tt.lazy() + &et, Numpy).eval_into(&mut ot);
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
