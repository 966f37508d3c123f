//! Paddle's elementwise rule (`elementwise_add` and the others, with their
//! `axis` attribute): where the lower-rank operand goes in the higher's dims.
//!
//! Equal ranks broadcast as numpy at axis -1 or 0 and must be identical at
//! any other axis. Different ranks place the lower-rank operand's first dim
//! at position `o` of the higher-rank one: `o = axis` for `axis >= 0`,
//! `o = diff + axis + 1` for a negative one (`diff` the ranks' difference);
//! the axis must lie in `[-r, r)` (`r` the larger rank), `o` must not be
//! negative, and dims that run past the end are trimmed (they must be 1: the
//! caller checks the dims). [`placement`] is the whole rule;
//! [`ranks`], [`equal_ranks_placement`], [`axis_in_range`] and
//! [`in_range_placement`] are its steps, which the type-level tables follow
//! one by one.

use crate::align::Placed;

/// Where an axis puts the lower-rank operand.
///
/// ```
/// use shapecheck_rules::elementwise::{placement, Placement};
/// // X [2, 3, 4], Y [3, 4]: axis 2 puts Y's 3 at X's last dim, its 4 past the end
/// assert_eq!(placement(3, 2, 2), Placement::AtTrimmed { at: 2, kept: 1 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Equal ranks at an axis other than -1 and 0: the shapes must be
    /// identical.
    Identical,
    /// The lower-rank operand's first dim at this position of the higher's,
    /// all its dims inside (equal ranks at -1 or 0: `At(0)`, numpy).
    At(usize),
    /// Its first dim at position `at`, only its first `kept` dims inside:
    /// the others run past the end.
    AtTrimmed {
        /// The position of its first dim.
        at: usize,
        /// How many of its dims fall inside.
        kept: usize,
    },
    /// The axis puts it before the first dim (a negative `o`).
    BeforeStart,
    /// The axis is outside `[-r, r)`.
    OutOfRange,
}

impl Placement {
    /// The lower-rank operand (rank `rank`) placed in the higher's dims
    /// (rank `frame`), for a placement that places it; for [`Identical`]
    /// (both operands at 0) too. `None` for a rejected axis.
    ///
    /// [`Identical`]: Placement::Identical
    ///
    /// ```
    /// use shapecheck_rules::align::Placed;
    /// use shapecheck_rules::elementwise::Placement;
    /// let p = Placement::AtTrimmed { at: 2, kept: 1 }.placed(3, 2);
    /// assert_eq!(p, Some(Placed { at: 2, kept: 1, rank: 2 }));
    /// assert_eq!(Placement::OutOfRange.placed(3, 2), None);
    /// ```
    #[must_use]
    pub const fn placed(self, frame: usize, rank: usize) -> Option<Placed> {
        match self {
            Placement::Identical => Some(Placed::at(frame, 0, rank)),
            Placement::At(at) | Placement::AtTrimmed { at, .. } => {
                Some(Placed::at(frame, at, rank))
            }
            Placement::BeforeStart | Placement::OutOfRange => None,
        }
    }
}

/// The ranks of X and Y as the rule reads them.
///
/// ```
/// use shapecheck_rules::elementwise::{ranks, Ranks};
/// assert_eq!(ranks(2, 2), Ranks::Equal);
/// assert_eq!(ranks(1, 3), Ranks::Different { larger: 3, diff: 2 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ranks {
    /// The same rank.
    Equal,
    /// Different ranks: the larger, and the difference.
    Different {
        /// The larger rank.
        larger: usize,
        /// The larger minus the smaller.
        diff: usize,
    },
}

/// X's and Y's ranks read by the rule.
///
/// ```
/// use shapecheck_rules::elementwise::{ranks, Ranks};
/// assert_eq!(ranks(3, 0), Ranks::Different { larger: 3, diff: 3 });
/// ```
#[must_use]
pub const fn ranks(rx: usize, ry: usize) -> Ranks {
    if rx == ry {
        Ranks::Equal
    } else if rx > ry {
        Ranks::Different {
            larger: rx,
            diff: rx - ry,
        }
    } else {
        Ranks::Different {
            larger: ry,
            diff: ry - rx,
        }
    }
}

/// Equal ranks: -1 and 0 broadcast as numpy (`At(0)`), any other axis
/// means identical shapes.
///
/// ```
/// use shapecheck_rules::elementwise::{equal_ranks_placement, Placement};
/// assert_eq!(equal_ranks_placement(-1), Placement::At(0));
/// assert_eq!(equal_ranks_placement(1), Placement::Identical);
/// ```
#[must_use]
pub const fn equal_ranks_placement(axis: isize) -> Placement {
    if axis == -1 || axis == 0 {
        Placement::At(0)
    } else {
        Placement::Identical
    }
}

/// Different ranks: whether `axis` lies in `[-larger, larger)`.
///
/// ```
/// use shapecheck_rules::elementwise::axis_in_range;
/// assert!(axis_in_range(3, -3) && axis_in_range(3, 2));
/// assert!(!axis_in_range(3, 3) && !axis_in_range(3, -4));
/// ```
#[must_use]
pub const fn axis_in_range(larger: usize, axis: isize) -> bool {
    // a rank is at most a few dozen: the conversion is exact
    let r = larger as isize;
    axis >= -r && axis < r
}

/// Different ranks, an axis in range ([`axis_in_range`]): where the
/// lower-rank operand starts, `o = axis` or `diff + axis + 1`. A negative
/// axis reads `diff` only (its `o` is at most `diff`, so nothing runs past
/// the end); a non-negative one past `diff` trims the trailing dims.
///
/// ```
/// use shapecheck_rules::elementwise::{in_range_placement, Placement};
/// // Y of rank 2 in X of rank 3 (diff 1)
/// assert_eq!(in_range_placement(3, 1, -1), Placement::At(1));
/// assert_eq!(in_range_placement(3, 1, -3), Placement::BeforeStart);
/// assert_eq!(in_range_placement(3, 1, 2), Placement::AtTrimmed { at: 2, kept: 1 });
/// ```
#[must_use]
pub const fn in_range_placement(larger: usize, diff: usize, axis: isize) -> Placement {
    // a rank is at most a few dozen: the conversion is exact
    let o = if axis >= 0 {
        axis
    } else {
        diff as isize + axis + 1
    };
    if o < 0 {
        return Placement::BeforeStart;
    }
    let o = o.unsigned_abs();
    if o <= diff {
        Placement::At(o)
    } else {
        Placement::AtTrimmed {
            at: o,
            kept: larger.saturating_sub(o),
        }
    }
}

/// The whole rule: the placement `axis` means for X of rank `rx` and Y of
/// rank `ry` (identical shapes are accepted at any axis before this is
/// asked: the caller compares them).
///
/// ```
/// use shapecheck_rules::elementwise::{placement, Placement};
/// assert_eq!(placement(2, 3, -1), Placement::At(1)); // numpy's alignment
/// assert_eq!(placement(2, 3, 0), Placement::At(0));
/// assert_eq!(placement(0, 3, -1), Placement::At(3)); // a scalar: after the last dim
/// assert_eq!(placement(2, 3, 3), Placement::OutOfRange);
/// assert_eq!(placement(2, 2, 1), Placement::Identical);
/// ```
#[must_use]
pub const fn placement(rx: usize, ry: usize, axis: isize) -> Placement {
    match ranks(rx, ry) {
        Ranks::Equal => equal_ranks_placement(axis),
        Ranks::Different { larger, diff } => {
            if axis_in_range(larger, axis) {
                in_range_placement(larger, diff, axis)
            } else {
                Placement::OutOfRange
            }
        }
    }
}
