//! Size of one op through shapecheck's bounded form: TensorFlow's
//! dynamic_partition of f32 data [6, 3] by i32 partitions [6] into 2,
//! views over static buffers, `dynamic_partition_bounded::<3, 2, ..>`: each
//! partition in a `Room` with rows `Bounded<3>`, no heap and no caller
//! buffer. The same shapes and data as `size_dynamic_partition_shapecheck.rs`
//! (`dynamic_partition_into` a caller's buffer), whose row it sits beside.
//! Data and expected output: tests/vectors/dynamic_stitch.json.
#![no_std]
#![no_main]

use core::hint::black_box;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck_embedded::vectors::size_dynamic_partition_bounded::case as v;
use shapecheck_embedded::{firmware, stack};

// vector: CASE = dynamic_stitch dynamic_partition_ok#6

type Part = BoundedTensor<f32, (Dyn, Dim<3>), 3>;

/// The two partitions, `None` on an error; their rooms are the caller's
/// return slot (as the caller-buffer form's buffer is the caller's).
#[no_mangle]
#[inline(never)]
fn measured_op(data: &[f32; 18], parts: &[i32; 6]) -> Option<[Part; 2]> {
    let data = Tensor::<f32, shape![6, 3], &[f32]>::from_storage(&data[..]).ok()?;
    let parts = Tensor::<i32, shape![6], &[i32]>::from_storage(&parts[..]).ok()?;
    dynamic_partition(&data, &parts, Partitions::<2>)
        .run_bounded::<3>()
        .ok()
}

#[entry]
fn main() -> ! {
    let (Ok(data), Ok(parts)) = (
        <&[f32; 18]>::try_from(v::DATA.data),
        <&[i32; 6]>::try_from(v::PARTITIONS.data),
    ) else {
        firmware::finish(0, false)
    };
    let (outs, used) = stack::measure(|| measured_op(black_box(data), black_box(parts)));
    let ok = match black_box(&outs) {
        Some([a, b]) => {
            v::OUT.len() == 2 && a.as_slice() == v::OUT[0].data && b.as_slice() == v::OUT[1].data
        }
        None => false,
    };
    firmware::finish(used, ok)
}
