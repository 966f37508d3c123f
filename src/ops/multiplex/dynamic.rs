//! Multiplex on the dynamic path: [`DynTensor::multiplex`] (feature `alloc`).

use super::backward::{dynamic_checks, scatter_rows};
use super::bounds::IndexElement;
use super::kernel::checked_output;
use super::MultiplexError;
use crate::dynamic::DynTensor;
use core::borrow::Borrow;

impl<I: IndexElement> DynTensor<I> {
    /// [`DynTensor::multiplex`]`(inputs, self)` with this tensor as the
    /// index, under the static path's name
    /// ([`Tensor::try_multiplex`](crate::Tensor::try_multiplex)), so that one
    /// function body, written with `?`, runs on `Tensor`s and on
    /// `DynTensor`s under one `use shapecheck::prelude::*`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let a = DynTensor::new(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// let b = DynTensor::new(&[2, 2], vec![5, 6, 7, 8]).unwrap();
    /// let index = DynTensor::new(&[2, 1], vec![1i32, 0]).unwrap();
    /// assert_eq!(index.try_multiplex(&[&a, &b]).unwrap().as_slice(), &[5, 6, 3, 4]);
    /// let err = index.try_multiplex(&[a]).unwrap_err();
    /// assert_eq!(err, MultiplexError::TooFewCandidates { count: 1 });
    /// ```
    pub fn try_multiplex<T: Copy + Default, C: Borrow<DynTensor<T>>>(
        &self,
        inputs: &[C],
    ) -> Result<DynTensor<T>, MultiplexError> {
        DynTensor::multiplex(inputs, self)
    }
}

impl<T: Copy + Default> DynTensor<T> {
    /// Paddle's `multiplex` on run-time shapes: `out[i] = inputs[index[i]][i]`,
    /// every rule checked here (see [`multiplex_slices`](super::multiplex_slices));
    /// the output has the index's rows. The candidates may be owned or
    /// borrowed (`&[a, b]` or `&[&a, &b]`).
    ///
    /// ```
    /// use shapecheck::{DynTensor, MultiplexError};
    /// let a = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    /// let b = DynTensor::new(&[2, 2], vec![5.0, 6.0, 7.0, 8.0]).unwrap();
    /// let index = DynTensor::new(&[2, 1], vec![1i32, 0]).unwrap();
    /// // borrowed candidates (no copies), or owned ones
    /// let out = DynTensor::multiplex(&[&a, &b], &index).unwrap();
    /// assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);
    /// let first = DynTensor::new(&[1, 1], vec![1i32]).unwrap();
    /// let out = DynTensor::multiplex(&[a.clone(), b], &first).unwrap();
    /// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[1, 2][..], &[5.0, 6.0][..]));
    /// let err = DynTensor::multiplex(&[a], &index).unwrap_err();
    /// assert_eq!(err, MultiplexError::TooFewCandidates { count: 1 });
    /// ```
    pub fn multiplex<I: IndexElement, C: Borrow<DynTensor<T>>>(
        inputs: &[C],
        index: &DynTensor<I>,
    ) -> Result<DynTensor<T>, MultiplexError> {
        checked_output(
            inputs,
            index.dims(),
            index.as_slice(),
            |dims| Ok(DynTensor::full(dims, T::default())?),
            DynTensor::as_mut_slice,
        )
    }

    /// Multiplex's backward on run-time shapes (the rule of
    /// [`multiplex_backward`](super::multiplex_backward)): one gradient per
    /// candidate, shaped like the candidate: row `r` of candidate `k`'s
    /// gradient is row `r` of `dout` if `index[r] == k`, zeros otherwise.
    /// Every rule of the forward, `dout`'s dims against the output's
    /// ([`MultiplexError::DoutShape`]) and the index values are checked
    /// before anything is allocated.
    ///
    /// ```
    /// use shapecheck::{DynTensor, MultiplexError};
    /// let a = DynTensor::new(&[3, 2], vec![0.0f64; 6]).unwrap();
    /// let index = DynTensor::new(&[2, 1], vec![1i32, 0]).unwrap();
    /// let dout = DynTensor::new(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let grads = DynTensor::multiplex_backward(&[a.clone(), a.clone()], &index, &dout).unwrap();
    /// assert_eq!(grads[0].dims().as_slice(), &[3, 2]);
    /// assert_eq!(grads[0].as_slice(), &[0.0, 0.0, 3.0, 4.0, 0.0, 0.0]);
    /// assert_eq!(grads[1].as_slice(), &[1.0, 2.0, 0.0, 0.0, 0.0, 0.0]);
    /// let wrong = DynTensor::new(&[3, 2], vec![0.0; 6]).unwrap();
    /// let err = DynTensor::multiplex_backward(&[a.clone(), a], &index, &wrong).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "multiplex backward: dout must have the output's shape [2, 2], but it is [3, 2]"
    /// );
    /// ```
    pub fn multiplex_backward<I: IndexElement, C: Borrow<DynTensor<T>>>(
        inputs: &[C],
        index: &DynTensor<I>,
        dout: &DynTensor<T>,
    ) -> Result<alloc::vec::Vec<DynTensor<T>>, MultiplexError> {
        let plan = dynamic_checks(
            inputs.iter().map(|c| Ok(c.borrow().dims())),
            index.dims(),
            index.as_slice(),
            dout.dims(),
            dout.as_slice(),
        )?;
        let mut grads = alloc::vec::Vec::new();
        grads
            .try_reserve_exact(inputs.len())
            .map_err(|_| crate::dims::ShapeError::Allocation {
                numel: inputs.len(),
            })?;
        for c in inputs {
            grads.push(DynTensor::full(&c.borrow().dims(), T::default())?);
        }
        let mut slices: alloc::vec::Vec<&mut [T]> =
            grads.iter_mut().map(DynTensor::as_mut_slice).collect();
        scatter_rows(plan.row_len, index.as_slice(), dout.as_slice(), &mut slices);
        Ok(grads)
    }
}

/// [`multiplex`](crate::multiplex()) on [`DynTensor`]s, spelled as on
/// `Tensor`s: `multiplex(&[a, b], &index).run()` under
/// `use shapecheck::dynamic::prelude::*`. The candidates may be owned or
/// borrowed (`&[a, b]` or `&[&a, &b]`); every rule is checked by
/// [`run`](DynMultiplex::run).
///
/// ```
/// use shapecheck::dynamic::prelude::*;
/// let a = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
/// let b = DynTensor::new(&[2, 2], vec![5.0, 6.0, 7.0, 8.0]).unwrap();
/// let index = DynTensor::new(&[2, 1], vec![1i32, 0]).unwrap();
/// assert_eq!(multiplex(&[&a, &b], &index).run().unwrap().as_slice(), &[5.0, 6.0, 3.0, 4.0]);
/// let err = multiplex(&[a], &index).run().unwrap_err();
/// assert_eq!(err, MultiplexError::TooFewCandidates { count: 1 });
/// ```
pub fn multiplex<'a, T, C, I>(inputs: &'a [C], index: &'a DynTensor<I>) -> DynMultiplex<'a, T, C, I>
where
    C: Borrow<DynTensor<T>>,
{
    DynMultiplex {
        inputs,
        index,
        _elem: core::marker::PhantomData,
    }
}

/// A multiplex on [`DynTensor`]s waiting for its output form
/// ([`multiplex`]): [`run`](Self::run) allocates it.
#[must_use = "a multiplex does nothing until it runs: call .run()"]
#[derive(Debug)]
pub struct DynMultiplex<'a, T, C, I> {
    inputs: &'a [C],
    index: &'a DynTensor<I>,
    _elem: core::marker::PhantomData<fn() -> T>,
}

impl<T: Copy + Default, C: Borrow<DynTensor<T>>, I: IndexElement> DynMultiplex<'_, T, C, I> {
    /// The output, on the heap: `out[i] = inputs[index[i]][i]`, with the
    /// index's rows. Every rule and index value is checked first.
    ///
    /// ```
    /// use shapecheck::dynamic::prelude::*;
    /// let a = DynTensor::new(&[2, 1], vec![1, 2]).unwrap();
    /// let b = DynTensor::new(&[2, 1], vec![3, 4]).unwrap();
    /// let index = DynTensor::new(&[1, 1], vec![5i64]).unwrap();
    /// assert_eq!(multiplex(&[a, b], &index).run().unwrap_err().rule(), "multiplex/index-value");
    /// ```
    pub fn run(&self) -> Result<DynTensor<T>, MultiplexError> {
        DynTensor::multiplex(self.inputs, self.index)
    }
}
