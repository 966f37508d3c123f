//! What evaluating an expression with run-time dims can reject: the first
//! rule that fails, as the plain op at that node reports it.

use crate::dims::ShapeError;
use crate::ops::elementwise::ElementwiseError;
use crate::ops::select::SelectError;
use core::fmt;

/// Why [`Expr::try_eval`](super::Expr::try_eval) rejected an expression:
/// the error of the first node (leaves first, left to right) whose rule
/// fails, or of the output buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExprError {
    /// An elementwise node (an op, an operator, `zip_with`) rejected its
    /// operands' shapes.
    Elementwise(ElementwiseError),
    /// A select node rejected its shapes.
    Select(SelectError),
    /// A shape problem not specific to a node: the output buffer's dims, a
    /// leaf's dims, an element count that overflows.
    Shape(ShapeError),
    /// The expression reads more than [`MAX_LEAVES`](super::MAX_LEAVES)
    /// tensors.
    TooManyLeaves,
}

impl ExprError {
    /// The stable identifier of the rule that failed: the node's own
    /// (`elementwise/broadcast`, `select/numpy-shapes`, ...), a shape
    /// rule (`shape/output`), or `expr/too-many-leaves`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// let err = (x.lazy() + &tensor![1.0f32, 2.0]).try_eval().unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/broadcast");
    /// ```
    pub const fn rule(&self) -> &'static str {
        match self {
            ExprError::Elementwise(e) => e.rule(),
            ExprError::Select(e) => e.rule(),
            ExprError::Shape(e) => e.rule(),
            ExprError::TooManyLeaves => "expr/too-many-leaves",
        }
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExprError::Elementwise(e) => write!(f, "in a fused expression: {e}"),
            ExprError::Select(e) => write!(f, "in a fused expression: {e}"),
            ExprError::Shape(e) => write!(f, "in a fused expression: {e}"),
            ExprError::TooManyLeaves => write!(
                f,
                "a fused expression reads at most {} tensors: evaluate a part of it first",
                super::MAX_LEAVES
            ),
        }
    }
}

impl core::error::Error for ExprError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ExprError::Elementwise(e) => Some(e),
            ExprError::Select(e) => Some(e),
            ExprError::Shape(e) => Some(e),
            ExprError::TooManyLeaves => None,
        }
    }
}

impl From<ShapeError> for ExprError {
    fn from(e: ShapeError) -> Self {
        ExprError::Shape(e)
    }
}
