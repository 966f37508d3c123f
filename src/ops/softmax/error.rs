//! [`SoftmaxError`]: why softmax or log_softmax refused its input.

use crate::dims::{Dims, ShapeError};

crate::error::rule_errors! {
    /// Why softmax or log_softmax refused its input, checked before
    /// anything is allocated or written.
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SoftmaxError {
        /// The axis is outside `[low, high]`, that is `[-r, r - 1]` for a
        /// rank-r x (`[-1, 0]` for a 0-d x).
        AxisRange {
            /// The axis as given.
            axis: isize,
            /// x's dims.
            x: Dims,
            /// The smallest axis accepted.
            low: isize,
            /// The largest axis accepted.
            high: isize,
        } => "softmax/axis-range",
            ("softmax: axis {axis} is out of range for x {x}: the axis must lie in [{low}, {high}]"),
    }
    /// The stable identifier of the check this error reports:
    /// `softmax/axis-range`, or a shape error's.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 3], vec![1.0f32; 6]).unwrap();
    /// let err = x.softmax(2).unwrap_err();
    /// assert_eq!(err.rule(), "softmax/axis-range");
    /// assert_eq!(err.to_string(), "softmax: axis 2 is out of range for x [2, 3]: the axis must lie in [-2, 1]");
    /// ```
    fn rule;
    /// A shape problem not specific to softmax (a rank over the limit).
    Shape(ShapeError) => |e| e.rule(), ("softmax: {e}");
}
