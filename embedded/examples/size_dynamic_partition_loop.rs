//! Size baseline: TensorFlow's dynamic_partition of f32 data [6, 3] by i32
//! partitions [6] into 2, as a hand-written loop with the library's
//! guarantees: every partition value checked (in `[0, 2)`) and the rows
//! counted before anything is written, each partition's rows in order,
//! one after the other in the buffer. The same through shapecheck:
//! `size_dynamic_partition_shapecheck.rs`. Data and expected output:
//! tests/vectors/dynamic_stitch.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck_embedded::vectors::size_dynamic_partition_loop::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = dynamic_stitch dynamic_partition_ok#6

/// The two partitions' row counts, `None` on an error.
#[no_mangle]
#[inline(never)]
fn measured_op(data: &[f32; 18], parts: &[i32; 6], out: &mut [f32; 18]) -> Option<[usize; 2]> {
    let mut counts = [0usize; 2];
    for &p in parts {
        if !(0..2).contains(&p) {
            return None;
        }
        counts[p as usize] += 1;
    }
    let mut next = [0usize, counts[0] * 3];
    for (row, &p) in data.chunks_exact(3).zip(parts) {
        let at = &mut next[p as usize];
        out[*at..*at + 3].copy_from_slice(row);
        *at += 3;
    }
    Some(counts)
}

#[entry]
fn main() -> ! {
    let (Ok(data), Ok(parts)) = (
        <&[f32; 18]>::try_from(v::DATA.data),
        <&[i32; 6]>::try_from(v::PARTITIONS.data),
    ) else {
        firmware::finish(0, false)
    };
    let mut out = [0.0f32; 18];
    let (rows, used) = stack::measure(|| measured_op(black_box(data), black_box(parts), &mut out));
    let out = black_box(&out);
    let ok = rows == Some([3, 3])
        && v::OUT.len() == 2
        && out[..9] == *v::OUT[0].data
        && out[9..] == *v::OUT[1].data;
    firmware::finish(used, ok)
}
