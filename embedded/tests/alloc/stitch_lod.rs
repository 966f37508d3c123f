//! The owned forms of dynamic_stitch / dynamic_partition (the static
//! builder's `.run()`, the owned `dynamic_partition`, `DynTensor`'s) and of
//! LoD tensors / lod_reset (owned levels, `DynLodTensor::lod_reset`), for
//! tests/alloc.rs. Expected values: the vectors it asks for.

use super::{dyn_of, judge};
use alloc::vec::Vec;
use shapecheck::prelude::*;
use shapecheck::{
    dynamic_partition, dynamic_stitch, DynLodTensor, DynY, Lengths, Levels, LodResetError,
    LodTensor, Offsets, Partitions, StitchError,
};
use shapecheck_embedded::vectors::alloc::*;
use shapecheck_embedded::{Checks, Vector};

/// The pairs of a stitch case as DynTensors.
fn dyn_pairs<T: Copy>(
    indices: &[Vector<i32>],
    data: &[Vector<T>],
) -> Vec<(DynTensor<i32>, DynTensor<T>)> {
    indices
        .iter()
        .zip(data)
        .map(|(i, d)| (dyn_of(i), dyn_of(d)))
        .collect()
}

/// dynamic_stitch's `.run()` (static builder, Vec result) and
/// `DynTensor::dynamic_stitch`; dynamic_partition owned (static API, an
/// array of Vec-backed tensors) and `DynTensor::dynamic_partition`.
pub fn stitch_partition(c: &mut Checks) {
    // the static builder, owned result
    let i0 = st_doc::INDICES.first().and_then(Vector::view::<shape![]>);
    let d0 = st_doc::DATA.first().and_then(Vector::view::<shape![2]>);
    let i1 = st_doc::INDICES.get(1).and_then(Vector::view::<shape![2]>);
    let d1 = st_doc::DATA.get(1).and_then(Vector::view::<shape![2, 2]>);
    let i2 = st_doc::INDICES
        .get(2)
        .and_then(Vector::view::<shape![2, 2]>);
    let d2 = st_doc::DATA
        .get(2)
        .and_then(Vector::view::<shape![2, 2, 2]>);
    match (i0, d0, i1, d1, i2, d2) {
        (Some(i0), Some(d0), Some(i1), Some(d1), Some(i2), Some(d2)) => {
            let merged: Result<Tensor<i32, (Dyn, Dim<2>), Vec<i32>>, _> =
                dynamic_stitch(&i0, &d0).pair(&i1, &d1).pair(&i2, &d2).run();
            match merged {
                Ok(m) => {
                    c.check(m.dims().as_slice() == st_doc::OUT.dims, "stitch run dims");
                    c.eq(m.as_slice(), st_doc::OUT.data, "stitch .run()");
                }
                Err(_) => c.check(false, "stitch .run()"),
            }
        }
        _ => c.check(false, "stitch views"),
    }
    // DynTensor: pairs as values
    let pairs = dyn_pairs(st_doc::INDICES, st_doc::DATA);
    let refs: Vec<_> = pairs.iter().map(|(i, d)| (i, d)).collect();
    judge(
        c,
        "DynTensor::dynamic_stitch",
        DynTensor::dynamic_stitch(&refs),
        Some(&st_doc::OUT),
        0.0,
        |_: &StitchError| false,
    );
    let pairs = dyn_pairs(st_duplicates::INDICES, st_duplicates::DATA);
    let refs: Vec<_> = pairs.iter().map(|(i, d)| (i, d)).collect();
    judge(
        c,
        "stitch duplicates",
        DynTensor::dynamic_stitch(&refs),
        Some(&st_duplicates::OUT),
        0.0,
        |_: &StitchError| false,
    );
    let pairs = dyn_pairs(st_negative::INDICES, st_negative::DATA);
    let refs: Vec<_> = pairs.iter().map(|(i, d)| (i, d)).collect();
    c.check(
        st_negative::ERROR.is_some(),
        "stitch negative rejected by TF",
    );
    judge(
        c,
        "stitch negative",
        DynTensor::dynamic_stitch(&refs),
        None,
        0.0,
        |e: &StitchError| {
            matches!(
                e,
                StitchError::NegativeIndex {
                    m: 0,
                    j: 0,
                    value: -1
                }
            )
        },
    );

    // dynamic_partition, static API, owned outputs
    let data = pt_two::DATA.view::<shape![6, 3]>();
    let parts = pt_two::PARTITIONS.view::<shape![6]>();
    match (data, parts) {
        (Some(data), Some(parts)) => match dynamic_partition(&data, &parts, Partitions::<2>).run() {
            Ok(outs) => {
                c.check(outs.len() == pt_two::OUT.len(), "partition outputs");
                for (o, w) in outs.iter().zip(pt_two::OUT) {
                    c.check(o.dims().as_slice() == w.dims, "partition dims");
                    c.eq(o.as_slice(), w.data, "dynamic_partition owned");
                }
            }
            Err(_) => c.check(false, "dynamic_partition owned"),
        },
        _ => c.check(false, "partition views"),
    }
    // DynTensor
    match dyn_of(&pt_two::DATA).dynamic_partition(&dyn_of(&pt_two::PARTITIONS), 2) {
        Ok(outs) => {
            c.check(
                outs.len() == pt_two::OUT.len(),
                "DynTensor partition outputs",
            );
            for (o, w) in outs.iter().zip(pt_two::OUT) {
                c.check(o.dims().as_slice() == w.dims, "DynTensor partition dims");
                c.eq(o.as_slice(), w.data, "DynTensor::dynamic_partition");
            }
        }
        Err(_) => c.check(false, "DynTensor::dynamic_partition"),
    }
    let r =
        dyn_of(&pt_out_of_range::DATA).dynamic_partition(&dyn_of(&pt_out_of_range::PARTITIONS), 4);
    c.check(
        pt_out_of_range::ERROR.is_some()
            && matches!(
                r,
                Err(StitchError::PartitionOutOfRange {
                    position: 5,
                    value: 4,
                    num: 4
                })
            ),
        "DynTensor partition out of range",
    );
}

/// A vector's lengths as `Lengths` (borrowed from flash).
fn lengths(l: &'static [&'static [usize]]) -> Vec<Lengths<'static>> {
    l.iter().map(|x| Lengths::new(x)).collect()
}

/// A LoD tensor's levels against recorded offsets.
fn same_levels<L: Levels>(c: &mut Checks, what: &str, got: &L, want: &[&[usize]]) {
    c.check(got.count() == want.len(), what);
    for (k, w) in want.iter().enumerate() {
        c.check(got.level(k).is_some_and(|o| o.as_slice() == *w), what);
    }
}

/// LoD tensors with owned levels (from lengths), their sequences, and
/// `DynLodTensor::lod_reset` with Paddle's arguments as they come.
pub fn lod(c: &mut Checks) {
    // static dense shape, owned levels from y's lengths
    let y = lr_y_lod2::Y.view::<shape![7, 1]>();
    match y.map(|y| LodTensor::from_lengths(y, &lengths(lr_y_lod2::Y_LOD_LENGTHS))) {
        Some(Ok(y)) => {
            same_levels(
                c,
                "LodTensor::from_lengths",
                y.lod(),
                lr_y_lod2::OUT_LOD_OFFSETS,
            );
            let owned = y.to_owned_lod();
            same_levels(c, "to_owned_lod", &owned, lr_y_lod2::OUT_LOD_OFFSETS);
            c.check(y.lengths().len() == 2, "lengths");
        }
        _ => c.check(false, "LodTensor::from_lengths"),
    }

    // DynLodTensor: y's int32 data as offsets
    let x = DynLodTensor::from_lengths(
        dyn_of(&lr_y_offsets::X),
        &lengths(lr_y_offsets::X_LOD_LENGTHS),
    );
    let y = dyn_of(&lr_y_offsets::Y);
    match x.map(|x| x.lod_reset(Some(DynY::data(&y)), None, lr_y_offsets::APPEND)) {
        Ok(Ok(out)) => {
            same_levels(
                c,
                "DynLodTensor y data",
                out.lod(),
                lr_y_offsets::OUT_LOD_OFFSETS,
            );
            c.eq(
                out.dense().as_slice(),
                lr_y_offsets::OUT.data,
                "y data: dense",
            );
        }
        _ => c.check(false, "DynLodTensor y data"),
    }
    // y with two levels (as_y), then the sequences of the result
    let x = DynLodTensor::from_lengths(dyn_of(&lr_y_lod2::X), &lengths(lr_y_lod2::X_LOD_LENGTHS));
    let y = DynLodTensor::from_lengths(dyn_of(&lr_y_lod2::Y), &lengths(lr_y_lod2::Y_LOD_LENGTHS));
    match (x, y) {
        (Ok(x), Ok(y)) => match x.lod_reset(Some(y.as_y()), None, false) {
            Ok(out) => {
                let want = lr_y_lod2::OUT_LOD_OFFSETS;
                same_levels(c, "DynLodTensor y LoD", out.lod(), want);
                c.eq(out.dense().as_slice(), lr_y_lod2::OUT.data, "y LoD: dense");
                match (out.sequences(1), want.get(1)) {
                    (Ok(seqs), Some(low)) => {
                        let mut n = 0;
                        for (s, w) in seqs.zip(low.windows(2)) {
                            c.check(s.rows() == (w[0]..w[1]), "dyn sequence rows");
                            c.eq(
                                s.data(),
                                &lr_y_lod2::OUT.data[w[0] * 2..w[1] * 2],
                                "dyn sequence",
                            );
                            n += 1;
                        }
                        c.check(n == low.len() - 1, "dyn sequence count");
                    }
                    _ => c.check(false, "dyn sequences"),
                }
            }
            Err(_) => c.check(false, "DynLodTensor y LoD"),
        },
        _ => c.check(false, "DynLodTensors"),
    }
    // target with append; a target past the rows
    let x = DynLodTensor::from_lengths(dyn_of(&lr_append::X), &lengths(lr_append::X_LOD_LENGTHS));
    let t = Offsets::new(lr_append::TARGET_LOD_OFFSETS);
    match x.map(|x| x.lod_reset(None, Some(t), lr_append::APPEND)) {
        Ok(Ok(out)) => same_levels(
            c,
            "DynLodTensor append",
            out.lod(),
            lr_append::OUT_LOD_OFFSETS,
        ),
        _ => c.check(false, "DynLodTensor append"),
    }
    let x = DynLodTensor::from_lengths(dyn_of(&lr_bad_end::X), &lengths(lr_bad_end::X_LOD_LENGTHS));
    let t = Offsets::new(lr_bad_end::TARGET_LOD_OFFSETS);
    c.check(
        lr_bad_end::ERROR.is_some()
            && matches!(
                x.map(|x| x.lod_reset(None, Some(t), false).map(|_| ())),
                Ok(Err(LodResetError::BadEnd {
                    last: 7,
                    rows: 6,
                    ..
                }))
            ),
        "DynLodTensor target past the rows",
    );
    c.check(
        matches!(
            DynLodTensor::from_lengths(dyn_of(&lr_append::X), &[])
                .map(|x| x.lod_reset(None, None, false).map(|_| ())),
            Ok(Err(LodResetError::NoSource))
        ),
        "neither y nor target",
    );
}
