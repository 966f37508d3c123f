//! LoD tensors (Paddle's ragged batches) on the target, no heap: a dense
//! view over a vector's data in flash with BORROWED levels (offsets in
//! flash, or converted from lengths into a caller's buffer), its sequences
//! walked level by level (each a view of its rows, no copy) and Paddle's
//! `CheckLoD` failures, each a typed error. Expected values: the LoDs and
//! data Paddle recorded in tests/vectors/lod_reset.json (embedded by build.rs):
//! the offsets its output reports for a y's lengths, and the rejected target
//! levels, which CheckLoD rejects as well.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::{shape, Lengths, LodError, LodTensor, Offsets};
use shapecheck_embedded::vectors::lod::*;
use shapecheck_embedded::Checks;

// two levels: y of this case, whose offsets Paddle's output reports
// vector: TWO_LEVELS = lod_reset lod_reset_y_lod2#7
// one level, rows of 3
// vector: ONE_LEVEL = lod_reset lod_reset_target#11
// target levels Paddle rejects: against x's rows, CheckLoD fails too
// vector: BAD_END = lod_reset lod_reset_bad_target_end#5
// vector: BAD_ORDER = lod_reset lod_reset_bad_target_order#0
// vector: BAD_START = lod_reset lod_reset_bad_target_start#1

#[entry]
fn main() -> ! {
    let mut c = Checks::new("lod");

    // ---- two levels from lengths, converted into caller buffers
    let want = two_levels::OUT_LOD_OFFSETS;
    let y = c.some(two_levels::Y.view::<shape![7, 1]>(), "y view");
    let l = two_levels::Y_LOD_LENGTHS;
    c.check(l.len() == 2 && want.len() == 2, "two levels");
    let lengths = [
        Lengths::new(l.first().copied().unwrap_or(&[])),
        Lengths::new(l.get(1).copied().unwrap_or(&[])),
    ];
    let mut offsets = [usize::MAX; 16];
    let mut levels = [Offsets::new(&[]); 2];
    if let Some(y) = y {
        match LodTensor::from_lengths_in(y, &lengths, &mut offsets, &mut levels) {
            Ok(x) => {
                c.check(x.levels() == 2 && x.rows() == 7, "levels, rows");
                for (k, w) in want.iter().enumerate() {
                    c.check(x.level(k).is_some_and(|o| o.as_slice() == *w), "offsets");
                }
                // level 0: each sequence's rows, data, and the level-1
                // sequences it holds
                let (top, low) = (want[0], want[1]);
                let (mut n, mut inner) = (0, 0);
                match x.sequences(0) {
                    Ok(seqs) => {
                        for s in seqs {
                            // a top offset counts level-1 sequences; their
                            // offsets count rows
                            let (lo, hi) = (low[top[s.index()]], low[top[s.index() + 1]]);
                            c.check(s.index() == n && s.rows() == (lo..hi), "top sequence rows");
                            c.eq(
                                s.tensor().as_slice(),
                                &two_levels::Y.data[lo..hi],
                                "top data",
                            );
                            c.check(s.tensor().dims().as_slice() == [hi - lo, 1], "top dims");
                            let mut next = lo;
                            for t in s.sequences() {
                                let rows = low[t.index()]..low[t.index() + 1];
                                c.check(t.index() == inner && t.rows() == rows, "inner rows");
                                c.check(t.rows().start >= next, "inner in order");
                                next = t.rows().end;
                                c.eq(
                                    t.tensor().as_slice(),
                                    &two_levels::Y.data[rows],
                                    "inner data",
                                );
                                inner += 1;
                            }
                            // the inner sequences cover exactly the outer's rows
                            c.check(next == hi, "inner sequences end with the outer");
                            n += 1;
                        }
                    }
                    Err(_) => c.check(false, "sequences(0)"),
                }
                c.check(
                    n == top.len() - 1 && inner == low.len() - 1,
                    "sequence counts",
                );
                c.check(
                    matches!(
                        x.sequences(2),
                        Err(LodError::NoSuchLevel {
                            level: 2,
                            levels: 2
                        })
                    ),
                    "no level 2",
                );
            }
            Err(_) => c.check(false, "from_lengths_in"),
        }
    }

    // ---- one level, offsets borrowed (from lengths with offsets_into)
    let x = one_level::X.view::<shape![7, 3]>();
    let mut buf = [0usize; 4];
    let lengths = one_level::X_LOD_LENGTHS.first().map(|l| Lengths::new(l));
    let level = lengths.map(|l| l.offsets_into(0, &mut buf));
    if let (Some(x), Some(Ok(level))) = (x, level) {
        let levels = [level];
        match LodTensor::new(x, &levels[..]) {
            Ok(x) => {
                let mut rows = 0;
                match x.sequences(0) {
                    Ok(seqs) => {
                        for (s, &len) in seqs.zip(one_level::X_LOD_LENGTHS[0]) {
                            let v = s.tensor();
                            c.check(v.dims().as_slice() == [len, 3], "rows of 3");
                            c.eq(
                                v.as_slice(),
                                &one_level::X.data[rows * 3..(rows + len) * 3],
                                "data",
                            );
                            rows += len;
                        }
                    }
                    Err(_) => c.check(false, "sequences"),
                }
                c.check(rows == 7, "every row in one sequence");
            }
            Err(_) => c.check(false, "one level"),
        }
    } else {
        c.check(false, "one level: view, offsets");
    }

    // ---- CheckLoD failures: typed errors naming level and values
    let x = bad_end::X.view::<shape![6, 2]>();
    let levels = [Offsets::new(bad_end::TARGET_LOD_OFFSETS)];
    c.check(bad_end::ERROR.is_some(), "bad_end rejected by Paddle");
    c.check(
        x.map(|x| LodTensor::new(x, &levels[..]).err())
            == Some(Some(LodError::RowsMismatch {
                level: 0,
                last: 7,
                rows: 6,
            })),
        "ends past the rows",
    );
    let x = bad_order::X.view::<shape![7, 2]>();
    let levels = [Offsets::new(bad_order::TARGET_LOD_OFFSETS)];
    c.check(
        x.map(|x| LodTensor::new(x, &levels[..]).err())
            == Some(Some(LodError::Decreasing {
                level: 0,
                position: 2,
                previous: 7,
                value: 6,
            })),
        "decreasing",
    );
    let x = bad_start::X.view::<shape![4, 3]>();
    let levels = [Offsets::new(bad_start::TARGET_LOD_OFFSETS)];
    c.check(
        x.map(|x| LodTensor::new(x, &levels[..]).err())
            == Some(Some(LodError::NonzeroStart { level: 0, value: 1 })),
        "nonzero start",
    );
    // the upper level counts 7 sequences, the lower has 6
    let x = two_levels::Y.view::<shape![7, 1]>();
    let levels = [Offsets::new(want[1]), Offsets::new(want[1])];
    c.check(
        x.map(|x| LodTensor::new(x, &levels[..]).err())
            == Some(Some(LodError::LevelMismatch {
                level: 0,
                last: 7,
                below: 6,
            })),
        "levels do not nest",
    );
    // lengths that sum past the rows: nothing written into the buffers
    let x = bad_end::X.view::<shape![6, 2]>();
    let lengths = [Lengths::new(one_level::X_LOD_LENGTHS[0])];
    let mut offsets = [usize::MAX; 8];
    let mut levels = [Offsets::new(&[]); 1];
    if let Some(x) = x {
        let r = LodTensor::from_lengths_in(x, &lengths, &mut offsets, &mut levels).err();
        c.check(
            r == Some(LodError::RowsMismatch {
                level: 0,
                last: 7,
                rows: 6,
            }),
            "lengths",
        );
    }
    c.check(
        offsets.iter().all(|&o| o == usize::MAX),
        "offsets untouched",
    );

    c.finish()
}
