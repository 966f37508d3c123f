//! Reshape on [`DynTensor`] (feature `alloc`).

use super::rule::reshape_rule;
use super::ReshapeError;
use crate::dims::Dims;
use crate::dynamic::DynTensor;

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
}
