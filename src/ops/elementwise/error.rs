//! What an elementwise op can reject: one variant per rule, each naming the
//! offending dims and axis.

use crate::dims::{Dims, ShapeError};

crate::error::rule_errors! {
    /// Why an elementwise op rejected its inputs.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum ElementwiseError {
        /// Equal ranks, different shapes, and an axis other than -1 or 0.
        EqualRankAxis {
            /// X's dims.
            x: Dims,
            /// Y's dims.
            y: Dims,
            /// The axis given.
            axis: isize,
        } => "elementwise/equal-rank-axis",
            ("axis should be -1 or 0 when X and Y have the same rank ({}) but different shapes: X = {x}, Y = {y}, axis = {axis}", x.rank()),
        /// The axis is outside `[-R, R)`.
        AxisOutOfRange {
            /// X's dims.
            x: Dims,
            /// Y's dims.
            y: Dims,
            /// The axis given.
            axis: isize,
        } => "elementwise/axis-range",
            ("the axis must be in [-{r}, {r}), but axis is {axis} (X = {x}, Y = {y})", r = x.rank().max(y.rank())),
        /// A negative axis places the lower-rank operand before the first dim.
        AxisBeforeStart {
            /// X's dims.
            x: Dims,
            /// Y's dims.
            y: Dims,
            /// The axis given.
            axis: isize,
        } => "elementwise/axis-before-start",
            ("axis {axis} places the lower-rank operand before the first dim (|rank(X) - rank(Y)| + axis + 1 < 0): X = {x}, Y = {y}"),
        /// The lower-rank operand runs past the other's last dim, and the dims
        /// that run past are not all 1.
        RunsPast {
            /// X's dims.
            x: Dims,
            /// Y's dims.
            y: Dims,
            /// The axis given.
            axis: isize,
        } => "elementwise/runs-past",
            ("the lower-rank operand placed at axis {axis} runs past the other's last dim, and only trailing dims of size 1 can be dropped: X = {x}, Y = {y}"),
        /// Two aligned dims differ and neither is 1.
        DimMismatch {
            /// X's dims.
            x: Dims,
            /// Y's dims.
            y: Dims,
            /// The axis given.
            axis: isize,
            /// The position in the output's dims.
            position: usize,
            /// X's dim there.
            x_dim: usize,
            /// Y's dim there.
            y_dim: usize,
        } => "elementwise/broadcast",
            ("broadcast dimension mismatch: X = {x} and Y = {y} at axis {axis} align X's {x_dim} with Y's {y_dim} at output dim {position}; aligned dims must be equal or one of them 1"),
        /// Integer division by zero.
        DivisionByZero {
            /// The flat position of the zero in Y.
            index: usize,
        } => "elementwise/division-by-zero",
            ("integer division by zero: Y[{index}] (flat index) is 0"),
        /// A backward's `dout` (or the forward `out` it is given) does not
        /// have the forward output's dims.
        GradShape {
            /// Which tensor: `"dout"` or `"out"`.
            tensor: &'static str,
            /// The forward output's dims (of X and Y at the axis).
            expected: Dims,
            /// The tensor's dims.
            found: Dims,
        } => "elementwise/dout-shape",
            ("the backward's {tensor} has dims {found}, but the forward output of X and Y has dims {expected}: the gradient flowing back must have the output's shape"),
    }
    /// The stable identifier of the rule this error reports, as the first
    /// words of the compile error for the same shapes: `elementwise/axis-range`,
    /// `elementwise/axis-before-start`, `elementwise/equal-rank-axis`,
    /// `elementwise/runs-past`, `elementwise/broadcast`,
    /// `elementwise/division-by-zero` (run time only),
    /// `elementwise/dout-shape` (a backward's `dout` or `out`), or the
    /// [`ShapeError::rule`](crate::ShapeError::rule) of a `Shape` error.
    ///
    /// ```
    /// use shapecheck::ops::elementwise::elementwise_output_dims;
    /// let err = elementwise_output_dims(&[2, 3], &[3, 3], 1).unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/equal-rank-axis");
    /// ```
    fn rule;
    /// A shape problem not specific to this op (data length, rank, output buffer).
    Shape(ShapeError) => |e| e.rule(), ("{e}");
}
