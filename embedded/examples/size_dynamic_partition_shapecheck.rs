//! Size of one op through shapecheck: TensorFlow's dynamic_partition of
//! f32 data [6, 3] by i32 partitions [6] into 2 (3 rows each), views over
//! static buffers into a caller's buffer (`dynamic_partition_into`).
//! `size_dynamic_partition_loop.rs` is the same as a hand-written loop,
//! `size_dynamic_partition_bounded.rs` through the bounded form. Data and
//! expected output: tests/vectors/dynamic_stitch.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck_embedded::vectors::size_dynamic_partition_shapecheck::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = dynamic_stitch dynamic_partition_ok#6

/// The two partitions' row counts, `None` on an error.
#[no_mangle]
#[inline(never)]
fn measured_op(data: &[f32; 18], parts: &[i32; 6], out: &mut [f32; 18]) -> Option<[usize; 2]> {
    let data = Tensor::<f32, shape![6, 3], &[f32]>::from_storage(&data[..]).ok()?;
    let parts = Tensor::<i32, shape![6], &[i32]>::from_storage(&parts[..]).ok()?;
    let [a, b] = dynamic_partition(&data, &parts, Partitions::<2>)
        .run_into(&mut out[..])
        .ok()?;
    Some([a.dims()[0], b.dims()[0]])
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
