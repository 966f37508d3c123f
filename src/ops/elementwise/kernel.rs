//! The elementwise kernel: `out = act(op(x, y))` along a broadcast walk, and
//! the two ways to get that walk: from [`rule::frame`] at run time (the
//! dynamic path, the `try_` forms, and the plain forms on shapes whose `Dyn`
//! dims need no check), or as a constant the compiler computes with the same
//! function from the shape types.

use super::{rule, ActivationKind, BinaryOpKind, ElementwiseError};
use crate::broadcast::Frame;
use crate::dims::Dims;
use crate::element::{sigmoid_f64, tanh_f64, Element};
use crate::kernel::{self, Walk};
use crate::shape::{PlaceholderDims, Shape, StaticShape};
use core::marker::PhantomData;

/// The walk of a frame the rule returned.
#[inline(always)]
pub(super) const fn walk(f: &Frame<2>) -> Walk<2> {
    Walk::from_frame(f.rank, f.out, f.ops)
}

/// The walk of a static elementwise op, computed by the compiler from the
/// shape types with the run-time rule itself (no planning at run time).
pub(super) struct StaticWalk<S, Y, const AXIS: isize>(PhantomData<(S, Y)>);

impl<S: StaticShape, Y: StaticShape, const AXIS: isize> StaticWalk<S, Y, AXIS> {
    /// The walk; a build error if the type-level rule accepted shapes the
    /// run-time rule rejects (a bug in shapecheck, which the rule-agreement
    /// test is there to catch first).
    #[allow(clippy::panic)]
    pub(super) const WALK: Walk<2> = match rule::frame(S::DIMS, Y::DIMS, AXIS) {
        Ok(f) => walk(&f),
        Err(_) => panic!("shapecheck bug: the elementwise rule's type-level form accepted shapes its run-time form rejects"),
    };
}

/// The walk of a static `S` and an operand `Y` of the same shape or
/// `shape![]` at `AXIS` (the named forms on one generic shape,
/// `api/same_shape.rs`), computed by the compiler with the run-time rule:
/// identical shapes meet at any axis (Paddle's rule; the type-level tables
/// of the inherent forms cover `[-16, 16)`), a scalar at `-R <= axis < R`,
/// and an axis the rule rejects is this constant's build error.
pub(super) struct SameWalk<S, Y, const AXIS: isize>(PhantomData<(S, Y)>);

impl<S: StaticShape, Y: StaticShape, const AXIS: isize> SameWalk<S, Y, AXIS> {
    const AXIS_RANGE: &str = "elementwise/axis-range: a scalar y is placed at -R <= axis < R, R the rank of x (two tensors of one shape meet at any axis)";
    const NOT_X: &str =
        "elementwise/broadcast: at this axis the output is not x's shape, which this form returns";
    pub(super) const WALK: Walk<2> = match rule::frame(S::DIMS, Y::DIMS, AXIS) {
        // the output is x's shape (what the caller's result holds)
        Ok(f) if crate::broadcast::same(f.out_dims().as_slice(), S::DIMS) => walk(&f),
        Ok(_) => crate::ops::const_fail(Self::NOT_X),
        Err(_) => crate::ops::const_fail(Self::AXIS_RANGE),
    };
}

/// [`StaticWalk`] for any two shapes: `Some` exactly when both are static
/// (a static shape is its own placeholder).
struct WalkIfStatic<S, Y, const AXIS: isize>(PhantomData<(S, Y)>);

impl<S: Shape, Y: Shape, const AXIS: isize> WalkIfStatic<S, Y, AXIS> {
    #[allow(clippy::panic)]
    const WALK: Option<Walk<2>> = if S::IS_STATIC && Y::IS_STATIC {
        match rule::frame(
            <S::Placeholder<2> as PlaceholderDims>::DIMS,
            <Y::Placeholder<2> as PlaceholderDims>::DIMS,
            AXIS,
        ) {
            Ok(f) => Some(walk(&f)),
            Err(_) => panic!("shapecheck bug: the elementwise rule's type-level form accepted shapes its run-time form rejects"),
        }
    } else {
        None
    };
}

/// The walk of a plain (not `try_`) form, chosen here from the shapes
/// alone (the bounds only say whether the op may run): a constant for static
/// shapes ([`StaticWalk`]); a constant whose first dim is set to `out_first`
/// when every run-time dim lands on the output's first dim
/// ([`LeadingWalk`]); else planned from the rule when the op runs
/// ([`run_time_walk`]). The first two are constants of the shape types, so
/// the compiler drops the branches not taken.
///
/// A static walk is returned as a reference to the constant itself; the
/// others are kept in the caller's `room`. (Returned as a copy, the static
/// walk's strides were no longer folded into the loops: S1 compiled with the
/// bounds checks, a `memset` and two copies of its result,
/// `benches/codegen/run.sh`.)
#[inline(always)]
pub(super) fn plain_walk<'w, X: Shape, Y: Shape, const AXIS: isize>(
    x: &X,
    y: &Y,
    out_first: usize,
    room: &'w mut Option<Walk<2>>,
) -> Option<&'w Walk<2>> {
    if let Some(w) = &WalkIfStatic::<X, Y, AXIS>::WALK {
        return Some(w);
    }
    *room = match LeadingWalk::<X, Y, AXIS>::WALK {
        Some(w) => Some(w.with_first_dim(2, out_first)),
        None => run_time_walk(&x.dims(), &y.dims(), AXIS),
    };
    room.as_ref()
}

/// The walk of a plain op on shapes whose run-time dims all land on the
/// output's first dim (a batch: `[Dyn, 3, 4, 5]` times `[3, 4]`, or two
/// tensors with one brand on their rows), planned by the compiler: the
/// frame of the shapes with each run-time dim set to 2, whose first dim is
/// set to the real size when the op runs ([`Walk::with_first_dim`]). `None`
/// for other shapes, whose walk is planned when the op runs
/// ([`run_time_walk`]). The run-time dims are found by planning with 2 and
/// with 3: the output dims that differ are theirs.
pub(super) struct LeadingWalk<S, Y, const AXIS: isize>(PhantomData<(S, Y)>);

impl<S: Shape, Y: Shape, const AXIS: isize> LeadingWalk<S, Y, AXIS> {
    pub(super) const WALK: Option<Walk<2>> = leading_walk(
        <S::Placeholder<2> as PlaceholderDims>::DIMS,
        <Y::Placeholder<2> as PlaceholderDims>::DIMS,
        <S::Placeholder<3> as PlaceholderDims>::DIMS,
        <Y::Placeholder<3> as PlaceholderDims>::DIMS,
        AXIS,
    );
}

/// See [`LeadingWalk`].
// Every index below is guarded by `< o2.len()`, which is `o3.len()`.
#[allow(clippy::indexing_slicing)]
const fn leading_walk(
    x2: &[usize],
    y2: &[usize],
    x3: &[usize],
    y3: &[usize],
    axis: isize,
) -> Option<Walk<2>> {
    let (Ok(f2), Ok(f3)) = (rule::frame(x2, y2, axis), rule::frame(x3, y3, axis)) else {
        return None;
    };
    let (o2, o3) = (f2.out_dims(), f3.out_dims());
    let (o2, o3) = (o2.as_slice(), o3.as_slice());
    if o2.len() != o3.len() {
        return None;
    }
    let mut i = 1;
    while i < o2.len() {
        if o2[i] != o3[i] {
            return None;
        }
        i += 1;
    }
    Some(walk(&f2))
}

/// The walk of a plain (not `try_`) op on shapes with a run-time dim,
/// computed from the rule when the op runs. The type-level rule of the plain
/// forms (`ElementwiseNoCheck`) has already proved everything the rule could
/// reject: the static dims by the compiler, and each `Dyn` dim meets only 1s
/// or no dim, so the frame is always `Ok`. The impossible `Err` gives `None`
/// (the caller then leaves its output as filled) rather than a panic in
/// library code: a missing walk cannot write half an output, and the
/// rule-agreement test is what would catch such a bug.
pub(super) fn run_time_walk(x: &[usize], y: &[usize], axis: isize) -> Option<Walk<2>> {
    match rule::frame(x, y, axis) {
        Ok(f) => Some(walk(&f)),
        Err(_) => None,
    }
}

/// Checks the rule and `out`'s length, then runs the kernel: the dynamic path.
pub(super) fn run_checked<T: Element>(
    op: BinaryOpKind,
    act: ActivationKind,
    (x_dims, x): (&[usize], &[T]),
    (y_dims, y): (&[usize], &[T]),
    axis: isize,
    out: &mut [T],
) -> Result<Dims, ElementwiseError> {
    let f = rule::frame(x_dims, y_dims, axis)?;
    let out_dims = f.out_dims();
    Dims::for_data(&out_dims, out.len())?;
    run(op, act, &walk(&f), x, y, out)?;
    Ok(out_dims)
}

/// The kernel of every elementwise op, static or dynamic: `out = act(op(x, y))`
/// along `walk`. Inlined, so a static op (constant walk, constant op) compiles
/// to loops over constants.
#[inline(always)]
pub(super) fn run<T: Element>(
    op: BinaryOpKind,
    act: ActivationKind,
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &mut [T],
) -> Result<(), ElementwiseError> {
    match op {
        BinaryOpKind::Mul => binary(walk, x, y, out, T::mul, act),
        BinaryOpKind::Add => binary(walk, x, y, out, T::add, act),
        BinaryOpKind::Sub => binary(walk, x, y, out, T::sub, act),
        BinaryOpKind::Div => {
            if T::IS_INTEGER
                && walk.numel() > 0
                && let Some(index) = y.iter().position(|v| v.is_zero())
            {
                return Err(ElementwiseError::DivisionByZero { index });
            }
            binary(walk, x, y, out, T::div, act)
        }
        BinaryOpKind::Max => binary(walk, x, y, out, |a, b| if a > b { a } else { b }, act),
        BinaryOpKind::Min => binary(walk, x, y, out, |a, b| if a < b { a } else { b }, act),
    }
    Ok(())
}

/// `out = act(f(x, y))` along `walk`; with feature `rayon`, an output of
/// [`kernel::par::PAR_MIN_ELEMS`] elements or more is split across the
/// pool (each piece gets its activation as soon as it is written).
#[inline(always)]
fn binary<T: Element, F: Fn(T, T) -> T + Sync + Send>(
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &mut [T],
    f: F,
    act: ActivationKind,
) {
    #[cfg(feature = "rayon")]
    if kernel::par::splits(walk.numel()) {
        return kernel::par::binary(walk, x, y, out, f, |piece| act.apply_all(piece));
    }
    // an output past the cache that no activation pass reads again:
    // streamed to memory, as memcpy writes it
    if act == ActivationKind::Identity && kernel::stream::pays::<T>(out.len()) {
        return kernel::binary_streaming(walk, x, y, out, f);
    }
    kernel::binary(walk, x, y, out, f);
    act.apply_all(out);
}

/// The dynamic path without a heap: `out = act(op(x, y))` with Paddle's axis
/// rule, shapes given as values. `out` must hold exactly the output's element
/// count ([`elementwise_output_dims`](super::elementwise_output_dims) tells
/// it). Returns the output dims.
#[allow(clippy::too_many_arguments)]
pub fn elementwise_slices<T: Element>(
    op: BinaryOpKind,
    act: ActivationKind,
    x_dims: &[usize],
    x: &[T],
    y_dims: &[usize],
    y: &[T],
    axis: isize,
    out: &mut [T],
) -> Result<Dims, ElementwiseError> {
    Dims::for_data(x_dims, x.len())?;
    Dims::for_data(y_dims, y.len())?;
    run_checked(op, act, (x_dims, x), (y_dims, y), axis, out)
}

impl ActivationKind {
    /// Applies the activation to one value.
    ///
    /// ```
    /// use shapecheck::ActivationKind;
    /// assert_eq!(ActivationKind::Relu.apply(-3.0f32), 0.0);
    /// assert_eq!(ActivationKind::Identity.apply(-3i32), -3);
    /// ```
    #[inline]
    pub fn apply<T: Element>(self, v: T) -> T {
        match self {
            ActivationKind::Identity => v,
            ActivationKind::Relu => {
                if v > T::default() {
                    v
                } else {
                    T::default()
                }
            }
            ActivationKind::Tanh => T::from_f64(tanh_f64(v.to_f64())),
            ActivationKind::Sigmoid => T::from_f64(sigmoid_f64(v.to_f64())),
        }
    }

    /// Applies the activation to every element of `out` in place.
    ///
    /// ```
    /// use shapecheck::ActivationKind;
    /// let mut v = [-1.0f32, 0.5];
    /// ActivationKind::Relu.apply_all(&mut v);
    /// assert_eq!(v, [0.0, 0.5]);
    /// ```
    #[inline]
    pub fn apply_all<T: Element>(self, out: &mut [T]) {
        match self {
            ActivationKind::Identity => {}
            kind => {
                for v in out.iter_mut() {
                    *v = kind.apply(*v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LeadingWalk;
    use crate::dim::{Dim, Dyn, One};

    #[test]
    fn a_walk_is_planned_by_the_compiler_when_run_time_dims_lead() {
        // [Dyn, 3, 4, 5] x [3, 4] at axis 1: the rows lead
        let w = LeadingWalk::<(Dyn, Dim<3>, Dim<4>, Dim<5>), (Dim<3>, Dim<4>), 1>::WALK;
        let w = w.map(|w| w.with_first_dim(2, 7));
        assert_eq!(w.map(|w| w.numel()), Some(7 * 60));
        // [1, 2] x [Dyn, 2]: y's rows lead
        assert!(LeadingWalk::<(One, Dim<2>), (Dyn, Dim<2>), -1>::WALK.is_some());
        // [2, Dyn] x [2, 1]: the run-time dim is the second, planned when the op runs
        assert!(LeadingWalk::<(Dim<2>, Dyn), (Dim<2>, One), -1>::WALK.is_none());
    }
}
