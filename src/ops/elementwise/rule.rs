//! The elementwise shape rule, written once (see the [module docs](super)
//! for the rule in words): [`frame`] takes X's and Y's dims and the axis and
//! returns the output dims with both operands placed in them, or the
//! [`ElementwiseError`] of the first rule broken.
//!
//! It is a `const fn`: the dynamic path calls it at run time, and a static
//! op calls it at compile time on its shape types' dims to build its walk
//! (so a static op that compiles is one the run-time rule accepts, or the
//! build fails). Where an axis puts the lower-rank operand is
//! `shapecheck_rules::elementwise::placement`, the function the macro crate
//! tabulates for the type-level form in the `bounds` module (which exists
//! only for the compile errors); this rule maps its verdict to the
//! [`ElementwiseError`] and checks the dims (`conformance/tests/agreement.rs`
//! checks that the two forms agree on the dims).

use super::ElementwiseError;
use crate::broadcast::{first_not_one, place, same, Frame};
use crate::dims::{Dims, MAX_RANK};
use shapecheck_rules::align::Placed;
use shapecheck_rules::elementwise::{in_range_placement, placement, Placement};

// The planted bugs (`--cfg shapecheck_mutant="..."`, for the conformance
// tool's self-test, conformance/tests/mutants.rs) build in debug mode only.
#[cfg(all(
    not(debug_assertions),
    any(
        shapecheck_mutant = "equal-rank-axis",
        shapecheck_mutant = "axis-off-by-one",
        shapecheck_mutant = "index-rows"
    )
))]
compile_error!(
    "shapecheck_mutant plants bugs for conformance/tests/mutants.rs: never in a release build"
);

/// Paddle's elementwise rule: the output frame of X (`x`) and Y (`y`) at `axis`.
// Every index below is guarded by `< rank <= MAX_RANK`.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn frame(
    x: &[usize],
    y: &[usize],
    axis: isize,
) -> Result<Frame<2>, ElementwiseError> {
    let (xd, yd) = match (Dims::new(x), Dims::new(y)) {
        (Ok(xd), Ok(yd)) => (xd, yd),
        (Err(e), _) | (_, Err(e)) => return Err(ElementwiseError::Shape(e)),
    };
    let (rx, ry) = (x.len(), y.len());
    // where X and Y start in the output's dims
    let (rank, x_at, y_at) = if same(x, y) {
        (rx, 0, 0)
    } else {
        // the lower-rank operand (Y for equal ranks) and the larger rank
        let (small, r) = if rx < ry { (x, ry) } else { (y, rx) };
        let place = match placement(rx, ry, axis) {
            // `shapecheck_mutant = "equal-rank-axis"`: a planted bug for the
            // conformance tool's self-test (conformance/tests/mutants.rs), never
            // set in a normal build: any axis accepted, broadcast as numpy
            Placement::Identical if cfg!(shapecheck_mutant = "equal-rank-axis") => Placement::At(0),
            // `shapecheck_mutant = "axis-off-by-one"`: a planted bug
            // (conformance/tests/mutants.rs): one dim too far right
            Placement::At(_) | Placement::AtTrimmed { .. }
                if cfg!(shapecheck_mutant = "axis-off-by-one") && axis >= 0 && rx != ry =>
            {
                in_range_placement(r, r - small.len(), axis + 1)
            }
            p => p,
        };
        let at = match place {
            Placement::Identical => {
                return Err(ElementwiseError::EqualRankAxis { x: xd, y: yd, axis });
            }
            Placement::OutOfRange => {
                return Err(ElementwiseError::AxisOutOfRange { x: xd, y: yd, axis });
            }
            Placement::BeforeStart => {
                return Err(ElementwiseError::AxisBeforeStart { x: xd, y: yd, axis });
            }
            Placement::At(at) | Placement::AtTrimmed { at, .. } => at,
        };
        // the lower-rank operand's dims that run past the end must be 1s
        let placed = Placed::at(r, at, small.len());
        if first_not_one(small, placed.kept).is_some() {
            return Err(ElementwiseError::RunsPast { x: xd, y: yd, axis });
        }
        if rx < ry {
            (r, at, 0)
        } else {
            (r, 0, at)
        }
    };
    let (xp, yp) = (place(x, x_at, rank), place(y, y_at, rank));
    let mut out = [1usize; MAX_RANK];
    let mut position = 0;
    while position < rank {
        let (a, b) = (xp[position], yp[position]);
        if a != b && a != 1 && b != 1 {
            return Err(ElementwiseError::DimMismatch {
                x: xd,
                y: yd,
                axis,
                position,
                x_dim: a,
                y_dim: b,
            });
        }
        out[position] = if a == 1 { b } else { a };
        position += 1;
    }
    Ok(Frame {
        rank,
        out,
        ops: [xp, yp],
        at: [x_at, y_at],
    })
}

/// The output dims of `op(x, y)` at `axis`, checking every rule.
pub fn elementwise_output_dims(
    x: &[usize],
    y: &[usize],
    axis: isize,
) -> Result<Dims, ElementwiseError> {
    Ok(frame(x, y, axis)?.out_dims())
}
