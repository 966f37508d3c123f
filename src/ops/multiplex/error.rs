//! [`MultiplexError`]: why multiplex rejected its inputs, one variant per rule.

use crate::dims::{Dims, ShapeError};

crate::error::rule_errors! {
    /// Why multiplex rejected its inputs. Each variant is one rule.
    ///
    /// ```
    /// use shapecheck::{multiplex_output_dims, MultiplexError};
    /// let err = multiplex_output_dims(&[&[4, 3]], &[2, 1]).unwrap_err();
    /// assert_eq!(err, MultiplexError::TooFewCandidates { count: 1 });
    /// assert_eq!(err.rule(), "multiplex/candidate-count");
    /// assert_eq!(err.to_string(), "multiplex: needs at least 2 candidate tensors, but 1 were given");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum MultiplexError {
        /// Fewer than 2 candidates.
        TooFewCandidates {
            /// The number of candidates given.
            count: usize,
        } => "multiplex/candidate-count",
            ("multiplex: needs at least 2 candidate tensors, but {count} were given"),
        /// A candidate's shape differs from the first one's.
        CandidateShapes {
            /// The first candidate's dims.
            first: Dims,
            /// The differing candidate's dims.
            other: Dims,
            /// The differing candidate's position in the list.
            position: usize,
        } => "multiplex/candidate-shapes",
            ("multiplex: all candidate tensors must have the same shape, but candidate 0 is {first} and candidate {position} is {other}"),
        /// The candidates have rank < 2.
        CandidateRank {
            /// The candidates' dims.
            dims: Dims,
        } => "multiplex/candidate-rank",
            ("multiplex: the rank of candidate tensors must be at least 2, but the candidates are {dims} (rank {})",
                dims.rank()),
        /// The index does not have shape `[rows, 1]` (rank 2, one column).
        IndexShape {
            /// The index's dims.
            index: Dims,
        } => "multiplex/index-shape",
            ("multiplex: the index must have shape [rows, 1], but it is {index}"),
        /// The index has more rows than the candidates.
        IndexRows {
            /// The index's dims.
            index: Dims,
            /// The candidates' dims.
            candidates: Dims,
        } => "multiplex/index-rows",
            ("multiplex: index rows must not exceed candidate rows, but the index {index} has {} rows and the candidates {candidates} have {}",
                rows_of(index),
                rows_of(candidates)),
        /// An index value is negative.
        NegativeIndex {
            /// The row of the index.
            row: usize,
            /// Its value.
            value: i64,
        } => "multiplex/index-value",
            ("multiplex: index must be nonnegative, but index[{row}] is {value}"),
        /// An index value is not below the number of candidates.
        IndexOutOfRange {
            /// The row of the index.
            row: usize,
            /// Its value.
            value: i64,
            /// The number of candidates.
            candidates: usize,
        } => "multiplex/index-value",
            ("multiplex: index exceeds the number of candidate tensors: index[{row}] is {value}, but there are {candidates} candidates"),
        /// The caller's buffer ([`Multiplex::run_into`](super::Multiplex::run_into))
        /// is shorter than the output.
        BufferTooSmall {
            /// The output's dims.
            dims: Dims,
            /// Elements needed.
            needed: usize,
            /// The buffer's length.
            len: usize,
        } => "multiplex/buffer",
            ("multiplex: the output {dims} needs {needed} elements, but the buffer holds {len}"),
        /// Backward: the upstream gradient `dout` has another shape than
        /// the forward output.
        DoutShape {
            /// The forward output's dims.
            out: Dims,
            /// `dout`'s dims.
            dout: Dims,
        } => "multiplex/dout-shape",
            ("multiplex backward: dout must have the output's shape {out}, but it is {dout}"),
        /// Backward: not one gradient buffer per candidate.
        GradCount {
            /// The number of candidates.
            candidates: usize,
            /// The number of gradient buffers given.
            grads: usize,
        } => "multiplex/grad-count",
            ("multiplex backward: one gradient per candidate, but {candidates} candidates and {grads} gradients"),
    }
    /// The stable identifier of the rule this error reports, as the first
    /// words of the compile error for the same shapes:
    /// `multiplex/candidate-count`, `multiplex/candidate-shapes`,
    /// `multiplex/candidate-rank`, `multiplex/index-shape`,
    /// `multiplex/index-rows`, `multiplex/index-value` (an index value,
    /// negative or not below the count: run time only), `multiplex/buffer`
    /// (a caller's buffer too short), the backward's
    /// `multiplex/dout-shape` and `multiplex/grad-count`, or the
    /// [`ShapeError::rule`] of a `Shape` error.
    ///
    /// ```
    /// use shapecheck::ops::multiplex::multiplex_output_dims;
    /// let err = multiplex_output_dims(&[&[2, 2], &[2, 2]], &[3, 1]).unwrap_err();
    /// assert_eq!(err.rule(), "multiplex/index-rows");
    /// ```
    fn rule;
    /// A shape problem not specific to this op (data length, rank, element
    /// count overflow, output buffer).
    Shape(ShapeError) => |e| e.rule(), ("multiplex: {e}");
}

/// The first dim of `dims` (0 for a scalar; only used in messages).
fn rows_of(dims: &Dims) -> usize {
    dims.first().copied().unwrap_or(0)
}
