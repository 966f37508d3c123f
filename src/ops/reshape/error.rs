//! [`ReshapeError`]: why a run-time reshape refused its target shape.

use crate::dims::{Dims, ShapeError};

crate::error::rule_errors! {
    /// Why [`try_reshape`](crate::Tensor::try_reshape) or
    /// [`DynTensor::reshape`](crate::DynTensor::reshape) refused the target
    /// shape. Nothing is moved or written when it is returned.
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ReshapeError {
        /// The two shapes hold different numbers of elements.
        ElementCount {
            /// The tensor's dims.
            from: Dims,
            /// The target dims.
            to: Dims,
            /// The tensor's element count.
            from_numel: usize,
            /// The target's element count.
            to_numel: usize,
        } => "reshape/element-count",
            ("reshape: the target shape must hold as many elements as the tensor: \
                {from} holds {from_numel}, but {to} holds {to_numel}"),
    }
    /// The stable identifier of the check this error reports:
    /// `reshape/element-count`, or a shape error's (`shape/overflow`,
    /// `shape/rank`, ...).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<u8, shape![Dyn], Vec<u8>>::with_dims(&[6], vec![0; 6]).unwrap();
    /// let err = x.try_reshape((Dyn(4),)).unwrap_err();
    /// assert_eq!(err.rule(), "reshape/element-count");
    /// assert_eq!(
    ///     err.to_string(),
    ///     "reshape: the target shape must hold as many elements as the tensor: [6] holds 6, but [4] holds 4"
    /// );
    /// ```
    fn rule;
    /// A shape problem not specific to reshape (an element count that
    /// overflows, a rank over the limit).
    Shape(ShapeError) => |e| e.rule(), ("reshape: {e}");
}
