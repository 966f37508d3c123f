//! The bounded forms on the target: dynamic_stitch, dynamic_partition and
//! multiplex (an index whose row count is known at run time) into tensors
//! with rows `Bounded<CAP>` in a `Room`: no heap (only `core` is linked)
//! and no caller buffer. Each case with a capacity equal to its output's
//! rows, one larger, and one short (`shape/capacity`, naming both); the
//! `_bounded_into` forms into a kept tensor of sentinels, which a capacity
//! one short or an invalid index leaves untouched (its dims and every
//! element). Expected values: the recorded TensorFlow / Paddle outputs of
//! tests/vectors/{dynamic_stitch,multiplex}.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::storage::BoundedShape;
use shapecheck::{
    dynamic_partition_bounded, dynamic_partition_bounded_into, multiplex_bounded,
    multiplex_bounded_into, shape, Bounded, Dim, Dyn, FixedShape, MultiplexError, One, Partitions,
    Room, Shape, ShapeError, StitchError, Storage, Tensor,
};
use shapecheck_embedded::vectors::bounded::*;
use shapecheck_embedded::{attr, views, Approx, Checks, Sentinel, Vector};

// vector: DOC = dynamic_stitch dynamic_stitch_doc#0
// vector: DUPLICATES_3D = dynamic_stitch dynamic_stitch_duplicates#2
// vector: NEGATIVE = dynamic_stitch dynamic_stitch_negative#0
// vector: PART_TWO = dynamic_stitch dynamic_partition_ok#6
// vector: PART_EMPTY = dynamic_stitch dynamic_partition_ok#3
// vector: PART_OUT_OF_RANGE = dynamic_stitch dynamic_partition_out_of_range#2
// vector: MUX_DOC = multiplex multiplex_doc#0
// vector: MUX_FEWER = multiplex multiplex_rows_fewer#4
// vector: MUX_OUT_OF_RANGE = multiplex multiplex_out_of_range#0

/// A bounded tensor of shape `S` at its full capacity, every element the
/// sentinel: the kept output of the `_into` forms, to see what they wrote.
fn sentinels<T: Sentinel + Default, S: BoundedShape>() -> Option<Tensor<T, S, Room<T, S>>> {
    let room = Room::<T, S>::filled_with(T::SENTINEL);
    let shape = S::from_dims(<S::Room as FixedShape>::DIMS).ok()?;
    Tensor::from_shape_slice(shape, room.as_slice()).ok()
}

/// `out` is still [`sentinels`]: its dims the room's, every element the sentinel.
fn untouched<T: Sentinel, S: BoundedShape>(out: &Tensor<T, S, Room<T, S>>) -> bool {
    out.dims().as_slice() == <S::Room as FixedShape>::DIMS
        && out.as_slice().iter().all(|v| *v == T::SENTINEL)
}

/// A bounded result against the recorded output: dims and data, exactly.
fn same<T: Approx, S: Shape, B: Storage<T>>(
    c: &mut Checks,
    got: Option<&Tensor<T, S, B>>,
    want: &Vector<T>,
    what: &str,
) {
    match got {
        Some(t) => {
            c.check(t.dims().as_slice() == want.dims, what);
            c.approx(t.as_slice(), want.data, 0.0, what);
        }
        None => c.check(false, what),
    }
}

/// The capacity error of rows (axis 0).
fn capacity(e: &ShapeError, cap: usize, rows: usize) -> bool {
    *e == ShapeError::Capacity {
        axis: 0,
        capacity: cap,
        found: rows,
    }
}

/// An index of shape `[Dyn, 1]` over the vector's data: its row count a
/// run-time value, as a sensor or a decoder would give it.
fn dyn_index(v: &Vector<i32>) -> Option<Tensor<i32, (Dyn, One), &'static [i32]>> {
    let rows = *v.dims.first()?;
    Tensor::with_shape((Dyn(rows), One), v.data).ok()
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("bounded");

    // ---- dynamic_stitch: TensorFlow's documented example, [7, 2]
    let what = "stitch doc";
    c.check(doc::OP == "dynamic_stitch" && doc::ERROR.is_none(), what);
    let i0 = doc::INDICES.first().and_then(Vector::view::<shape![]>);
    let d0 = doc::DATA.first().and_then(Vector::view::<shape![2]>);
    let i1 = doc::INDICES.get(1).and_then(Vector::view::<shape![2]>);
    let d1 = doc::DATA.get(1).and_then(Vector::view::<shape![2, 2]>);
    let i2 = doc::INDICES.get(2).and_then(Vector::view::<shape![2, 2]>);
    let d2 = doc::DATA.get(2).and_then(Vector::view::<shape![2, 2, 2]>);
    if let (Some(i0), Some(d0), Some(i1), Some(d1), Some(i2), Some(d2)) = (i0, d0, i1, d1, i2, d2) {
        let stitch = shapecheck::dynamic_stitch(&i0, &d0)
            .pair(&i1, &d1)
            .pair(&i2, &d2);
        let exact: Result<Tensor<i32, (Bounded<7>, Dim<2>), Room<i32, _>>, _> =
            stitch.run_bounded::<7>();
        same(&mut c, exact.as_ref().ok(), &doc::OUT, what);
        same(
            &mut c,
            stitch.run_bounded::<9>().as_ref().ok(),
            &doc::OUT,
            what,
        );
        let short = stitch.run_bounded::<6>().map(|_| ());
        c.check(
            matches!(short, Err(StitchError::Shape(ref e)) if capacity(e, 6, 7)),
            "stitch doc: one short",
        );
        // into kept tensors of sentinels: the exact capacity, and one short
        match sentinels::<i32, (Bounded<7>, Dim<2>)>() {
            Some(mut out) => {
                c.check(stitch.run_bounded_into(&mut out).is_ok(), what);
                same(&mut c, Some(&out), &doc::OUT, "stitch doc: into");
            }
            None => c.check(false, what),
        }
        match sentinels::<i32, (Bounded<6>, Dim<2>)>() {
            Some(mut out) => {
                let r = stitch.run_bounded_into(&mut out);
                c.check(
                    matches!(r, Err(StitchError::Shape(ref e)) if capacity(e, 6, 7)),
                    "stitch doc: into one short",
                );
                c.check(untouched(&out), "stitch doc: one short, untouched");
            }
            None => c.check(false, what),
        }
    } else {
        c.check(false, what);
    }

    // ---- dynamic_stitch: duplicates (the later wins), rows [9, 3, 1]
    let what = "stitch duplicates_3d";
    c.check(duplicates_3d::ERROR.is_none(), what);
    let v = |k: usize| duplicates_3d::INDICES.get(k);
    let w = |k: usize| duplicates_3d::DATA.get(k);
    let p = (
        v(0).and_then(Vector::view::<shape![1]>),
        w(0).and_then(Vector::view::<shape![1, 3, 1]>),
        v(1).and_then(Vector::view::<shape![8]>),
        w(1).and_then(Vector::view::<shape![8, 3, 1]>),
        v(2).and_then(Vector::view::<shape![1]>),
        w(2).and_then(Vector::view::<shape![1, 3, 1]>),
    );
    if let (Some(i0), Some(d0), Some(i1), Some(d1), Some(i2), Some(d2)) = p {
        let stitch = shapecheck::dynamic_stitch(&i0, &d0)
            .pair(&i1, &d1)
            .pair(&i2, &d2);
        let rows = duplicates_3d::OUT.dims.first().copied();
        c.check(rows == Some(9), what);
        same(
            &mut c,
            stitch.run_bounded::<9>().as_ref().ok(),
            &duplicates_3d::OUT,
            what,
        );
        same(
            &mut c,
            stitch.run_bounded::<16>().as_ref().ok(),
            &duplicates_3d::OUT,
            what,
        );
        let short = stitch.run_bounded::<8>().map(|_| ());
        c.check(
            matches!(short, Err(StitchError::Shape(ref e)) if capacity(e, 8, 9)),
            what,
        );
    } else {
        c.check(false, what);
    }

    // ---- dynamic_stitch: a negative index, into a kept tensor: untouched
    let what = "stitch negative";
    c.check(negative::ERROR.is_some(), what);
    let i0 = negative::INDICES
        .first()
        .and_then(Vector::view::<shape![1]>);
    let d0 = negative::DATA
        .first()
        .and_then(Vector::view::<shape![1, 3, 1]>);
    let i1 = negative::INDICES.get(1).and_then(Vector::view::<shape![4]>);
    let d1 = negative::DATA
        .get(1)
        .and_then(Vector::view::<shape![4, 3, 1]>);
    match (
        i0,
        d0,
        i1,
        d1,
        sentinels::<i32, (Bounded<8>, Dim<3>, One)>(),
    ) {
        (Some(i0), Some(d0), Some(i1), Some(d1), Some(mut out)) => {
            let stitch = shapecheck::dynamic_stitch(&i0, &d0).pair(&i1, &d1);
            let r = stitch.run_bounded_into(&mut out);
            c.check(
                matches!(
                    r,
                    Err(StitchError::NegativeIndex {
                        m: 0,
                        j: 0,
                        value: -1
                    })
                ),
                what,
            );
            c.check(untouched(&out), "stitch negative: untouched");
            c.check(stitch.run_bounded::<8>().is_err(), what);
        }
        _ => c.check(false, what),
    }

    // ---- dynamic_partition: two outputs of 3 rows from data [6, 3]
    let what = "partition two";
    c.check(
        part_two::OP == "dynamic_partition" && attr(part_two::ATTRS, "num_partitions") == Some("2"),
        what,
    );
    let data = part_two::DATA.view::<shape![6, 3]>();
    let parts = part_two::PARTITIONS.view::<shape![6]>();
    if let (Some(data), Some(parts)) = (data, parts) {
        match dynamic_partition_bounded::<3, 2, _, _, _, _, _, _>(&data, &parts, Partitions::<2>) {
            Ok(outs) => {
                c.check(part_two::OUT.len() == 2, what);
                for (o, w) in outs.iter().zip(part_two::OUT) {
                    same(&mut c, Some(o), w, what);
                }
            }
            Err(_) => c.check(false, what),
        }
        match dynamic_partition_bounded::<5, 2, _, _, _, _, _, _>(&data, &parts, Partitions::<2>) {
            Ok(outs) => {
                for (o, w) in outs.iter().zip(part_two::OUT) {
                    same(&mut c, Some(o), w, what);
                }
            }
            Err(_) => c.check(false, what),
        }
        let short =
            dynamic_partition_bounded::<2, 2, _, _, _, _, _, _>(&data, &parts, Partitions::<2>);
        c.check(
            matches!(short, Err(StitchError::Shape(ref e)) if capacity(e, 2, 3)),
            "partition two: one short",
        );
        // into kept tensors: the exact capacity, then one short (untouched)
        match (
            sentinels::<f32, (Bounded<3>, Dim<3>)>(),
            sentinels::<f32, (Bounded<2>, Dim<3>)>(),
        ) {
            (Some(a), Some(b)) => {
                let mut outs = [a, a];
                let r = dynamic_partition_bounded_into(&data, &parts, Partitions::<2>, &mut outs);
                c.check(r.is_ok(), what);
                for (o, w) in outs.iter().zip(part_two::OUT) {
                    same(&mut c, Some(o), w, "partition two: into");
                }
                let mut outs = [b, b];
                let r = dynamic_partition_bounded_into(&data, &parts, Partitions::<2>, &mut outs);
                c.check(
                    matches!(r, Err(StitchError::Shape(ref e)) if capacity(e, 2, 3)),
                    "partition two: into one short",
                );
                c.check(
                    outs.iter().all(untouched),
                    "partition two: one short, untouched",
                );
            }
            _ => c.check(false, what),
        }
    } else {
        c.check(false, what);
    }

    // ---- dynamic_partition: outputs of 0, 1 and 4 rows from data [5, 1]
    let what = "partition with an empty output";
    c.check(attr(part_empty::ATTRS, "num_partitions") == Some("3"), what);
    let data = part_empty::DATA.view::<shape![5, 1]>();
    let parts = part_empty::PARTITIONS.view::<shape![5]>();
    if let (Some(data), Some(parts)) = (data, parts) {
        match dynamic_partition_bounded::<4, 3, _, _, _, _, _, _>(&data, &parts, Partitions::<3>) {
            Ok(outs) => {
                c.check(part_empty::OUT.len() == 3, what);
                for (o, w) in outs.iter().zip(part_empty::OUT) {
                    same(&mut c, Some(o), w, what);
                }
            }
            Err(_) => c.check(false, what),
        }
        let short =
            dynamic_partition_bounded::<3, 3, _, _, _, _, _, _>(&data, &parts, Partitions::<3>);
        c.check(
            matches!(short, Err(StitchError::Shape(ref e)) if capacity(e, 3, 4)),
            what,
        );
        match sentinels::<i32, (Bounded<4>, One)>() {
            Some(a) => {
                let mut outs = [a, a, a];
                let r = dynamic_partition_bounded_into(&data, &parts, Partitions::<3>, &mut outs);
                c.check(r.is_ok(), what);
                for (o, w) in outs.iter().zip(part_empty::OUT) {
                    same(&mut c, Some(o), w, "partition empty: into");
                }
            }
            None => c.check(false, what),
        }
    } else {
        c.check(false, what);
    }

    // ---- dynamic_partition: a value out of range, into kept tensors: untouched
    let what = "partition out of range";
    c.check(part_out_of_range::ERROR.is_some(), what);
    let data = part_out_of_range::DATA.view::<shape![6, 3, 1]>();
    let parts = part_out_of_range::PARTITIONS.view::<shape![6]>();
    match (data, parts, sentinels::<i32, (Bounded<6>, Dim<3>, One)>()) {
        (Some(data), Some(parts), Some(a)) => {
            let mut outs = [a; 4];
            let r = dynamic_partition_bounded_into(&data, &parts, Partitions::<4>, &mut outs);
            c.check(
                matches!(
                    r,
                    Err(StitchError::PartitionOutOfRange {
                        position: 5,
                        value: 4,
                        num: 4
                    })
                ),
                what,
            );
            c.check(
                outs.iter().all(untouched),
                "partition out of range: untouched",
            );
        }
        _ => c.check(false, what),
    }

    // ---- multiplex: Paddle's doc case, 4 candidates [4, 4], an index of
    // 4 rows known at run time
    let what = "multiplex doc";
    c.check(mux_doc::OP == "multiplex" && mux_doc::ERROR.is_none(), what);
    let inputs = views::<f32, shape![4, 4], 4>(mux_doc::INPUTS);
    let index = dyn_index(&mux_doc::INDEX);
    if let (Some(inputs), Some(index)) = (inputs, index) {
        let exact: Result<Tensor<f32, (Bounded<4>, Dim<4>), Room<f32, _>>, _> =
            multiplex_bounded::<4, _, _, _, _, _, _, 4>(&inputs, &index);
        same(&mut c, exact.as_ref().ok(), &mux_doc::OUT, what);
        let larger = multiplex_bounded::<6, _, _, _, _, _, _, 4>(&inputs, &index);
        same(&mut c, larger.as_ref().ok(), &mux_doc::OUT, what);
        let short = multiplex_bounded::<3, _, _, _, _, _, _, 4>(&inputs, &index).map(|_| ());
        c.check(
            matches!(short, Err(MultiplexError::Shape(ref e)) if capacity(e, 3, 4)),
            "multiplex doc: one short",
        );
        match (
            sentinels::<f32, (Bounded<4>, Dim<4>)>(),
            sentinels::<f32, (Bounded<3>, Dim<4>)>(),
        ) {
            (Some(mut exact), Some(mut short)) => {
                c.check(
                    multiplex_bounded_into(&inputs, &index, &mut exact).is_ok(),
                    what,
                );
                same(&mut c, Some(&exact), &mux_doc::OUT, "multiplex doc: into");
                let r = multiplex_bounded_into(&inputs, &index, &mut short);
                c.check(
                    matches!(r, Err(MultiplexError::Shape(ref e)) if capacity(e, 3, 4)),
                    "multiplex doc: into one short",
                );
                c.check(untouched(&short), "multiplex doc: one short, untouched");
            }
            _ => c.check(false, what),
        }
    } else {
        c.check(false, what);
    }

    // ---- multiplex: an index of fewer rows (2) than the candidates (4)
    let what = "multiplex rows_fewer";
    c.check(mux_fewer::ERROR.is_none(), what);
    let inputs = views::<f32, shape![4, 4, 3], 3>(mux_fewer::INPUTS);
    let index = dyn_index(&mux_fewer::INDEX);
    if let (Some(inputs), Some(index)) = (inputs, index) {
        let exact = multiplex_bounded::<2, _, _, _, _, _, _, 3>(&inputs, &index);
        same(&mut c, exact.as_ref().ok(), &mux_fewer::OUT, what);
        let larger = multiplex_bounded::<4, _, _, _, _, _, _, 3>(&inputs, &index);
        same(&mut c, larger.as_ref().ok(), &mux_fewer::OUT, what);
        let short = multiplex_bounded::<1, _, _, _, _, _, _, 3>(&inputs, &index).map(|_| ());
        c.check(
            matches!(short, Err(MultiplexError::Shape(ref e)) if capacity(e, 1, 2)),
            what,
        );
    } else {
        c.check(false, what);
    }

    // ---- multiplex: an index value out of range, into a kept tensor: untouched
    let what = "multiplex out of range";
    c.check(mux_out_of_range::ERROR.is_some(), what);
    let inputs = views::<i32, shape![2, 2, 4, 1], 5>(mux_out_of_range::INPUTS);
    let index = dyn_index(&mux_out_of_range::INDEX);
    match (
        inputs,
        index,
        sentinels::<i32, (Bounded<2>, Dim<2>, Dim<4>, One)>(),
    ) {
        (Some(inputs), Some(index), Some(mut out)) => {
            let r = multiplex_bounded_into(&inputs, &index, &mut out);
            c.check(
                matches!(
                    r,
                    Err(MultiplexError::IndexOutOfRange {
                        row: 0,
                        value: 5,
                        candidates: 5
                    })
                ),
                what,
            );
            c.check(untouched(&out), "multiplex out of range: untouched");
        }
        _ => c.check(false, what),
    }

    c.finish()
}
