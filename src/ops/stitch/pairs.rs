//! The `(indices, data)` pairs a [`Stitch`](super::Stitch) holds: a list
//! nested in its type, and the loops over it (scan the indices, copy the
//! rows) generated for each pair's own types.

use super::{StitchError, StitchIndex, StitchPair};
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;

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
pub(crate) use sealed::MaxIndex;

/// The `(indices, data)` pairs a [`Stitch`](super::Stitch) holds: a list nested in its type,
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
    const COUNT: usize = L::LEN + 1;
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
