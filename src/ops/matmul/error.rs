//! What matmul can reject: one variant per rule, each naming both shapes
//! and the offending dims.

use crate::dims::{Dims, ShapeError};

crate::error::rule_errors! {
    /// Why matmul rejected its operands.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum MatmulError {
        /// An operand is 0-d (a scalar): it has no dim to multiply along.
        Rank {
            /// x's dims.
            x: Dims,
            /// y's dims.
            y: Dims,
        } => "matmul/rank",
            ("matmul: x {x} and y {y}: both operands need rank 1 or more (a 0-d tensor has no dim to multiply along)"),
        /// The contracted dims differ: x's inner dim (its last, or its
        /// second-to-last when transposed) against y's (its second-to-last,
        /// or its last when transposed or a vector).
        Inner {
            /// x's dims.
            x: Dims,
            /// y's dims.
            y: Dims,
            /// Where x's inner dim is: `"last"` or `"second-to-last"`.
            x_at: &'static str,
            /// Where y's inner dim is: `"second-to-last"` or `"last"`.
            y_at: &'static str,
            /// x's inner dim.
            x_dim: usize,
            /// y's inner dim.
            y_dim: usize,
        } => "matmul/inner",
            ("matmul: x {x} and y {y}: x's {x_at} dim {x_dim} must equal y's {y_at} dim {y_dim}"),
        /// Two batch dims (all but the last two, right-aligned) differ and
        /// neither is 1.
        Batch {
            /// x's dims.
            x: Dims,
            /// y's dims.
            y: Dims,
            /// The position in the output's batch dims.
            position: usize,
            /// x's batch dim there (1 where x has none).
            x_dim: usize,
            /// y's batch dim there (1 where y has none).
            y_dim: usize,
        } => "matmul/batch",
            ("matmul: x {x} and y {y}: batch dim {position} of the output meets x's {x_dim} and \
                y's {y_dim}; right-aligned, they must be equal or one of them 1"),
        /// A backward's `dout` does not have the forward output's dims.
        GradShape {
            /// The forward output's dims (of x and y under the transposes).
            expected: Dims,
            /// `dout`'s dims.
            found: Dims,
        } => "matmul/dout-shape",
            ("the backward's dout has dims {found}, but the forward output of x and y has dims {expected}: the gradient flowing back must have the output's shape"),
    }
    /// The stable identifier of the rule this error reports, as the first
    /// words of the compile error for the same shapes: `matmul/rank`,
    /// `matmul/inner`, `matmul/batch`, `matmul/dout-shape`, or the [`ShapeError::rule`] of a
    /// `Shape` error (`matmul/element-type` is a compile error only).
    ///
    /// ```
    /// use shapecheck::ops::matmul::matmul_output_dims;
    /// let err = matmul_output_dims(&[3, 4], &[5, 6], false, false).unwrap_err();
    /// assert_eq!(err.rule(), "matmul/inner");
    /// assert_eq!(err.to_string(), "matmul: x [3, 4] and y [5, 6]: x's last dim 4 must equal y's second-to-last dim 5");
    /// ```
    fn rule;
    /// A shape problem not specific to this op (data length, rank, output buffer).
    Shape(ShapeError) => |e| e.rule(), ("{e}");
}
