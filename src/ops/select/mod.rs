//! `select` (OpenVINO Select-1): `out = cond ? then : else`, element by element,
//! with `auto_broadcast` none / numpy / pdpd.
//!
//! `cond` is a `bool` tensor; `then` and `else` have one element type, which
//! the output has. Both are compile errors on the static path when violated.
//!
//! ## The rule (OpenVINO's implementation, which the conformance vectors record)
//! - **none** ([`NoBroadcast`], [`AutoBroadcast::None`]): cond, then and else
//!   have the same shape (same rank, same dims); the output has it too.
//! - **numpy** ([`Numpy`], [`AutoBroadcast::Numpy`], the default): a three-way,
//!   bidirectional numpy broadcast. The three shapes are right-aligned (the
//!   shorter ones padded with 1s on the left) and at every position the dims
//!   that are not 1 must be equal; the output dim is that value (or 1). A 0
//!   broadcasts only against 0 or 1, as in numpy. cond `[2, 4]` with then `[4]`
//!   and else `[4]` gives `[2, 4]`.
//! - **pdpd** ([`Pdpd<AXIS>`](Pdpd), [`AutoBroadcast::Pdpd`]): the output has
//!   then's shape. else and cond, each on its own, are placed in then's dims
//!   starting at `axis`; `axis = -1` means right-aligned, that is
//!   `rank(then) - rank(source)` with the source's own (untrimmed) rank. The
//!   broadcast is one way: each placed dim equals then's dim there or is 1.
//!   A source whose rank is higher than then's is an error; a source that runs
//!   past then's last dim drops its trailing 1s first and is an error if it
//!   still runs past. An axis below -1, or above rank(then), is an error.
//!
//! ## Where this differs from OpenVINO's specification text
//! - The spec says then and else are broadcast to each other and cond is then
//!   broadcast **one way** to their result. OpenVINO's shape inference and its
//!   reference kernel merge cond **bidirectionally**: the output dim is the
//!   max of the three (cond `[2, 4]` with then `[4]` and else `[4]` gives `[2, 4]`;
//!   GPU PR #14267 added this because the reference allows it). We follow the
//!   implementation.
//! - "pdpd" built from the string (Python `opset.select(..., auto_broadcast="pdpd")`
//!   and the IR reader) carries `auto_broadcast_axis = 0`, not the -1 that
//!   OpenVINO's broadcast spec describes as PDPD's default; every pdpd
//!   conformance vector says axis 0. The axis is therefore part of the mode
//!   here and any axis is supported.
//! - For `axis = -1` OpenVINO's reference kernel computes the offset from
//!   else's rank and reuses it for cond, while its shape inference computes it
//!   per source. We follow shape inference (per source), which is what decides
//!   whether a model is accepted; no recorded vector distinguishes the two.
//! - OpenVINO's shape inference rejects a source for which
//!   `rank(source) + axis > rank(then)` even when the dims that run past are
//!   1s; its reference kernel trims trailing 1s first. We trim them (the
//!   reference's behaviour), so then `[2, 3]` with else `[3, 1]` at axis 1 is
//!   accepted. At axis 0, the only axis OpenVINO's front ends produce, the
//!   two agree.
//!
//! ## Static path
//! Every shape static: the mode is a type and a rejected combination does not
//! compile. The result is stored like `then` (inline for inline or view
//! operands, on the heap for `Vec` operands).
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::select;
//! // the specification's example
//! let cond = Tensor::<bool, shape![3, 2]>::from_array(
//!     [[false, false], [true, false], [true, true]]);
//! let then = Tensor::<i64, shape![3, 2]>::from_array([[-1, 0], [1, 2], [3, 4]]);
//! let els = Tensor::<i64, shape![3, 2]>::from_array([[11, 10], [9, 8], [7, 6]]);
//! let out: Tensor<i64, shape![3, 2]> = select(&cond, &then, &els, NoBroadcast);
//! assert_eq!(out.as_slice(), &[11, 10, 1, 8, 3, 4]);
//!
//! // numpy: cond [2, 4] with then [4] and else [4] gives [2, 4]
//! let c = Tensor::<bool, shape![2, 4]>::from_fn(|i| i[0] == 1);
//! let t = Tensor::<i32, shape![4]>::from_array([1, 2, 3, 4]);
//! let e = Tensor::<i32, shape![4]>::from_array([-1, -2, -3, -4]);
//! let out: Tensor<i32, shape![2, 4]> = select(&c, &t, &e, Numpy);
//! assert_eq!(out.as_slice(), &[-1, -2, -3, -4, 1, 2, 3, 4]);
//!
//! // pdpd at axis 0 (what OpenVINO builds for "pdpd"): else [2] goes on then's
//! // first dim, cond [2, 1] drops its trailing 1 and goes there too
//! let t = Tensor::<i32, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
//! let e = Tensor::<i32, shape![2]>::from_array([10, 20]);
//! let c = Tensor::<bool, shape![2, 1]>::from_array([[true], [false]]);
//! let out: Tensor<i32, shape![2, 3]> = select(&c, &t, &e, Pdpd::<0>);
//! assert_eq!(out.as_slice(), &[1, 2, 3, 20, 20, 20]);
//!
//! // pdpd at axis -1: right-aligned, else [3] goes on then's last dim
//! let e = Tensor::<i32, shape![3]>::from_array([10, 20, 30]);
//! let c = Tensor::<bool, shape![3]>::from_array([true, false, true]);
//! let out: Tensor<i32, shape![2, 3]> = select(&c, &t, &e, Pdpd::<-1>);
//! assert_eq!(out.as_slice(), &[1, 20, 3, 4, 20, 6]);
//! ```
//! Shapes the rule rejects do not compile; the first line of the error names
//! the three shapes and the rule (see `ui-tests/select/fail/`, for example
//! `numpy_mismatch.rs`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! use shapecheck::select;
//! let c = Tensor::<bool, shape![2]>::full(true);
//! let t = Tensor::<f32, shape![3]>::full(1.0);
//! let e = Tensor::<f32, shape![3]>::full(2.0);
//! // cond's 2 meets then's 3: rejected
//! let _ = select(&c, &t, &e, Numpy);
//! ```
//! A `cond` that is not `bool` does not compile either:
//! ```compile_fail
//! use shapecheck::prelude::*;
//! use shapecheck::select;
//! let c = Tensor::<f32, shape![2]>::full(1.0);
//! let t = Tensor::<f32, shape![2]>::full(1.0);
//! let _ = select(&c, &t, &t, Numpy);
//! ```
//!
//! ## Dynamic path
//! ```
//! use shapecheck::{select_slices, AutoBroadcast, SelectError};
//! let cond = [false, true, true, false];
//! let then = [1, 2, 3, 4];
//! let els = [11, 12, 13, 14, 15, 16, 17, 18];
//! let mut out = [0; 8];
//! let dims = select_slices(AutoBroadcast::Numpy, &[4], &cond, &[4], &then,
//!     &[2, 4], &els, &mut out).unwrap();
//! assert_eq!(dims.as_slice(), &[2, 4]);
//! assert_eq!(out, [11, 2, 3, 14, 15, 2, 3, 18]);
//! // under pdpd at axis 0, else [2, 4] has a higher rank than then [4]
//! let err = select_slices(AutoBroadcast::Pdpd { axis: 0 }, &[4], &cond, &[4], &then,
//!     &[2, 4], &els, &mut out).unwrap_err();
//! assert!(matches!(err, SelectError::PdpdRankHigher { .. }));
//! assert_eq!(err.to_string(), "select (pdpd, axis 0): else [2, 4] has a higher rank than then [4]");
//! ```

// The errors carry the offending shapes inline (`Dims`, no heap, so that they
// work without `alloc`); that makes them larger than clippy's default.
#![allow(clippy::result_large_err)]

use crate::error::ShapeError;
use crate::kernel::{self, Walk};
use crate::rules::{SelectNumpyPair, SelectPdpdInto, SelectSamePair};
use crate::shape::{Dims, Shape, StaticShape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;
use core::fmt;
use core::marker::PhantomData;

/// `auto_broadcast = none`: cond, then and else have one shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoBroadcast;

/// `auto_broadcast = numpy` (OpenVINO's default): a three-way, bidirectional
/// numpy broadcast of cond, then and else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Numpy;

/// `auto_broadcast = pdpd` with an axis: the output has then's shape; cond and
/// else are placed at `AXIS` (-1: right-aligned) and broadcast one way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pdpd<const AXIS: isize>;

/// `auto_broadcast` as a value (dynamic path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AutoBroadcast {
    /// Identical shapes.
    None,
    /// Three-way numpy broadcast.
    #[default]
    Numpy,
    /// Paddle-style one-way broadcast to then's shape, at an axis.
    Pdpd {
        /// Where cond and else start in then's dims (-1: right-aligned).
        axis: isize,
    },
}

impl AutoBroadcast {
    /// Parses OpenVINO's attribute value (`"none"`, `"numpy"`, `"pdpd"`,
    /// case-insensitive); `axis` is used by pdpd only.
    pub fn from_name(name: &str, axis: isize) -> Option<Self> {
        if name.eq_ignore_ascii_case("none") {
            Some(AutoBroadcast::None)
        } else if name.eq_ignore_ascii_case("numpy") {
            Some(AutoBroadcast::Numpy)
        } else if name.eq_ignore_ascii_case("pdpd") {
            Some(AutoBroadcast::Pdpd { axis })
        } else {
            None
        }
    }
}

impl fmt::Display for AutoBroadcast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutoBroadcast::None => f.write_str("none"),
            AutoBroadcast::Numpy => f.write_str("numpy"),
            AutoBroadcast::Pdpd { axis } => write!(f, "pdpd, axis {axis}"),
        }
    }
}

/// A broadcast mode as a type (static path).
pub trait SelectMode: Copy + Default {
    /// The same mode as a value.
    const KIND: AutoBroadcast;
}
impl SelectMode for NoBroadcast {
    const KIND: AutoBroadcast = AutoBroadcast::None;
}
impl SelectMode for Numpy {
    const KIND: AutoBroadcast = AutoBroadcast::Numpy;
}
impl<const AXIS: isize> SelectMode for Pdpd<AXIS> {
    const KIND: AutoBroadcast = AutoBroadcast::Pdpd { axis: AXIS };
}

/// The element type of `cond`: only `bool` implements it.
#[diagnostic::on_unimplemented(
    message = "select: cond must be a bool tensor, but its element type is {Self}",
    label = "cond holds `{Self}` here",
    note = "OpenVINO Select-1: \"Argument 0 must have boolean element type\""
)]
pub trait CondElement: Copy + 'static {
    /// The elements as `bool`s.
    fn as_bools(data: &[Self]) -> &[bool];
}

impl CondElement for bool {
    #[inline(always)]
    fn as_bools(data: &[bool]) -> &[bool] {
        data
    }
}

/// `else`'s element type (`Self`) is then's (`T`): only `T` itself implements it.
#[diagnostic::on_unimplemented(
    message = "select: then and else must have the same element type, but then holds {T} and else holds {Self}",
    label = "else holds `{Self}`, then holds `{T}`",
    note = "OpenVINO Select-1: \"Argument 1 and 2 element types must match\""
)]
pub trait ElseElement<T>: Copy + 'static {
    /// The elements as `T`s.
    fn as_same(data: &[Self]) -> &[T];
}

impl<T: Copy + 'static> ElseElement<T> for T {
    #[inline(always)]
    fn as_same(data: &[T]) -> &[T] {
        data
    }
}

/// Select, shape rule of one mode (`Self`): cond `C`, then `T` and else `E`.
///
/// Implemented once per mode, over the generated rules of [`crate::rules`]; a
/// rejected combination is reported by the failing dim rule, whose message
/// names the three shapes. The rule hangs on the mode (rather than on cond's
/// shape) so that the compiler waits to know the mode before choosing it:
/// otherwise, when only one mode accepts the shapes, it would infer that mode
/// and report a type mismatch on the mode argument instead of the shape error.
#[diagnostic::on_unimplemented(
    message = "select ({Self}): cond {C}, then {T} and else {E} are incompatible",
    label = "see the module docs of `shapecheck::ops::select` for the rule"
)]
pub trait SelectRule<C: Shape, T: Shape, E: Shape>: SelectMode {
    /// The output shape.
    type Output: Shape;
    /// Where cond, then and else start in the output's dims, as a constant
    /// (a static select plans its walk at compile time from it).
    const POSITIONS: [usize; 3];
    /// The output shape's value.
    fn output(c: &C, t: &T, e: &E) -> Self::Output;
}

type NumpyTE<C, T, E> = <T as SelectNumpyPair<E, C, T, E>>::Output;

impl<C: Shape, T: Shape, E: Shape> SelectRule<C, T, E> for Numpy
where
    T: SelectNumpyPair<E, C, T, E>,
    NumpyTE<C, T, E>: SelectNumpyPair<C, C, T, E>,
{
    type Output = <NumpyTE<C, T, E> as SelectNumpyPair<C, C, T, E>>::Output;
    const POSITIONS: [usize; 3] = {
        let r = <Self::Output as Shape>::RANK;
        [
            r.saturating_sub(C::RANK),
            r.saturating_sub(T::RANK),
            r.saturating_sub(E::RANK),
        ]
    };
    fn output(c: &C, t: &T, e: &E) -> Self::Output {
        let te = T::output(t, e);
        <NumpyTE<C, T, E> as SelectNumpyPair<C, C, T, E>>::output(&te, c)
    }
}

type SameTE<C, T, E> = <T as SelectSamePair<E, C, T, E>>::Output;

impl<C: Shape, T: Shape, E: Shape> SelectRule<C, T, E> for NoBroadcast
where
    T: SelectSamePair<E, C, T, E>,
    SameTE<C, T, E>: SelectSamePair<C, C, T, E>,
{
    type Output = <SameTE<C, T, E> as SelectSamePair<C, C, T, E>>::Output;
    const POSITIONS: [usize; 3] = [0, 0, 0];
    fn output(c: &C, t: &T, e: &E) -> Self::Output {
        let te = T::output(t, e);
        <SameTE<C, T, E> as SelectSamePair<C, C, T, E>>::output(&te, c)
    }
}

impl<C: Shape, T: Shape, E: Shape, const AXIS: isize> SelectRule<C, T, E> for Pdpd<AXIS>
where
    E: SelectPdpdInto<T, C, T, E, AXIS>,
    C: SelectPdpdInto<T, C, T, E, AXIS>,
{
    type Output = T;
    const POSITIONS: [usize; 3] = [
        <C as SelectPdpdInto<T, C, T, E, AXIS>>::AT,
        0,
        <E as SelectPdpdInto<T, C, T, E, AXIS>>::AT,
    ];
    fn output(_c: &C, t: &T, _e: &E) -> T {
        *t
    }
}

/// Select, shape rule: cond (`Self`), then `T` and else `E` under mode `M`.
/// One blanket impl, through the mode's [`SelectRule`].
pub trait SelectShapes<T: Shape, E: Shape, M: SelectMode>: Shape {
    /// The output shape.
    type Output: Shape;
    /// Where cond, then and else start in the output's dims, as a constant.
    const POSITIONS: [usize; 3];
    /// The output shape's value.
    fn output(c: &Self, t: &T, e: &E) -> Self::Output;
}

impl<C: Shape, T: Shape, E: Shape, M: SelectRule<C, T, E>> SelectShapes<T, E, M> for C {
    type Output = <M as SelectRule<C, T, E>>::Output;
    const POSITIONS: [usize; 3] = <M as SelectRule<C, T, E>>::POSITIONS;
    #[inline(always)]
    fn output(c: &C, t: &T, e: &E) -> Self::Output {
        M::output(c, t, e)
    }
}

/// The output shape type of `select(cond: C, then: T, else: E)` under mode `M`.
pub type SelectOutput<C, T, E, M> = <C as SelectShapes<T, E, M>>::Output;

/// The tensor [`select`] returns: [`SelectOutput`] stored like `then` (storage `BT`).
pub type SelectTensor<T, C, ST, SE, M, BT> = Tensor<
    T,
    SelectOutput<C, ST, SE, M>,
    <BT as ResultStorage<T, SelectOutput<C, ST, SE, M>>>::Out,
>;

/// One of select's three inputs, as named in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectInput {
    /// The condition.
    Cond,
    /// The values taken where cond is true.
    Then,
    /// The values taken where cond is false.
    Else,
}

impl fmt::Display for SelectInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SelectInput::Cond => "cond",
            SelectInput::Then => "then",
            SelectInput::Else => "else",
        })
    }
}

/// Why select rejected its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectError {
    /// `auto_broadcast = none` and the three shapes are not identical.
    NoneMismatch {
        /// cond's dims.
        cond: Dims,
        /// then's dims.
        then: Dims,
        /// else's dims.
        els: Dims,
    },
    /// `auto_broadcast = numpy` and, after right-alignment, two dims at one
    /// position differ and neither is 1.
    NumpyMismatch {
        /// cond's dims.
        cond: Dims,
        /// then's dims.
        then: Dims,
        /// else's dims.
        els: Dims,
        /// The position in the output's dims.
        position: usize,
        /// cond's dim there (1 where cond is padded on the left).
        cond_dim: usize,
        /// then's dim there (1 where padded).
        then_dim: usize,
        /// else's dim there (1 where padded).
        else_dim: usize,
    },
    /// `auto_broadcast = pdpd` with an axis below -1 or above rank(then).
    PdpdAxis {
        /// The axis.
        axis: isize,
        /// then's dims.
        then: Dims,
    },
    /// `auto_broadcast = pdpd` and cond or else has a higher rank than then.
    PdpdRankHigher {
        /// Which input.
        input: SelectInput,
        /// Its dims.
        source: Dims,
        /// then's dims.
        then: Dims,
        /// The axis.
        axis: isize,
    },
    /// `auto_broadcast = pdpd` and cond or else, placed at the axis, runs past
    /// then's last dim with dims other than 1 there.
    PdpdRunsPast {
        /// Which input.
        input: SelectInput,
        /// Its dims.
        source: Dims,
        /// then's dims.
        then: Dims,
        /// The axis.
        axis: isize,
    },
    /// `auto_broadcast = pdpd` and a dim of cond or else is neither then's dim
    /// where it is placed nor 1.
    PdpdDimMismatch {
        /// Which input.
        input: SelectInput,
        /// Its dims.
        source: Dims,
        /// then's dims.
        then: Dims,
        /// The axis.
        axis: isize,
        /// The position in then's dims.
        position: usize,
        /// The source's dim placed there.
        source_dim: usize,
        /// then's dim there.
        then_dim: usize,
    },
    /// A shape problem not specific to this op (data length, rank, output buffer).
    Shape(ShapeError),
}

impl From<ShapeError> for SelectError {
    fn from(e: ShapeError) -> Self {
        SelectError::Shape(e)
    }
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelectError::NoneMismatch { cond, then, els } => write!(
                f,
                "select (none): cond {cond}, then {then} and else {els} must have the same shape"
            ),
            SelectError::NumpyMismatch {
                cond,
                then,
                els,
                position,
                cond_dim,
                then_dim,
                else_dim,
            } => write!(
                f,
                "select (numpy): cond {cond}, then {then} and else {els} do not broadcast: \
                 right-aligned, output dim {position} meets cond {cond_dim}, then {then_dim} and \
                 else {else_dim}; the dims other than 1 must be equal"
            ),
            SelectError::PdpdAxis { axis, then } => write!(
                f,
                "select (pdpd, axis {axis}): the axis must be -1 or in [0, {}] for then {then}",
                then.rank()
            ),
            SelectError::PdpdRankHigher {
                input,
                source,
                then,
                axis,
            } => write!(
                f,
                "select (pdpd, axis {axis}): {input} {source} has a higher rank than then {then}"
            ),
            SelectError::PdpdRunsPast {
                input,
                source,
                then,
                axis,
            } => write!(
                f,
                "select (pdpd, axis {axis}): {input} {source} placed at the axis runs past the last \
                 dim of then {then}; only trailing dims of size 1 can be dropped"
            ),
            SelectError::PdpdDimMismatch {
                input,
                source,
                then,
                axis,
                position,
                source_dim,
                then_dim,
            } => write!(
                f,
                "select (pdpd, axis {axis}): {input} {source} does not broadcast one way to then \
                 {then}: its dim {source_dim} is placed on then's dim {then_dim} (dim {position} \
                 of then), and must equal it or be 1"
            ),
            SelectError::Shape(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl core::error::Error for SelectError {}

/// The run-time validation of select's shapes: the output dims and where
/// each input starts in them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectPlan {
    /// The output's dims.
    pub out: Dims,
    /// Where cond, then and else start in the output's dims.
    pub at: [usize; 3],
}

impl SelectPlan {
    /// Checks every rule of `mode` for the three shapes (see the module docs).
    pub fn new(
        mode: AutoBroadcast,
        cond: &[usize],
        then: &[usize],
        els: &[usize],
    ) -> Result<Self, SelectError> {
        let (c, t, e) = (Dims::new(cond)?, Dims::new(then)?, Dims::new(els)?);
        match mode {
            AutoBroadcast::None => {
                if c != t || t != e {
                    return Err(SelectError::NoneMismatch {
                        cond: c,
                        then: t,
                        els: e,
                    });
                }
                Ok(SelectPlan {
                    out: t,
                    at: [0, 0, 0],
                })
            }
            AutoBroadcast::Numpy => numpy_plan(c, t, e),
            AutoBroadcast::Pdpd { axis } => {
                // ranks are at most MAX_RANK, so the conversion is exact
                if axis < -1 || axis > t.rank() as isize {
                    return Err(SelectError::PdpdAxis { axis, then: t });
                }
                // OpenVINO checks else first, then cond
                let at_e = pdpd_place(SelectInput::Else, &e, &t, axis)?;
                let at_c = pdpd_place(SelectInput::Cond, &c, &t, axis)?;
                Ok(SelectPlan {
                    out: t,
                    at: [at_c, 0, at_e],
                })
            }
        }
    }
}

fn numpy_plan(c: Dims, t: Dims, e: Dims) -> Result<SelectPlan, SelectError> {
    let r = c.rank().max(t.rank()).max(e.rank());
    let at = [r - c.rank(), r - t.rank(), r - e.rank()];
    let (cp, tp, ep) = (
        kernel::place(&c, at[0], r),
        kernel::place(&t, at[1], r),
        kernel::place(&e, at[2], r),
    );
    let mut out = [1usize; crate::MAX_RANK];
    for (position, (((o, &a), &b), &d)) in out
        .iter_mut()
        .zip(cp.iter())
        .zip(tp.iter())
        .zip(ep.iter())
        .enumerate()
    {
        let mut merged = 1usize;
        for x in [a, b, d] {
            if x == 1 {
                continue;
            }
            if merged != 1 && merged != x {
                return Err(SelectError::NumpyMismatch {
                    cond: c,
                    then: t,
                    els: e,
                    position,
                    cond_dim: a,
                    then_dim: b,
                    else_dim: d,
                });
            }
            merged = x;
        }
        *o = merged;
    }
    Ok(SelectPlan {
        out: Dims::new(out.get(..r).unwrap_or(&[]))?,
        at,
    })
}

/// Where a pdpd source starts in then's dims, checking the one-way rule.
fn pdpd_place(
    input: SelectInput,
    src: &Dims,
    then: &Dims,
    axis: isize,
) -> Result<usize, SelectError> {
    let (rs, rt) = (src.rank(), then.rank());
    if rs > rt {
        return Err(SelectError::PdpdRankHigher {
            input,
            source: *src,
            then: *then,
            axis,
        });
    }
    let at = if axis < 0 {
        rt - rs
    } else {
        axis.unsigned_abs()
    };
    let kept = rs.min(rt.saturating_sub(at));
    if src.iter().skip(kept).any(|&d| d != 1) {
        return Err(SelectError::PdpdRunsPast {
            input,
            source: *src,
            then: *then,
            axis,
        });
    }
    for (j, (&s, &d)) in src.iter().zip(then.iter().skip(at)).enumerate() {
        if s != d && s != 1 {
            return Err(SelectError::PdpdDimMismatch {
                input,
                source: *src,
                then: *then,
                axis,
                position: at + j,
                source_dim: s,
                then_dim: d,
            });
        }
    }
    Ok(at)
}

/// Runs the kernel over a plan; `out` must hold the plan's element count.
fn run<T: Copy>(
    plan: &SelectPlan,
    cond: (&[usize], &[bool]),
    then: (&[usize], &[T]),
    els: (&[usize], &[T]),
    out: &mut [T],
) -> Result<(), SelectError> {
    let r = plan.out.rank();
    let [ac, at, ae] = plan.at;
    let (cp, tp, ep) = (
        kernel::place(cond.0, ac, r),
        kernel::place(then.0, at, r),
        kernel::place(els.0, ae, r),
    );
    let walk = Walk::new(&plan.out, [&cp, &tp, &ep]);
    if out.len() != walk.numel() {
        return Err(ShapeError::DataLength {
            shape: plan.out,
            numel: walk.numel(),
            len: out.len(),
        }
        .into());
    }
    kernel::select(&walk, cond.1, then.1, els.1, out);
    Ok(())
}

fn check_len<T>(dims: &[usize], data: &[T]) -> Result<(), ShapeError> {
    let d = Dims::new(dims)?;
    let numel = d.try_numel()?;
    if numel != data.len() {
        return Err(ShapeError::DataLength {
            shape: d,
            numel,
            len: data.len(),
        });
    }
    Ok(())
}

/// The output dims of select under `mode`, checking every rule.
pub fn select_output_dims(
    mode: AutoBroadcast,
    cond: &[usize],
    then: &[usize],
    els: &[usize],
) -> Result<Dims, SelectError> {
    Ok(SelectPlan::new(mode, cond, then, els)?.out)
}

/// The dynamic path without a heap: `out = cond ? then : else` under `mode`,
/// shapes given as values. `out` must hold exactly the output's element count
/// ([`select_output_dims`] tells it). Returns the output dims.
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
    check_len(cond_dims, cond)?;
    check_len(then_dims, then)?;
    check_len(else_dims, els)?;
    let plan = SelectPlan::new(mode, cond_dims, then_dims, else_dims)?;
    let numel = plan.out.try_numel()?;
    if out.len() != numel {
        return Err(ShapeError::DataLength {
            shape: plan.out,
            numel,
            len: out.len(),
        }
        .into());
    }
    run(
        &plan,
        (cond_dims, cond),
        (then_dims, then),
        (else_dims, els),
        out,
    )?;
    Ok(plan.out)
}

/// The walk of a static select, computed by the compiler from the shape
/// types and the mode (no planning at run time): each input placed at its
/// position in the output's frame, the output the three-way broadcast of the
/// placed dims (then's dims under pdpd and none, which the rule guarantees).
struct StaticWalk<C, ST, SE, M>(PhantomData<(C, ST, SE, M)>);

impl<C, ST, SE, M> StaticWalk<C, ST, SE, M>
where
    C: StaticShape + SelectShapes<ST, SE, M>,
    ST: StaticShape,
    SE: StaticShape,
    M: SelectMode,
{
    const WALK: Walk<3> = {
        let rank = <SelectOutput<C, ST, SE, M> as Shape>::RANK;
        let [ac, at, ae] = <C as SelectShapes<ST, SE, M>>::POSITIONS;
        let c = kernel::place_array(C::DIMS, ac, rank);
        let t = kernel::place_array(ST::DIMS, at, rank);
        let e = kernel::place_array(SE::DIMS, ae, rank);
        Walk::from_frame(rank, kernel::broadcast3_arrays(&c, &t, &e), [c, t, e])
    };
}

/// The statically checked core: the walk is a constant of the shape types,
/// and `out` was built for the output shape, so nothing can fail.
#[inline(always)]
fn static_select_into<CE, C, BC, T, ST, BT, E, SE, BE, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    out: &mut [T],
) where
    CE: CondElement,
    C: StaticShape + SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy,
    ST: StaticShape,
    BT: Storage<T>,
    E: ElseElement<T>,
    SE: StaticShape,
    BE: Storage<E>,
    M: SelectMode,
{
    kernel::select(
        &StaticWalk::<C, ST, SE, M>::WALK,
        CE::as_bools(cond.as_slice()),
        then.as_slice(),
        E::as_same(els.as_slice()),
        out,
    );
}

/// `cond ? then : else` element by element, under the broadcast mode `mode`
/// ([`NoBroadcast`], [`Numpy`] or [`Pdpd<AXIS>`](Pdpd)); see the
/// [module docs](crate::ops::select) for the rule.
///
/// Every shape static: a combination the mode rejects, a `cond` that is not
/// `bool`, or then and else of different element types is a compile error,
/// and the call cannot fail. The result is stored like `then`.
pub fn select<CE, C, BC, T, ST, BT, E, SE, BE, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    _mode: M,
) -> SelectTensor<T, C, ST, SE, M, BT>
where
    CE: CondElement,
    C: StaticShape + SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy + Default,
    ST: StaticShape,
    BT: ResultStorage<T, SelectOutput<C, ST, SE, M>>,
    E: ElseElement<T>,
    SE: StaticShape,
    BE: Storage<E>,
    M: SelectMode,
{
    let shape = C::output(cond.shape(), then.shape(), els.shape());
    let mut out = Tensor::from_parts_unchecked(shape, BT::Out::filled(&shape, T::default()));
    static_select_into::<CE, C, BC, T, ST, BT, E, SE, BE, M>(cond, then, els, out.as_mut_slice());
    out
}

/// [`select`] writing into `out` (any storage, a caller's buffer included: no
/// heap needed). Every shape static; the call cannot fail.
pub fn select_into<CE, C, BC, T, ST, BT, E, SE, BE, M, BO>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    _mode: M,
    out: &mut Tensor<T, SelectOutput<C, ST, SE, M>, BO>,
) where
    CE: CondElement,
    C: StaticShape + SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy,
    ST: StaticShape,
    BT: Storage<T>,
    E: ElseElement<T>,
    SE: StaticShape,
    BE: Storage<E>,
    M: SelectMode,
    BO: StorageMut<T>,
{
    static_select_into::<CE, C, BC, T, ST, BT, E, SE, BE, M>(cond, then, els, out.as_mut_slice());
}

/// [`select`] for shapes with run-time ([`Dyn`](crate::Dyn)) dims: the static
/// dims are checked by the compiler, the rest when it runs, by the same
/// validator as the dynamic path. The result is stored like `then`.
pub fn try_select<CE, C, BC, T, ST, BT, E, SE, BE, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    _mode: M,
) -> Result<SelectTensor<T, C, ST, SE, M, BT>, SelectError>
where
    CE: CondElement,
    C: SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy + Default,
    ST: Shape,
    BT: ResultStorage<T, SelectOutput<C, ST, SE, M>>,
    E: ElseElement<T>,
    SE: Shape,
    BE: Storage<E>,
    M: SelectMode,
{
    let (cd, td, ed) = (cond.dims(), then.dims(), els.dims());
    let plan = SelectPlan::new(M::KIND, &cd, &td, &ed)?;
    let shape = C::output(cond.shape(), then.shape(), els.shape());
    if shape.dims() != plan.out {
        return Err(ShapeError::OutputShape {
            expected: plan.out,
            found: shape.dims(),
        }
        .into());
    }
    let mut out = Tensor::from_parts_unchecked(shape, BT::Out::try_filled(&shape, T::default())?);
    run(
        &plan,
        (&cd, CE::as_bools(cond.as_slice())),
        (&td, then.as_slice()),
        (&ed, E::as_same(els.as_slice())),
        out.as_mut_slice(),
    )?;
    Ok(out)
}

/// [`try_select`] writing into `out`, whose dims must be the output's.
pub fn try_select_into<CE, C, BC, T, ST, BT, E, SE, BE, M, BO>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    _mode: M,
    out: &mut Tensor<T, SelectOutput<C, ST, SE, M>, BO>,
) -> Result<(), SelectError>
where
    CE: CondElement,
    C: SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy,
    ST: Shape,
    BT: Storage<T>,
    E: ElseElement<T>,
    SE: Shape,
    BE: Storage<E>,
    M: SelectMode,
    BO: StorageMut<T>,
{
    let (cd, td, ed) = (cond.dims(), then.dims(), els.dims());
    let plan = SelectPlan::new(M::KIND, &cd, &td, &ed)?;
    if out.dims() != plan.out {
        return Err(ShapeError::OutputShape {
            expected: plan.out,
            found: out.dims(),
        }
        .into());
    }
    run(
        &plan,
        (&cd, CE::as_bools(cond.as_slice())),
        (&td, then.as_slice()),
        (&ed, E::as_same(els.as_slice())),
        out.as_mut_slice(),
    )
}

#[cfg(feature = "alloc")]
impl<T: Copy + Default> crate::dynamic::DynTensor<T> {
    /// `cond ? then : else` under `mode`, every rule checked at run time.
    ///
    /// ```
    /// use shapecheck::{AutoBroadcast, DynTensor};
    /// let c = DynTensor::new(&[2, 4], vec![false, false, false, false, false, true, true, true]).unwrap();
    /// let t = DynTensor::new(&[2, 4], (1..=8).collect()).unwrap();
    /// let e = DynTensor::new(&[4], vec![11, 12, 13, 14]).unwrap();
    /// // pdpd, right-aligned: else [4] goes on then's last dim
    /// let out = DynTensor::select(&c, &t, &e, AutoBroadcast::Pdpd { axis: -1 }).unwrap();
    /// assert_eq!(out.as_slice(), &[11, 12, 13, 14, 11, 6, 7, 8]);
    /// // at axis 0 it meets then's 2
    /// let err = DynTensor::select(&c, &t, &e, AutoBroadcast::Pdpd { axis: 0 }).unwrap_err();
    /// assert!(err.to_string().starts_with("select (pdpd, axis 0): else [4] does not broadcast"));
    /// ```
    pub fn select(
        cond: &crate::dynamic::DynTensor<bool>,
        then: &crate::dynamic::DynTensor<T>,
        els: &crate::dynamic::DynTensor<T>,
        mode: AutoBroadcast,
    ) -> Result<crate::dynamic::DynTensor<T>, SelectError> {
        let out_dims = select_output_dims(mode, &cond.dims(), &then.dims(), &els.dims())?;
        let mut out = crate::dynamic::DynTensor::full(&out_dims, T::default())?;
        select_slices(
            mode,
            &cond.dims(),
            cond.as_slice(),
            &then.dims(),
            then.as_slice(),
            &els.dims(),
            els.as_slice(),
            out.as_mut_slice(),
        )?;
        Ok(out)
    }
}
