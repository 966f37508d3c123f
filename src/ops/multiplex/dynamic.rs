//! Multiplex on the dynamic path: [`DynTensor::multiplex`] (feature `alloc`).

use super::bounds::IndexElement;
use super::kernel::checked_output;
use super::MultiplexError;
use crate::DynTensor;

impl<T: Copy + Default> DynTensor<T> {
    /// Paddle's `multiplex` on run-time shapes: `out[i] = inputs[index[i]][i]`,
    /// every rule checked here (see [`multiplex_slices`](super::multiplex_slices));
    /// the output has the index's rows.
    ///
    /// ```
    /// use shapecheck::{DynTensor, MultiplexError};
    /// let a = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    /// let b = DynTensor::new(&[2, 2], vec![5.0, 6.0, 7.0, 8.0]).unwrap();
    /// let index = DynTensor::new(&[2, 1], vec![1i32, 0]).unwrap();
    /// let out = DynTensor::multiplex(&[a.clone(), b.clone()], &index).unwrap();
    /// assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);
    /// let first = DynTensor::new(&[1, 1], vec![1i32]).unwrap();
    /// let out = DynTensor::multiplex(&[a.clone(), b], &first).unwrap();
    /// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[1, 2][..], &[5.0, 6.0][..]));
    /// let err = DynTensor::multiplex(&[a], &index).unwrap_err();
    /// assert_eq!(err, MultiplexError::TooFewCandidates { count: 1 });
    /// ```
    pub fn multiplex<I: IndexElement>(
        inputs: &[DynTensor<T>],
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
}
