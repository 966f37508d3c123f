//! Size of one op through shapecheck's bounded form: TensorFlow's
//! dynamic_stitch of its documented example (i32 pairs of index ranks 0, 1
//! and 2 -> [7, 2]), views over static buffers, the static builder
//! `.run_bounded::<7>()`: the result in a `Room` with rows `Bounded<7>`, no
//! heap and no caller buffer. The same shapes and data as
//! `size_dynamic_stitch_shapecheck.rs` (`.run_into` a caller's buffer),
//! whose row it sits beside. Data and expected output:
//! tests/vectors/dynamic_stitch.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::Room;
use shapecheck_embedded::vectors::size_dynamic_stitch_bounded::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = dynamic_stitch dynamic_stitch_doc#0

type Out = (Bounded<7>, Dim<2>);

/// The bounded result, `None` on an error; its room is the caller's return
/// slot (as the caller-buffer form's buffer is the caller's).
#[no_mangle]
#[inline(never)]
fn measured_op(
    i0: &i32,
    d0: &[i32; 2],
    i1: &[i32; 2],
    d1: &[i32; 4],
    i2: &[i32; 4],
    d2: &[i32; 8],
) -> Option<Tensor<i32, Out, Room<i32, Out>>> {
    let i0 = Tensor::<i32, shape![], &[i32]>::from_storage(core::slice::from_ref(i0)).ok()?;
    let d0 = Tensor::<i32, shape![2], &[i32]>::from_storage(&d0[..]).ok()?;
    let i1 = Tensor::<i32, shape![2], &[i32]>::from_storage(&i1[..]).ok()?;
    let d1 = Tensor::<i32, shape![2, 2], &[i32]>::from_storage(&d1[..]).ok()?;
    let i2 = Tensor::<i32, shape![2, 2], &[i32]>::from_storage(&i2[..]).ok()?;
    let d2 = Tensor::<i32, shape![2, 2, 2], &[i32]>::from_storage(&d2[..]).ok()?;
    shapecheck::dynamic_stitch(&i0, &d0)
        .pair(&i1, &d1)
        .pair(&i2, &d2)
        .run_bounded::<7>()
        .ok()
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
    let (merged, used) = stack::measure(|| {
        measured_op(
            black_box(i0),
            black_box(d0),
            black_box(i1),
            black_box(d1),
            black_box(i2),
            black_box(d2),
        )
    });
    let ok = black_box(&merged)
        .as_ref()
        .is_some_and(|t| t.dims().as_slice() == [7, 2] && t.as_slice() == v::OUT.data);
    firmware::finish(used, ok)
}
