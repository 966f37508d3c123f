//! [`Error`]: every run-time error of the crate in one type, so that `?`
//! carries a pipeline of different ops into one `Result` with no heap and no
//! enum of the caller's own.
//!
//! It sits above the operators and the fused expressions (it names their
//! error enums), below nothing but the export lists.

use crate::dims::ShapeError;
use crate::expr::ExprError;
use crate::lod::LodError;
use crate::ops::elementwise::ElementwiseError;
use crate::ops::lod_reset::LodResetError;
use crate::ops::matmul::MatmulError;
use crate::ops::multiplex::MultiplexError;
use crate::ops::reduce::ReduceError;
use crate::ops::reshape::ReshapeError;
use crate::ops::select::SelectError;
use crate::ops::softmax::SoftmaxError;
use crate::ops::stitch::StitchError;
use core::fmt;

/// Any error an operator, a fused expression, a LoD or a shape can report:
/// each op's own error enum converts into it with `From`, so `?` works across
/// ops in one function. `Copy`, no heap, `no_std`; [`rule`](Error::rule) and
/// `Display` are the wrapped error's own, and `source()` returns it.
///
/// `dynamic_partition` reports [`StitchError`] (the two ops share their index
/// rules), so it arrives as [`Error::Stitching`].
///
/// ```
/// use shapecheck::prelude::*;
///
/// // stitch rows into a bounded room (no heap), scale them along the last
/// // axis, then pick between the two: three ops, three error types, one `?`
/// fn pipeline(
///     order: &Tensor<i32, shape![3]>,
///     rows: &Tensor<f32, shape![3, 2]>,
/// ) -> Result<Owned<f32, (Bounded<4>, Dim<2>)>, shapecheck::Error> {
///     let stitched = dynamic_stitch(order, rows).run_bounded::<4>()?;
///     let scaled = stitched.try_elementwise_mul(&tensor![10.0f32, 1.0], Axis::<-1>, Identity)?;
///     Ok(try_select(&tensor![true, false], &scaled, &stitched, Numpy)?)
/// }
///
/// let rows = tensor![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]];
/// let out = pipeline(&tensor![2, 0, 1], &rows).unwrap();
/// assert_eq!(out.as_slice(), &[30.0, 4.0, 50.0, 6.0, 10.0, 2.0]);
/// let err = pipeline(&tensor![2, -1, 1], &rows).unwrap_err();
/// assert!(matches!(err, shapecheck::Error::Stitching(_)));
/// assert_eq!(err.rule(), "dynamic_stitch/negative-index");
/// ```
// A variant never takes the name of a type of the crate (`Stitch`, `Expr`,
// `Multiplex` are builders and expressions): rustc prints a name without its
// path in compile errors only while the name is unique, so such a variant
// would lengthen every compile error that names the type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A shape that cannot describe its data or its type.
    Shape(ShapeError),
    /// `elementwise_*` and the operators.
    Elementwise(ElementwiseError),
    /// `select`.
    Select(SelectError),
    /// `multiplex`.
    Multiplexing(MultiplexError),
    /// `dynamic_stitch` and `dynamic_partition`.
    Stitching(StitchError),
    /// `reshape`.
    Reshape(ReshapeError),
    /// `lod_reset`.
    LodReset(LodResetError),
    /// A LoD that breaks Paddle's `CheckLoD`.
    Lod(LodError),
    /// A fused expression.
    Fused(ExprError),
    /// `matmul`.
    Matmul(MatmulError),
    /// `sum`, `mean`, `max`, `min`, `prod`, `argmax`, `argmin`.
    Reduction(ReduceError),
    /// `softmax`, `log_softmax`.
    Softmax(SoftmaxError),
}

impl Error {
    /// The stable identifier of the rule that failed, the wrapped error's own
    /// (`elementwise/broadcast`, `multiplex/index-range`, ...).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// let err: shapecheck::Error = x.try_elementwise_mul(&tensor![1.0f32, 2.0], Axis::<-1>, Identity)
    ///     .unwrap_err()
    ///     .into();
    /// assert_eq!(err.rule(), "elementwise/broadcast");
    /// ```
    pub const fn rule(&self) -> &'static str {
        match self {
            Error::Shape(e) => e.rule(),
            Error::Elementwise(e) => e.rule(),
            Error::Select(e) => e.rule(),
            Error::Multiplexing(e) => e.rule(),
            Error::Stitching(e) => e.rule(),
            Error::Reshape(e) => e.rule(),
            Error::LodReset(e) => e.rule(),
            Error::Lod(e) => e.rule(),
            Error::Fused(e) => e.rule(),
            Error::Matmul(e) => e.rule(),
            Error::Reduction(e) => e.rule(),
            Error::Softmax(e) => e.rule(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Shape(e) => fmt::Display::fmt(e, f),
            Error::Elementwise(e) => fmt::Display::fmt(e, f),
            Error::Select(e) => fmt::Display::fmt(e, f),
            Error::Multiplexing(e) => fmt::Display::fmt(e, f),
            Error::Stitching(e) => fmt::Display::fmt(e, f),
            Error::Reshape(e) => fmt::Display::fmt(e, f),
            Error::LodReset(e) => fmt::Display::fmt(e, f),
            Error::Lod(e) => fmt::Display::fmt(e, f),
            Error::Fused(e) => fmt::Display::fmt(e, f),
            Error::Matmul(e) => fmt::Display::fmt(e, f),
            Error::Reduction(e) => fmt::Display::fmt(e, f),
            Error::Softmax(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Error::Shape(e) => Some(e),
            Error::Elementwise(e) => Some(e),
            Error::Select(e) => Some(e),
            Error::Multiplexing(e) => Some(e),
            Error::Stitching(e) => Some(e),
            Error::Reshape(e) => Some(e),
            Error::LodReset(e) => Some(e),
            Error::Lod(e) => Some(e),
            Error::Fused(e) => Some(e),
            Error::Matmul(e) => Some(e),
            Error::Reduction(e) => Some(e),
            Error::Softmax(e) => Some(e),
        }
    }
}

impl From<ShapeError> for Error {
    fn from(e: ShapeError) -> Self {
        Error::Shape(e)
    }
}

impl From<ElementwiseError> for Error {
    fn from(e: ElementwiseError) -> Self {
        Error::Elementwise(e)
    }
}

impl From<SelectError> for Error {
    fn from(e: SelectError) -> Self {
        Error::Select(e)
    }
}

impl From<MultiplexError> for Error {
    fn from(e: MultiplexError) -> Self {
        Error::Multiplexing(e)
    }
}

impl From<StitchError> for Error {
    fn from(e: StitchError) -> Self {
        Error::Stitching(e)
    }
}

impl From<ReshapeError> for Error {
    fn from(e: ReshapeError) -> Self {
        Error::Reshape(e)
    }
}

impl From<LodResetError> for Error {
    fn from(e: LodResetError) -> Self {
        Error::LodReset(e)
    }
}

impl From<LodError> for Error {
    fn from(e: LodError) -> Self {
        Error::Lod(e)
    }
}

impl From<ExprError> for Error {
    fn from(e: ExprError) -> Self {
        Error::Fused(e)
    }
}

impl From<MatmulError> for Error {
    fn from(e: MatmulError) -> Self {
        Error::Matmul(e)
    }
}

impl From<ReduceError> for Error {
    fn from(e: ReduceError) -> Self {
        Error::Reduction(e)
    }
}

impl From<SoftmaxError> for Error {
    fn from(e: SoftmaxError) -> Self {
        Error::Softmax(e)
    }
}
