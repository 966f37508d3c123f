//! Size baseline: TensorFlow's dynamic_stitch of its documented example
//! (i32 pairs of index ranks 0, 1 and 2 -> [7, 2]) as a hand-written loop
//! with the library's guarantees: every index checked (not negative, the
//! output fits the buffer) before anything is written, rows no index names
//! zeroed, the later of two equal indices wins. The same through
//! shapecheck: `size_dynamic_stitch_shapecheck.rs`. Data and expected
//! output: tests/vectors/dynamic_stitch.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::vectors::size_dynamic_stitch_loop::case as v;
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
    let mut rows = 0;
    for &k in core::iter::once(i0).chain(i1).chain(i2) {
        if k < 0 {
            return None;
        }
        rows = rows.max(k as usize + 1);
    }
    if rows * 2 > out.len() {
        return None;
    }
    out[..rows * 2].fill(0);
    let k = *i0 as usize;
    out[k * 2..k * 2 + 2].copy_from_slice(d0);
    for (j, &k) in i1.iter().enumerate() {
        let k = k as usize;
        out[k * 2..k * 2 + 2].copy_from_slice(&d1[j * 2..j * 2 + 2]);
    }
    for (j, &k) in i2.iter().enumerate() {
        let k = k as usize;
        out[k * 2..k * 2 + 2].copy_from_slice(&d2[j * 2..j * 2 + 2]);
    }
    Some(rows)
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
