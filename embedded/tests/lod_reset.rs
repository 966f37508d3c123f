//! Paddle's lod_reset on the target, no heap: x is a dense view over a
//! vector's data in flash with its levels in caller buffers; the new level
//! comes from target offsets (borrowed), is appended after x's, comes from
//! y's int32 data (written into a caller's buffer) or is y's whole LoD
//! (borrowed). The dense data is never copied. The rule's errors (a level
//! not starting at 0, ending past the rows, decreasing; a buffer too small)
//! are typed, the buffer untouched. Expected values: the recorded Paddle
//! outputs of tests/vectors/lod_reset.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::{
    shape, Lengths, LevelSource, Levels, LodResetError as E, LodTensor, Offsets, RowShape,
    StaticShape,
};
use shapecheck_embedded::vectors::lod_reset::*;
use shapecheck_embedded::{Checks, Vector};

// vector: TARGET = lod_reset lod_reset_target#11
// vector: TARGET_NO_LOD = lod_reset lod_reset_target#13
// vector: APPEND = lod_reset lod_reset_append#2
// vector: Y_OFFSETS = lod_reset lod_reset_y_offsets#5
// vector: Y_LOD1 = lod_reset lod_reset_y_lod1#5
// vector: Y_LOD2 = lod_reset lod_reset_y_lod2#7
// vector: BAD_END = lod_reset lod_reset_bad_target_end#5
// vector: BAD_ORDER = lod_reset lod_reset_bad_target_order#0
// vector: BAD_START = lod_reset lod_reset_bad_target_start#1
// vector: Y_BAD = lod_reset lod_reset_y_bad#3

/// Buffers for a LoD of up to 2 levels and 16 offsets.
struct Bufs<'b> {
    offsets: [usize; 16],
    levels: [Offsets<'b>; 2],
}
impl Bufs<'_> {
    fn new() -> Self {
        Bufs {
            offsets: [0; 16],
            levels: [Offsets::new(&[]); 2],
        }
    }
}

/// The LoD tensor of a vector tensor (`dense` of static shape `S`) and
/// its recorded lengths, its levels in `bufs`.
fn lod_of<'b, T: Copy, S: StaticShape + RowShape>(
    dense: &Vector<T>,
    lengths: &[&'static [usize]],
    bufs: &'b mut Bufs<'b>,
) -> Option<LodTensor<T, S, &'static [T], &'b [Offsets<'b>]>> {
    let mut l = [Lengths::new(&[]); 2];
    for (slot, x) in l.iter_mut().zip(lengths) {
        *slot = Lengths::new(x);
    }
    let l = l.get(..lengths.len())?;
    LodTensor::from_lengths_in(dense.view::<S>()?, l, &mut bufs.offsets, &mut bufs.levels).ok()
}

/// An output's levels and data against the case's OUT.
fn judge<T: Copy + PartialEq + core::fmt::Debug, L: Levels>(
    c: &mut Checks,
    what: &str,
    levels: &L,
    data: &[T],
    out: &Vector<T>,
    out_lod: &[&[usize]],
) {
    c.check(levels.count() == out_lod.len(), what);
    for (k, w) in out_lod.iter().enumerate() {
        c.check(levels.level(k).is_some_and(|o| o.as_slice() == *w), what);
    }
    c.eq(data, out.data, what);
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("lod_reset");

    // ---- target offsets (borrowed from flash): x's level replaced
    let mut bufs = Bufs::new();
    let x = lod_of::<i64, shape![7, 3]>(&target::X, target::X_LOD_LENGTHS, &mut bufs);
    c.check(!target::APPEND && target::ERROR.is_none(), "target case");
    match x.map(|x| x.lod_reset(Offsets::new(target::TARGET_LOD_OFFSETS), target::APPEND)) {
        Some(Ok(out)) => {
            judge(
                &mut c,
                "target",
                out.lod(),
                out.as_slice(),
                &target::OUT,
                target::OUT_LOD_OFFSETS,
            );
            // the same data, not a copy
            c.check(
                out.as_slice().as_ptr() == target::X.data.as_ptr(),
                "no copy",
            );
        }
        _ => c.check(false, "target"),
    }
    // x without a LoD
    let mut bufs = Bufs::new();
    let x = lod_of::<f64, shape![3, 1]>(&target_no_lod::X, target_no_lod::X_LOD_LENGTHS, &mut bufs);
    c.check(target_no_lod::X_LOD_LENGTHS.is_empty(), "x without LoD");
    let t = Offsets::new(target_no_lod::TARGET_LOD_OFFSETS);
    match x.map(|x| x.lod_reset(t, target_no_lod::APPEND)) {
        Some(Ok(out)) => judge(
            &mut c,
            "target, x without LoD",
            out.lod(),
            out.as_slice(),
            &target_no_lod::OUT,
            target_no_lod::OUT_LOD_OFFSETS,
        ),
        _ => c.check(false, "target, x without LoD"),
    }

    // ---- append: x's level kept, the target after it
    let mut bufs = Bufs::new();
    let x = lod_of::<i64, shape![8, 1]>(&append::X, append::X_LOD_LENGTHS, &mut bufs);
    c.check(append::APPEND, "append case");
    match x.map(|x| x.lod_reset(Offsets::new(append::TARGET_LOD_OFFSETS), append::APPEND)) {
        Some(Ok(out)) => judge(
            &mut c,
            "append",
            out.lod(),
            out.as_slice(),
            &append::OUT,
            append::OUT_LOD_OFFSETS,
        ),
        _ => c.check(false, "append"),
    }

    // ---- y without LoD: its int32 data are the offsets, into a buffer
    let y = y_offsets::Y.view::<shape![1, 3]>();
    c.check(y_offsets::Y_LOD_LENGTHS.is_empty(), "y without LoD");
    let mut level = [usize::MAX; 3];
    let mut bufs = Bufs::new();
    let x = lod_of::<f64, shape![6, 1]>(&y_offsets::X, y_offsets::X_LOD_LENGTHS, &mut bufs);
    match (x, y) {
        (Some(x), Some(y)) => {
            // a buffer too small: its error, nothing written
            let mut small = [usize::MAX; 2];
            let r = x
                .view()
                .lod_reset_by_data(&y, y_offsets::APPEND, &mut small)
                .err();
            c.check(
                r == Some(E::Buffer { needed: 3, len: 2 }),
                "buffer too small",
            );
            c.check(small == [usize::MAX; 2], "small buffer untouched");
            match x.lod_reset_by_data(&y, y_offsets::APPEND, &mut level) {
                Ok(out) => judge(
                    &mut c,
                    "y data as offsets",
                    out.lod(),
                    out.as_slice(),
                    &y_offsets::OUT,
                    y_offsets::OUT_LOD_OFFSETS,
                ),
                Err(_) => c.check(false, "y data as offsets"),
            }
        }
        _ => c.check(false, "y data: views"),
    }

    // ---- y with a LoD: the output takes all of y's levels (borrowed)
    let (mut xb, mut yb) = (Bufs::new(), Bufs::new());
    let x = lod_of::<i64, shape![4, 1]>(&y_lod1::X, y_lod1::X_LOD_LENGTHS, &mut xb);
    let y = lod_of::<f32, shape![4, 1]>(&y_lod1::Y, y_lod1::Y_LOD_LENGTHS, &mut yb);
    match (x, y) {
        (Some(x), Some(y)) => match x.lod_reset_like(&y) {
            Ok(out) => judge(
                &mut c,
                "y with LoD",
                out.lod(),
                out.as_slice(),
                &y_lod1::OUT,
                y_lod1::OUT_LOD_OFFSETS,
            ),
            Err(_) => c.check(false, "y with LoD"),
        },
        _ => c.check(false, "y with LoD: tensors"),
    }
    let (mut xb, mut yb) = (Bufs::new(), Bufs::new());
    let x = lod_of::<f32, shape![7, 2]>(&y_lod2::X, y_lod2::X_LOD_LENGTHS, &mut xb);
    let y = lod_of::<f32, shape![7, 1]>(&y_lod2::Y, y_lod2::Y_LOD_LENGTHS, &mut yb);
    match (x, y) {
        (Some(x), Some(y)) => match x.lod_reset_like(&y) {
            Ok(out) => judge(
                &mut c,
                "y with 2 levels",
                out.lod(),
                out.as_slice(),
                &y_lod2::OUT,
                y_lod2::OUT_LOD_OFFSETS,
            ),
            Err(_) => c.check(false, "y with 2 levels"),
        },
        _ => c.check(false, "y with 2 levels: tensors"),
    }

    // ---- the rule's errors (Paddle rejects each)
    let rejected = [
        bad_end::ERROR,
        bad_order::ERROR,
        bad_start::ERROR,
        y_bad::ERROR,
    ];
    c.check(rejected.iter().all(Option::is_some), "rejected by Paddle");
    let mut bufs = Bufs::new();
    let x = lod_of::<f32, shape![6, 2]>(&bad_end::X, bad_end::X_LOD_LENGTHS, &mut bufs);
    c.check(
        x.map(|x| {
            x.lod_reset(Offsets::new(bad_end::TARGET_LOD_OFFSETS), false)
                .err()
        }) == Some(Some(E::BadEnd {
            source: LevelSource::Target,
            position: 3,
            last: 7,
            rows: 6,
        })),
        "ends past the rows",
    );
    let mut bufs = Bufs::new();
    let x = lod_of::<f32, shape![7, 2]>(&bad_order::X, bad_order::X_LOD_LENGTHS, &mut bufs);
    c.check(
        x.map(|x| {
            x.lod_reset(Offsets::new(bad_order::TARGET_LOD_OFFSETS), false)
                .err()
        }) == Some(Some(E::Decreasing {
            source: LevelSource::Target,
            position: 2,
            previous: 7,
            value: 6,
        })),
        "decreasing",
    );
    let mut bufs = Bufs::new();
    let x = lod_of::<f32, shape![4, 3]>(&bad_start::X, bad_start::X_LOD_LENGTHS, &mut bufs);
    c.check(
        x.map(|x| {
            x.lod_reset(Offsets::new(bad_start::TARGET_LOD_OFFSETS), false)
                .err()
        }) == Some(Some(E::BadStart {
            source: LevelSource::Target,
            value: 1,
        })),
        "nonzero start",
    );
    // y's data as offsets, ending past x's 4 rows: the buffer untouched
    let mut bufs = Bufs::new();
    let x = lod_of::<f64, shape![4, 2]>(&y_bad::X, y_bad::X_LOD_LENGTHS, &mut bufs);
    let y = y_bad::Y.view::<shape![1, 3]>();
    let mut level = [usize::MAX; 3];
    match (x, y) {
        (Some(x), Some(y)) => {
            let r = x.lod_reset_by_data(&y, false, &mut level).err();
            c.check(
                r == Some(E::BadEnd {
                    source: LevelSource::YData,
                    position: 2,
                    last: 5,
                    rows: 4,
                }),
                "y data past the rows",
            );
        }
        _ => c.check(false, "y_bad: tensors"),
    }
    c.check(level == [usize::MAX; 3], "y_bad: buffer untouched");

    c.finish()
}
