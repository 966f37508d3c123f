//! softmax and log_softmax on [`DynTensor`] (feature `alloc`), the axis
//! checked when the op runs.

use super::backward::{checked_plan, softmax_backward};
use super::kernel::softmax_into;
use super::rule::plan;
use super::{SoftmaxElement, SoftmaxError, SoftmaxKind};
use crate::dynamic::DynTensor;
use crate::ops::elementwise::DynAxis;

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

    /// The gradient's entry (see
    /// [`Tensor::softmax_backward_into`](crate::Tensor::softmax_backward_into)):
    /// x's (`self`) gradient of `kind` along `axis` from the forward's `out`
    /// and `dout`, whose dims must be x's (`softmax/dout-shape`); every
    /// check is made before the result is allocated.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// use shapecheck::ops::softmax::SoftmaxKind;
    /// let x = DynTensor::new(&[2], vec![0.0f64, 0.0]).unwrap();
    /// let out = x.softmax(0).unwrap();
    /// let dout = DynTensor::new(&[2], vec![1.0, 0.0]).unwrap();
    /// assert_eq!(x.softmax_backward_with(SoftmaxKind::Softmax, 0, &out, &dout).unwrap().as_slice(), &[0.25, -0.25]);
    /// let short = DynTensor::new(&[1], vec![1.0]).unwrap();
    /// assert_eq!(x.softmax_backward_with(SoftmaxKind::Softmax, 0, &out, &short).unwrap_err().rule(), "softmax/dout-shape");
    /// ```
    pub fn softmax_backward_with(
        &self,
        kind: SoftmaxKind,
        axis: isize,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, SoftmaxError> {
        let p = checked_plan(&self.dims(), axis, &out.dims(), &dout.dims())?;
        let mut gx = DynTensor::defaulted(&p.x)?;
        softmax_backward(&p, kind, out.as_slice(), dout.as_slice(), gx.as_mut_slice());
        Ok(gx)
    }

    /// The gradient of [`DynTensor::softmax`] from its output `out`.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2], vec![0.0f32, 0.0]).unwrap();
    /// let out = x.softmax(-1).unwrap();
    /// let dout = DynTensor::new(&[2], vec![0.0, 4.0]).unwrap();
    /// assert_eq!(x.softmax_backward(-1, &out, &dout).unwrap().as_slice(), &[-1.0, 1.0]);
    /// ```
    pub fn softmax_backward(
        &self,
        axis: isize,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, SoftmaxError> {
        self.softmax_backward_with(SoftmaxKind::Softmax, axis, out, dout)
    }

    /// The gradient of [`DynTensor::log_softmax`] from its output `out`.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2], vec![0.0f64, 0.0]).unwrap();
    /// let out = x.log_softmax(0).unwrap();
    /// let dout = DynTensor::new(&[2], vec![1.0, 0.0]).unwrap();
    /// let gx = x.log_softmax_backward(0, &out, &dout).unwrap();
    /// assert!((gx.as_slice()[0] - 0.5).abs() < 1e-15);
    /// ```
    pub fn log_softmax_backward(
        &self,
        axis: isize,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, SoftmaxError> {
        self.softmax_backward_with(SoftmaxKind::LogSoftmax, axis, out, dout)
    }
}

/// The `try_` spellings: the static path's names for its checked forms
/// ([`Tensor::try_softmax`](crate::Tensor::try_softmax)), taking the static
/// path's `Axis::<A>` or an `isize` ([`DynAxis`]), so that one function
/// body runs on `Tensor`s and `DynTensor`s under one glob import.
impl<T: SoftmaxElement> DynTensor<T> {
    /// [`softmax`](Self::softmax) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[1, 2], vec![0.0f64, 0.0]).unwrap();
    /// assert_eq!(x.try_softmax(Axis::<-1>).unwrap().as_slice(), &[0.5, 0.5]);
    /// assert_eq!(x.try_softmax(2).unwrap_err().rule(), "softmax/axis-range");
    /// ```
    pub fn try_softmax(&self, axis: impl DynAxis) -> Result<DynTensor<T>, SoftmaxError> {
        self.softmax(axis.value())
    }

    /// [`log_softmax`](Self::log_softmax) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2], vec![0.0f64, 0.0]).unwrap();
    /// assert_eq!(x.try_log_softmax(0).unwrap().as_slice(), &[-core::f64::consts::LN_2; 2]);
    /// ```
    pub fn try_log_softmax(&self, axis: impl DynAxis) -> Result<DynTensor<T>, SoftmaxError> {
        self.log_softmax(axis.value())
    }
}

/// The gradients' `try_` spelling: the static path's name for its checked
/// entry, the axis as `Axis::<A>` or an `isize`.
impl<T: SoftmaxElement> DynTensor<T> {
    /// [`softmax_backward_with`](Self::softmax_backward_with) under the
    /// static path's name for its checked form,
    /// [`Tensor::try_softmax_backward`](crate::Tensor::try_softmax_backward).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::softmax::SoftmaxKind;
    /// let x = DynTensor::new(&[2], vec![0.0f64, 0.0]).unwrap();
    /// let out = x.try_softmax(Axis::<0>).unwrap();
    /// let dout = DynTensor::new(&[2], vec![1.0, 0.0]).unwrap();
    /// let gx = x.try_softmax_backward(SoftmaxKind::Softmax, Axis::<0>, &out, &dout).unwrap();
    /// assert_eq!(gx.as_slice(), &[0.25, -0.25]);
    /// let short = DynTensor::new(&[1], vec![1.0]).unwrap();
    /// let err = x.try_softmax_backward(SoftmaxKind::Softmax, 0, &out, &short).unwrap_err();
    /// assert_eq!(err.rule(), "softmax/dout-shape");
    /// ```
    pub fn try_softmax_backward(
        &self,
        kind: SoftmaxKind,
        axis: impl DynAxis,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, SoftmaxError> {
        self.softmax_backward_with(kind, axis.value(), out, dout)
    }
}
