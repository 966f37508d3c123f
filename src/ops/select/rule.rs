//! Select's shape rule, written once (see the [module docs](super) for the
//! rule in words): [`frame`] takes the mode and the dims of cond, then and
//! else and returns the output dims with the three placed in them, or the
//! [`SelectError`] of the first rule broken.
//!
//! It is a `const fn`: the dynamic path calls it at run time, and a static
//! select calls it at compile time on its shape types' dims to build its
//! walk. Where each operand's dims go (numpy's right alignment, pdpd's
//! axis and placement) is `shapecheck_rules::select`, the functions the
//! macro crate tabulates for the type-level form in the `bounds` module
//! (which exists only for the compile errors); `conformance/tests/agreement.rs`
//! checks that the two agree on the dims.

use super::{AutoBroadcast, SelectError, SelectInput};
use crate::broadcast::{first_not_one, place, same, Frame};
use crate::dims::{Dims, MAX_RANK};
use shapecheck_rules::select::{self as rules, numpy_frame, numpy_placed, pdpd_axis_ok, Pdpd};

/// OpenVINO's Select-1 rule under `mode`: the output frame of cond, then and else.
pub(crate) const fn frame(
    mode: AutoBroadcast,
    cond: &[usize],
    then: &[usize],
    els: &[usize],
) -> Result<Frame<3>, SelectError> {
    let (c, t, e) = match (Dims::new(cond), Dims::new(then), Dims::new(els)) {
        (Ok(c), Ok(t), Ok(e)) => (c, t, e),
        (Err(x), _, _) | (_, Err(x), _) | (_, _, Err(x)) => return Err(SelectError::Shape(x)),
    };
    match mode {
        AutoBroadcast::None => {
            if !same(cond, then) || !same(then, els) {
                return Err(SelectError::NoneMismatch {
                    cond: c,
                    then: t,
                    els: e,
                });
            }
            numpy(c, t, e)
        }
        AutoBroadcast::Numpy => numpy(c, t, e),
        AutoBroadcast::Pdpd { axis } => {
            // ranks are at most MAX_RANK, so the conversion is exact
            if !pdpd_axis_ok(axis, then.len()) {
                return Err(SelectError::PdpdAxis { axis, then: t });
            }
            // OpenVINO checks else first, then cond
            let at_e = match pdpd_place(SelectInput::Else, e, t, axis) {
                Ok(at) => at,
                Err(x) => return Err(x),
            };
            let at_c = match pdpd_place(SelectInput::Cond, c, t, axis) {
                Ok(at) => at,
                Err(x) => return Err(x),
            };
            let r = then.len();
            let ops = [place(cond, at_c, r), place(then, 0, r), place(els, at_e, r)];
            Ok(Frame {
                rank: r,
                out: ops[1],
                ops,
                at: [at_c, 0, at_e],
            })
        }
    }
}

/// Numpy: the three shapes right-aligned, at every position the dims other
/// than 1 equal (the output dim is that one, or 1).
// Every index below is guarded by `< r <= MAX_RANK`.
#[allow(clippy::indexing_slicing)]
const fn numpy(c: Dims, t: Dims, e: Dims) -> Result<Frame<3>, SelectError> {
    let (cs, ts, es) = (c.as_slice(), t.as_slice(), e.as_slice());
    let r = numpy_frame(&[cs.len(), ts.len(), es.len()]);
    let at = [
        numpy_placed(r, cs.len()).at,
        numpy_placed(r, ts.len()).at,
        numpy_placed(r, es.len()).at,
    ];
    let ops = [
        place(cs, at[0], r),
        place(ts, at[1], r),
        place(es, at[2], r),
    ];
    let mut out = [1usize; MAX_RANK];
    let mut position = 0;
    while position < r {
        let dims = [ops[0][position], ops[1][position], ops[2][position]];
        let mut merged = 1usize;
        let mut k = 0;
        while k < 3 {
            let x = dims[k];
            if x != 1 {
                if merged != 1 && merged != x {
                    return Err(SelectError::NumpyMismatch {
                        cond: c,
                        then: t,
                        els: e,
                        position,
                        cond_dim: dims[0],
                        then_dim: dims[1],
                        else_dim: dims[2],
                    });
                }
                merged = x;
            }
            k += 1;
        }
        out[position] = merged;
        position += 1;
    }
    Ok(Frame {
        rank: r,
        out,
        ops,
        at,
    })
}

/// Pdpd: where a source (cond or else) starts in then's dims, checking the
/// one-way rule.
// Every index below is guarded by the slices' lengths.
#[allow(clippy::indexing_slicing)]
const fn pdpd_place(
    input: SelectInput,
    src: Dims,
    then: Dims,
    axis: isize,
) -> Result<usize, SelectError> {
    let (s, t) = (src.as_slice(), then.as_slice());
    let placed = match rules::pdpd_place(s.len(), t.len(), axis) {
        Pdpd::Placed(placed) => placed,
        Pdpd::RankHigher => {
            return Err(SelectError::PdpdRankHigher {
                input,
                source: src,
                then,
                axis,
            });
        }
    };
    let (at, kept) = (placed.at, placed.kept);
    if first_not_one(s, kept).is_some() {
        return Err(SelectError::PdpdRunsPast {
            input,
            source: src,
            then,
            axis,
        });
    }
    let mut j = 0;
    while j < kept {
        let (sd, td) = (s[j], t[at + j]);
        if sd != td && sd != 1 {
            return Err(SelectError::PdpdDimMismatch {
                input,
                source: src,
                then,
                axis,
                position: at + j,
                source_dim: sd,
                then_dim: td,
            });
        }
        j += 1;
    }
    Ok(at)
}

/// The output dims of select under `mode`, checking every rule.
pub fn select_output_dims(
    mode: AutoBroadcast,
    cond: &[usize],
    then: &[usize],
    els: &[usize],
) -> Result<Dims, SelectError> {
    Ok(frame(mode, cond, then, els)?.out_dims())
}
