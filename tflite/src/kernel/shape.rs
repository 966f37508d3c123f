//! The shape a shape rule returns ([`OpShape`]) and what every op's shape
//! rule and preparation read of an operator's operands: the operand as a
//! tensor, its shape, the error naming it, the spatial sizes of a window.

use crate::arith::window::conv_axis;
use crate::format::error::{Name, OperandProblem, TfliteError};
use crate::format::model::{Model, ModelTensor, Operator};

/// The most dims a shape the ops take has (TFLite Micro broadcasts `ADD`
/// up to 6).
pub const MAX_DIMS: usize = 6;

/// A shape of at most [`MAX_DIMS`] dims, what a shape rule returns.
///
/// ```
/// use shapecheck_tflite::OpShape;
///
/// let s = OpShape::new(&[1, 48, 48, 8]).unwrap();
/// assert_eq!((s.dims(), s.elements()), (&[1, 48, 48, 8][..], Some(18_432)));
/// assert!(OpShape::new(&[1; 7]).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpShape {
    pub(crate) dims: [usize; MAX_DIMS],
    pub(crate) rank: usize,
}

impl OpShape {
    /// The shape of `dims`, or `None` past [`MAX_DIMS`] dims.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[]).unwrap().dims(), &[] as &[usize]);
    /// ```
    pub fn new(dims: &[usize]) -> Option<Self> {
        let mut shape = OpShape {
            dims: [0; MAX_DIMS],
            rank: dims.len(),
        };
        shape.dims.get_mut(..dims.len())?.copy_from_slice(dims);
        Some(shape)
    }

    /// The shape of the first `rank` of `dims`, as a constant: `model!`'s
    /// generated code writes a prepared step's shapes with it (a `rank`
    /// past [`MAX_DIMS`] is the shape of no dims, never a panic). Not an
    /// API: use [`OpShape::new`].
    #[doc(hidden)]
    pub const fn from_parts(dims: [usize; MAX_DIMS], rank: usize) -> Self {
        OpShape { dims, rank }
    }

    /// The dims.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[2, 3]).unwrap().dims(), &[2, 3]);
    /// ```
    pub fn dims(&self) -> &[usize] {
        self.dims.get(..self.rank).unwrap_or(&[])
    }

    /// The element count, `None` on overflow.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[2, 3]).unwrap().elements(), Some(6));
    /// ```
    pub fn elements(&self) -> Option<usize> {
        self.dims()
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
    }
}

/// The multipliers of an op that requantizes with none per channel.
pub(crate) fn no_multipliers(_: &Model<'_>, _: &Operator<'_>) -> usize {
    0
}

/// The output channels of an int8 operator's weights or filter (its input
/// 1) along `axis`: one multiplier each; 0 for float weights.
pub(crate) fn weight_channels(model: &Model<'_>, op: &Operator<'_>, axis: usize) -> usize {
    op.input(1)
        .and_then(|i| model.tensor(i))
        .filter(|w| w.dtype() == crate::format::types::TensorType::Int8)
        .and_then(|w| w.shape().get(axis))
        .and_then(|d| usize::try_from(d).ok())
        .unwrap_or(0)
}

/// The operator's input `k` as a tensor, or the error naming it.
pub(crate) fn operand<'m>(
    model: &Model<'m>,
    op: &Operator<'_>,
    k: usize,
    name: &'static str,
) -> Result<ModelTensor<'m>, TfliteError> {
    op.input(k)
        .and_then(|i| model.tensor(i))
        .ok_or(TfliteError::MissingOperand {
            operator: op.index(),
            op: op.op(),
            operand: name,
        })
}

/// A tensor's shape as sizes (checked non-negative by `Model::parse`), or
/// the error naming it when it has more than [`MAX_DIMS`] dims.
pub(crate) fn shape_of(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
) -> Result<OpShape, TfliteError> {
    let mut dims = [0usize; MAX_DIMS];
    let shape = t.shape();
    if shape.len() > MAX_DIMS {
        return Err(operand_problem(
            op,
            name,
            t,
            OperandProblem::Rank {
                expected: MAX_DIMS,
                found: shape.len(),
            },
        ));
    }
    for (slot, d) in dims.iter_mut().zip(shape.iter()) {
        *slot = usize::try_from(d).unwrap_or(0);
    }
    Ok(OpShape {
        dims,
        rank: shape.len(),
    })
}

/// The error for operand `name` (tensor `t`) of `op`.
pub(crate) fn operand_problem(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
    problem: OperandProblem,
) -> TfliteError {
    TfliteError::Operand {
        operator: Some(op.index()),
        op: Some(op.op()),
        operand: name,
        tensor: t.index(),
        name: Name::new(t.name()),
        problem,
    }
}

/// Checks operand `name` has `rank` dims.
pub(crate) fn need_rank(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
    rank: usize,
) -> Result<OpShape, TfliteError> {
    let shape = shape_of(op, name, t)?;
    if shape.rank == rank {
        Ok(shape)
    } else {
        Err(operand_problem(
            op,
            name,
            t,
            OperandProblem::Rank {
                expected: rank,
                found: shape.rank,
            },
        ))
    }
}

/// An output size along one axis and the padding before it.
pub(crate) type SizeAndPad = (usize, usize);

/// The rows and columns a convolution or pool of a `[kh, kw]` window on
/// an NHWC input gives ([`conv_axis`] along each), with their padding
/// before: `((rows, pad_top), (columns, pad_left))`.
pub(crate) fn spatial(
    padding: crate::format::types::Padding,
    input: &OpShape,
    window: (usize, usize),
    strides: (usize, usize),
    dilations: (usize, usize),
) -> Result<(SizeAndPad, SizeAndPad), TfliteError> {
    let rows = conv_axis(padding, input.dims[1], window.0, strides.0, dilations.0)?;
    let columns = conv_axis(padding, input.dims[2], window.1, strides.1, dilations.1)?;
    Ok((
        (rows.output, rows.pad_before),
        (columns.output, columns.pad_before),
    ))
}

/// A strictly positive option as a size (`Model::parse` checked it).
pub(crate) fn size(v: i32) -> usize {
    usize::try_from(v).unwrap_or(0)
}

/// The output of an op whose output is its input's shape.
pub(crate) fn same_as_input(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    shape_of(op, "input", &input)
}

impl crate::base::write_rust::WriteRust for OpShape {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        write!(w, "{k}::OpShape::from_parts(")?;
        self.dims.write_rust(w, k)?;
        write!(w, ", {}usize)", self.rank)
    }
}
