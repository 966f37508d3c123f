//! TensorFlow's dynamic_partition on the target, no heap:
//! `dynamic_partition_into` over views of the vectors' data in flash, every
//! output a view into ONE caller buffer of the data's size (outputs of 0
//! rows included); a partition value out of range (a typed error, the buffer
//! untouched); the run-time path (`partition_slices`), with a prefix error
//! the static API does not compile; and the round trip through
//! dynamic_stitch. Expected values: the recorded TensorFlow outputs of
//! tests/vectors/dynamic_stitch.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::{
    dynamic_partition_into, partition_slices, shape, FixedShape, Partitions, StitchError as E,
};
use shapecheck_embedded::vectors::partition::*;
use shapecheck_embedded::{attr, Checks, Sentinel};

// vector: TWO = dynamic_stitch dynamic_partition_ok#6
// vector: THREE_ONE_EMPTY = dynamic_stitch dynamic_partition_ok#3
// vector: FOUR_RANK1 = dynamic_stitch dynamic_partition_ok#16
// vector: RANK3_I32 = dynamic_stitch dynamic_partition_ok#12
// vector: ALL_EMPTY = dynamic_stitch dynamic_partition_ok#2
// vector: OUT_OF_RANGE = dynamic_stitch dynamic_partition_out_of_range#2
// vector: OUT_OF_RANGE_FIRST = dynamic_stitch dynamic_partition_out_of_range#4

/// A case through `dynamic_partition_into` with `Partitions::<NUM>`, into
/// one buffer of sentinels the size of the data: each output against the
/// case's OUT, or `Err(pattern)` and the buffer untouched.
macro_rules! partition_case {
    ($c:ident, $case:ident: $T:ty, $num:literal, data [$($d:tt)*], partitions [$($p:tt)*]
     -> $($want:tt)+) => {{
        type D = shape![$($d)*];
        let what = stringify!($case);
        $c.check(
            $case::OP == "dynamic_partition"
                && attr($case::ATTRS, "num_partitions") == Some(stringify!($num)),
            what,
        );
        let data = $c.some($case::DATA.view::<D>(), what);
        let parts = $c.some($case::PARTITIONS.view::<shape![$($p)*]>(), what);
        if let (Some(data), Some(parts)) = (data, parts) {
            let mut buf = [<$T as Sentinel>::SENTINEL; <D as FixedShape>::NUMEL];
            let got = dynamic_partition_into(&data, &parts, Partitions::<$num>, &mut buf);
            partition_case!(@judge $c, what, $case, got, $($want)+);
            if $case::ERROR.is_some() {
                $c.check(buf.iter().all(|v| *v == <$T as Sentinel>::SENTINEL), what);
            }
        }
    }};
    (@judge $c:ident, $what:ident, $case:ident, $got:ident, Ok) => {
        $c.check($case::ERROR.is_none(), $what);
        match ($got, $case::OUT) {
            (Ok(outs), want) if want.len() == outs.len() => {
                for (o, w) in outs.iter().zip(want) {
                    $c.check(o.dims().as_slice() == w.dims, $what);
                    $c.eq(o.as_slice(), w.data, $what);
                }
            }
            _ => $c.check(false, $what),
        }
    };
    (@judge $c:ident, $what:ident, $case:ident, $got:ident, Err($err:pat)) => {
        $c.check($case::ERROR.is_some(), $what);
        $c.check(matches!($got, Err($err)), $what);
    };
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("partition");

    partition_case!(c, two: f32, 2, data [6, 3], partitions [6] -> Ok);
    partition_case!(c, three_one_empty: i32, 3, data [5, 1], partitions [5] -> Ok);
    partition_case!(c, four_rank1: f32, 4, data [6], partitions [6] -> Ok);
    partition_case!(c, rank3_i32: i32, 2, data [5, 3, 1], partitions [5] -> Ok);
    partition_case!(c, all_empty: i32, 2, data [0, 2, 3], partitions [0] -> Ok);
    partition_case!(c, out_of_range: i32, 4, data [6, 3, 1], partitions [6]
        -> Err(E::PartitionOutOfRange { position: 5, value: 4, num: 4 }));
    partition_case!(c, out_of_range_first: f32, 3, data [2, 1, 1], partitions [2]
        -> Err(E::PartitionOutOfRange { position: 0, value: 3, num: 3 }));

    // the run-time path: dims as values, counts and outputs in caller buffers
    let mut counts = [0usize; 2];
    let mut out = [f32::SENTINEL; 18];
    let r = partition_slices(
        two::DATA.dims,
        two::DATA.data,
        two::PARTITIONS.dims,
        two::PARTITIONS.data,
        &mut counts,
        &mut out,
    );
    c.check(r.is_ok_and(|s| s.as_slice() == [3]), "partition_slices");
    let mut at = 0;
    for (w, &n) in two::OUT.iter().zip(&counts) {
        let len = n * 3;
        c.check(w.dims.first() == Some(&n), "partition_slices counts");
        c.eq(
            out.get(at..at + len).unwrap_or(&[]),
            w.data,
            "partition_slices",
        );
        at += len;
    }
    // data [6, 3] does not start with partitions [5]: a compile error on the
    // static path, a typed error here, nothing written
    let mut out = [f32::SENTINEL; 18];
    let r = partition_slices(
        two::DATA.dims,
        two::DATA.data,
        &[5],
        &two::PARTITIONS.data[..5],
        &mut counts,
        &mut out,
    );
    c.check(matches!(r, Err(E::PartitionPrefix { .. })), "prefix error");
    c.check(
        out.iter().all(|v| *v == f32::SENTINEL),
        "prefix error: untouched",
    );

    // the round trip (TensorFlow's docs): partition the row numbers like the
    // data, stitch the data back by them
    let rows = [0i32, 1, 2, 3, 4, 5];
    let rows = shapecheck::Tensor::<i32, shape![6], &[i32]>::from_storage(&rows[..]).ok();
    let data = two::DATA.view::<shape![6, 3]>();
    let parts = two::PARTITIONS.view::<shape![6]>();
    if let (Some(rows), Some(data), Some(parts)) = (rows, data, parts) {
        let (mut rbuf, mut dbuf) = ([0i32; 6], [0.0f32; 18]);
        let r = dynamic_partition_into(&rows, &parts, Partitions::<2>, &mut rbuf);
        let d = dynamic_partition_into(&data, &parts, Partitions::<2>, &mut dbuf);
        match (r, d) {
            (Ok([ra, rb]), Ok([da, db])) => {
                let mut back = [f32::SENTINEL; 18];
                let s = shapecheck::dynamic_stitch(&ra, &da)
                    .pair(&rb, &db)
                    .run_into(&mut back)
                    .map(|v| v.dims());
                c.check(s.is_ok_and(|d| d.as_slice() == [6, 3]), "round trip dims");
                c.eq(&back, two::DATA.data, "round trip");
            }
            _ => c.check(false, "round trip partitions"),
        }
    } else {
        c.check(false, "round trip views");
    }

    c.finish()
}
