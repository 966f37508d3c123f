//! OpenVINO's Select-1 under its three broadcast modes: where cond's and
//! else's dims go in the output's.
//!
//! - none: identical shapes (compared by the caller, dim by dim);
//! - numpy: every operand right-aligned in the frame of the largest rank
//!   ([`numpy_frame`], [`numpy_placed`]), dims equal or 1;
//! - pdpd: `then`'s shape is the output's; a source (cond, else) of rank at
//!   most then's is placed at `axis` (-1: right-aligned), its dims past the
//!   end trimmed ([`pdpd_axis_ok`], [`pdpd_place`]).

use crate::align::{frame_rank, Placed};

/// Numpy: the output's rank for operands of `ranks` (the largest).
///
/// ```
/// use shapecheck_rules::select::numpy_frame;
/// assert_eq!(numpy_frame(&[1, 3, 0]), 3);
/// ```
#[must_use]
pub const fn numpy_frame(ranks: &[usize]) -> usize {
    frame_rank(ranks)
}

/// Numpy: an operand of rank `rank` right-aligned in the output's `frame`.
///
/// ```
/// use shapecheck_rules::select::numpy_placed;
/// // [A] with a rank-2 operand: A meets its second dim
/// assert_eq!(numpy_placed(2, 1).dim_at(1), Some(0));
/// ```
#[must_use]
pub const fn numpy_placed(frame: usize, rank: usize) -> Placed {
    Placed::right(frame, rank)
}

/// Pdpd: whether `axis` is one the mode takes for a `then` of rank
/// `then_rank`: -1 or `0..=then_rank`.
///
/// ```
/// use shapecheck_rules::select::pdpd_axis_ok;
/// assert!(pdpd_axis_ok(-1, 2) && pdpd_axis_ok(2, 2));
/// assert!(!pdpd_axis_ok(-2, 2) && !pdpd_axis_ok(3, 2));
/// ```
#[must_use]
pub const fn pdpd_axis_ok(axis: isize, then_rank: usize) -> bool {
    // a rank is at most a few dozen: the conversion is exact
    axis >= -1 && axis <= then_rank as isize
}

/// Pdpd: where a source goes in `then`'s dims.
///
/// ```
/// use shapecheck_rules::select::{pdpd_place, Pdpd};
/// assert_eq!(pdpd_place(3, 2, 0), Pdpd::RankHigher);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pdpd {
    /// The source's rank exceeds then's.
    RankHigher,
    /// The source placed in then's dims (its dims past the end must be 1).
    Placed(Placed),
}

/// Pdpd: a source of rank `source_rank` in a `then` of rank `then_rank` at
/// an `axis` [`pdpd_axis_ok`] accepts: at `axis`, or right-aligned for -1.
///
/// ```
/// use shapecheck_rules::align::Placed;
/// use shapecheck_rules::select::{pdpd_place, Pdpd};
/// assert_eq!(pdpd_place(1, 2, -1), Pdpd::Placed(Placed { at: 1, kept: 1, rank: 1 }));
/// // at 2 of a rank-2 then, the source's one dim runs past the end
/// assert_eq!(pdpd_place(1, 2, 2), Pdpd::Placed(Placed { at: 2, kept: 0, rank: 1 }));
/// ```
#[must_use]
pub const fn pdpd_place(source_rank: usize, then_rank: usize, axis: isize) -> Pdpd {
    if source_rank > then_rank {
        return Pdpd::RankHigher;
    }
    let at = if axis < 0 {
        then_rank - source_rank
    } else {
        axis.unsigned_abs()
    };
    Pdpd::Placed(Placed::at(then_rank, at, source_rank))
}
