//! What select can reject: one variant per rule, each naming the offending
//! shapes (and the input, for pdpd's per-source rules).

use crate::dims::{Dims, ShapeError};
use core::fmt;

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

crate::error::rule_errors! {
    /// Why select rejected its inputs.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum SelectError {
        /// `auto_broadcast = none` and the three shapes are not identical.
        NoneMismatch {
            /// cond's dims.
            cond: Dims,
            /// then's dims.
            then: Dims,
            /// else's dims.
            els: Dims,
        } => "select/none-shapes",
            ("select (none): cond {cond}, then {then} and else {els} must have the same shape"),
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
        } => "select/numpy-broadcast",
            ("select (numpy): cond {cond}, then {then} and else {els} do not broadcast: \
                right-aligned, output dim {position} meets cond {cond_dim}, then {then_dim} and \
                else {else_dim}; the dims other than 1 must be equal"),
        /// `auto_broadcast = pdpd` with an axis below -1 or above rank(then).
        PdpdAxis {
            /// The axis.
            axis: isize,
            /// then's dims.
            then: Dims,
        } => "select/pdpd-axis",
            ("select (pdpd, axis {axis}): the axis must be -1 or in [0, {}] for then {then}",
                then.rank()),
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
        } => "select/pdpd-rank",
            ("select (pdpd, axis {axis}): {input} {source} has a higher rank than then {then}"),
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
        } => "select/pdpd-runs-past",
            ("select (pdpd, axis {axis}): {input} {source} placed at the axis runs past the last \
                dim of then {then}; only trailing dims of size 1 can be dropped"),
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
        } => "select/pdpd-one-way",
            ("select (pdpd, axis {axis}): {input} {source} does not broadcast one way to then \
                {then}: its dim {source_dim} is placed on then's dim {then_dim} (dim {position} \
                of then), and must equal it or be 1"),
        /// A backward's `dout` does not have the forward output's dims.
        GradShape {
            /// The forward output's dims (of cond, then and else under the mode).
            expected: Dims,
            /// `dout`'s dims.
            found: Dims,
        } => "select/dout-shape",
            ("the backward's dout has dims {found}, but the forward output of cond, then and \
                else has dims {expected}: the gradient flowing back must have the output's shape"),
    }
    /// The stable identifier of the rule this error reports, as the first
    /// words of the compile error for the same shapes: `select/none-shapes`,
    /// `select/numpy-broadcast`, `select/pdpd-axis`, `select/pdpd-rank`,
    /// `select/pdpd-runs-past`, `select/pdpd-one-way`, `select/dout-shape`
    /// (a backward's `dout`), or the
    /// [`ShapeError::rule`] of a `Shape` error. (`select/cond-bool` and
    /// `select/branch-types` are element types: compile errors only.)
    ///
    /// ```
    /// use shapecheck::ops::select::{select_output_dims, AutoBroadcast};
    /// let err = select_output_dims(AutoBroadcast::None, &[2], &[2], &[3]).unwrap_err();
    /// assert_eq!(err.rule(), "select/none-shapes");
    /// ```
    fn rule;
    /// A shape problem not specific to this op (data length, rank, output buffer).
    Shape(ShapeError) => |e| e.rule(), ("{e}");
}
