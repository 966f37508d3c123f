//! Select's kernel: what is select's own in `cond ? then : else` (the
//! loop itself is the shared [`kernel::select`]), and what it tells the
//! planner ([`plan`]): its rule's frame for shape types, which the
//! compiler computes with the run-time [`rule::frame`] itself. The planner
//! turns frames into walks.

use super::{rule, AutoBroadcast, SelectError, SelectMode};
use crate::broadcast::Frame;
use crate::dims::Dims;
use crate::kernel::plan::{self, ShapeFrame};
use crate::kernel::{self, Walk};
use crate::shape::{PlaceholderDims, Shape};
use core::marker::PhantomData;

/// The rule's frame for the shape types `C`, `ST`, `SE` under `M`, for the
/// planner ([`plan::Planned`]): computed by the compiler when all three
/// are static (a static shape is its own placeholder); otherwise planned
/// when the op runs.
pub(super) struct Frames<C, ST, SE, M>(PhantomData<(C, ST, SE, M)>);

impl<C: Shape, ST: Shape, SE: Shape, M: SelectMode> ShapeFrame<3> for Frames<C, ST, SE, M> {
    /// A build error if the type-level rule accepted shapes the run-time
    /// rule rejects (a bug in shapecheck, which the rule-agreement test is
    /// there to catch first).
    #[allow(clippy::panic)]
    const STATIC: Option<Frame<3>> = if C::IS_STATIC && ST::IS_STATIC && SE::IS_STATIC {
        match rule::frame(
            M::KIND,
            <C::Placeholder<2> as PlaceholderDims>::DIMS,
            <ST::Placeholder<2> as PlaceholderDims>::DIMS,
            <SE::Placeholder<2> as PlaceholderDims>::DIMS,
        ) {
            Ok(f) => Some(f),
            Err(_) => panic!("shapecheck bug: the select rule's type-level form accepted shapes its run-time form rejects"),
        }
    } else {
        None
    };
}

/// The walk of the plain form, from the planner ([`plan::plain`]): a
/// constant for static shapes, else the rule's frame of the dims when the
/// op runs (`None` only if the rule rejects the dims, which the plain
/// form's bounds rule out).
#[inline(always)]
pub(super) fn plain_walk<'w, C: Shape, ST: Shape, SE: Shape, M: SelectMode>(
    c: &C,
    t: &ST,
    e: &SE,
    room: &'w mut Option<Walk<3>>,
) -> Option<&'w Walk<3>> {
    plan::plain::<Frames<C, ST, SE, M>, 3>(0, room, || {
        rule::frame(M::KIND, &c.dims(), &t.dims(), &e.dims()).ok()
    })
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
    kernel::select(&plan::walk(f), cond, then, els, out);
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
