//! Reshape on [`DynTensor`] (feature `alloc`).

use super::rule::reshape_rule;
use super::ReshapeError;
use crate::dims::Dims;
use crate::dynamic::DynTensor;
use crate::shape::Shape;

impl<T: Copy> DynTensor<T> {
    /// The same elements under the run-time dims `dims`, which must hold as
    /// many elements (`reshape/element-count`; `shape/rank` past
    /// [`MAX_RANK`](crate::MAX_RANK), `shape/overflow`). The data moves into
    /// the result: its allocation is kept, nothing copied. On an error the
    /// tensor is dropped with the call; reshape a `clone` to keep it.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = x.clone().reshape(&[3, 2]).unwrap();
    /// assert_eq!(y.dims().as_slice(), &[3, 2]);
    /// assert_eq!(y.as_slice(), x.as_slice());
    /// assert_eq!(x.reshape(&[4]).unwrap_err().rule(), "reshape/element-count");
    /// ```
    pub fn reshape(self, dims: &[usize]) -> Result<DynTensor<T>, ReshapeError> {
        let to = Dims::new(dims)?;
        reshape_rule(&self.dims(), &to)?;
        Ok(DynTensor::new(dims, self.into_vec())?)
    }

    /// [`reshape`](Self::reshape) under the static path's name for its
    /// checked form, [`Tensor::try_reshape`](crate::Tensor::try_reshape):
    /// the new dims given as a shape value, as there (`(Dyn(2), Dim::<6>)`),
    /// checked by the same rule (`reshape/element-count`). The data moves
    /// into the result; on an error the tensor is dropped with the call.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[3, 4], (0..12).collect::<Vec<i32>>()).unwrap();
    /// let y = x.clone().try_reshape((Dyn(2), Dim::<6>)).unwrap();
    /// assert_eq!((y.dims().as_slice(), y.as_slice()), (&[2, 6][..], x.as_slice()));
    /// let err = x.try_reshape((Dyn(5), Dim::<2>)).unwrap_err();
    /// assert_eq!(err.to_string(), "reshape: the target shape must hold as many elements as the tensor: [3, 4] holds 12, but [5, 2] holds 10");
    /// ```
    pub fn try_reshape<S2: Shape>(self, shape: S2) -> Result<DynTensor<T>, ReshapeError> {
        self.reshape(&shape.dims())
    }
}
