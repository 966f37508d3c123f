//! dynamic_stitch on [`DynTensor`] (feature `alloc`).
#![cfg(feature = "alloc")]

use super::backward::{check, write_grads, StitchGrad};
use super::rule::StitchIndex;
use super::rule::{self, StitchPair};
use super::{kernel, StitchError};
use crate::dynamic::DynTensor;

impl<T: Copy + Default> DynTensor<T> {
    /// TensorFlow's `dynamic_stitch` on run-time shapes:
    /// `merged[indices[m][j], ...] = data[m][j, ...]`, every rule checked
    /// here (see [`stitch_output_dims`](super::stitch_output_dims)).
    ///
    /// ```
    /// use shapecheck::{DynTensor, StitchError};
    /// let i0 = DynTensor::new(&[], vec![6i32]).unwrap();
    /// let i1 = DynTensor::new(&[2], vec![4, 1]).unwrap();
    /// let i2 = DynTensor::new(&[2, 2], vec![5, 2, 0, 3]).unwrap();
    /// let d0 = DynTensor::new(&[2], vec![61, 62]).unwrap();
    /// let d1 = DynTensor::new(&[2, 2], vec![41, 42, 11, 12]).unwrap();
    /// let d2 = DynTensor::new(&[2, 2, 2], vec![51, 52, 21, 22, 1, 2, 31, 32]).unwrap();
    /// let merged = DynTensor::dynamic_stitch(&[(&i0, &d0), (&i1, &d1), (&i2, &d2)]).unwrap();
    /// assert_eq!(merged.dims().as_slice(), &[7, 2]);
    /// assert_eq!(merged.as_slice(), &[1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62]);
    ///
    /// let bad = DynTensor::new(&[3], vec![0i32, 1, 2]).unwrap();
    /// let err = DynTensor::dynamic_stitch(&[(&i1, &d1), (&bad, &d1)]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "dynamic_stitch: data[1].shape = [2, 2] does not start with indices[1].shape = [3]"
    /// );
    /// ```
    pub fn dynamic_stitch<I: StitchIndex>(
        pairs: &[(&DynTensor<I>, &DynTensor<T>)],
    ) -> Result<DynTensor<T>, StitchError>
    where
        T: crate::element::MaybeSync,
    {
        let mut out = DynTensor::unallocated();
        Self::dynamic_stitch_into(pairs, &mut out)?;
        Ok(out)
    }

    /// [`dynamic_stitch`](Self::dynamic_stitch) into `out`, a tensor the
    /// caller keeps between calls: `out` takes the merged dims and values,
    /// in its own buffer when that holds enough elements: no allocation and
    /// no fresh pages (bench W5: 25 ms against 37 ms allocating, where the
    /// kernel's zeroing of the new pages is a fifth of the time). A result
    /// of 1 MiB or more starts on a cache line (64 bytes) inside the buffer,
    /// which then needs room for 64 bytes more than the result. Every rule
    /// is checked first: on an error `out` is unchanged.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let i = DynTensor::new(&[2], vec![1i32, 0]).unwrap();
    /// let d = DynTensor::new(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// let mut out = DynTensor::new(&[0], vec![]).unwrap();
    /// DynTensor::dynamic_stitch_into(&[(&i, &d)], &mut out).unwrap();
    /// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[2, 2][..], &[3, 4, 1, 2][..]));
    ///
    /// // an index out of order: the error, and `out` as it was
    /// let bad = DynTensor::new(&[2], vec![0i32, -1]).unwrap();
    /// let err = DynTensor::dynamic_stitch_into(&[(&bad, &d)], &mut out).unwrap_err();
    /// assert_eq!(err.rule(), "dynamic_stitch/negative-index");
    /// assert_eq!(out.as_slice(), &[3, 4, 1, 2]);
    /// ```
    pub fn dynamic_stitch_into<I: StitchIndex>(
        pairs: &[(&DynTensor<I>, &DynTensor<T>)],
        out: &mut DynTensor<T>,
    ) -> Result<(), StitchError>
    where
        T: crate::element::MaybeSync,
    {
        let views = pairs.iter().map(|(i, d)| StitchPair {
            indices_dims: i.dims(),
            indices: I::index_slice(i.as_slice()),
            data_dims: d.dims(),
            data: d.as_slice(),
        });
        let dims = rule::stitch_output_dims(views.clone())?;
        let n = rule::slice_len(&dims);
        // a kept buffer holds its earlier values: the rows no index names
        // are zeroed here (a new one is zeroed already)
        if !out.reset_kept(&dims)? {
            kernel::clear_unnamed_rows(views.clone(), n, out.as_mut_slice());
        }
        kernel::stitch_rows(views, n, out.as_mut_slice());
        Ok(())
    }

    /// dynamic_stitch's backward on run-time shapes (the rule of
    /// [`Stitch::backward`](super::Stitch::backward)): one gradient per
    /// pair, shaped like its data; `mode` chooses the derivative (an
    /// overwritten duplicate gets zero) or TensorFlow's gather
    /// ([`StitchGrad`]). The forward's rule and `dout`'s dims
    /// ([`StitchError::DoutShape`]) are checked before anything is
    /// allocated. The derivative marks the rows in a bit set of one bit per
    /// output row: one scan of the indices.
    ///
    /// ```
    /// use shapecheck::{DynTensor, StitchGrad};
    /// let i0 = DynTensor::new(&[2], vec![0i32, 1]).unwrap();
    /// let i1 = DynTensor::new(&[2], vec![1i32, 2]).unwrap();
    /// let d0 = DynTensor::new(&[2], vec![1.0f32, 2.0]).unwrap();
    /// let d1 = DynTensor::new(&[2], vec![3.0f32, 4.0]).unwrap();
    /// let dout = DynTensor::new(&[3], vec![2.0f32, 3.0, 1.5]).unwrap();
    /// let pairs = [(&i0, &d0), (&i1, &d1)];
    /// let g = DynTensor::dynamic_stitch_backward(&pairs, &dout, StitchGrad::Derivative).unwrap();
    /// assert_eq!((g[0].as_slice(), g[1].as_slice()), (&[2.0, 0.0][..], &[3.0, 1.5][..]));
    /// let g = DynTensor::dynamic_stitch_backward(&pairs, &dout, StitchGrad::TfGather).unwrap();
    /// assert_eq!((g[0].as_slice(), g[1].as_slice()), (&[2.0, 3.0][..], &[3.0, 1.5][..]));
    /// ```
    pub fn dynamic_stitch_backward<I: StitchIndex>(
        pairs: &[(&DynTensor<I>, &DynTensor<T>)],
        dout: &DynTensor<T>,
        mode: StitchGrad,
    ) -> Result<alloc::vec::Vec<DynTensor<T>>, StitchError> {
        let get = |m: usize| {
            pairs.get(m).map(|(i, d)| StitchPair {
                indices_dims: i.dims(),
                indices: I::index_slice(i.as_slice()),
                data_dims: d.dims(),
                data: d.as_slice(),
            })
        };
        let dims = check(get, pairs.len(), dout.dims(), dout.as_slice())?;
        let rows = dims.first().copied().unwrap_or(0);
        let words = match mode {
            StitchGrad::Derivative => rows.div_ceil(64),
            StitchGrad::TfGather => 0,
        };
        let mut bits = alloc::vec::Vec::new();
        bits.try_reserve_exact(words)
            .map_err(|_| crate::dims::ShapeError::Allocation { numel: words })?;
        bits.resize(words, 0u64);
        let mut grads = alloc::vec::Vec::new();
        grads
            .try_reserve_exact(pairs.len())
            .map_err(|_| crate::dims::ShapeError::Allocation { numel: pairs.len() })?;
        for (_, d) in pairs {
            grads.push(DynTensor::defaulted(&d.dims())?);
        }
        let mut slices: alloc::vec::Vec<&mut [T]> =
            grads.iter_mut().map(DynTensor::as_mut_slice).collect();
        write_grads(
            get,
            pairs.len(),
            &dims,
            dout.as_slice(),
            mode,
            &mut slices[..],
            &mut bits,
        );
        Ok(grads)
    }
}

/// [`dynamic_stitch`](crate::dynamic_stitch()) on [`DynTensor`]s, spelled as
/// on `Tensor`s: `dynamic_stitch(&i0, &d0).pair(&i1, &d1).run()` under
/// `use shapecheck::dynamic::prelude::*`. Every rule is checked by
/// [`run`](DynStitch::run).
///
/// ```
/// use shapecheck::dynamic::prelude::*;
/// let i0 = DynTensor::new(&[2], vec![0i32, 2]).unwrap();
/// let d0 = DynTensor::new(&[2, 2], vec![1, 2, 5, 6]).unwrap();
/// let i1 = DynTensor::new(&[1], vec![1i32]).unwrap();
/// let d1 = DynTensor::new(&[1, 2], vec![3, 4]).unwrap();
/// let out = dynamic_stitch(&i0, &d0).pair(&i1, &d1).run().unwrap();
/// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[3, 2][..], &[1, 2, 3, 4, 5, 6][..]));
/// ```
pub fn dynamic_stitch<'a, T, I>(
    indices: &'a DynTensor<I>,
    data: &'a DynTensor<T>,
) -> DynStitch<'a, T, I> {
    DynStitch {
        first: (indices, data),
        more: alloc::vec::Vec::new(),
        unreserved: false,
    }
}

/// A dynamic_stitch on [`DynTensor`]s waiting for more pairs
/// ([`pair`](Self::pair)) or its output form ([`run`](Self::run)).
#[must_use = "a dynamic_stitch does nothing until it runs: call .run() or .run_into(&mut out)"]
#[derive(Debug)]
pub struct DynStitch<'a, T, I> {
    first: (&'a DynTensor<I>, &'a DynTensor<T>),
    more: alloc::vec::Vec<(&'a DynTensor<I>, &'a DynTensor<T>)>,
    /// a pair could not be kept (no memory): [`run`](Self::run) reports it
    unreserved: bool,
}

impl<'a, T, I> DynStitch<'a, T, I> {
    /// One more pair of indices and data, after the ones given so far.
    ///
    /// ```
    /// use shapecheck::dynamic::prelude::*;
    /// let i = DynTensor::new(&[1], vec![0i32]).unwrap();
    /// let d = DynTensor::new(&[1], vec![7]).unwrap();
    /// let j = DynTensor::new(&[1], vec![0i32]).unwrap();
    /// let e = DynTensor::new(&[1], vec![8]).unwrap();
    /// // a later pair wins a shared index, as in TensorFlow
    /// assert_eq!(dynamic_stitch(&i, &d).pair(&j, &e).run().unwrap().as_slice(), &[8]);
    /// ```
    pub fn pair(mut self, indices: &'a DynTensor<I>, data: &'a DynTensor<T>) -> Self {
        if self.more.try_reserve(1).is_ok() {
            self.more.push((indices, data));
        } else {
            self.unreserved = true;
        }
        self
    }
}

impl<T: Copy + Default + crate::element::MaybeSync, I: StitchIndex> DynStitch<'_, T, I> {
    /// The output, on the heap: row `indices[m][i]` is `data[m][i, ..]`,
    /// with `max(index) + 1` rows. Every rule and index value is checked
    /// first.
    ///
    /// ```
    /// use shapecheck::dynamic::prelude::*;
    /// let i = DynTensor::new(&[2], vec![0i32, -1]).unwrap();
    /// let d = DynTensor::new(&[2], vec![1, 2]).unwrap();
    /// assert_eq!(dynamic_stitch(&i, &d).run().unwrap_err().rule(), "dynamic_stitch/negative-index");
    /// ```
    pub fn run(&self) -> Result<DynTensor<T>, StitchError> {
        DynTensor::dynamic_stitch(&self.pairs()?)
    }

    /// [`run`](Self::run) into `out`, a tensor the caller keeps between
    /// calls, reusing its buffer ([`DynTensor::dynamic_stitch_into`]). On
    /// an error `out` is unchanged.
    ///
    /// ```
    /// use shapecheck::dynamic::prelude::*;
    /// let (i, d) = (DynTensor::new(&[2], vec![1i32, 0]).unwrap(), DynTensor::new(&[2], vec![5, 6]).unwrap());
    /// let mut out = DynTensor::new(&[3], vec![0; 3]).unwrap();
    /// dynamic_stitch(&i, &d).run_into(&mut out).unwrap();
    /// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[2][..], &[6, 5][..]));
    /// ```
    pub fn run_into(&self, out: &mut DynTensor<T>) -> Result<(), StitchError> {
        DynTensor::dynamic_stitch_into(&self.pairs()?, out)
    }

    /// Every pair, in order (`shape/allocation` if one could not be kept).
    #[allow(clippy::type_complexity)]
    fn pairs(&self) -> Result<alloc::vec::Vec<(&DynTensor<I>, &DynTensor<T>)>, StitchError> {
        if self.unreserved {
            let numel = self.more.len().saturating_add(2);
            return Err(crate::dims::ShapeError::Allocation { numel }.into());
        }
        let numel = self.more.len().saturating_add(1);
        let mut pairs = alloc::vec::Vec::new();
        pairs
            .try_reserve_exact(numel)
            .map_err(|_| crate::dims::ShapeError::Allocation { numel })?;
        pairs.push(self.first);
        pairs.extend_from_slice(&self.more);
        Ok(pairs)
    }
}
