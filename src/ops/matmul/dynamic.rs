//! Matmul on [`DynTensor`]: every dim known at run time, every rule checked
//! when the op runs (feature `alloc`).

use super::{DynTranspose, MatmulError, Transpose};
use crate::dynamic::DynTensor;
use crate::element::Element;

impl<T: Element> DynTensor<T> {
    /// Paddle's `matmul(x, y, transpose_x, transpose_y)` on run-time shapes,
    /// spelled as on `Tensor`: the rule is checked first, then the output is
    /// allocated and written. `transpose_x` and `transpose_y` are `bool`s
    /// (`true`: that operand's last two dims are read swapped), the values
    /// of the static path's markers `NoTrans` (`false`) and `Trans`
    /// (`true`), which [`DynTensor::matmul_t`] and [`DynTensor::try_matmul`] take.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 1, 3, 4], (0..24).collect::<Vec<i32>>()).unwrap();
    /// let y = DynTensor::new(&[5, 4, 6], vec![1; 120]).unwrap();
    /// let z = x.matmul(&y, false, false).unwrap();
    /// assert_eq!(z.dims().as_slice(), &[2, 5, 3, 6]);
    /// assert_eq!(&z.as_slice()[..2], &[6, 6]); // 0 + 1 + 2 + 3
    /// let err = y.matmul(&x, false, false).unwrap_err();
    /// assert_eq!(err.rule(), "matmul/inner");
    /// assert_eq!(err.to_string(), "matmul: x [5, 4, 6] and y [2, 1, 3, 4]: x's last dim 6 must equal y's second-to-last dim 3");
    /// ```
    pub fn matmul(
        &self,
        y: &DynTensor<T>,
        transpose_x: bool,
        transpose_y: bool,
    ) -> Result<DynTensor<T>, MatmulError> {
        let (xd, yd) = (self.dims(), y.dims());
        let f = super::rule::frame(transpose_x, transpose_y, &xd, &yd)?;
        let mut out = DynTensor::defaulted(&f.out)?;
        super::kernel::apply(
            &f,
            &xd,
            self.as_slice(),
            &yd,
            y.as_slice(),
            out.as_mut_slice(),
        )?;
        Ok(out)
    }

    /// [`DynTensor::matmul`] with the flags as the static path's markers,
    /// spelled as [`Tensor::matmul_t`](crate::Tensor::matmul_t).
    ///
    /// ```
    /// use shapecheck::{DynTensor, NoTrans, Trans};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let g = x.matmul_t(&x, NoTrans, Trans).unwrap(); // x · xᵀ
    /// assert_eq!(g.as_slice(), &[14, 32, 32, 77]);
    /// ```
    pub fn matmul_t<TX: Transpose, TY: Transpose>(
        &self,
        y: &DynTensor<T>,
        _transpose_x: TX,
        _transpose_y: TY,
    ) -> Result<DynTensor<T>, MatmulError> {
        self.matmul(y, TX::ON, TY::ON)
    }

    /// [`DynTensor::matmul`] under the static path's name for its checked
    /// form, [`Tensor::try_matmul`](crate::Tensor::try_matmul): the flags as
    /// the static path's markers ([`NoTrans`](crate::NoTrans),
    /// [`Trans`](crate::Trans)) or `bool`s chosen at run time
    /// (`DynTranspose`), so that one function body runs on `Tensor`s and
    /// `DynTensor`s under one glob import.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let g = x.try_matmul(&x, NoTrans, Trans).unwrap(); // x · xᵀ
    /// assert_eq!(g.as_slice(), &[14, 32, 32, 77]);
    /// assert_eq!(g, x.try_matmul(&x, false, true).unwrap());
    /// assert_eq!(x.try_matmul(&x, NoTrans, NoTrans).unwrap_err().rule(), "matmul/inner");
    /// ```
    pub fn try_matmul(
        &self,
        y: &DynTensor<T>,
        transpose_x: impl DynTranspose,
        transpose_y: impl DynTranspose,
    ) -> Result<DynTensor<T>, MatmulError> {
        self.matmul(y, transpose_x.on(), transpose_y.on())
    }

    /// The gradients of [`DynTensor::matmul`]: for the upstream gradient
    /// `dout` (the output's dims, `matmul/dout-shape` otherwise), `(dx, dy)`
    /// with x's and y's dims, each summed over the batch dims where its
    /// operand broadcast. Every check before anything is allocated.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 1, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = DynTensor::new(&[2, 1], vec![1.0, 1.0]).unwrap(); // broadcast over x's batch
    /// let dout = DynTensor::new(&[2, 1, 1], vec![1.0, 1.0]).unwrap();
    /// let (dx, dy) = x.matmul_backward(&y, &dout, false, false).unwrap();
    /// assert_eq!(dx.as_slice(), &[1.0, 1.0, 1.0, 1.0]);
    /// assert_eq!((dy.dims().as_slice(), dy.as_slice()), (&[2, 1][..], &[4.0, 6.0][..]));
    /// let err = x.matmul_backward(&y, &y, false, false).unwrap_err();
    /// assert_eq!(err.rule(), "matmul/dout-shape");
    /// ```
    pub fn matmul_backward(
        &self,
        y: &DynTensor<T>,
        dout: &DynTensor<T>,
        transpose_x: bool,
        transpose_y: bool,
    ) -> Result<(DynTensor<T>, DynTensor<T>), MatmulError> {
        let (xd, yd) = (self.dims(), y.dims());
        let f = super::backward::checked_frame(transpose_x, transpose_y, &xd, &yd, &dout.dims())?;
        let mut dx = DynTensor::defaulted(&xd)?;
        let mut dy = DynTensor::defaulted(&yd)?;
        super::backward::apply_backward(
            &f,
            (&xd, &yd),
            (self.as_slice(), y.as_slice(), dout.as_slice()),
            dx.as_mut_slice(),
            dy.as_mut_slice(),
        )?;
        Ok((dx, dy))
    }
}
