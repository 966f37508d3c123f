//! What the callers rely on beyond each function's examples, checked over
//! every rank up to 16 and every axis one past each end of its range.

use shapecheck_rules::align::Placed;
use shapecheck_rules::elementwise::{axis_in_range, in_range_placement, placement, Placement};
use shapecheck_rules::{axis, matmul, select};

const MAX: usize = 16;

/// The macro crate writes one impl per difference of ranks for a negative
/// axis, for every larger rank: the placement must not read the larger
/// rank there.
#[test]
fn a_negative_axis_reads_the_difference_only() {
    for diff in 1..=MAX {
        for larger in diff..=MAX {
            for a in -(larger as isize)..0 {
                assert_eq!(
                    in_range_placement(larger, diff, a),
                    in_range_placement(MAX, diff, a),
                    "larger {larger}, diff {diff}, axis {a}"
                );
            }
        }
    }
}

/// Every placement of an accepted axis keeps the dims it says, and the
/// dims it keeps fall inside the larger operand.
#[test]
fn placements_keep_what_they_say() {
    for rx in 0..=MAX {
        for ry in 0..=MAX {
            let (r, rs) = (rx.max(ry), rx.min(ry));
            for a in -(r as isize) - 1..=r as isize {
                let p = placement(rx, ry, a);
                let Some(placed) = p.placed(r, rs) else {
                    let rejected = matches!(p, Placement::BeforeStart | Placement::OutOfRange);
                    assert!(rejected, "{rx}, {ry}, {a}: {p:?}");
                    continue;
                };
                match p {
                    Placement::At(_) => assert_eq!(placed.kept, rs, "{rx}, {ry}, {a}"),
                    Placement::AtTrimmed { kept, .. } => {
                        assert!(kept < rs, "{rx}, {ry}, {a}");
                        assert_eq!(placed.kept, kept, "{rx}, {ry}, {a}");
                    }
                    Placement::Identical => assert_eq!(rx, ry),
                    _ => unreachable!(),
                }
                assert!(placed.at + placed.kept <= r, "{rx}, {ry}, {a}: {placed:?}");
                if rx != ry {
                    assert!(axis_in_range(r, a), "{rx}, {ry}, {a}");
                }
            }
        }
    }
}

/// `dim_at` and `drops` split an operand's dims: each dim is either at
/// exactly one position of the frame or dropped.
#[test]
fn every_dim_is_placed_once_or_dropped() {
    for frame in 0..=MAX {
        for rank in 0..=MAX {
            for at in 0..=frame {
                let p = Placed::at(frame, at, rank);
                for j in 0..rank {
                    let positions = (0..frame).filter(|&i| p.dim_at(i) == Some(j)).count();
                    assert_eq!(positions + usize::from(p.drops(j)), 1, "{p:?}, dim {j}");
                }
            }
        }
    }
}

/// Pdpd: an accepted axis places a source of rank at most then's inside
/// then's dims; numpy's frame holds every operand right-aligned.
#[test]
fn select_placements_stay_in_the_frame() {
    for rt in 0..=MAX {
        for rs in 0..=MAX {
            for a in -2..=rt as isize + 1 {
                if !select::pdpd_axis_ok(a, rt) {
                    assert!(a < -1 || a > rt as isize);
                    continue;
                }
                match select::pdpd_place(rs, rt, a) {
                    select::Pdpd::RankHigher => assert!(rs > rt),
                    select::Pdpd::Placed(p) => {
                        assert!(p.at <= rt && p.at + p.kept <= rt, "{rs} in {rt} at {a}");
                        if a == -1 {
                            assert_eq!(p.kept, rs, "right-aligned: every dim inside");
                        }
                    }
                }
            }
            let r = select::numpy_frame(&[rs, rt]);
            for rank in [rs, rt] {
                let p = select::numpy_placed(r, rank);
                assert_eq!((p.kept, p.at + p.kept), (rank, r));
            }
        }
    }
}

/// The axis slots of a rank name each dim of `[0, span)` exactly twice
/// (once from each end), and nothing else.
#[test]
fn axis_slots_cover_each_dim_from_both_ends() {
    for rank in 0..=MAX {
        let n = axis::span(rank) as isize;
        let mut hits = vec![0; axis::span(rank)];
        for a in -n - 1..=n {
            match axis::slot(a, rank) {
                Some(s) => hits[s] += 1,
                None => assert!(a < -n || a >= n, "rank {rank}, axis {a}"),
            }
        }
        assert!(hits.iter().all(|&h| h == 2), "rank {rank}: {hits:?}");
    }
}

/// Matmul: the batch frame holds both operands' batch dims right-aligned.
#[test]
fn matmul_batch_dims_are_right_aligned() {
    for rx in 1..=MAX {
        for ry in 1..=MAX {
            let b = matmul::batch(rx, ry);
            for (p, rank) in [(b.x, rx), (b.y, ry)] {
                assert_eq!(p.rank, matmul::batch_rank(rank));
                assert_eq!((p.kept, p.at + p.kept), (p.rank, b.frame));
            }
        }
    }
}
