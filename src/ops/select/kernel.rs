//! Select's kernel: `cond ? then : else` along a broadcast walk of three
//! operands, and the two ways to get that walk: from [`rule::frame`] at run
//! time (the dynamic path, and shapes with `Dyn` dims), or as a constant the
//! compiler computes with the same function from the shape types.

use super::{rule, AutoBroadcast, SelectError, SelectMode};
use crate::broadcast::Frame;
use crate::dims::Dims;
use crate::kernel::{self, Walk};
use crate::shape::{PlaceholderDims, Shape, StaticShape};
use core::marker::PhantomData;

/// The walk of a frame the rule returned.
#[inline(always)]
pub(super) const fn walk(f: &Frame<3>) -> Walk<3> {
    Walk::from_frame(f.rank, f.out, f.ops)
}

/// The walk of a static select, computed by the compiler from the shape
/// types and the mode with the run-time rule itself.
pub(super) struct StaticWalk<C, ST, SE, M>(PhantomData<(C, ST, SE, M)>);

impl<C: StaticShape, ST: StaticShape, SE: StaticShape, M: SelectMode> StaticWalk<C, ST, SE, M> {
    /// The walk; a build error if the type-level rule accepted shapes the
    /// run-time rule rejects (a bug in shapecheck, which the rule-agreement
    /// test is there to catch first).
    #[allow(clippy::panic)]
    pub(super) const WALK: Walk<3> = match rule::frame(M::KIND, C::DIMS, ST::DIMS, SE::DIMS) {
        Ok(f) => walk(&f),
        Err(_) => panic!("shapecheck bug: the select rule's type-level form accepted shapes its run-time form rejects"),
    };
}

/// [`StaticWalk`] for any three shapes: `Some` exactly when all are static
/// (a static shape is its own placeholder).
struct WalkIfStatic<C, ST, SE, M>(PhantomData<(C, ST, SE, M)>);

impl<C: Shape, ST: Shape, SE: Shape, M: SelectMode> WalkIfStatic<C, ST, SE, M> {
    #[allow(clippy::panic)]
    const WALK: Option<Walk<3>> = if C::IS_STATIC && ST::IS_STATIC && SE::IS_STATIC {
        match rule::frame(
            M::KIND,
            <C::Placeholder<2> as PlaceholderDims>::DIMS,
            <ST::Placeholder<2> as PlaceholderDims>::DIMS,
            <SE::Placeholder<2> as PlaceholderDims>::DIMS,
        ) {
            Ok(f) => Some(walk(&f)),
            Err(_) => panic!("shapecheck bug: the select rule's type-level form accepted shapes its run-time form rejects"),
        }
    } else {
        None
    };
}

/// The walk of the plain form, chosen here from the shapes alone (the
/// bounds only say whether the op may run): a constant for static shapes,
/// else planned from the rule when the op runs (`None` only if the rule
/// rejects the dims, which the plain form's bounds rule out).
#[inline(always)]
pub(super) fn plain_walk<C: Shape, ST: Shape, SE: Shape, M: SelectMode>(
    c: &C,
    t: &ST,
    e: &SE,
) -> Option<Walk<3>> {
    if let Some(w) = WalkIfStatic::<C, ST, SE, M>::WALK {
        return Some(w);
    }
    rule::frame(M::KIND, &c.dims(), &t.dims(), &e.dims())
        .ok()
        .map(|f| walk(&f))
}

/// Checks `out`'s length against the frame, then runs the kernel.
pub(super) fn run<T: Copy>(
    f: &Frame<3>,
    cond: &[bool],
    then: &[T],
    els: &[T],
    out: &mut [T],
) -> Result<Dims, SelectError> {
    let out_dims = f.out_dims();
    Dims::for_data(&out_dims, out.len())?;
    kernel::select(&walk(f), cond, then, els, out);
    Ok(out_dims)
}

/// The dynamic path without a heap: `out = cond ? then : else` under `mode`,
/// shapes given as values. `out` must hold exactly the output's element count
/// ([`select_output_dims`](super::select_output_dims) tells it). Returns the output dims.
#[allow(clippy::too_many_arguments)]
pub fn select_slices<T: Copy>(
    mode: AutoBroadcast,
    cond_dims: &[usize],
    cond: &[bool],
    then_dims: &[usize],
    then: &[T],
    else_dims: &[usize],
    els: &[T],
    out: &mut [T],
) -> Result<Dims, SelectError> {
    Dims::for_data(cond_dims, cond.len())?;
    Dims::for_data(then_dims, then.len())?;
    Dims::for_data(else_dims, els.len())?;
    let f = rule::frame(mode, cond_dims, then_dims, else_dims)?;
    run(&f, cond, then, els, out)
}
