//! dynamic_stitch: the static builder [`Stitch`] and the caller-buffer form
//! over run-time dims, [`stitch_slices`].

use super::bounds::{PrependDyn, StitchPrefix, StitchSliceOf};
use super::{kernel, rule, StitchError, StitchIndex, StitchPair};
use crate::shape::{Dims, Shape};
use crate::storage::Storage;
use crate::tensor::Tensor;
use core::marker::PhantomData;

mod sealed {
    pub trait Sealed {}
}

/// The `(indices, data)` pairs a [`Stitch`] holds: a list nested in its type,
/// `((((), pair0), pair1), pair2)`, borrowed, no heap.
pub trait StitchPairs<'a, T>: Copy + sealed::Sealed {
    /// The number of pairs.
    const LEN: usize;
    /// Pair `m` (0 is the first given).
    fn get(&self, m: usize) -> Option<StitchPair<'a, T>>;
}

impl sealed::Sealed for () {}
impl<'a, T> StitchPairs<'a, T> for () {
    const LEN: usize = 0;
    fn get(&self, _m: usize) -> Option<StitchPair<'a, T>> {
        None
    }
}

impl<'a, T, L: StitchPairs<'a, T>> sealed::Sealed for (L, StitchPair<'a, T>) {}
impl<'a, T, L: StitchPairs<'a, T>> StitchPairs<'a, T> for (L, StitchPair<'a, T>) {
    const LEN: usize = L::LEN + 1;
    fn get(&self, m: usize) -> Option<StitchPair<'a, T>> {
        if m == L::LEN {
            Some(self.1)
        } else {
            self.0.get(m)
        }
    }
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
) -> Stitch<'a, T, S0, O, ((), StitchPair<'a, T>)>
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
        pairs: ((), pair_of(indices, data)),
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
    ) -> Stitch<'a, T, S0, O, ((), StitchPair<'a, T>)>
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

impl<'a, T: Copy, S0: Shape, O: Shape, L: StitchPairs<'a, T>> Stitch<'a, T, S0, O, L> {
    /// One more pair: `data`'s shape must start with `indices`' shape and
    /// leave the slice `S0` of the first pair (both compile errors).
    pub fn pair<I, IS, IB, DS, DB>(
        self,
        indices: &'a Tensor<I, IS, IB>,
        data: &'a Tensor<T, DS, DB>,
    ) -> Stitch<'a, T, S0, O, (L, StitchPair<'a, T>)>
    where
        I: StitchIndex,
        IS: Shape,
        IB: Storage<I>,
        DS: StitchPrefix<IS> + StitchSliceOf<IS, S0>,
        DB: Storage<T>,
    {
        Stitch {
            pairs: (self.pairs, pair_of(indices, data)),
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

    /// The merged tensor, on the heap: first dim `Dyn` (max index + 1),
    /// the slice dims as in `S0`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::type_complexity)]
    pub fn run(&self) -> Result<Tensor<T, O, alloc::vec::Vec<T>>, StitchError>
    where
        T: Default,
    {
        let dims = self.output_dims()?;
        let shape = Self::out_shape(&dims)?;
        let mut out = crate::storage::filled_vec(dims.try_numel()?, T::default())?;
        kernel::stitch_rows(self.iter(), slice_len(&dims), &mut out);
        Ok(Tensor::with_shape(shape, out)?)
    }

    /// The merged tensor written to the front of `buf` (no heap), returned
    /// as a view of `[rows] + slice` over it. An error, with `buf` untouched,
    /// if an index is invalid or the output does not fit.
    pub fn run_into<'b>(&self, buf: &'b mut [T]) -> Result<Tensor<T, O, &'b mut [T]>, StitchError>
    where
        T: Default,
    {
        let dims = self.output_dims()?;
        let shape = Self::out_shape(&dims)?;
        let out = prefix_of(buf, &dims)?;
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
    kernel::stitch_rows(pairs.iter().copied(), slice_len(&dims), dst);
    Ok(dims)
}
