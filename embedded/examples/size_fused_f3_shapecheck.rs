//! Size of a fused expression: F3 of issue 25, `relu(a * b + d)` with
//! a [2, 3, 4, 5], b [3, 4, 1], d [5] (f32, numpy broadcasting), views over
//! static buffers, `eval_into` a caller's buffer: one pass, no
//! intermediate tensor. `size_fused_f3_loop.rs` is the same as a
//! hand-fused loop, `size_fused_f3_chain.rs` as the chain of plain ops;
//! run.sh compares their code, flash and stack. Data and expected output:
//! `shapecheck_embedded::fused`.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck_embedded::fused::{F3_A, F3_B, F3_D, F3_OUT};
use shapecheck_embedded::{firmware, stack};

#[no_mangle]
#[inline(never)]
fn measured_op(a: &[f32; 120], b: &[f32; 12], d: &[f32; 5], out: &mut [f32; 120]) -> bool {
    let (Ok(at), Ok(bt), Ok(dt), Ok(mut ot)) = (
        Tensor::<f32, shape![2, 3, 4, 5], &[f32]>::from_storage(&a[..]),
        Tensor::<f32, shape![3, 4, 1], &[f32]>::from_storage(&b[..]),
        Tensor::<f32, shape![5], &[f32]>::from_storage(&d[..]),
        Tensor::<f32, shape![2, 3, 4, 5], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    (at.lazy() * &bt + &dt).relu().eval_into(&mut ot);
    true
}

#[entry]
fn main() -> ! {
    let mut out = [0.0f32; 120];
    let (ok, used) = stack::measure(|| {
        measured_op(
            black_box(&F3_A),
            black_box(&F3_B),
            black_box(&F3_D),
            &mut out,
        )
    });
    firmware::finish(used, ok && black_box(&out)[..] == F3_OUT[..])
}
