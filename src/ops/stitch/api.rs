//! dynamic_stitch's static path: the builder [`Stitch`] (first pair from
//! [`dynamic_stitch`], more with [`Stitch::pair`], then [`Stitch::run`] /
//! [`Stitch::run_into`]) and the list of pairs it holds ([`StitchPairs`]).

use super::bounds::{StitchData, StitchNext};
use super::kernel;
use super::rule::{self, MaxIndex, StitchIndex, StitchPair};
use super::StitchError;
use crate::element::MaybeSync;
use crate::ops::indexed::StaticSlice;
use crate::rows::RowShape;
use crate::shape::{Dims, Shape, MAX_RANK};
use crate::storage::{
    bounded_into, bounded_result, bounded_rows, BoundedRows, BoundedShape, BoundedTensor, Storage,
};
use crate::tensor::Tensor;
use core::marker::PhantomData;

/// dynamic_stitch on static shapes: a builder of `(indices, data)` pairs
/// whose type carries the slice shape `S0` (of the first pair) and the
/// output shape `O = (Dyn, S0..)`. See the [module docs](super) for the rule
/// and an example.
///
/// Each pair's prefix rule and slice rule are checked at compile time; the
/// index values when it runs ([`run`](Self::run), [`run_into`](Self::run_into)).
#[must_use = "a dynamic_stitch does nothing until it runs: call .run(), .run_into(&mut buf), .run_bounded::<CAP>() or .run_bounded_into(&mut out)"]
pub struct Stitch<'a, T, S0, O, L> {
    pub(super) pairs: L,
    _slice: PhantomData<(&'a [T], S0, O)>,
}

impl<T, S0, O, L: Copy> Clone for Stitch<'_, T, S0, O, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, S0, O, L: Copy> Copy for Stitch<'_, T, S0, O, L> {}

/// The slice of a first pair: what follows the indices' shape `IS` in the
/// data's shape `DS` (indices of element type `I`). A projection in the
/// return type (not a type parameter bound by an equality): rustc then
/// reports a failing rule once, at the call, without quoting the builder's
/// where-clause.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::FirstSlice;
/// let _: Option<FirstSlice<shape![2, 5], shape![2], i32>> = Some((Dim::<5>,));
/// ```
pub type FirstSlice<DS, IS, I> = <DS as StitchData<IS, I>>::Slice;

/// The slice of a later pair, which its shapes must leave: `S0` itself,
/// through [`StitchNext`] (see [`FirstSlice`] for why a projection).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::NextSlice;
/// let _: Option<NextSlice<shape![1, 5], shape![1], shape![5], i64>> = Some((Dim::<5>,));
/// ```
pub type NextSlice<DS, IS, S0, I> = <DS as StitchNext<IS, S0, I>>::Slice;

/// The builder [`dynamic_stitch`] returns for its first pair.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::FirstStitch;
/// let (i, d) = (tensor![1, 0], tensor![[1, 2], [3, 4]]);
/// let s: FirstStitch<'_, i32, i32, shape![2], shape![2, 2], _> = dynamic_stitch(&i, &d);
/// assert_eq!(s.run().unwrap().as_slice(), &[3, 4, 1, 2]);
/// ```
pub type FirstStitch<'a, T, I, IS, DS, DB> = Stitch<
    'a,
    T,
    FirstSlice<DS, IS, I>,
    <DS as StitchData<IS, I>>::Out,
    (
        (),
        PairOf<'a, T, <DS as StitchData<IS, I>>::Index, IS, DS, DB>,
    ),
>;

/// The builder [`Stitch::pair`] returns: `L` and one more pair.
type NextStitch<'a, T, S0, O, L, I, IS, DS, DB> = Stitch<
    'a,
    T,
    NextSlice<DS, IS, S0, I>,
    O,
    (
        L,
        PairOf<'a, T, <DS as StitchNext<IS, S0, I>>::Index, IS, DS, DB>,
    ),
>;

/// TensorFlow's dynamic_stitch on static shapes: returns a [`Stitch`] with
/// its first pair; [`pair`](Stitch::pair) adds the others, and nothing runs
/// until a method takes the output: [`run`](Stitch::run) (on the heap),
/// [`run_into`](Stitch::run_into) (your buffer),
/// [`run_bounded`](Stitch::run_bounded) and
/// [`run_bounded_into`](Stitch::run_bounded_into) (rows
/// [`Bounded<CAP>`](crate::Bounded), no heap).
///
/// ```
/// use shapecheck::prelude::*;
/// let i = Tensor::<i64, shape![2]>::from_array([1, 0]);
/// let d = Tensor::<f32, shape![2, 3]>::from_array([[1., 2., 3.], [4., 5., 6.]]);
/// let out = shapecheck::dynamic_stitch(&i, &d).run().unwrap();
/// assert_eq!(out.as_slice(), &[4., 5., 6., 1., 2., 3.]);
/// ```
#[allow(clippy::type_complexity)]
pub fn dynamic_stitch<'a, T, I, IS, IB, DS, DB>(
    indices: &'a Tensor<I, IS, IB>,
    data: &'a Tensor<T, DS, DB>,
) -> FirstStitch<'a, T, I, IS, DS, DB>
where
    T: Copy,
    I: Copy,
    IS: Shape,
    IB: Storage<I>,
    DS: StitchData<IS, I>,
    DB: Storage<T>,
{
    Stitch {
        pairs: ((), (DS::indices(indices), data)),
        _slice: PhantomData,
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
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// // slice [2]: from data [1, 2] after indices [1], and data [2] after a scalar
    /// let merged = dynamic_stitch(&tensor![0], &tensor![[1, 2]])
    ///     .pair(&Tensor::<i64, shape![]>::from_array(1), &tensor![3, 4])
    ///     .run()
    ///     .unwrap();
    /// assert_eq!(merged.as_slice(), &[1, 2, 3, 4]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn pair<I, IS, IB, DS, DB>(
        self,
        indices: &'a Tensor<I, IS, IB>,
        data: &'a Tensor<T, DS, DB>,
    ) -> NextStitch<'a, T, S0, O, L, I, IS, DS, DB>
    where
        I: Copy,
        IS: Shape,
        IB: Storage<I>,
        DS: StitchNext<IS, S0, I>,
        DB: Storage<T>,
    {
        Stitch {
            pairs: (self.pairs, (DS::indices(indices), data)),
            _slice: PhantomData,
        }
    }

    /// The number of pairs.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let (i, d) = (tensor![0], tensor![5]);
    /// assert_eq!(dynamic_stitch(&i, &d).pair(&i, &d).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        L::LEN
    }

    /// `false`: a builder always has its first pair.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert!(!dynamic_stitch(&tensor![0], &tensor![5]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        L::LEN == 0
    }

    fn iter(&self) -> impl Iterator<Item = StitchPair<'a, T>> + Clone + '_ {
        (0..L::LEN).filter_map(|m| self.pairs.get(m))
    }

    /// The output dims `[rows] + slice` by the op's rule (checks every index value).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let (i, d) = (tensor![3, 0], tensor![[1, 2], [3, 4]]);
    /// assert_eq!(dynamic_stitch(&i, &d).output_dims().unwrap().as_slice(), &[4, 2]);
    /// let neg = tensor![-1, 0];
    /// assert_eq!(dynamic_stitch(&neg, &d).output_dims().unwrap_err().rule(), "dynamic_stitch/negative-index");
    /// ```
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
    ///
    /// With feature `rayon` and an output of at least
    /// [`PAR_MIN_ELEMS`](crate::kernel::par::PAR_MIN_ELEMS) elements, the
    /// rows are split across the pool by destination
    /// ([`kernel::stitch_rows_par`]), the row length still a constant.
    #[inline(always)]
    fn static_copy(&self, out: &mut [T])
    where
        T: MaybeSync,
    {
        let Some(n @ 1..) = S0::STATIC_NUMEL else {
            return;
        };
        #[cfg(feature = "rayon")]
        if crate::kernel::par::splits(out.len()) {
            let pairs: alloc::vec::Vec<_> =
                (0..L::LEN).filter_map(|m| self.pairs.pair(m)).collect();
            // `S0::STATIC_NUMEL` is this instance's constant: read inside
            // the task, the row copy has a fixed length
            return kernel::stitch_rows_par(&pairs, out, || S0::STATIC_NUMEL.unwrap_or(0));
        }
        self.pairs.copy(out, n);
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
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let merged = dynamic_stitch(&tensor![2, 0], &tensor![[1, 2], [3, 4]]).run().unwrap();
    /// let _: &Tensor<i32, (Dyn, Dim<2>), Vec<i32>> = &merged;
    /// assert_eq!(merged.as_slice(), &[3, 4, 0, 0, 1, 2]); // row 1: no index, zeros
    /// ```
    #[cfg(feature = "alloc")]
    #[allow(clippy::type_complexity)]
    pub fn run(&self) -> Result<Tensor<T, O, alloc::vec::Vec<T>>, StitchError>
    where
        T: Default + MaybeSync,
    {
        if let Some(rows) = self.static_rows() {
            let (rows, needed) = rows?;
            let shape = Self::static_out(rows)?;
            let mut out = crate::storage::default_vec(needed)?;
            self.static_copy(&mut out);
            // `out` holds `needed` = rows * slice elements: the shape's count
            return Ok(Tensor::from_parts_unchecked(shape, out));
        }
        let dims = self.output_dims()?;
        let shape = Self::out_shape(&dims)?;
        let mut out = crate::storage::default_vec(dims.try_numel()?)?;
        kernel::stitch_rows(self.iter(), rule::slice_len(&dims), &mut out);
        Ok(Tensor::with_shape(shape, out)?)
    }

    /// The merged tensor written to the front of `buf` (no heap), returned
    /// as a view of `[rows] + slice` over it. An error, with `buf` untouched,
    /// if an index is invalid or the output does not fit.
    ///
    /// With static shapes only the index values are checked here (the
    /// shape rules were compile errors): one pass over the indices, then
    /// the copy, each pair's loop generated for its own types.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let (i, d) = (tensor![1, 0], tensor![[1, 2], [3, 4]]);
    /// let mut buf = [9; 6];
    /// let view = dynamic_stitch(&i, &d).run_into(&mut buf).unwrap();
    /// assert_eq!((view.dims().as_slice(), view.as_slice()), (&[2, 2][..], &[3, 4, 1, 2][..]));
    /// assert_eq!(buf, [3, 4, 1, 2, 9, 9]);
    /// let err = dynamic_stitch(&tensor![5, 0], &d).run_into(&mut buf).unwrap_err();
    /// assert_eq!(err.rule(), "dynamic_stitch/buffer");
    /// ```
    pub fn run_into<'b>(&self, buf: &'b mut [T]) -> Result<Tensor<T, O, &'b mut [T]>, StitchError>
    where
        T: Default + MaybeSync,
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
            kernel::clear_unnamed_rows(self.iter(), S0::STATIC_NUMEL.unwrap_or(0), out);
            self.static_copy(out);
            // `out` holds `needed` = rows * slice elements: the shape's count
            return Ok(Tensor::from_parts_unchecked(shape, out));
        }
        let dims = self.output_dims()?;
        let shape = Self::out_shape(&dims)?;
        let out = rule::prefix_of(buf, &dims)?;
        kernel::clear_unnamed_rows(self.iter(), rule::slice_len(&dims), out);
        kernel::stitch_rows(self.iter(), rule::slice_len(&dims), out);
        Ok(Tensor::with_shape(shape, out)?)
    }
}

impl<'a, T, S0, O, L> Stitch<'a, T, S0, O, L>
where
    T: Copy,
    S0: Shape + StaticSlice,
    O: RowShape,
    L: StitchPairs<'a, T>,
{
    /// The merged tensor in a [`Room`](crate::Room) with room for `CAP`
    /// rows: rows [`Bounded<CAP>`](crate::Bounded), no heap and no caller
    /// buffer. An error, with nothing written, if an index is invalid or
    /// the output has more than `CAP` rows (`shape/capacity`, naming both).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Room;
    /// let (i, d) = (tensor![2, 0], tensor![[1, 2], [3, 4]]);
    /// let merged = dynamic_stitch(&i, &d).run_bounded::<4>().unwrap();
    /// let _: &Tensor<i32, (Bounded<4>, Dim<2>), Room<i32, (Bounded<4>, Dim<2>)>> = &merged;
    /// assert_eq!((merged.dims().as_slice(), merged.as_slice()), (&[3, 2][..], &[3, 4, 0, 0, 1, 2][..]));
    /// let err = dynamic_stitch(&i, &d).run_bounded::<2>().unwrap_err();
    /// assert_eq!(err.to_string(), "dim 0 holds at most 2 (its capacity in the shape type), but 3 was given");
    /// assert_eq!(err.rule(), "shape/capacity");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn run_bounded<const CAP: usize>(&self) -> Result<BoundedTensor<T, O, CAP>, StitchError>
    where
        T: Default + MaybeSync,
        BoundedRows<O, CAP>: BoundedShape,
    {
        let (shape, dims) = self.bounded_shape::<CAP>()?;
        bounded_result(shape, |out| {
            self.copy_rows(dims, out);
            Ok(())
        })
    }

    /// [`run_bounded`](Self::run_bounded) into `out`, a bounded tensor the
    /// caller keeps (a `static`, or one reused between calls): no heap, no
    /// caller buffer, and no second room on the stack. `out` takes the
    /// merged rows; on any error (an invalid index, more rows than `CAP`)
    /// it is untouched, its shape and every element.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::storage::BoundedTensor;
    /// let d = tensor![[1, 2], [3, 4]];
    /// let mut out: BoundedTensor<i32, shape![Dyn, 2], 3> =
    ///     dynamic_stitch(&tensor![1, 0], &d).run_bounded::<3>().unwrap();
    /// dynamic_stitch(&tensor![2, 0], &d).run_bounded_into(&mut out).unwrap();
    /// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[3, 2][..], &[3, 4, 0, 0, 1, 2][..]));
    /// // 4 rows do not fit a capacity of 3: the error, `out` as it was
    /// let err = dynamic_stitch(&tensor![3, 0], &d).run_bounded_into(&mut out).unwrap_err();
    /// assert_eq!(err.rule(), "shape/capacity");
    /// assert_eq!(out.as_slice(), &[3, 4, 0, 0, 1, 2]);
    /// ```
    pub fn run_bounded_into<const CAP: usize>(
        &self,
        out: &mut BoundedTensor<T, O, CAP>,
    ) -> Result<(), StitchError>
    where
        T: Default + MaybeSync,
        BoundedRows<O, CAP>: BoundedShape,
    {
        let (shape, dims) = self.bounded_shape::<CAP>()?;
        bounded_into(out, shape, |front| {
            front.fill(T::default());
            self.copy_rows(dims, front);
            Ok(())
        })
    }

    /// The bounded forms' checks: the rule first (every index value), then
    /// the capacity; the output shape, and its dims when the run-time rule
    /// ran (`None`: the static path).
    #[allow(clippy::type_complexity)]
    fn bounded_shape<const CAP: usize>(
        &self,
    ) -> Result<(BoundedRows<O, CAP>, Option<Dims>), StitchError>
    where
        T: Default + MaybeSync,
    {
        let (shape, dims) = match self.static_rows() {
            Some(rows) => (Self::static_out(rows?.0)?, None),
            None => {
                let dims = self.output_dims()?;
                (Self::out_shape(&dims)?, Some(dims))
            }
        };
        let rows = bounded_rows::<CAP>(shape.rows())?;
        Ok((shape.with_rows_dim(rows), dims))
    }

    /// The bounded forms' copy into `out` (zeroed, sized by
    /// [`bounded_shape`](Self::bounded_shape)).
    fn copy_rows(&self, dims: Option<Dims>, out: &mut [T])
    where
        T: Default + MaybeSync,
    {
        match dims {
            None => self.static_copy(out),
            Some(dims) => kernel::stitch_rows(self.iter(), rule::slice_len(&dims), out),
        }
    }
}

// ------------------------------------------------- the pairs a builder holds

mod sealed {
    use super::{MaxIndex, StitchError, StitchPair};

    /// The static path's loops over the pairs, one per pair, generated for
    /// each pair's types (crate-private: the trait cannot be named outside).
    #[doc(hidden)]
    pub trait Sealed<'a, T> {
        /// The number of pairs.
        const COUNT: usize;
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

/// The `(indices, data)` pairs a [`Stitch`] holds: a list nested in its
/// type, `((((), pair0), pair1), pair2)`, each pair (`PairOf`) its two
/// tensors borrowed, no heap.
#[doc(hidden)]
pub trait StitchPairs<'a, T>: Copy + sealed::Sealed<'a, T> {
    /// The number of pairs.
    const LEN: usize;
    /// Pair `m` (0 is the first given).
    fn get(&self, m: usize) -> Option<StitchPair<'a, T>> {
        self.pair(m)
    }
}

impl<'a, T> sealed::Sealed<'a, T> for () {
    const COUNT: usize = 0;
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
impl<'a, T, P: Copy + sealed::Sealed<'a, T>> StitchPairs<'a, T> for P {
    const LEN: usize = P::COUNT;
}

/// One pair as a [`Stitch`] keeps it: a view of its indices (of an index
/// type `I` the index-element rule accepted) and its data, borrowed.
pub type PairOf<'a, T, I, IS, DS, DB> = (Tensor<I, IS, &'a [I]>, &'a Tensor<T, DS, DB>);

impl<'a, T, L, I, IS, DS, DB> sealed::Sealed<'a, T> for (L, PairOf<'a, T, I, IS, DS, DB>)
where
    T: Copy,
    L: StitchPairs<'a, T>,
    I: StitchIndex,
    IS: Shape,
    DS: Shape,
    DB: Storage<T>,
{
    const COUNT: usize = L::LEN + 1;
    const STATIC: bool = L::STATIC && IS::IS_STATIC && DS::IS_STATIC;

    fn pair(&self, m: usize) -> Option<StitchPair<'a, T>> {
        if m != L::LEN {
            return self.0.pair(m);
        }
        let (indices, data) = self.1;
        let indices_dims = indices.dims();
        let (_, values) = indices.into_parts();
        Some(StitchPair {
            indices_dims,
            indices: I::index_slice(values),
            data_dims: data.dims(),
            data: data.as_slice(),
        })
    }

    #[inline(always)]
    fn scan(&self, max: &mut MaxIndex) -> Result<(), StitchError> {
        self.0.scan(max)?;
        rule::scan_indices(L::LEN, self.1 .0.as_slice(), max)
    }

    #[inline(always)]
    fn copy(&self, out: &mut [T], n: usize) {
        self.0.copy(out, n);
        let (indices, data) = self.1;
        kernel::copy_pair_rows(indices.as_slice(), data.as_slice(), n, out, 0);
    }
}
