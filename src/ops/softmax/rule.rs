//! **The** softmax rule, written once: [`plan`] takes x's dims and the axis
//! and returns x seen as `[outer, n, inner]` around that axis, or the
//! [`SoftmaxError`] of the rule broken. A `const fn`: the dynamic path calls
//! it at run time, the static path on its shape's dims; the type-level
//! form (`bounds.rs`) places the axis with the same
//! `shapecheck_rules::axis::slot` as the reductions.

use super::SoftmaxError;
use crate::dims::Dims;
use shapecheck_rules::axis::{slot as axis_slot, span as axis_span};

/// x around the softmax axis: `outer` rows of `n` elements `inner` apart.
///
/// ```
/// use shapecheck::ops::softmax::rule::plan;
/// // [2, 3, 4] around its last axis: 6 rows of 4 neighbouring elements
/// let p = plan(&[2, 3, 4], -1).unwrap();
/// assert_eq!((p.outer, p.n, p.inner), (6, 4, 1));
/// assert_eq!(p.x.as_slice(), &[2, 3, 4]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoftmaxPlan {
    /// x's dims (the output's too).
    pub x: Dims,
    /// The product of the dims before the axis.
    pub outer: usize,
    /// The axis's size (1 for a 0-d x).
    pub n: usize,
    /// The product of the dims after the axis.
    pub inner: usize,
}

/// Paddle's softmax rule: the axis lies in `[-r, r - 1]` (0 or -1 for a
/// 0-d x); the output has x's dims.
///
/// ```
/// use shapecheck::ops::softmax::rule::plan;
/// let p = plan(&[2, 3, 4], -2).unwrap();
/// assert_eq!((p.outer, p.n, p.inner), (2, 3, 4));
/// assert_eq!(plan(&[2, 3], 2).unwrap_err().rule(), "softmax/axis-range");
/// assert_eq!(plan(&[], -1).unwrap().n, 1);
/// ```
// Every index below is guarded by the slice's length.
#[allow(clippy::indexing_slicing)]
pub const fn plan(x: &[usize], axis: isize) -> Result<SoftmaxPlan, SoftmaxError> {
    let dims = match Dims::new(x) {
        Ok(d) => d,
        Err(e) => return Err(SoftmaxError::Shape(e)),
    };
    let Some(slot) = axis_slot(axis, x.len()) else {
        // ranks are at most MAX_RANK, so the conversion is exact
        let n = axis_span(x.len()) as isize;
        return Err(SoftmaxError::AxisRange {
            axis,
            x: dims,
            low: -n,
            high: n - 1,
        });
    };
    let (mut outer, mut n, mut inner) = (1usize, 1usize, 1usize);
    let mut i = 0;
    while i < x.len() {
        if i < slot {
            outer = outer.saturating_mul(x[i]);
        } else if i == slot {
            n = x[i];
        } else {
            inner = inner.saturating_mul(x[i]);
        }
        i += 1;
    }
    Ok(SoftmaxPlan {
        x: dims,
        outer,
        n,
        inner,
    })
}
