//! The errors of dynamic_stitch and dynamic_partition.

use crate::error::ShapeError;
use crate::shape::Dims;
use core::fmt;

crate::error::rule_errors! {
    /// Why a `dynamic_stitch` or `dynamic_partition` call was rejected. Every
    /// variant is found before any output element is written.
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum StitchError {
        /// dynamic_stitch without any pair (TensorFlow: "DynamicStitchOp: Must
        /// have some inputs"). Only the dynamic path can say so.
        NoPairs => "dynamic_stitch/pairs",
            ("dynamic_stitch: needs at least one (indices, data) pair (TensorFlow: \"Must have some inputs\")"),
        /// `data[m].shape` does not start with `indices[m].shape`.
        PrefixMismatch {
            /// The pair.
            m: usize,
            /// `indices[m].shape`.
            indices: Dims,
            /// `data[m].shape`.
            data: Dims,
        } => "dynamic_stitch/prefix",
            ("dynamic_stitch: data[{m}].shape = {data} does not start with indices[{m}].shape = {indices}"),
        /// The slice of pair `m` (its data's dims after its indices' dims)
        /// differs from pair 0's. Both pairs passed the prefix rule, so each
        /// indices shape is the first `rank` dims of its data's shape.
        SliceMismatch {
            /// The pair.
            m: usize,
            /// `data[0].shape`.
            data0: Dims,
            /// The rank of `indices[0]`.
            rank0: usize,
            /// `data[m].shape`.
            data: Dims,
            /// The rank of `indices[m]`.
            rank: usize,
        } => "dynamic_stitch/slice",
            ("dynamic_stitch: every pair needs the same slice shape, but data[0].shape = {data0} after \
                indices[0].shape = {} leaves {}, and data[{m}].shape = {data} after \
                indices[{m}].shape = {} leaves {}",
                Part(data0, ..*rank0),
                Part(data0, *rank0..),
                Part(data, ..*rank),
                Part(data, *rank..)),
        /// A negative index: `indices[m]` at flat position `j` (TensorFlow:
        /// `"indices[j] is out of range"`).
        NegativeIndex {
            /// The pair.
            m: usize,
            /// The flat (row-major) position in `indices[m]`.
            j: usize,
            /// The value.
            value: i64,
        } => "dynamic_stitch/negative-index",
            ("dynamic_stitch: indices[{m}][{j}] = {value} is out of range: an index must not be negative"),
        /// The largest index, `indices[m]` at flat position `j`, asks for
        /// `value + 1` rows of `slice`: more elements than `usize` counts (or
        /// than the platform's `usize` holds). TensorFlow overflows its `int32`
        /// row count on an index of 2^31 - 1.
        TooManyRows {
            /// The pair holding the largest index.
            m: usize,
            /// Its flat position in `indices[m]`.
            j: usize,
            /// The value.
            value: i64,
            /// The slice shape.
            slice: Dims,
        } => "dynamic_stitch/rows-overflow",
            ("dynamic_stitch: indices[{m}][{j}] = {value} asks for {value} + 1 rows of slice {slice}: \
                the output's element count overflows usize"),
        /// dynamic_partition: `data.shape` does not start with `partitions.shape`.
        PartitionPrefix {
            /// `partitions.shape`.
            partitions: Dims,
            /// `data.shape`.
            data: Dims,
        } => "dynamic_partition/prefix",
            ("dynamic_partition: data.shape must start with partitions.shape, got data.shape = {data}, \
                partitions.shape = {partitions}"),
        /// dynamic_partition: a partition value outside `[0, num)`.
        PartitionOutOfRange {
            /// The flat (row-major) position in `partitions`.
            position: usize,
            /// The value.
            value: i64,
            /// The number of partitions.
            num: usize,
        } => "dynamic_partition/range",
            ("dynamic_partition: partitions[{position}] = {value} is not in [0, {num})"),
        /// dynamic_partition with 0 partitions (the static path does not compile).
        NoPartitions => "dynamic_partition/num",
            ("dynamic_partition: num_partitions must be at least 1"),
        /// The caller's buffer is shorter than the output.
        BufferTooSmall {
            /// The output's dims (for dynamic_partition: data's, whose element
            /// count all the outputs share).
            dims: Dims,
            /// Elements needed.
            needed: usize,
            /// The buffer's length.
            len: usize,
        } => "dynamic_stitch/buffer",
            ("the output {dims} needs {needed} elements, but the buffer holds {len}"),
        /// Backward: the upstream gradient `dout` has another shape than
        /// the stitched output.
        DoutShape {
            /// The output's dims, by the forward's rule.
            out: Dims,
            /// `dout`'s dims.
            dout: Dims,
        } => "dynamic_stitch/dout-shape",
            ("dynamic_stitch backward: dout must have the output's shape {out}, but it is {dout}"),
        /// Backward: not one gradient buffer per pair.
        GradCount {
            /// The number of pairs.
            pairs: usize,
            /// The number of gradients given.
            grads: usize,
        } => "dynamic_stitch/grad-count",
            ("dynamic_stitch backward: one gradient per pair, but {pairs} pairs and {grads} gradients"),
        /// Backward: the upstream gradient of output `partition` has
        /// another shape than that output.
        PartitionDoutShape {
            /// Which output.
            partition: usize,
            /// The output's dims, by the forward's rule.
            out: Dims,
            /// Its `dout`'s dims.
            dout: Dims,
        } => "dynamic_partition/dout-shape",
            ("dynamic_partition backward: dout[{partition}] must have output {partition}'s shape {out}, but it is {dout}"),
        /// Backward: not one upstream gradient per output.
        PartitionDoutCount {
            /// The number of partitions.
            num: usize,
            /// The number of gradients given.
            douts: usize,
        } => "dynamic_partition/dout-count",
            ("dynamic_partition backward: one dout per partition, but {num} partitions and {douts} douts"),
    }
    /// The stable identifier of the rule this error reports, as the first
    /// words of the compile error for the same shapes: `dynamic_stitch/pairs`,
    /// `dynamic_stitch/prefix`, `dynamic_stitch/slice`,
    /// `dynamic_stitch/negative-index`, `dynamic_stitch/rows-overflow`,
    /// `dynamic_stitch/rank` (a `Shape(RankTooLarge)`: the output's rank
    /// above 8, or an input's given to [`StitchPair::new`](crate::StitchPair::new)),
    /// `dynamic_partition/prefix`,
    /// `dynamic_partition/num`, `dynamic_partition/range`,
    /// `dynamic_stitch/buffer` (a caller's buffer, either op), the
    /// backwards' `dynamic_stitch/dout-shape`, `dynamic_stitch/grad-count`,
    /// `dynamic_partition/dout-shape`, `dynamic_partition/dout-count`, or the
    /// [`ShapeError::rule`] of another `Shape` error.
    ///
    /// ```
    /// use shapecheck::StitchError;
    /// assert_eq!(StitchError::NoPartitions.rule(), "dynamic_partition/num");
    /// ```
    fn rule;
    /// A shape that does not fit its data, a rank above 8, an element count
    /// that overflows, a failed allocation.
    Shape(ShapeError) => |e| match e { ShapeError::RankTooLarge { .. } => "dynamic_stitch/rank", _ => e.rule() }, ("{e}");
}

/// A range of `dims`, displayed as `[..]`.
struct Part<'a, R>(&'a Dims, R);

impl<R: core::slice::SliceIndex<[usize], Output = [usize]> + Clone> fmt::Display for Part<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = self.0.as_slice().get(self.1.clone()).unwrap_or(&[]);
        match Dims::new(part) {
            Ok(d) => fmt::Display::fmt(&d, f),
            Err(_) => f.write_str("[?]"),
        }
    }
}
