//! [`ReduceError`]: why a reduction (or argmax / argmin) refused its input.

use super::Reduction;
use crate::dims::{Dims, ShapeError};

crate::error::rule_errors! {
    /// Why a reduction refused its input: one variant per rule, checked
    /// before anything is allocated or written.
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ReduceError {
        /// An axis outside `[low, high)`, that is `[-r, r)` for a rank-r x
        /// (`[-1, 1)` for a 0-d x).
        AxisRange {
            /// The axis as given.
            axis: isize,
            /// x's dims.
            x: Dims,
            /// The smallest axis accepted.
            low: isize,
            /// One past the largest axis accepted.
            high: isize,
        } => "reduce/axis-range",
            ("reduce: axis {axis} is out of range for x {x}: an axis must lie in [{low}, {high})"),
        /// Two axes name the same dim once negative axes are counted from the end.
        DuplicateAxis {
            /// The second axis naming the dim.
            axis: isize,
            /// The dim named twice.
            dim: usize,
            /// x's dims.
            x: Dims,
        } => "reduce/duplicate-axis",
            ("reduce: the axes name dim {dim} of x {x} twice (axis {axis} repeats it)"),
        /// max, min, argmax or argmin over a dim of size 0 (nothing to pick from).
        EmptyReduction {
            /// The reduction.
            op: Reduction,
            /// The reduced dim of size 0.
            dim: usize,
            /// x's dims.
            x: Dims,
        } => "reduce/empty",
            ("reduce: {op} over dim {dim} of x {x}, which has size 0: {op} needs at least one element"),
    }
    /// The stable identifier of the check this error reports:
    /// `reduce/axis-range`, `reduce/duplicate-axis`, `reduce/empty`, or a
    /// shape error's (`shape/rank`, `shape/overflow`, ...).
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let err = x.sum(&[2], false).unwrap_err();
    /// assert_eq!(err.rule(), "reduce/axis-range");
    /// assert_eq!(err.to_string(), "reduce: axis 2 is out of range for x [2, 3]: an axis must lie in [-2, 2)");
    /// ```
    fn rule;
    /// A shape problem not specific to reductions (a rank over the limit).
    Shape(ShapeError) => |e| e.rule(), ("reduce: {e}");
}
