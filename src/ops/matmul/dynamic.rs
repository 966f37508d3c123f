//! Matmul on [`DynTensor`]: every dim known at run time, every rule checked
//! when the op runs (feature `alloc`).

use super::{MatmulError, Transpose};
use crate::dynamic::DynTensor;
use crate::element::Element;

impl<T: Element> DynTensor<T> {
    /// Paddle's `matmul(x, y, transpose_x, transpose_y)` on run-time shapes,
    /// spelled as on `Tensor`: the rule is checked first, then the output is
    /// allocated and written.
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
}
