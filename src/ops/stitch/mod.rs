//! TensorFlow's `dynamic_stitch` and `dynamic_partition` (TF 2.21).
//!
//! ## dynamic_stitch: the rule
//! Inputs are pairs `(indices[m], data[m])`, `m = 0..N`, `N >= 1`:
//! - `indices[m]` holds `i32` or `i64` values, of any rank (a scalar too);
//! - `data[m].shape` starts with `indices[m].shape` (the **prefix rule**);
//!   what follows, the *slice*, is the same for every m (the **slice rule**);
//! - `merged[indices[m][j], ...] = data[m][j, ...]` (j a flat position);
//!   the output is `[rows] + slice`, `rows = max index + 1` (0 when every
//!   indices tensor is empty);
//! - rows no index names are zero (`T::default()`), as TensorFlow's kernel
//!   does today (before TF 2.4 they were uninitialised, issue #43491);
//! - of two equal indices, the later `(m, j)` wins (TensorFlow's CPU kernel
//!   runs in order);
//! - a negative index is an error naming the pair and the position
//!   (TensorFlow: `"indices[j] is out of range"`); so is an index so large that
//!   the output's element count overflows `usize` (TensorFlow overflows its
//!   `int32` row count on 2^31 - 1), or that does not fit a caller's buffer.
//!
//! Taking *pairs* makes a different number of index and data tensors
//! impossible to write (CVE-2022-41883 was that mismatch).
//!
//! ## dynamic_partition: the rule
//! `dynamic_partition(&data, &partitions, Partitions::<NUM>)`: `data.shape` starts with
//! `partitions.shape`; output `i` stacks, in row-major order, the slices
//! `data[j, ...]` whose `partitions[j] == i`, shape `[count_i] + slice`; a
//! partition value outside `[0, NUM)` is an error naming its position and
//! value (TensorFlow: `"partitions[j] = v is not in [0, NUM)"`); `NUM >= 1`.
//!
//! ## What is static, what is `Dyn`
//! The output's first dim, `rows` (stitch) or `count_i` (partition), depends
//! on the index *values*: it is [`Dyn`](crate::Dyn). The slice dims come from
//! the data's type and stay static: stitching `shape![2, 4]` data gives a
//! `Tensor<T, (Dyn, Dim<4>), _>`. The prefix and slice rules are compile
//! errors on the static path ([`bounds`]); the values (negative or huge
//! indices, partition values, `Dyn` dims) are checked at run time by the one
//! rule of each op ([`stitch_output_dims`], [`partition_slice_dims`]), which
//! the static and dynamic paths share. One exception: a [`Stitch`] whose
//! pairs and slice have only static dims skips the shape part of that rule
//! (the types proved it) and only scans the index values, in the rule's
//! order and with its errors (`NegativeIndex`, `TooManyRows`); its loops
//! are generated per pair, with the slice length a constant.
//!
//! ## Static path: why a builder
//! [`Stitch`] starts from one pair and takes more with `.pair(&indices,
//! &data)`, each checked at compile time against the slice of the first pair
//! (carried in the builder's type). Pairs may have different ranks and index
//! types in one call. A builder scales to any N with one generic method, no
//! impl or macro arm per N, and no heap: the pairs are borrowed and kept in a
//! list nested in the builder's type (`(((), pair0), pair1)`), so there is no
//! capacity to choose either. (A `stitch!` macro would work too, but its
//! errors would point into an expansion; a fixed-capacity array would cap
//! N.) Then `.run()` (feature `alloc`) returns an owned tensor and
//! `.run_into(&mut buf)` writes into a caller's buffer and returns a view of
//! its prefix. `.run()` reserves the rows the largest index asks for
//! (fallibly): with untrusted indices, `.run_into` bounds the memory.
//!
//! TensorFlow's own example (`ui-tests/stitch/pass/seed_example.rs`):
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::dynamic_stitch;
//! let i0 = Tensor::<i32, shape![]>::from_array(6);
//! let i1 = Tensor::<i32, shape![2]>::from_array([4, 1]);
//! let i2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 2], [0, 3]]);
//! let d0 = Tensor::<i32, shape![2]>::from_array([61, 62]);
//! let d1 = Tensor::<i32, shape![2, 2]>::from_array([[41, 42], [11, 12]]);
//! let d2 = Tensor::<i32, shape![2, 2, 2]>::from_array([[[51, 52], [21, 22]], [[1, 2], [31, 32]]]);
//! let stitch = dynamic_stitch(&i0, &d0).pair(&i1, &d1).pair(&i2, &d2);
//!
//! // with a heap: an owned (Dyn, Dim<2>) tensor
//! let merged: Tensor<i32, (Dyn, Dim<2>), Vec<i32>> = stitch.run().unwrap();
//! assert_eq!(merged.dims().as_slice(), &[7, 2]);
//! assert_eq!(merged.as_slice(), &[1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62]);
//!
//! // without: a view over the front of a caller's buffer
//! let mut buf = [0; 16];
//! let view = stitch.run_into(&mut buf).unwrap();
//! assert_eq!(view.dims().as_slice(), &[7, 2]);
//! let mut small = [-1; 8];
//! let err = stitch.run_into(&mut small).unwrap_err();
//! assert_eq!(err.to_string(), "the output [7, 2] needs 14 elements, but the buffer holds 8");
//! assert_eq!(small, [-1; 8]);
//! ```
//! A pair whose data does not start with its indices does not compile
//! (`ui-tests/stitch/fail/prefix.rs`: "dynamic_stitch: data (Dim<2>, Dim<4>)
//! does not start with indices (Dim<3>,)"):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let i = Tensor::<i32, shape![3]>::from_array([0, 1, 2]);
//! let d = Tensor::<f32, shape![2, 4]>::full(1.0);
//! let _ = shapecheck::dynamic_stitch(&i, &d);
//! ```
//! nor one whose slice differs from the first pair's
//! (`ui-tests/stitch/fail/slice.rs`: slice `[3, 4]` after `[4]`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let i0 = Tensor::<i32, shape![2]>::from_array([0, 1]);
//! let d0 = Tensor::<f32, shape![2, 4]>::full(1.0);
//! let i1 = Tensor::<i32, shape![2]>::from_array([2, 3]);
//! let d1 = Tensor::<f32, shape![2, 3, 4]>::full(2.0);
//! let _ = shapecheck::dynamic_stitch(&i0, &d0).pair(&i1, &d1);
//! ```
//! The round trip, with `dynamic_partition` (TensorFlow's doc example):
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{dynamic_partition, dynamic_stitch, Partitions};
//! let x = Tensor::<f32, shape![6]>::from_array([0.1, -1., 5.2, 4.3, -1., 7.4]);
//! let p = Tensor::<i32, shape![6]>::from_array([1, 0, 1, 1, 0, 1]); // x != -1
//! let ids = Tensor::<i32, shape![6]>::from_fn(|i| i[0] as i32);
//! let [ids0, ids1] = dynamic_partition(&ids, &p, Partitions::<2>).unwrap();
//! let [x0, mut x1] = dynamic_partition(&x, &p, Partitions::<2>).unwrap();
//! x1.as_mut_slice().iter_mut().for_each(|v| *v += 1.0);
//! let y = dynamic_stitch(&ids0, &x0).pair(&ids1, &x1).run().unwrap();
//! assert_eq!(y.as_slice(), &[1.1, -1., 6.2, 5.3, -1., 8.4]);
//! let err = dynamic_partition(&x, &p, Partitions::<1>).unwrap_err();
//! assert_eq!(err.to_string(), "dynamic_partition: partitions[0] = 1 is not in [0, 1)");
//! ```
//!
//! ## Dynamic path
//! [`stitch_slices`] and [`partition_slices`] take run-time dims over
//! slices and write into caller buffers (no heap); with `alloc`,
//! [`DynTensor::dynamic_stitch`](crate::DynTensor::dynamic_stitch) and
//! [`DynTensor::dynamic_partition`](crate::DynTensor::dynamic_partition).
//!
//! ## Where TensorFlow's docs and implementation differ
//! - Older docs give `merged.shape = [max(indices)] + constant`, one row
//!   short; the kernel allocates `max + 1` rows, as here.
//! - The docs say indices are `int32`; `i64` indices are accepted here too.
//! - The docs do not say what fills rows no index names: the kernel zeroes
//!   them (since TF 2.4), as here.
//! - `dynamic_partition`'s docs do not require `num_partitions >= 1`; its
//!   GPU kernel does ("num_partitions must be at least 1"), and so do we.

pub mod bounds;
mod builder;
mod dynamic;
mod error;
mod kernel;
mod pairs;
mod partition;
pub mod rule;

pub use builder::{
    dynamic_stitch, stitch_slices, FirstSlice, FirstStitch, NextSlice, Stitch, StitchPairs,
};
pub use error::StitchError;
#[cfg(feature = "alloc")]
pub use partition::dynamic_partition;
pub use partition::{dynamic_partition_into, partition_slices, Partitions};
pub use rule::{partition_slice_dims, stitch_output_dims};

use crate::shape::Dims;

mod sealed {
    pub trait Sealed {
        /// The value as `i64` (what the errors report).
        fn to_i64(self) -> i64;
    }
}

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
    #[inline(always)]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
}
impl sealed::Sealed for i64 {
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self
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

/// One `(indices, data)` pair of dynamic_stitch as run-time values: dims and
/// borrowed data (no heap). The rule checks that each holds as many values
/// as its dims say.
///
/// ```
/// use shapecheck::{stitch_slices, StitchPair};
/// // indices [2] over data [2, 2], and a scalar index over data [2]: slice [2]
/// let p0 = StitchPair::new(&[2], &[1i32, 0], &[2, 2], &[10, 11, 20, 21]).unwrap();
/// let p1 = StitchPair::new(&[], &[2i64], &[2], &[30, 31]).unwrap();
/// let mut out = [0; 8];
/// let dims = stitch_slices(&[p0, p1], &mut out).unwrap();
/// assert_eq!(dims.as_slice(), &[3, 2]);
/// assert_eq!(out[..6], [20, 21, 10, 11, 30, 31]);
/// ```
#[derive(Debug)]
pub struct StitchPair<'a, T> {
    pub(crate) indices_dims: Dims,
    pub(crate) indices: IndexSlice<'a>,
    pub(crate) data_dims: Dims,
    pub(crate) data: &'a [T],
}

impl<T> Clone for StitchPair<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for StitchPair<'_, T> {}

impl<'a, T> StitchPair<'a, T> {
    /// A pair; an error only if a rank exceeds [`MAX_RANK`](crate::MAX_RANK)
    /// (lengths are checked by the op).
    ///
    /// ```
    /// use shapecheck::{stitch_slices, StitchPair};
    /// let err = StitchPair::new(&[1; 9], &[0i32], &[1], &[5]).unwrap_err();
    /// assert_eq!(err.rule(), "dynamic_stitch/rank");
    /// // a length that does not match the dims is found by the op
    /// let short = StitchPair::new(&[3], &[0i32], &[3], &[1, 2, 3]).unwrap();
    /// let err = stitch_slices(&[short], &mut [0; 3]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// ```
    pub fn new<I: StitchIndex>(
        indices_dims: &[usize],
        indices: &'a [I],
        data_dims: &[usize],
        data: &'a [T],
    ) -> Result<Self, StitchError> {
        Ok(StitchPair {
            indices_dims: Dims::new(indices_dims)?,
            indices: I::index_slice(indices),
            data_dims: Dims::new(data_dims)?,
            data,
        })
    }
}
