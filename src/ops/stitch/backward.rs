//! dynamic_stitch's backward: the gradient of each pair's data from the
//! gradient of the merged output, `dout`. The indices have no gradient.
//!
//! ## The rule, and TensorFlow's
//! `merged[indices[m][j]] = data[m][j]`, the later `(m, j)` winning a
//! duplicate index. Its derivative ([`StitchGrad::Derivative`], the
//! default): `d data[m][j] = dout[indices[m][j]]` if `(m, j)` is the entry
//! that wrote that row (the last one in `(m, j)` order), and **zero** for an
//! entry another one overwrote: its value never reached the output.
//!
//! TensorFlow's registered gradient (`_DynamicStitchGrads`, TF 2.21) is a
//! gather, `d data[m] = gather(dout, indices[m])`: every entry, an
//! overwritten duplicate too, gets its row's gradient
//! ([TF issue #7397](https://github.com/tensorflow/tensorflow/issues/7397)).
//! It is the derivative when the indices have no duplicate, and differs from
//! it exactly at the overwritten duplicates: the sum of the gradients over
//! the duplicates of a row is then `k` times that row's `dout`. It is here
//! as an explicit option, [`StitchGrad::TfGather`]; the vectors of
//! `tests/vectors/grad/dynamic_stitch_grad.json` were recorded from it.
//!
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::StitchGrad;
//! // index 0 twice: (0, 2) overwrites (0, 0)
//! let i = tensor![0, 1, 0];
//! let d = tensor![1.0f64, 2.0, 5.0];
//! let stitch = dynamic_stitch(&i, &d);
//! let merged = stitch.run().unwrap();
//! assert_eq!(merged.as_slice(), &[5.0, 2.0]);
//! let dout = Tensor::<f64, (Dyn,), Vec<f64>>::from_vec((Dyn(2),), vec![3.0, 2.5]).unwrap();
//! let ((), g) = stitch.backward(&dout).unwrap();
//! assert_eq!(g.as_slice(), &[0.0, 2.5, 3.0]); // the derivative: the overwritten entry gets 0
//! let ((), g) = stitch.backward_with(&dout, StitchGrad::TfGather).unwrap();
//! assert_eq!(g.as_slice(), &[3.0, 2.5, 3.0]); // TensorFlow's gather
//! ```
//!
//! ## Cost of the derivative without a heap
//! Which entry wrote a row is found by a scan of the indices from the last
//! `(m, j)` back, a row's first visit being its writer, marked in a bit set.
//! Without a heap (the static path and [`stitch_backward_slices`]) the set
//! is on the stack with room for [`WINDOW_ROWS`] rows, and an output with
//! more rows is done in windows of that many, one scan of the indices each.
//! `DynTensor::dynamic_stitch_backward` (feature `alloc`) allocates a set
//! for every row: one scan. The gather needs no set.

use super::api::{PairOf, StitchPairs};
use super::bounds::StitchDout;
use super::rule::{self, IndexSlice, StitchIndex, StitchPair};
use super::{Stitch, StitchError};
use crate::dims::{Dims, ShapeError};
use crate::shape::Shape;
use crate::storage::{OwnedStorage, ResultStorage};
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;

/// Which gradient dynamic_stitch's backward computes (see the
/// [module docs](self)).
///
/// ```
/// use shapecheck::StitchGrad;
/// assert_eq!(StitchGrad::default(), StitchGrad::Derivative);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StitchGrad {
    /// The derivative of the output: an entry another one overwrote gets 0.
    #[default]
    Derivative,
    /// TensorFlow's gradient, a gather of `dout` at each pair's indices: an
    /// overwritten entry gets its row's gradient too (TF issue #7397).
    TfGather,
}

/// The rows of the output a stack bit set covers at once (the derivative
/// without a heap: see the [module docs](self)).
pub const WINDOW_ROWS: usize = 64 * WINDOW_WORDS;
const WINDOW_WORDS: usize = 64;

/// Gradient buffers, one per pair, reachable by the pair's number `m`: a
/// slice of `&mut [T]` (the dynamic path) or the nested list of tensors of
/// the static path (`(((), g0), g1)`). Plumbing of the backward forms.
#[doc(hidden)]
pub trait GradSlices<T> {
    /// The number of gradients.
    fn count(&self) -> usize;
    /// Gradient `m`'s elements.
    fn grad_mut(&mut self, m: usize) -> Option<&mut [T]>;
    /// Gradient `m`'s dims, `None` for a bare slice (whose length is checked).
    fn grad_dims(&self, m: usize) -> Option<Dims>;
}

impl<T> GradSlices<T> for [&mut [T]] {
    fn count(&self) -> usize {
        self.len()
    }
    fn grad_mut(&mut self, m: usize) -> Option<&mut [T]> {
        self.get_mut(m).map(|g| &mut **g)
    }
    fn grad_dims(&self, _m: usize) -> Option<Dims> {
        None
    }
}

impl<T> GradSlices<T> for () {
    fn count(&self) -> usize {
        0
    }
    fn grad_mut(&mut self, _m: usize) -> Option<&mut [T]> {
        None
    }
    fn grad_dims(&self, _m: usize) -> Option<Dims> {
        None
    }
}

impl<T: Copy, G: GradSlices<T>, S: Shape, B: StorageMut<T>> GradSlices<T> for (G, Tensor<T, S, B>) {
    fn count(&self) -> usize {
        self.0.count() + 1
    }
    fn grad_mut(&mut self, m: usize) -> Option<&mut [T]> {
        if m == self.0.count() {
            return Some(self.1.as_mut_slice());
        }
        self.0.grad_mut(m)
    }
    fn grad_dims(&self, m: usize) -> Option<Dims> {
        if m == self.0.count() {
            return Some(self.1.dims());
        }
        self.0.grad_dims(m)
    }
}

impl<T: Copy, G: GradSlices<T>, S: Shape, B: StorageMut<T>> GradSlices<T>
    for (G, &mut Tensor<T, S, B>)
{
    fn count(&self) -> usize {
        self.0.count() + 1
    }
    fn grad_mut(&mut self, m: usize) -> Option<&mut [T]> {
        if m == self.0.count() {
            return Some(self.1.as_mut_slice());
        }
        self.0.grad_mut(m)
    }
    fn grad_dims(&self, m: usize) -> Option<Dims> {
        if m == self.0.count() {
            return Some(self.1.dims());
        }
        self.0.grad_dims(m)
    }
}

/// The gradients a [`Stitch`] returns: one tensor per pair, shaped (typed)
/// like that pair's data, in a list nested as the pairs are
/// (`((((), g0), g1), g2)` for three pairs), each stored as its shape
/// chooses (inline for a static shape: no heap).
///
/// ```
/// use shapecheck::prelude::*;
/// let (i0, d0) = (tensor![1, 0], tensor![[1.0f32], [2.0]]);
/// let dout = Tensor::<f32, (Dyn, One), Vec<f32>>::from_vec((Dyn(2), One), vec![3.0, 4.0]).unwrap();
/// // one pair: the gradients are `((), g0)`, g0 of d0's shape [2, 1]
/// let ((), g0) = dynamic_stitch(&i0, &d0).backward(&dout).unwrap();
/// assert_eq!(g0.as_slice(), &[4.0, 3.0]);
/// ```
#[doc(hidden)]
pub trait StitchGrads<'a, T: Copy>: StitchPairs<'a, T> {
    /// The nested list of gradients.
    type Grads: GradSlices<T>;
    /// Gradients of every pair's data shape, holding `T::default()`.
    #[doc(hidden)]
    fn zeros(&self) -> Self::Grads;
}

impl<'a, T: Copy> StitchGrads<'a, T> for () {
    type Grads = ();
    fn zeros(&self) -> Self::Grads {}
}

impl<'a, T, L, I, IS, DS, DB> StitchGrads<'a, T> for (L, PairOf<'a, T, I, IS, DS, DB>)
where
    T: Copy + Default,
    L: StitchGrads<'a, T>,
    I: StitchIndex,
    IS: Shape,
    DS: Shape,
    DB: ResultStorage<T, DS>,
{
    type Grads = (L::Grads, Tensor<T, DS, <DB as ResultStorage<T, DS>>::Out>);
    fn zeros(&self) -> Self::Grads {
        let data = self.1 .1;
        // the data is in memory: its shape's count fits (a heap result
        // aborts on out-of-memory, as every std allocation)
        let grad = Tensor::from_parts_unchecked(
            *data.shape(),
            <DB as ResultStorage<T, DS>>::Out::filled(data.shape(), T::default()),
        );
        (self.0.zeros(), grad)
    }
}

/// The caller's gradients of [`Stitch::backward_into`]: a nested list of
/// `&mut Tensor`, one per pair, each of its pair's data shape. One blanket
/// impl over [`GradsOfPairs`] (the list's structure), so that a mismatch is
/// this one message.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::StitchGrad;
/// let (i0, d0) = (tensor![1, 0], tensor![[1.0f32], [2.0]]);
/// let dout = Tensor::<f32, (Dyn, One), Vec<f32>>::from_vec((Dyn(2), One), vec![3.0, 4.0]).unwrap();
/// let mut g0 = Tensor::<f32, shape![2, 1]>::zeros();
/// dynamic_stitch(&i0, &d0).backward_into(&dout, StitchGrad::Derivative, &mut ((), &mut g0)).unwrap();
/// assert_eq!(g0.as_slice(), &[4.0, 3.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "dynamic_stitch/grad-shape: the gradients {Self} must be one `&mut Tensor` per pair, nested as the pairs (`(((), g0), g1)`), each of its pair's data shape (the pairs: {L})",
    label = "one gradient per pair, shaped like that pair's data"
)]
#[doc(hidden)]
pub trait StitchGradsInto<T, L>: GradSlices<T> {}

#[diagnostic::do_not_recommend]
impl<T, L: GradsOfPairs<T, G>, G: GradSlices<T>> StitchGradsInto<T, L> for G {}

/// `G` is a nested list of `&mut Tensor` matching the pairs `Self`, one
/// per pair, each of its data's shape: the structure behind
/// [`StitchGradsInto`].
#[doc(hidden)]
pub trait GradsOfPairs<T, G> {}

impl<T> GradsOfPairs<T, ()> for () {}

impl<'a, 'g, T, G, L, I, IS, DS, DB, BG> GradsOfPairs<T, (G, &'g mut Tensor<T, DS, BG>)>
    for (L, PairOf<'a, T, I, IS, DS, DB>)
where
    T: Copy,
    L: GradsOfPairs<T, G>,
    I: Copy,
    IS: Shape,
    DS: Shape,
    DB: Storage<T>,
    BG: StorageMut<T>,
{
}

impl<'a, T, S0, O, L> Stitch<'a, T, S0, O, L>
where
    T: Copy + Default,
    S0: Shape + crate::ops::indexed::StaticSlice,
    O: Shape,
    L: StitchPairs<'a, T>,
{
    /// dynamic_stitch's backward, the derivative of the output
    /// ([`StitchGrad::Derivative`]): for each pair, the gradient of its
    /// data, typed as that data, in a list nested as the pairs
    /// (`(((), g0), g1)`). An entry another one overwrote gets zero;
    /// [`backward_with`](Self::backward_with) gives TensorFlow's gather.
    ///
    /// `dout` has the output's shape: its slice dims are the output's (a
    /// compile error otherwise, [`StitchDout`]); its rows may be [`Dyn`](crate::Dyn),
    /// [`Branded`](crate::Branded) or [`Bounded`](crate::Bounded), and are
    /// checked at run time with the forward's rule
    /// ([`StitchError::DoutShape`]), before anything is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let (i0, d0) = (tensor![2, 0], tensor![[1.0f32, 2.0], [3.0, 4.0]]);
    /// let (i1, d1) = (Tensor::<i64, shape![]>::from_array(0), tensor![5.0f32, 6.0]);
    /// let stitch = dynamic_stitch(&i0, &d0).pair(&i1, &d1);
    /// let out = stitch.run().unwrap(); // [3, 2]: row 0 from the second pair
    /// let dout = Tensor::<f32, (Dyn, Dim<2>), Vec<f32>>::from_vec((Dyn(3), Dim), vec![1., 2., 3., 4., 5., 6.]).unwrap();
    /// let (((), g0), g1) = stitch.backward(&dout).unwrap();
    /// let _: (&Tensor<f32, shape![2, 2]>, &Tensor<f32, shape![2]>) = (&g0, &g1);
    /// assert_eq!(g0.as_slice(), &[5., 6., 0., 0.]); // (0, 1) was overwritten by pair 1
    /// assert_eq!(g1.as_slice(), &[1., 2.]);
    /// // dout with another row count than the output: the rule's error
    /// let short = Tensor::<f32, (Dyn, Dim<2>), Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.; 4]).unwrap();
    /// assert_eq!(stitch.backward(&short).unwrap_err().rule(), "dynamic_stitch/dout-shape");
    /// ```
    pub fn backward<DO, BD>(&self, dout: &Tensor<T, DO, BD>) -> Result<L::Grads, StitchError>
    where
        L: StitchGrads<'a, T>,
        DO: StitchDout<O>,
        BD: Storage<T>,
    {
        self.backward_with(dout, StitchGrad::Derivative)
    }

    /// [`backward`](Self::backward) with the rule chosen: the derivative or
    /// TensorFlow's gather ([`StitchGrad`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::StitchGrad;
    /// let (i, d) = (tensor![1, 1], tensor![[1.0f64], [2.0]]);
    /// let dout = Tensor::<f64, (Dyn, One), Vec<f64>>::from_vec((Dyn(2), One), vec![7.0, 9.0]).unwrap();
    /// let ((), g) = dynamic_stitch(&i, &d).backward_with(&dout, StitchGrad::TfGather).unwrap();
    /// assert_eq!(g.as_slice(), &[9.0, 9.0]);
    /// let ((), g) = dynamic_stitch(&i, &d).backward_with(&dout, StitchGrad::Derivative).unwrap();
    /// assert_eq!(g.as_slice(), &[0.0, 9.0]);
    /// ```
    pub fn backward_with<DO, BD>(
        &self,
        dout: &Tensor<T, DO, BD>,
        mode: StitchGrad,
    ) -> Result<L::Grads, StitchError>
    where
        L: StitchGrads<'a, T>,
        DO: StitchDout<O>,
        BD: Storage<T>,
    {
        let pairs = |m: usize| self.pairs.get(m);
        let dims = check(pairs, L::LEN, dout.dims(), dout.as_slice())?;
        let mut grads = self.pairs.zeros();
        let mut bits = [0u64; WINDOW_WORDS];
        write_grads(
            pairs,
            L::LEN,
            &dims,
            dout.as_slice(),
            mode,
            &mut grads,
            &mut bits,
        );
        Ok(grads)
    }

    /// [`backward_with`](Self::backward_with) into the caller's gradients
    /// (no heap): a list nested as the pairs (`(((), &mut g0), &mut g1)`),
    /// each a tensor of its pair's data shape (a compile error otherwise,
    /// [`StitchGradsInto`]). On any error nothing is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::StitchGrad;
    /// let (i0, d0) = (tensor![1, 0], tensor![[1, 2], [3, 4]]);
    /// let stitch = dynamic_stitch(&i0, &d0);
    /// let mut buf = [0; 4];
    /// let dout = stitch.run_into(&mut buf).unwrap(); // [2, 2], a view of buf
    /// let mut g0 = Tensor::<i32, shape![2, 2]>::full(-1);
    /// stitch.backward_into(&dout, StitchGrad::Derivative, &mut ((), &mut g0)).unwrap();
    /// assert_eq!(g0.as_slice(), &[1, 2, 3, 4]); // no duplicate: dout gathered back
    /// ```
    pub fn backward_into<DO, BD, G>(
        &self,
        dout: &Tensor<T, DO, BD>,
        mode: StitchGrad,
        grads: &mut G,
    ) -> Result<(), StitchError>
    where
        DO: StitchDout<O>,
        BD: Storage<T>,
        G: StitchGradsInto<T, L>,
    {
        let pairs = |m: usize| self.pairs.get(m);
        let dims = check(pairs, L::LEN, dout.dims(), dout.as_slice())?;
        check_grads(pairs, L::LEN, grads)?;
        let mut bits = [0u64; WINDOW_WORDS];
        write_grads(
            pairs,
            L::LEN,
            &dims,
            dout.as_slice(),
            mode,
            grads,
            &mut bits,
        );
        Ok(())
    }
}

/// The forward's rule over the pairs, then `dout`'s dims against the
/// output's, and its length: the output dims.
pub(crate) fn check<'a, T: 'a>(
    pairs: impl Fn(usize) -> Option<StitchPair<'a, T>>,
    count: usize,
    dout_dims: Dims,
    dout: &[T],
) -> Result<Dims, StitchError> {
    let dims = rule::stitch_output_dims((0..count).filter_map(&pairs))?;
    if dout_dims != dims {
        return Err(StitchError::DoutShape {
            out: dims,
            dout: dout_dims,
        });
    }
    Dims::for_data(&dout_dims, dout.len())?;
    Ok(dims)
}

/// One gradient per pair, each with its data's dims (or, for a bare
/// slice, its element count).
pub(crate) fn check_grads<'a, T: 'a, G: GradSlices<T> + ?Sized>(
    pairs: impl Fn(usize) -> Option<StitchPair<'a, T>>,
    count: usize,
    grads: &mut G,
) -> Result<(), StitchError> {
    if grads.count() != count {
        return Err(StitchError::GradCount {
            pairs: count,
            grads: grads.count(),
        });
    }
    for m in 0..count {
        let Some(p) = pairs(m) else { continue };
        if let Some(found) = grads.grad_dims(m)
            && found != p.data_dims
        {
            return Err(ShapeError::OutputShape {
                expected: p.data_dims,
                found,
            }
            .into());
        }
        let len = grads.grad_mut(m).map_or(0, |g| g.len());
        Dims::for_data(&p.data_dims, len)?;
    }
    Ok(())
}

/// The write, after every check: gradient `m`'s row `j` gets row
/// `indices[m][j]` of `dout`, or (the derivative, for an entry a later one
/// overwrote) zeros. `bits` is the bit set of the rows one window covers
/// (`64 * bits.len()` rows; the output's rows are done in windows of that
/// many). Every element of every gradient is written once.
pub(crate) fn write_grads<'a, T: Copy + Default + 'a, G: GradSlices<T> + ?Sized>(
    pairs: impl Fn(usize) -> Option<StitchPair<'a, T>>,
    count: usize,
    dims: &Dims,
    dout: &[T],
    mode: StitchGrad,
    grads: &mut G,
    bits: &mut [u64],
) {
    let n = rule::slice_len(dims);
    if n == 0 {
        return;
    }
    if mode == StitchGrad::TfGather {
        for m in 0..count {
            let (Some(p), Some(g)) = (pairs(m), grads.grad_mut(m)) else {
                continue;
            };
            match p.indices {
                IndexSlice::I32(ix) => gather_rows(ix, dout, n, g),
                IndexSlice::I64(ix) => gather_rows(ix, dout, n, g),
            }
        }
        return;
    }
    let rows = dims.first().copied().unwrap_or(0);
    let window = bits.len().saturating_mul(64).max(1);
    let mut lo = 0usize;
    while lo < rows {
        bits.fill(0);
        for m in (0..count).rev() {
            let (Some(p), Some(g)) = (pairs(m), grads.grad_mut(m)) else {
                continue;
            };
            match p.indices {
                IndexSlice::I32(ix) => claim_rows(ix, dout, n, g, lo, bits),
                IndexSlice::I64(ix) => claim_rows(ix, dout, n, g, lo, bits),
            }
        }
        lo = lo.saturating_add(window);
    }
}

/// TensorFlow's gradient for one pair: row `j` of `grad` = row `ix[j]` of
/// `dout` (rows of `n` elements; every index checked by the rule).
fn gather_rows<T: Copy, I: StitchIndex>(ix: &[I], dout: &[T], n: usize, grad: &mut [T]) {
    for (&v, dst) in ix.iter().zip(grad.chunks_exact_mut(n)) {
        let src = usize::try_from(v.to_i64())
            .ok()
            .and_then(|r| r.checked_mul(n))
            .and_then(|s| dout.get(s..s.checked_add(n)?));
        if let Some(src) = src {
            dst.copy_from_slice(src);
        }
    }
}

/// The derivative for one pair and one window of rows (`lo..lo + 64 *
/// bits.len()`), the pairs visited from the last: going back over `ix`, the
/// first visit of a row is the entry that wrote it (it gets `dout`'s row);
/// a later visit is an overwritten entry (zeros). Indices outside the
/// window are left for their own window.
fn claim_rows<T: Copy + Default, I: StitchIndex>(
    ix: &[I],
    dout: &[T],
    n: usize,
    grad: &mut [T],
    lo: usize,
    bits: &mut [u64],
) {
    for (&v, dst) in ix.iter().zip(grad.chunks_exact_mut(n)).rev() {
        let Some(row) = usize::try_from(v.to_i64()).ok() else {
            continue;
        };
        let Some(bit) = row.checked_sub(lo) else {
            continue;
        };
        let Some(word) = bits.get_mut(bit / 64) else {
            continue;
        };
        let mask = 1u64 << (bit % 64);
        if *word & mask != 0 {
            dst.fill(T::default());
            continue;
        }
        *word |= mask;
        let src = row
            .checked_mul(n)
            .and_then(|s| dout.get(s..s.checked_add(n)?));
        if let Some(src) = src {
            dst.copy_from_slice(src);
        }
    }
}

/// dynamic_stitch's backward over run-time dims, no heap: `dout` of dims
/// `dout_dims` (the output's), one gradient buffer per pair holding its
/// data's element count. Checks, in order: the forward's rule, `dout`'s
/// dims ([`StitchError::DoutShape`]) and length, the gradients' count
/// ([`StitchError::GradCount`]) and lengths; only then is anything written.
/// The derivative on an output of more than [`WINDOW_ROWS`] rows scans the
/// indices once per window of rows (see the [module docs](self)).
///
/// ```
/// use shapecheck::ops::stitch::{stitch_backward_slices, StitchGrad, StitchPair};
/// let pairs = [
///     StitchPair::new(&[2], &[0i32, 2], &[2, 2], &[1, 2, 5, 6]).unwrap(),
///     StitchPair::new(&[], &[0i32], &[2], &[7, 8]).unwrap(),
/// ];
/// let dout = [10, 11, 20, 21, 30, 31];
/// let (mut g0, mut g1) = ([0; 4], [0; 2]);
/// stitch_backward_slices(&pairs, &[3, 2], &dout, StitchGrad::Derivative, &mut [&mut g0, &mut g1]).unwrap();
/// assert_eq!((g0, g1), ([0, 0, 30, 31], [10, 11])); // (0, 0) was overwritten by (1, 0)
/// stitch_backward_slices(&pairs, &[3, 2], &dout, StitchGrad::TfGather, &mut [&mut g0, &mut g1]).unwrap();
/// assert_eq!((g0, g1), ([10, 11, 30, 31], [10, 11]));
/// let err = stitch_backward_slices(&pairs, &[4, 2], &[0; 8], StitchGrad::TfGather, &mut [&mut g0, &mut g1])
///     .unwrap_err();
/// assert_eq!(err.to_string(), "dynamic_stitch backward: dout must have the output's shape [3, 2], but it is [4, 2]");
/// ```
pub fn stitch_backward_slices<T: Copy + Default>(
    pairs: &[StitchPair<'_, T>],
    dout_dims: &[usize],
    dout: &[T],
    mode: StitchGrad,
    grads: &mut [&mut [T]],
) -> Result<(), StitchError> {
    let get = |m: usize| pairs.get(m).copied();
    let dims = check(get, pairs.len(), Dims::new(dout_dims)?, dout)?;
    check_grads(get, pairs.len(), grads)?;
    let mut bits = [0u64; WINDOW_WORDS];
    write_grads(get, pairs.len(), &dims, dout, mode, grads, &mut bits);
    Ok(())
}
