//! softmax and log_softmax on [`DynTensor`] (feature `alloc`), the axis
//! checked when the op runs.

use super::kernel::softmax_into;
use super::rule::plan;
use super::{SoftmaxElement, SoftmaxError, SoftmaxKind};
use crate::dynamic::DynTensor;

impl<T: SoftmaxElement> DynTensor<T> {
    /// The one entry: `kind` along `axis`, checked before the result is allocated.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// use shapecheck::ops::softmax::SoftmaxKind;
    /// let x = DynTensor::new(&[], vec![3.0f32]).unwrap();
    /// assert_eq!(x.softmax_with(SoftmaxKind::Softmax, 0).unwrap().as_slice(), &[1.0]);
    /// assert_eq!(x.softmax_with(SoftmaxKind::LogSoftmax, -1).unwrap().as_slice(), &[0.0]);
    /// ```
    pub fn softmax_with(
        &self,
        kind: SoftmaxKind,
        axis: isize,
    ) -> Result<DynTensor<T>, SoftmaxError> {
        let p = plan(&self.dims(), axis)?;
        let mut out = DynTensor::defaulted(&p.x)?;
        softmax_into(&p, kind, self.as_slice(), out.as_mut_slice());
        Ok(out)
    }

    /// `paddle.nn.functional.softmax(x, axis)`.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 2], vec![0.0f32, 0.0, 1.0, 1.0]).unwrap();
    /// assert_eq!(x.softmax(0).unwrap().as_slice(), &[0.26894143, 0.26894143, 0.7310586, 0.7310586]);
    /// ```
    pub fn softmax(&self, axis: isize) -> Result<DynTensor<T>, SoftmaxError> {
        self.softmax_with(SoftmaxKind::Softmax, axis)
    }

    /// `paddle.nn.functional.log_softmax(x, axis)`.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2], vec![0.0f64, 0.0]).unwrap();
    /// assert_eq!(x.log_softmax(0).unwrap().as_slice(), &[-core::f64::consts::LN_2; 2]);
    /// ```
    pub fn log_softmax(&self, axis: isize) -> Result<DynTensor<T>, SoftmaxError> {
        self.softmax_with(SoftmaxKind::LogSoftmax, axis)
    }
}
