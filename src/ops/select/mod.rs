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
//! compile. The result is stored as its shape says (inline for inline or view
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
//!
//! ## Where things are
//! - `rule.rs`: the rule, one `const fn` from the mode and the three dims to
//!   the output frame or a [`SelectError`]; every path calls it;
//! - `shapes.rs`: the same rule at the type level ([`SelectShapes`]), for the
//!   compile errors (its dim rules are in the `bounds` module);
//! - `kernel.rs`: the walk and the dynamic path; `api.rs`: the static path;
//!   `backward.rs`: the gradients ([`select_backward`] and its `_into` and
//!   `try_` forms, [`select_backward_slices`]; TensorFlow's `tf.where`
//!   gradient: dout where cond holds to then, elsewhere to else, summed
//!   back to each one's shape); `error.rs`.

mod api;
mod backward;
mod bounds;
#[cfg(feature = "alloc")]
pub(crate) mod dynamic;
mod error;
mod kernel;
pub(crate) mod rule;

pub use api::{select, select_into, try_select, try_select_into};
pub use backward::{
    select_backward, select_backward_into, select_backward_slices, try_select_backward,
    try_select_backward_into, SelectGrads,
};
pub use bounds::*;
pub use error::{SelectError, SelectInput};
pub use kernel::select_slices;
pub use rule::select_output_dims;

use core::fmt;

/// `auto_broadcast = none`: cond, then and else have one shape.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::try_select;
/// let c = tensor![true, false];
/// let out = select(&c, &tensor![1, 2], &tensor![10, 20], NoBroadcast);
/// assert_eq!(out.as_slice(), &[1, 20]);
/// // with a run-time dim the rule is checked when the op runs
/// let t = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(3),), vec![1, 2, 3]).unwrap();
/// let err = try_select(&c, &t, &t, NoBroadcast).unwrap_err();
/// assert_eq!(err.rule(), "select/none-shapes");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoBroadcast;

/// `auto_broadcast = numpy` (OpenVINO's default): a three-way, bidirectional
/// numpy broadcast of cond, then and else.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::AutoBroadcast;
/// use shapecheck::select_output_dims;
/// let c = tensor![[true], [false]]; // [2, 1]
/// let t = tensor![1, 2, 3]; // [3]
/// let e = Tensor::<i32, shape![2, 3]>::full(0);
/// let out: Tensor<i32, shape![2, 3]> = select(&c, &t, &e, Numpy);
/// assert_eq!(out.as_slice(), &[1, 2, 3, 0, 0, 0]);
/// let err = select_output_dims(AutoBroadcast::Numpy, &[2], &[3], &[3]).unwrap_err();
/// assert_eq!(err.rule(), "select/numpy-broadcast");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Numpy;

/// `auto_broadcast = pdpd` with an axis: the output has then's shape; cond and
/// else are placed at `AXIS` (-1: right-aligned) and broadcast one way.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::AutoBroadcast;
/// use shapecheck::select_output_dims;
/// let t = tensor![[1, 2, 3], [4, 5, 6]];
/// // cond and else [2] placed on then's first dim
/// let out: Tensor<i32, shape![2, 3]> = select(&tensor![false, true], &t, &tensor![10, 20], Pdpd::<0>);
/// assert_eq!(out.as_slice(), &[10, 10, 10, 4, 5, 6]);
/// // else may not have a higher rank than then
/// let err = select_output_dims(AutoBroadcast::Pdpd { axis: 0 }, &[2], &[2], &[2, 3]).unwrap_err();
/// assert_eq!(err.rule(), "select/pdpd-rank");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pdpd<const AXIS: isize>;

/// `auto_broadcast` as a value (dynamic path).
///
/// ```
/// use shapecheck::{select_output_dims, AutoBroadcast};
/// assert_eq!(AutoBroadcast::default(), AutoBroadcast::Numpy);
/// assert_eq!(AutoBroadcast::Pdpd { axis: -1 }.to_string(), "pdpd, axis -1");
/// let dims = select_output_dims(AutoBroadcast::Pdpd { axis: -1 }, &[3], &[2, 3], &[1]).unwrap();
/// assert_eq!(dims.as_slice(), &[2, 3]);
/// let err = select_output_dims(AutoBroadcast::None, &[3], &[2, 3], &[2, 3]).unwrap_err();
/// assert_eq!(err.rule(), "select/none-shapes");
/// ```
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

/// A mode marker's value, so that the dynamic path takes either.
impl From<NoBroadcast> for AutoBroadcast {
    fn from(_: NoBroadcast) -> AutoBroadcast {
        AutoBroadcast::None
    }
}
/// A mode marker's value, so that the dynamic path takes either.
impl From<Numpy> for AutoBroadcast {
    fn from(_: Numpy) -> AutoBroadcast {
        AutoBroadcast::Numpy
    }
}
/// A mode marker's value, so that the dynamic path takes either.
impl<const AXIS: isize> From<Pdpd<AXIS>> for AutoBroadcast {
    fn from(_: Pdpd<AXIS>) -> AutoBroadcast {
        AutoBroadcast::Pdpd { axis: AXIS }
    }
}

impl AutoBroadcast {
    /// Parses OpenVINO's attribute value (`"none"`, `"numpy"`, `"pdpd"`,
    /// case-insensitive); `axis` is used by pdpd only.
    ///
    /// ```
    /// use shapecheck::AutoBroadcast;
    /// assert_eq!(AutoBroadcast::from_name("NUMPY", 0), Some(AutoBroadcast::Numpy));
    /// assert_eq!(AutoBroadcast::from_name("pdpd", 0), Some(AutoBroadcast::Pdpd { axis: 0 }));
    /// assert_eq!(AutoBroadcast::from_name("none", 5), Some(AutoBroadcast::None));
    /// assert_eq!(AutoBroadcast::from_name("bidirectional", 0), None);
    /// ```
    #[must_use]
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
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::AutoBroadcast;
/// use shapecheck::SelectMode;
/// assert_eq!(<Pdpd<-1> as SelectMode>::KIND, AutoBroadcast::Pdpd { axis: -1 });
/// assert_eq!(<NoBroadcast as SelectMode>::KIND, AutoBroadcast::None);
/// fn mode_name<M: SelectMode>(_: M) -> String {
///     M::KIND.to_string()
/// }
/// assert_eq!(mode_name(Pdpd::<0>), "pdpd, axis 0");
/// assert_eq!(mode_name(Numpy), "numpy");
/// ```
pub trait SelectMode: Copy + Default + ModeSealed {
    /// The same mode as a value.
    const KIND: AutoBroadcast;
}
/// Seals [`SelectMode`]: the three modes are the rule's whole list.
mod sealed {
    #[doc(hidden)]
    pub trait ModeSealed {}
    impl ModeSealed for super::NoBroadcast {}
    impl ModeSealed for super::Numpy {}
    impl<const AXIS: isize> ModeSealed for super::Pdpd<AXIS> {}
}
use sealed::ModeSealed;

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
///
/// ```
/// use shapecheck::prelude::*;
/// let out = select(&tensor![false, true], &tensor![1.0f32, 2.0], &tensor![3.0f32, 4.0], Numpy);
/// assert_eq!(out.as_slice(), &[3.0, 2.0]);
/// ```
///
/// Any other cond element type is a compile error ("select/cond-bool: cond must
/// be a bool tensor, but its element type is i32"):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let _ = select(&tensor![0i32, 1], &tensor![1.0f32, 2.0], &tensor![3.0f32, 4.0], Numpy);
/// ```
#[diagnostic::on_unimplemented(
    message = "select/cond-bool: cond must be a bool tensor, but its element type is {Self}",
    label = "cond holds `{Self}` here",
    note = "OpenVINO Select-1: \"Argument 0 must have boolean element type\""
)]
pub trait CondElement: Copy + 'static {
    /// The elements as `bool`s.
    ///
    /// ```
    /// use shapecheck::CondElement;
    /// assert_eq!(<bool as CondElement>::as_bools(&[true, false]), &[true, false]);
    /// ```
    fn as_bools(data: &[Self]) -> &[bool];
}

#[diagnostic::do_not_recommend]
impl CondElement for bool {
    #[inline(always)]
    fn as_bools(data: &[bool]) -> &[bool] {
        data
    }
}

/// `else`'s element type (`Self`) is then's (`T`): only `T` itself implements it.
///
/// ```
/// use shapecheck::prelude::*;
/// let out = select(&tensor![true, false], &tensor![1i64, 2], &tensor![3i64, 4], Numpy);
/// assert_eq!(out.as_slice(), &[1, 4]);
/// ```
///
/// then and else of different element types are a compile error
/// ("select/branch-types: then and else must have the same element type, but
/// then holds i64 and else holds i32"):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let _ = select(&tensor![true, false], &tensor![1i64, 2], &tensor![3i32, 4], Numpy);
/// ```
#[diagnostic::on_unimplemented(
    message = "select/branch-types: then and else must have the same element type, but then holds {T} and else holds {Self}",
    label = "else holds `{Self}`, then holds `{T}`",
    note = "OpenVINO Select-1: \"Argument 1 and 2 element types must match\""
)]
pub trait ElseElement<T>: Copy + 'static {
    /// The elements as `T`s.
    ///
    /// ```
    /// use shapecheck::ElseElement;
    /// assert_eq!(<i64 as ElseElement<i64>>::as_same(&[1, 2]), &[1, 2]);
    /// ```
    fn as_same(data: &[Self]) -> &[T];
}

impl<T: Copy + 'static> ElseElement<T> for T {
    #[inline(always)]
    fn as_same(data: &[T]) -> &[T] {
        data
    }
}
