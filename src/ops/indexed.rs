//! What dynamic_stitch and dynamic_partition share: their index element
//! types (`i32`, `i64`: [`StitchIndex`]) and index values of either type
//! ([`IndexSlice`]); the output shape `[rows] + slice` as a value
//! (`with_rows`) and as a type ([`PrependDyn`]); the front of a caller's
//! buffer (`prefix_of`); and the two ops' one error enum, [`StitchError`].
//! Both ops' folders import it; neither reaches into the other's.

use crate::dim::StaticDims;
use crate::error::ShapeError;
use crate::shape::{static_dims, static_numel, Dims, Shape, MAX_RANK};
use core::fmt;

/// Index values of either index type, borrowed.
///
/// ```
/// use shapecheck::IndexSlice;
/// let s = IndexSlice::I32(&[4, -1]);
/// assert_eq!(s.len(), 2);
/// assert_eq!(s.values().collect::<Vec<i64>>(), vec![4, -1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexSlice<'a> {
    /// `i32` values.
    I32(&'a [i32]),
    /// `i64` values.
    I64(&'a [i64]),
}

impl<'a> IndexSlice<'a> {
    /// The number of values.
    ///
    /// ```
    /// use shapecheck::IndexSlice;
    /// assert_eq!(IndexSlice::I64(&[1, 2, 3]).len(), 3);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            IndexSlice::I32(s) => s.len(),
            IndexSlice::I64(s) => s.len(),
        }
    }

    /// `true` if there is no value.
    ///
    /// ```
    /// use shapecheck::IndexSlice;
    /// assert!(IndexSlice::I32(&[]).is_empty());
    /// assert!(!IndexSlice::I64(&[0]).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values as `i64`, in order.
    ///
    /// ```
    /// use shapecheck::IndexSlice;
    /// let v: Vec<i64> = IndexSlice::I32(&[3, i32::MIN]).values().collect();
    /// assert_eq!(v, vec![3, i64::from(i32::MIN)]);
    /// ```
    pub fn values(&self) -> impl Iterator<Item = i64> + Clone + 'a {
        let (a, b): (&'a [i32], &'a [i64]) = match *self {
            IndexSlice::I32(s) => (s, &[]),
            IndexSlice::I64(s) => (&[], s),
        };
        a.iter().map(|&v| i64::from(v)).chain(b.iter().copied())
    }
}

/// `[rows] + slice` as dims; an error if the rank exceeds [`MAX_RANK`].
pub(crate) fn with_rows(rows: usize, slice: &[usize]) -> Result<Dims, StitchError> {
    let mut buf = [0usize; MAX_RANK + 1];
    let dst = buf
        .get_mut(1..=slice.len())
        .ok_or(ShapeError::RankTooLarge {
            rank: slice.len() + 1,
        })?;
    dst.copy_from_slice(slice);
    if let Some(first) = buf.first_mut() {
        *first = rows;
    }
    Ok(Dims::new(buf.get(..=slice.len()).unwrap_or(&[]))?)
}

/// The first `numel(dims)` elements of `buf`, or [`StitchError::BufferTooSmall`].
pub(crate) fn prefix_of<'b, T>(buf: &'b mut [T], dims: &Dims) -> Result<&'b mut [T], StitchError> {
    let needed = dims.try_numel()?;
    let len = buf.len();
    buf.get_mut(..needed).ok_or(StitchError::BufferTooSmall {
        dims: *dims,
        needed,
        len,
    })
}

mod sealed {
    /// What an index type needs besides [`StitchIndex`](super::StitchIndex)'s
    /// public method (crate-private: the trait cannot be named outside).
    #[doc(hidden)]
    pub trait Sealed: Copy + Ord {
        /// `Self`, named through this trait: for any other element type the
        /// name has no impl, so a builder holding it after a failed
        /// index-element rule reports nothing more (see `StitchIndexLink` in
        /// `ops/stitch/bounds.rs`).
        type Index: super::StitchIndex;
        /// The value as `i64` (what the errors report).
        fn to_i64(self) -> i64;
        /// The values as [`Index`](Self::Index)s (the same slice).
        fn same(s: &[Self]) -> &[Self::Index];
    }
}
pub(crate) use sealed::Sealed;

/// An index element type of dynamic_stitch / dynamic_partition: `i32`
/// (TensorFlow's) or `i64`.
///
/// ```
/// use shapecheck::prelude::*;
/// // i32 and i64 indices in one call
/// let merged = dynamic_stitch(&tensor![1i32, 0], &tensor![10, 20])
///     .pair(&tensor![2i64], &tensor![30])
///     .run()
///     .unwrap();
/// assert_eq!(merged.as_slice(), &[20, 10, 30]);
/// ```
///
/// Other index types are a compile error ("dynamic_stitch/index-element:
/// indices must hold i32 or i64, not `u32`"):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let _ = dynamic_stitch(&tensor![0u32, 1], &tensor![1.0f32, 2.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "dynamic_stitch/index-element: indices must hold i32 or i64, not `{Self}`",
    label = "an integer tensor of i32 or i64 is needed here",
    note = "TensorFlow: indices and partitions are int32 tensors"
)]
pub trait StitchIndex: Copy + 'static + sealed::Sealed {
    /// The values, type-erased.
    ///
    /// ```
    /// use shapecheck::{IndexSlice, StitchIndex};
    /// assert_eq!(<i32 as StitchIndex>::index_slice(&[4, 1]), IndexSlice::I32(&[4, 1]));
    /// assert_eq!(<i64 as StitchIndex>::index_slice(&[7]).values().collect::<Vec<_>>(), vec![7]);
    /// ```
    fn index_slice(s: &[Self]) -> IndexSlice<'_>;
}

impl sealed::Sealed for i32 {
    type Index = i32;
    #[inline(always)]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    #[inline(always)]
    fn same(s: &[i32]) -> &[i32] {
        s
    }
}

impl sealed::Sealed for i64 {
    type Index = i64;
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self
    }
    #[inline(always)]
    fn same(s: &[i64]) -> &[i64] {
        s
    }
}

#[diagnostic::do_not_recommend]
impl StitchIndex for i32 {
    fn index_slice(s: &[i32]) -> IndexSlice<'_> {
        IndexSlice::I32(s)
    }
}

#[diagnostic::do_not_recommend]
impl StitchIndex for i64 {
    fn index_slice(s: &[i64]) -> IndexSlice<'_> {
        IndexSlice::I64(s)
    }
}

/// `(Dyn,) + Self`: the output shape `[rows] + slice`, whose row count is
/// only known at run time. Implemented for slices of rank 0 to 7 (generated
/// by `shapecheck_macros::impl_stitch_rules!` in `ops/stitch/bounds.rs`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::PrependDyn;
/// let _: Option<<shape![3] as PrependDyn>::Out> = Some((Dyn(5), Dim::<3>));
/// assert_eq!((Dim::<3>,).prepend(5).dims().as_slice(), &[5, 3]);
/// ```
#[diagnostic::on_unimplemented(
    message = "dynamic_stitch/rank: the output [rows] + slice {Self} would have rank 9, above the maximum of 8",
    label = "the slice has rank 8"
)]
#[doc(hidden)]
pub trait PrependDyn: Shape {
    /// `(Dyn, D0, D1, ..)`.
    type Out: Shape;
    /// `(Dyn(rows), d0, d1, ..)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::stitch::PrependDyn;
    /// assert_eq!((Dim::<3>, One).prepend(5), (Dyn(5), Dim::<3>, One));
    /// assert_eq!(().prepend(4), (Dyn(4),));
    /// ```
    fn prepend(self, rows: usize) -> Self::Out;
}

/// `Self` and `R` are the same shape (both with `Dyn` rows): the link of
/// [`StitchDout`].
#[doc(hidden)]
pub trait SameRows<R> {}
impl<R> SameRows<R> for R {}

/// The slice's dims as constants when every one is static: what lets
/// stitch's static builder (`Stitch::run_into`) and dynamic_partition's
/// static forms skip the run-time shape rule.
/// Implemented for every shape of rank 0 to 8 (a bound the builder's
/// methods can carry without adding an error of their own to the rank
/// rule's); the per-rank impls, generated by
/// `shapecheck_macros::impl_stitch_rules!`, give only
/// [`STATIC_DIMS`](Self::STATIC_DIMS).
#[doc(hidden)]
pub trait StaticSlice {
    /// The dims as the compiler knows them (`None` for a [`Dyn`](crate::Dyn)).
    const STATIC_DIMS: StaticDims;
    /// The dims, `None` with a [`Dyn`](crate::Dyn).
    const STATIC_SLICE: Option<Dims> = static_dims(Self::STATIC_DIMS);
    /// Their element count ([`static_numel`]: 0 if a dim is 0; `None` with
    /// a [`Dyn`](crate::Dyn) or if the count overflows).
    const STATIC_NUMEL: Option<usize> = static_numel(Self::STATIC_DIMS);
}

crate::error::rule_errors! {
    /// Why a `dynamic_stitch` or `dynamic_partition` call was rejected. Every
    /// variant is found before any output element is written.
    ///
    /// ```
    /// use shapecheck::StitchError;
    /// assert_eq!(StitchError::NoPairs.rule(), "dynamic_stitch/pairs");
    /// ```
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
