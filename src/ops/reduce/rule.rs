//! **The** reduce rule, written once: [`plan`] takes x's dims, the axes
//! (`None`: every dim), `keepdim` and the kind, and returns the reduced
//! dims and the output dims, or the [`ReduceError`] of the first rule
//! broken (see the [module docs](super) for the rule in words).
//!
//! It is a `const fn`: the dynamic path calls it at run time and the static
//! path on its shape types' dims. The type-level form (`bounds.rs`) places
//! each axis where `shapecheck_rules::axis::slot` (the rule behind
//! [`axis_slot`]) does, in the per-rank impls the macro crate generates by
//! calling it; its output shape is then built from
//! [`ReducePlan::out`] by `Shape::from_dims`, so a type that disagreed with
//! the rule could not be built.

use super::{ReduceError, Reduction};
use crate::dims::{Dims, MAX_RANK};
use shapecheck_rules::axis::{slot, span};

/// What [`plan`] decides: which dims are reduced, and the output's dims.
///
/// ```
/// use shapecheck::ops::reduce::rule::plan;
/// use shapecheck::ops::reduce::{ReduceKind, Reduction};
/// let p = plan(&[2, 3, 4], Some(&[1]), false, Reduction::Reduce(ReduceKind::Sum)).unwrap();
/// assert_eq!(&p.reduced[..3], &[false, true, false]);
/// assert_eq!((p.out.as_slice(), p.count), (&[2, 4][..], 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReducePlan {
    /// x's dims.
    pub x: Dims,
    /// `reduced[i]`: dim `i` of x is reduced (only the first `x.rank()` count).
    pub reduced: [bool; MAX_RANK],
    /// The output's dims.
    pub out: Dims,
    /// How many elements of x each output element reduces (the product of
    /// the reduced dims).
    pub count: usize,
}

/// The axes' range for a rank: `[-n, n)` with `n = max(rank, 1)` (a 0-d
/// tensor takes axis 0 or -1, as Paddle does): `shapecheck_rules::axis::span`.
#[must_use]
pub(crate) const fn axis_span(rank: usize) -> usize {
    span(rank)
}

/// The dim a valid `axis` of a rank-`rank` tensor names (negative axes count
/// from the end; a 0-d tensor's axis names its one virtual dim, 0). An axis
/// out of `[-n, n)` gives `usize::MAX`, which no dim has. The rule is
/// `shapecheck_rules::axis::slot`, which the macro crate tabulates for the
/// type-level form.
///
/// ```
/// use shapecheck::ops::reduce::rule::axis_slot;
/// assert_eq!(axis_slot(-1, 3), 2);
/// assert_eq!(axis_slot(1, 3), 1);
/// assert_eq!(axis_slot(0, 0), 0); // a 0-d tensor's one virtual dim
/// assert_eq!(axis_slot(3, 3), usize::MAX);
/// ```
#[must_use]
pub const fn axis_slot(axis: isize, rank: usize) -> usize {
    match slot(axis, rank) {
        Some(dim) => dim,
        None => usize::MAX,
    }
}

/// Paddle's reduce rule (`sum`, `mean`, `max`, `min`, `prod`, `argmax`,
/// `argmin`) on x's dims: `axes` `None` or empty reduces every dim; each
/// axis in `[-r, r)` (`[-1, 1)` for a 0-d x), no dim twice; max, min,
/// argmax and argmin reduce no zero-size dim. `keepdim` keeps each reduced
/// dim as 1 (a 0-d x stays 0-d, except argmax/argmin over an axis, which
/// give `[1]`).
///
/// ```
/// use shapecheck::ops::reduce::rule::plan;
/// use shapecheck::ops::reduce::{ArgKind, ReduceKind, Reduction};
/// let sum = Reduction::Reduce(ReduceKind::Sum);
/// // no axes, or an empty list: every dim
/// assert_eq!(plan(&[2, 3], None, false, sum).unwrap().out.rank(), 0);
/// assert_eq!(plan(&[2, 3], Some(&[]), true, sum).unwrap().out.as_slice(), &[1, 1]);
/// assert_eq!(plan(&[2, 3], Some(&[0, -2]), false, sum).unwrap_err().rule(), "reduce/duplicate-axis");
/// let argmax = Reduction::Arg(ArgKind::ArgMax);
/// assert_eq!(plan(&[0, 3], Some(&[0]), false, argmax).unwrap_err().rule(), "reduce/empty");
/// ```
// Every index below is guarded by `< rank <= MAX_RANK` or the slice's length.
#[allow(clippy::indexing_slicing)]
pub const fn plan(
    x: &[usize],
    axes: Option<&[isize]>,
    keepdim: bool,
    op: Reduction,
) -> Result<ReducePlan, ReduceError> {
    let dims = match Dims::new(x) {
        Ok(d) => d,
        Err(e) => return Err(ReduceError::Shape(e)),
    };
    let rank = x.len();
    let n = axis_span(rank);
    let mut reduced = [false; MAX_RANK];
    let mut every = true;
    if let Some(list) = axes
        && !list.is_empty()
    {
        every = false;
        let mut k = 0;
        while k < list.len() {
            let axis = list[k];
            let slot = axis_slot(axis, rank);
            if slot == usize::MAX {
                // ranks are at most MAX_RANK, so the conversions are exact
                return Err(ReduceError::AxisRange {
                    axis,
                    x: dims,
                    low: -(n as isize),
                    high: n as isize,
                });
            }
            if reduced[slot] {
                return Err(ReduceError::DuplicateAxis {
                    axis,
                    dim: slot,
                    x: dims,
                });
            }
            reduced[slot] = true;
            k += 1;
        }
    }
    if every {
        let mut i = 0;
        while i < rank {
            reduced[i] = true;
            i += 1;
        }
    }
    let needs_one = op.needs_an_element();
    let is_arg = matches!(op, Reduction::Arg(_));
    let mut out = [0usize; MAX_RANK];
    let mut len = 0;
    let mut count = 1usize;
    let mut i = 0;
    while i < rank {
        if reduced[i] {
            if needs_one && x[i] == 0 {
                return Err(ReduceError::EmptyReduction {
                    op,
                    dim: i,
                    x: dims,
                });
            }
            count = match count.checked_mul(x[i]) {
                Some(c) => c,
                None => {
                    return Err(ReduceError::Shape(crate::dims::ShapeError::NumelOverflow {
                        shape: dims,
                    }))
                }
            };
            if keepdim {
                out[len] = 1;
                len += 1;
            }
        } else {
            out[len] = x[i];
            len += 1;
        }
        i += 1;
    }
    // Paddle: argmax / argmin of a 0-d x over an axis, with keepdim, is [1]
    if rank == 0 && keepdim && !every && is_arg {
        out[0] = 1;
        len = 1;
    }
    let out = match Dims::new(out.split_at(len).0) {
        Ok(d) => d,
        Err(e) => return Err(ReduceError::Shape(e)),
    };
    Ok(ReducePlan {
        x: dims,
        reduced,
        out,
        count,
    })
}

/// The output dims of a reduction, checking every rule.
///
/// ```
/// use shapecheck::ops::reduce::{reduce_output_dims, ArgKind, ReduceKind};
/// let d = reduce_output_dims(&[2, 3, 4], Some(&[0, -1]), false, ReduceKind::Sum).unwrap();
/// assert_eq!(d.as_slice(), &[3]);
/// let d = reduce_output_dims(&[2, 3, 4], None, true, ReduceKind::Mean).unwrap();
/// assert_eq!(d.as_slice(), &[1, 1, 1]);
/// let err = reduce_output_dims(&[2, 3], Some(&[2]), false, ReduceKind::Sum).unwrap_err();
/// assert_eq!(err.rule(), "reduce/axis-range");
/// let err = reduce_output_dims(&[2, 3, 4], Some(&[1, -2]), false, ReduceKind::Max).unwrap_err();
/// assert_eq!(err.rule(), "reduce/duplicate-axis");
/// let err = reduce_output_dims(&[2, 0], Some(&[1]), false, ReduceKind::Max).unwrap_err();
/// assert_eq!(err.rule(), "reduce/empty");
/// // argmax of a 0-d x over an axis, with keepdim, is [1] (Paddle)
/// let d = reduce_output_dims(&[], Some(&[0]), true, ArgKind::ArgMax).unwrap();
/// assert_eq!(d.as_slice(), &[1]);
/// ```
pub fn reduce_output_dims(
    x: &[usize],
    axes: Option<&[isize]>,
    keepdim: bool,
    op: impl Into<Reduction>,
) -> Result<Dims, ReduceError> {
    Ok(plan(x, axes, keepdim, op.into())?.out)
}
