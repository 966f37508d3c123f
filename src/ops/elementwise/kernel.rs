//! The elementwise kernel: what is elementwise's own in `out = act(op(x,
//! y))` (each op's per-element function, the activations), and what it
//! tells the planner ([`crate::kernel::plan`]): its rule's frame for shape
//! types, which the compiler computes with the run-time [`rule::frame`]
//! itself. The planner turns frames into walks and picks the loop.

use super::{rule, ActivationKind, BinaryOpKind, ElementwiseError};
use crate::broadcast::Frame;
use crate::dims::Dims;
use crate::element::{sigmoid_f64, tanh_f64, Element};
use crate::kernel::plan::{self, Finish, ShapeFrame};
use crate::kernel::Walk;
use crate::ops::StaticShape;
use crate::shape::{FixedShape, PlaceholderDims, SameOutput, Shape};
use core::marker::PhantomData;

/// The rule's frame for the shape types `S` and `Y` at `AXIS`, for the
/// planner ([`plan::Planned`]): computed by the compiler when both are
/// static (a static shape is its own placeholder), and with each run-time
/// dim set to 2 and to 3 otherwise.
pub(super) struct Frames<S, Y, const AXIS: isize>(PhantomData<(S, Y)>);

impl<S: Shape, Y: Shape, const AXIS: isize> ShapeFrame<2> for Frames<S, Y, AXIS> {
    /// A build error if the type-level rule accepted shapes the run-time
    /// rule rejects (a bug in shapecheck, which the rule-agreement test is
    /// there to catch first).
    #[allow(clippy::panic)]
    const STATIC: Option<Frame<2>> = if S::IS_STATIC && Y::IS_STATIC {
        match rule::frame(
            <S::Placeholder<2> as PlaceholderDims>::DIMS,
            <Y::Placeholder<2> as PlaceholderDims>::DIMS,
            AXIS,
        ) {
            Ok(f) => Some(f),
            Err(_) => panic!("shapecheck bug: the elementwise rule's type-level form accepted shapes its run-time form rejects"),
        }
    } else {
        None
    };
    const PLACEHOLDERS: Option<[Frame<2>; 2]> = match (
        rule::frame(
            <S::Placeholder<2> as PlaceholderDims>::DIMS,
            <Y::Placeholder<2> as PlaceholderDims>::DIMS,
            AXIS,
        ),
        rule::frame(
            <S::Placeholder<3> as PlaceholderDims>::DIMS,
            <Y::Placeholder<3> as PlaceholderDims>::DIMS,
            AXIS,
        ),
    ) {
        (Ok(f2), Ok(f3)) => Some([f2, f3]),
        _ => None,
    };
}

/// The rule's frame for a static `S` (as [`SameOutput::SameOut`]: the
/// named forms' output, which is `S`) and an operand `Y` of the same shape
/// or `shape![]` at `AXIS` (the named forms on one generic shape,
/// `api/same_shape.rs`), computed by the compiler: identical shapes meet
/// at any axis (Paddle's rule; the type-level tables of the inherent forms
/// cover `[-16, 16)`), a scalar at `-R <= axis < R`, and an axis the rule
/// rejects is this constant's build error.
pub(super) struct SameFrame<S, Y, const AXIS: isize>(PhantomData<(S, Y)>);

impl<S: SameOutput<Y>, Y: StaticShape, const AXIS: isize> SameFrame<S, Y, AXIS>
where
    S::SameOut: StaticShape,
{
    const AXIS_RANGE: &str = "elementwise/axis-range: a scalar y is placed at -R <= axis < R, R the rank of x (two tensors of one shape meet at any axis)";
    const NOT_X: &str =
        "elementwise/broadcast: at this axis the output is not x's shape, which this form returns";
    /// x's dims: `S`'s, as its static [`SameOutput::SameOut`].
    const X: &[usize] = <S::SameOut as FixedShape>::DIMS;
}

impl<S: SameOutput<Y>, Y: StaticShape, const AXIS: isize> ShapeFrame<2> for SameFrame<S, Y, AXIS>
where
    S::SameOut: StaticShape,
{
    const STATIC: Option<Frame<2>> = match rule::frame(Self::X, Y::DIMS, AXIS) {
        // the output is x's shape (what the caller's result holds)
        Ok(f) if crate::broadcast::same(f.out_dims().as_slice(), Self::X) => Some(f),
        _ => None,
    };
    /// The rule's message where it rejects the axis, reported by the
    /// planner's constant the form reads (one error, at the user's call).
    const NOT_STATIC: &'static str = match rule::frame(Self::X, Y::DIMS, AXIS) {
        Ok(_) => Self::NOT_X,
        Err(_) => Self::AXIS_RANGE,
    };
}

/// The walk of a plain (not `try_`) form, from the planner
/// ([`plan::plain`]): a constant of the shape types where it can be, else
/// the rule's frame of the dims when the op runs. The type-level rule of
/// the plain forms (`ElementwiseNoCheck`) has proved everything the rule
/// could reject (each `Dyn` dim meets only 1s or no dim), so `None` cannot
/// happen; the caller then leaves its output as filled.
#[inline(always)]
pub(super) fn plain_walk<'w, X: Shape, Y: Shape, const AXIS: isize>(
    x: &X,
    y: &Y,
    out_first: usize,
    room: &'w mut Option<Walk<2>>,
) -> Option<&'w Walk<2>> {
    plan::plain::<Frames<X, Y, AXIS>, 2>(out_first, room, || {
        rule::frame(&x.dims(), &y.dims(), AXIS).ok()
    })
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
    run(op, act, &plan::walk(&f), x, y, out)?;
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

/// `out = f(x, y)` along `walk` for a function of the caller's (the
/// dynamic path's `try_zip_with`): the loop the named ops take.
#[cfg(feature = "alloc")]
pub(super) fn zip<T: Element, F: Fn(T, T) -> T + Sync>(
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &mut [T],
    f: F,
) {
    // `&F` is a function too, and `Send` as well as `Sync`, which the rayon
    // split wants
    binary(walk, x, y, out, &f, ActivationKind::Identity);
}

/// `out = act(f(x, y))` along `walk`, the loop chosen by the planner.
#[inline(always)]
fn binary<T: Element, F: Fn(T, T) -> T + Sync + Send>(
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &mut [T],
    f: F,
    act: ActivationKind,
) {
    plan::binary_then(walk, x, y, out, f, act);
}

/// An activation is the pass over each finished piece of the output.
impl<T: Element> Finish<T> for ActivationKind {
    #[inline(always)]
    fn is_nothing(self) -> bool {
        self == ActivationKind::Identity
    }
    #[inline(always)]
    fn apply(self, piece: &mut [T]) {
        self.apply_all(piece);
    }
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
    use super::Frames;
    use crate::dim::{Dim, Dyn, One};
    use crate::kernel::plan::plain;

    #[test]
    fn a_walk_is_planned_by_the_compiler_when_run_time_dims_lead() {
        // [Dyn, 3, 4, 5] x [3, 4] at axis 1: the rows lead, so the planner
        // never calls the rule when the op runs
        let mut room = None;
        let w = plain::<Frames<(Dyn, Dim<3>, Dim<4>, Dim<5>), (Dim<3>, Dim<4>), 1>, 2>(
            7,
            &mut room,
            || None,
        );
        assert_eq!(w.map(|w| w.numel()), Some(7 * 60));
        // [1, 2] x [Dyn, 2]: y's rows lead
        let mut room = None;
        let w = plain::<Frames<(One, Dim<2>), (Dyn, Dim<2>), -1>, 2>(5, &mut room, || None);
        assert_eq!(w.map(|w| w.numel()), Some(10));
        // [2, Dyn] x [2, 1]: the run-time dim is the second, planned when
        // the op runs (here the rule is not called: no walk)
        let mut room = None;
        let w = plain::<Frames<(Dim<2>, Dyn), (Dim<2>, One), -1>, 2>(2, &mut room, || None);
        assert!(w.is_none());
    }
}
