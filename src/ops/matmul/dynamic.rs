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

    /// [`DynTensor::try_matmul`] writing into `out`, the twin of
    /// [`Tensor::try_matmul_into`](crate::Tensor::try_matmul_into): `out`'s
    /// dims must be the output's (`shape/output` otherwise); every check is
    /// made before anything is written, so on an error `out` is unchanged.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// let y = DynTensor::new(&[2], vec![1, 1]).unwrap();
    /// let mut out = DynTensor::full(&[2], 0).unwrap();
    /// x.try_matmul_into(&y, NoTrans, NoTrans, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[3, 7]);
    /// // x [2, 2] · [2] is [2]: a buffer of 3 is the wrong one, and stays as it was
    /// let mut wrong = DynTensor::full(&[3], -1).unwrap();
    /// let err = x.try_matmul_into(&y, false, false, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// assert_eq!(wrong.as_slice(), &[-1, -1, -1]);
    /// ```
    pub fn try_matmul_into(
        &self,
        y: &DynTensor<T>,
        transpose_x: impl DynTranspose,
        transpose_y: impl DynTranspose,
        out: &mut DynTensor<T>,
    ) -> Result<(), MatmulError> {
        let (xd, yd) = (self.dims(), y.dims());
        let f = super::rule::frame(transpose_x.on(), transpose_y.on(), &xd, &yd)?;
        f.out.expect_output(out.dims())?;
        super::kernel::apply(
            &f,
            &xd,
            self.as_slice(),
            &yd,
            y.as_slice(),
            out.as_mut_slice(),
        )?;
        Ok(())
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

    /// [`DynTensor::matmul_backward`] under the static path's name for its
    /// checked form, [`Tensor::try_matmul_backward`](crate::Tensor::try_matmul_backward):
    /// the flags as the static path's markers or `bool`s.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[1, 2], vec![1.0f32, 2.0]).unwrap();
    /// let w = DynTensor::new(&[2, 1], vec![1.0f32, 2.0]).unwrap();
    /// let dout = DynTensor::new(&[1, 1], vec![2.0f32]).unwrap();
    /// let (dx, dw) = x.try_matmul_backward(&w, &dout, NoTrans, NoTrans).unwrap();
    /// assert_eq!((dx.as_slice(), dw.as_slice()), (&[2.0, 4.0][..], &[2.0, 4.0][..]));
    /// assert_eq!(x.try_matmul_backward(&w, &x, NoTrans, NoTrans).unwrap_err().rule(), "matmul/dout-shape");
    /// ```
    pub fn try_matmul_backward(
        &self,
        y: &DynTensor<T>,
        dout: &DynTensor<T>,
        transpose_x: impl DynTranspose,
        transpose_y: impl DynTranspose,
    ) -> Result<(DynTensor<T>, DynTensor<T>), MatmulError> {
        self.matmul_backward(y, dout, transpose_x.on(), transpose_y.on())
    }

    /// [`DynTensor::try_matmul_backward`] writing into `dx` and `dy`, the
    /// twin of [`Tensor::try_matmul_backward_into`](crate::Tensor::try_matmul_backward_into):
    /// their dims must be x's and y's (`shape/output` otherwise); every
    /// check is made before anything is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[1, 2], vec![1.0f32, 2.0]).unwrap();
    /// let w = DynTensor::new(&[2, 1], vec![1.0f32, 2.0]).unwrap();
    /// let dout = DynTensor::new(&[1, 1], vec![2.0f32]).unwrap();
    /// let (mut dx, mut dw) = (DynTensor::full(&[1, 2], 0.0).unwrap(), DynTensor::full(&[2, 1], 0.0).unwrap());
    /// x.try_matmul_backward_into(&w, &dout, NoTrans, NoTrans, &mut dx, &mut dw).unwrap();
    /// assert_eq!((dx.as_slice(), dw.as_slice()), (&[2.0, 4.0][..], &[2.0, 4.0][..]));
    /// // dw of x's dims: the error, and nothing written
    /// let mut wrong = DynTensor::full(&[1, 2], 9.0).unwrap();
    /// let err = x.try_matmul_backward_into(&w, &dout, NoTrans, NoTrans, &mut dx, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// assert_eq!(wrong.as_slice(), &[9.0, 9.0]);
    /// ```
    pub fn try_matmul_backward_into(
        &self,
        y: &DynTensor<T>,
        dout: &DynTensor<T>,
        transpose_x: impl DynTranspose,
        transpose_y: impl DynTranspose,
        dx: &mut DynTensor<T>,
        dy: &mut DynTensor<T>,
    ) -> Result<(), MatmulError> {
        let (xd, yd) = (self.dims(), y.dims());
        let (tx, ty) = (transpose_x.on(), transpose_y.on());
        let f = super::backward::checked_frame(tx, ty, &xd, &yd, &dout.dims())?;
        xd.expect_output(dx.dims())?;
        yd.expect_output(dy.dims())?;
        super::backward::apply_backward(
            &f,
            (&xd, &yd),
            (self.as_slice(), y.as_slice(), dout.as_slice()),
            dx.as_mut_slice(),
            dy.as_mut_slice(),
        )
    }
}
