//! Size of one op through shapecheck: TensorFlow's dynamic_stitch of its
//! documented example (i32 pairs of index ranks 0, 1 and 2: indices [] / data
//! [2], [2] / [2, 2], [2, 2] / [2, 2, 2] -> [7, 2]), views over static
//! buffers, the static builder `.run_into` a caller's buffer.
//! `size_dynamic_stitch_loop.rs` is the same as a hand-written loop. Data and
//! expected output: tests/vectors/dynamic_stitch.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck_embedded::vectors::size_dynamic_stitch_shapecheck::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = dynamic_stitch dynamic_stitch_doc#0

/// The row count of the merged output, `None` on an error.
#[no_mangle]
#[inline(never)]
fn measured_op(
    i0: &i32,
    d0: &[i32; 2],
    i1: &[i32; 2],
    d1: &[i32; 4],
    i2: &[i32; 4],
    d2: &[i32; 8],
    out: &mut [i32; 14],
) -> Option<usize> {
    let i0 = Tensor::<i32, shape![], &[i32]>::from_storage(core::slice::from_ref(i0)).ok()?;
    let d0 = Tensor::<i32, shape![2], &[i32]>::from_storage(&d0[..]).ok()?;
    let i1 = Tensor::<i32, shape![2], &[i32]>::from_storage(&i1[..]).ok()?;
    let d1 = Tensor::<i32, shape![2, 2], &[i32]>::from_storage(&d1[..]).ok()?;
    let i2 = Tensor::<i32, shape![2, 2], &[i32]>::from_storage(&i2[..]).ok()?;
    let d2 = Tensor::<i32, shape![2, 2, 2], &[i32]>::from_storage(&d2[..]).ok()?;
    let merged = shapecheck::dynamic_stitch(&i0, &d0)
        .pair(&i1, &d1)
        .pair(&i2, &d2)
        .run_into(&mut out[..])
        .ok()?;
    merged.dims().first().copied()
}

#[entry]
fn main() -> ! {
    let (Some(i0), Ok(d0), Ok(i1), Ok(d1), Ok(i2), Ok(d2)) = (
        v::INDICES[0].data.first(),
        <&[i32; 2]>::try_from(v::DATA[0].data),
        <&[i32; 2]>::try_from(v::INDICES[1].data),
        <&[i32; 4]>::try_from(v::DATA[1].data),
        <&[i32; 4]>::try_from(v::INDICES[2].data),
        <&[i32; 8]>::try_from(v::DATA[2].data),
    ) else {
        firmware::finish(0, false)
    };
    let mut out = [0i32; 14];
    let (rows, used) = stack::measure(|| {
        measured_op(
            black_box(i0),
            black_box(d0),
            black_box(i1),
            black_box(d1),
            black_box(i2),
            black_box(d2),
            &mut out,
        )
    });
    firmware::finish(used, rows == Some(7) && black_box(&out)[..] == *v::OUT.data)
}
