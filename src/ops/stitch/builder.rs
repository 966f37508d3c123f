//! dynamic_stitch: the static builder [`Stitch`] and the caller-buffer form
//! over run-time dims, [`stitch_slices`].

use super::bounds::{PrependDyn, StaticSlice, StitchPrefix, StitchSliceOf};
use super::{kernel, rule, StitchError, StitchIndex, StitchPair};
use crate::shape::{Dims, Shape, MAX_RANK};
use crate::storage::Storage;
use crate::tensor::Tensor;
use core::marker::PhantomData;

mod sealed {
    use super::super::{StitchError, StitchPair};

    /// The largest index seen so far and where (`value` -1: none yet).
    pub struct MaxIndex {
        pub value: i64,
        pub m: usize,
        pub j: usize,
    }

    /// The static path's loops over the pairs, one per pair, generated for
    /// each pair's types (crate-private: the trait cannot be named outside).
    pub trait Sealed<'a, T> {
        /// Every pair's tensors have only static dims: their shapes passed
        /// the prefix and slice rules at compile time, and each holds as
        /// many elements as its shape (a tensor's invariant).
        const STATIC: bool;
        /// Pair `m` as run-time values.
        fn pair(&self, m: usize) -> Option<StitchPair<'a, T>>;
        /// Every index value in (m, j) order: the first negative one is the
        /// error; `max` gets the first of the largest.
        fn scan(&self, max: &mut MaxIndex) -> Result<(), StitchError>;
        /// Row `indices[m][j]` of `out` (rows of `n > 0` elements) gets
        /// row `j` of `data[m]`, in (m, j) order.
        fn copy(&self, out: &mut [T], n: usize);
    }
}
use sealed::MaxIndex;

/// The `(indices, data)` pairs a [`Stitch`] holds: a list nested in its type,
/// `((((), pair0), pair1), pair2)`, each pair the two tensors borrowed, no
/// heap.
pub trait StitchPairs<'a, T>: Copy + sealed::Sealed<'a, T> {
    /// The number of pairs.
    const LEN: usize;
    /// Pair `m` (0 is the first given).
    fn get(&self, m: usize) -> Option<StitchPair<'a, T>> {
        self.pair(m)
    }
}

impl<'a, T> sealed::Sealed<'a, T> for () {
    const STATIC: bool = true;
    fn pair(&self, _m: usize) -> Option<StitchPair<'a, T>> {
        None
    }
    #[inline(always)]
    fn scan(&self, _max: &mut MaxIndex) -> Result<(), StitchError> {
        Ok(())
    }
    #[inline(always)]
    fn copy(&self, _out: &mut [T], _n: usize) {}
}
impl<'a, T> StitchPairs<'a, T> for () {
    const LEN: usize = 0;
}

/// One pair as a [`Stitch`] keeps it: its indices and its data, borrowed.
pub type PairOf<'a, T, I, IS, IB, DS, DB> = (&'a Tensor<I, IS, IB>, &'a Tensor<T, DS, DB>);

impl<'a, T, L, I, IS, IB, DS, DB> sealed::Sealed<'a, T> for (L, PairOf<'a, T, I, IS, IB, DS, DB>)
where
    T: Copy,
    L: StitchPairs<'a, T>,
    I: StitchIndex,
    IS: Shape,
    IB: Storage<I>,
    DS: Shape,
    DB: Storage<T>,
{
    const STATIC: bool = L::STATIC && IS::IS_STATIC && DS::IS_STATIC;

    fn pair(&self, m: usize) -> Option<StitchPair<'a, T>> {
        if m == L::LEN {
            Some(pair_of(self.1 .0, self.1 .1))
        } else {
            self.0.pair(m)
        }
    }

    #[inline(always)]
    fn scan(&self, max: &mut MaxIndex) -> Result<(), StitchError> {
        self.0.scan(max)?;
        let m = L::LEN;
        for (j, &v) in self.1 .0.as_slice().iter().enumerate() {
            let value = v.to_i64();
            if value < 0 {
                return Err(StitchError::NegativeIndex { m, j, value });
            }
            if value > max.value {
                *max = MaxIndex { value, m, j };
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn copy(&self, out: &mut [T], n: usize) {
        self.0.copy(out, n);
        let (indices, data) = self.1;
        let rows = data.as_slice().chunks_exact(n);
        for (&v, src) in indices.as_slice().iter().zip(rows) {
            // `scan` accepted every value (0 <= v < rows, and `out` holds
            // rows * n elements); the checked slicing below cannot fail, and
            // would skip the row rather than panic
            let Ok(k) = usize::try_from(v.to_i64()) else {
                continue;
            };
            let dst = k
                .checked_mul(n)
                .and_then(|s| out.get_mut(s..s.checked_add(n)?));
            if let Some(dst) = dst {
                dst.copy_from_slice(src);
            }
        }
    }
}

impl<'a, T, L, I, IS, IB, DS, DB> StitchPairs<'a, T> for (L, PairOf<'a, T, I, IS, IB, DS, DB>)
where
    T: Copy,
    L: StitchPairs<'a, T>,
    I: StitchIndex,
    IS: Shape,
    IB: Storage<I>,
    DS: Shape,
    DB: Storage<T>,
{
    const LEN: usize = L::LEN + 1;
}

/// dynamic_stitch on static shapes: a builder of `(indices, data)` pairs
/// whose type carries the slice shape `S0` (of the first pair) and the
/// output shape `O = (Dyn, S0..)`. See the [module docs](super) for the rule
/// and an example.
///
/// Each pair's prefix rule and slice rule are checked at compile time; the
/// index values when it runs ([`run`](Self::run), [`run_into`](Self::run_into)).
pub struct Stitch<'a, T, S0, O, L> {
    pairs: L,
    _slice: PhantomData<(&'a [T], S0, O)>,
}

impl<T, S0, O, L: Copy> Clone for Stitch<'_, T, S0, O, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, S0, O, L: Copy> Copy for Stitch<'_, T, S0, O, L> {}

/// The pair of two tensors as run-time values.
fn pair_of<'a, T: Copy, I: StitchIndex, IS: Shape, IB: Storage<I>, DS: Shape, DB: Storage<T>>(
    indices: &'a Tensor<I, IS, IB>,
    data: &'a Tensor<T, DS, DB>,
) -> StitchPair<'a, T> {
    StitchPair {
        indices_dims: indices.dims(),
        indices: I::index_slice(indices.as_slice()),
        data_dims: data.dims(),
        data: data.as_slice(),
    }
}

/// `Stitch::new(indices, data)`: a builder with its first pair.
///
/// ```
/// use shapecheck::prelude::*;
/// let i = Tensor::<i64, shape![2]>::from_array([1, 0]);
/// let d = Tensor::<f32, shape![2, 3]>::from_array([[1., 2., 3.], [4., 5., 6.]]);
/// let out = shapecheck::dynamic_stitch(&i, &d).run().unwrap();
/// assert_eq!(out.as_slice(), &[4., 5., 6., 1., 2., 3.]);
/// ```
#[allow(clippy::type_complexity)]
pub fn dynamic_stitch<'a, T, I, IS, IB, DS, DB, S0, O>(
    indices: &'a Tensor<I, IS, IB>,
    data: &'a Tensor<T, DS, DB>,
) -> Stitch<'a, T, S0, O, ((), (&'a Tensor<I, IS, IB>, &'a Tensor<T, DS, DB>))>
where
    T: Copy,
    I: StitchIndex,
    IS: Shape,
    IB: Storage<I>,
    DS: StitchPrefix<IS, Slice = S0>,
    DB: Storage<T>,
    S0: PrependDyn<Out = O>,
{
    Stitch {
        pairs: ((), (indices, data)),
        _slice: PhantomData,
    }
}

impl<'a, T: Copy> Stitch<'a, T, (), (), ()> {
    /// The builder with its first pair (the same as [`dynamic_stitch`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Stitch;
    /// let i = Tensor::<i32, shape![1]>::from_array([2]);
    /// let d = Tensor::<i64, shape![1, 2]>::from_array([[5, 6]]);
    /// let out = Stitch::new(&i, &d).run().unwrap();
    /// assert_eq!(out.as_slice(), &[0, 0, 0, 0, 5, 6]); // rows 0 and 1: zeros
    /// ```
    #[allow(clippy::type_complexity, clippy::new_ret_no_self)]
    pub fn new<I, IS, IB, DS, DB, S0, O>(
        indices: &'a Tensor<I, IS, IB>,
        data: &'a Tensor<T, DS, DB>,
    ) -> Stitch<'a, T, S0, O, ((), (&'a Tensor<I, IS, IB>, &'a Tensor<T, DS, DB>))>
    where
        I: StitchIndex,
        IS: Shape,
        IB: Storage<I>,
        DS: StitchPrefix<IS, Slice = S0>,
        DB: Storage<T>,
        S0: PrependDyn<Out = O>,
    {
        dynamic_stitch(indices, data)
    }
}

impl<'a, T, S0, O, L> Stitch<'a, T, S0, O, L>
where
    T: Copy,
    S0: Shape + StaticSlice,
    O: Shape,
    L: StitchPairs<'a, T>,
{
    /// One more pair: `data`'s shape must start with `indices`' shape and
    /// leave the slice `S0` of the first pair (both compile errors).
    #[allow(clippy::type_complexity)]
    pub fn pair<I, IS, IB, DS, DB>(
        self,
        indices: &'a Tensor<I, IS, IB>,
        data: &'a Tensor<T, DS, DB>,
    ) -> Stitch<'a, T, S0, O, (L, (&'a Tensor<I, IS, IB>, &'a Tensor<T, DS, DB>))>
    where
        I: StitchIndex,
        IS: Shape,
        IB: Storage<I>,
        DS: StitchPrefix<IS> + StitchSliceOf<IS, S0>,
        DB: Storage<T>,
    {
        Stitch {
            pairs: (self.pairs, (indices, data)),
            _slice: PhantomData,
        }
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        L::LEN
    }

    /// `false`: a builder always has its first pair.
    pub fn is_empty(&self) -> bool {
        L::LEN == 0
    }

    fn iter(&self) -> impl Iterator<Item = StitchPair<'a, T>> + Clone + '_ {
        (0..L::LEN).filter_map(|m| self.pairs.get(m))
    }

    /// The output dims `[rows] + slice` by the op's rule (checks every index value).
    pub fn output_dims(&self) -> Result<Dims, StitchError> {
        rule::stitch_output_dims(self.iter())
    }

    /// The output shape value for dims the rule returned.
    fn out_shape(dims: &Dims) -> Result<O, StitchError> {
        Ok(O::from_dims(dims)?)
    }

    /// With every shape static (`S0::STATIC_NUMEL` and `L::STATIC`), the
    /// output's rows and element count from the index values alone: the
    /// types proved the prefix and slice rules, and each tensor holds its
    /// shape's element count, so of the rule only the index scan is left
    /// (its errors, `NegativeIndex` and `TooManyRows`, are the rule's own,
    /// found in the same order). `None`: some dim is `Dyn`, the rule runs.
    #[inline(always)]
    fn static_rows(&self) -> Option<Result<(usize, usize), StitchError>> {
        let (true, Some(n), Some(slice)) = (L::STATIC, S0::STATIC_NUMEL, S0::STATIC_SLICE) else {
            return None;
        };
        let mut max = MaxIndex {
            value: -1,
            m: 0,
            j: 0,
        };
        if let Err(e) = self.pairs.scan(&mut max) {
            return Some(Err(e));
        }
        if max.value < 0 {
            return Some(Ok((0, 0)));
        }
        let too_many = StitchError::TooManyRows {
            m: max.m,
            j: max.j,
            value: max.value,
            slice,
        };
        // as the rule: `value + 1` rows, and their element count (0 if
        // the slice has a 0) must fit `usize`
        let rows = max
            .value
            .checked_add(1)
            .and_then(|r| usize::try_from(r).ok());
        let needed = match (rows, n) {
            (Some(r), 0) => Some((r, 0)),
            (Some(r), n) => r.checked_mul(n).map(|k| (r, k)),
            (None, _) => None,
        };
        Some(needed.ok_or(too_many))
    }

    /// The static path after [`static_rows`](Self::static_rows): copies
    /// the rows into `out` (the output's elements, zeroed).
    #[inline(always)]
    fn static_copy(&self, out: &mut [T]) {
        if let Some(n @ 1..) = S0::STATIC_NUMEL {
            self.pairs.copy(out, n);
        }
    }

    /// The output shape `(Dyn(rows), slice..)` of the static path (with
    /// constant slice dims, the conversion's checks fold away).
    #[inline(always)]
    fn static_out(rows: usize) -> Result<O, StitchError> {
        let slice = S0::STATIC_SLICE.unwrap_or(Dims::SCALAR);
        let slice = slice.as_slice();
        let mut buf = [0usize; MAX_RANK + 1];
        if let Some((first, rest)) = buf.split_first_mut() {
            *first = rows;
            if let Some(rest) = rest.get_mut(..slice.len()) {
                rest.copy_from_slice(slice);
            }
        }
        Ok(O::from_dims(buf.get(..=slice.len()).unwrap_or(&[]))?)
    }

    /// The output dims `[rows] + slice` of the static path, for its errors.
    fn static_dims(rows: usize) -> Dims {
        let slice = S0::STATIC_SLICE.unwrap_or(Dims::SCALAR);
        rule::with_rows(rows, &slice).unwrap_or(slice)
    }

    /// The merged tensor, on the heap: first dim `Dyn` (max index + 1),
    /// the slice dims as in `S0`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::type_complexity)]
    pub fn run(&self) -> Result<Tensor<T, O, alloc::vec::Vec<T>>, StitchError>
    where
        T: Default,
    {
        if let Some(rows) = self.static_rows() {
            let (rows, needed) = rows?;
            let shape = Self::static_out(rows)?;
            let mut out = crate::storage::filled_vec(needed, T::default())?;
            self.static_copy(&mut out);
            // `out` holds `needed` = rows * slice elements: the shape's count
            return Ok(Tensor::from_parts_unchecked(shape, out));
        }
        let dims = self.output_dims()?;
        let shape = Self::out_shape(&dims)?;
        let mut out = crate::storage::filled_vec(dims.try_numel()?, T::default())?;
        kernel::stitch_rows(self.iter(), slice_len(&dims), &mut out);
        Ok(Tensor::with_shape(shape, out)?)
    }

    /// The merged tensor written to the front of `buf` (no heap), returned
    /// as a view of `[rows] + slice` over it. An error, with `buf` untouched,
    /// if an index is invalid or the output does not fit.
    ///
    /// With static shapes only the index values are checked here (the
    /// shape rules were compile errors): one pass over the indices, then
    /// the copy, each pair's loop generated for its own types.
    pub fn run_into<'b>(&self, buf: &'b mut [T]) -> Result<Tensor<T, O, &'b mut [T]>, StitchError>
    where
        T: Default,
    {
        if let Some(rows) = self.static_rows() {
            let (rows, needed) = rows?;
            let shape = Self::static_out(rows)?;
            let len = buf.len();
            let Some(out) = buf.get_mut(..needed) else {
                return Err(StitchError::BufferTooSmall {
                    dims: Self::static_dims(rows),
                    needed,
                    len,
                });
            };
            out.fill(T::default());
            self.static_copy(out);
            // `out` holds `needed` = rows * slice elements: the shape's count
            return Ok(Tensor::from_parts_unchecked(shape, out));
        }
        let dims = self.output_dims()?;
        let shape = Self::out_shape(&dims)?;
        let out = prefix_of(buf, &dims)?;
        out.fill(T::default());
        kernel::stitch_rows(self.iter(), slice_len(&dims), out);
        Ok(Tensor::with_shape(shape, out)?)
    }
}

/// The element count of one row of `dims` (its dims after the first).
pub(crate) fn slice_len(dims: &Dims) -> usize {
    Dims::new(dims.get(1..).unwrap_or(&[]))
        .ok()
        .and_then(|d| d.numel())
        .unwrap_or(0)
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

/// dynamic_stitch over run-time dims, no heap: writes the output to the
/// front of `out` and returns its dims (an error, with `out` untouched, if a
/// rule fails or the output does not fit).
///
/// ```
/// use shapecheck::ops::stitch::{stitch_slices, StitchError, StitchPair};
/// let pairs = [
///     StitchPair::new(&[2], &[0i32, 2], &[2, 2], &[1, 2, 5, 6]).unwrap(),
///     StitchPair::new(&[], &[3i32], &[2], &[7, 8]).unwrap(),
/// ];
/// let mut out = [-1; 10];
/// let dims = stitch_slices(&pairs, &mut out).unwrap();
/// assert_eq!(dims.as_slice(), &[4, 2]);
/// assert_eq!(out[..8], [1, 2, 0, 0, 5, 6, 7, 8]);
///
/// let bad = [StitchPair::new(&[2], &[0i32, -4], &[2, 2], &[1, 2, 5, 6]).unwrap()];
/// let err = stitch_slices(&bad, &mut out).unwrap_err();
/// assert_eq!(err, StitchError::NegativeIndex { m: 0, j: 1, value: -4 });
/// ```
pub fn stitch_slices<T: Copy + Default>(
    pairs: &[StitchPair<'_, T>],
    out: &mut [T],
) -> Result<Dims, StitchError> {
    let dims = rule::stitch_output_dims(pairs.iter().copied())?;
    let dst = prefix_of(out, &dims)?;
    dst.fill(T::default());
    kernel::stitch_rows(pairs.iter().copied(), slice_len(&dims), dst);
    Ok(dims)
}
