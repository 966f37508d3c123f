//! The reductions on [`DynTensor`]: every rule checked when the op runs
//! (feature `alloc`), spelled as the static path's methods.

use super::kernel::{arg, reduce_into};
use super::rule::plan;
use super::{ArgKind, ReduceElement, ReduceError, ReduceKind, Reduction};
use crate::dynamic::DynTensor;

impl<T: ReduceElement> DynTensor<T> {
    /// The one entry of the dynamic reductions: `kind` over `axes` (empty:
    /// every dim), keeping the reduced dims as 1 when `keepdim`; every rule
    /// checked before the result is allocated. The named forms below call it.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// use shapecheck::ops::reduce::ReduceKind;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let m = x.reduce::<f32>(ReduceKind::Mean, &[0], false).unwrap();
    /// assert_eq!(m.as_slice(), &[2.0, 3.0]);
    /// ```
    pub fn reduce<U: ReduceElement + From<T> + Default>(
        &self,
        kind: ReduceKind,
        axes: &[isize],
        keepdim: bool,
    ) -> Result<DynTensor<U>, ReduceError> {
        let p = plan(&self.dims(), Some(axes), keepdim, Reduction::Reduce(kind))?;
        let mut out = DynTensor::defaulted(&p.out)?;
        reduce_into(&p, kind, self.as_slice(), out.as_mut_slice());
        Ok(out)
    }

    /// `paddle.sum(x, axes, keepdim)`: `T::Sum` elements (i64 for i32).
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let s = x.sum(&[-1], true).unwrap();
    /// assert_eq!((s.dims().as_slice(), s.as_slice()), (&[2, 1][..], &[6i64, 15][..]));
    /// assert_eq!(x.sum(&[], false).unwrap().as_slice(), &[21i64]);
    /// ```
    pub fn sum(&self, axes: &[isize], keepdim: bool) -> Result<DynTensor<T::Sum>, ReduceError>
    where
        T::Sum: Default,
    {
        self.reduce(ReduceKind::Sum, axes, keepdim)
    }

    /// `paddle.mean(x, axes, keepdim)`: the sum divided by the count, rounded once.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 5.0]).unwrap();
    /// assert_eq!(x.mean(&[], false).unwrap().as_slice(), &[2.75]);
    /// ```
    pub fn mean(&self, axes: &[isize], keepdim: bool) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.reduce(ReduceKind::Mean, axes, keepdim)
    }

    /// `paddle.max(x, axes, keepdim)`; a reduced dim of size 0 is `reduce/empty`.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 3, 4]).unwrap();
    /// assert_eq!(x.max(&[0], false).unwrap().as_slice(), &[3, 7]);
    /// let e = DynTensor::new(&[2, 0], vec![0i32; 0]).unwrap();
    /// assert_eq!(e.max(&[1], false).unwrap_err().rule(), "reduce/empty");
    /// ```
    pub fn max(&self, axes: &[isize], keepdim: bool) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.reduce(ReduceKind::Max, axes, keepdim)
    }

    /// `paddle.min(x, axes, keepdim)`; a reduced dim of size 0 is `reduce/empty`.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 3, 4]).unwrap();
    /// assert_eq!(x.min(&[1], true).unwrap().as_slice(), &[1, 3]);
    /// ```
    pub fn min(&self, axes: &[isize], keepdim: bool) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.reduce(ReduceKind::Min, axes, keepdim)
    }

    /// `paddle.prod(x, axes, keepdim)` (integers wrap on overflow).
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 3, 4]).unwrap();
    /// assert_eq!(x.prod(&[], false).unwrap().as_slice(), &[84]);
    /// ```
    pub fn prod(&self, axes: &[isize], keepdim: bool) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.reduce(ReduceKind::Prod, axes, keepdim)
    }

    /// The one entry of argmax / argmin: i64 indices, the first on ties;
    /// `axis` `None` indexes the flattened x.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// use shapecheck::ops::reduce::ArgKind;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 7, 4]).unwrap();
    /// assert_eq!(x.arg_reduce(ArgKind::ArgMax, None, false).unwrap().as_slice(), &[1]);
    /// ```
    pub fn arg_reduce(
        &self,
        kind: ArgKind,
        axis: Option<isize>,
        keepdim: bool,
    ) -> Result<DynTensor<i64>, ReduceError> {
        let axes = axis.map(|a| [a]);
        let p = plan(
            &self.dims(),
            axes.as_ref().map(|a| &a[..]),
            keepdim,
            Reduction::Arg(kind),
        )?;
        let mut out = DynTensor::defaulted(&p.out)?;
        arg(&p, kind, self.as_slice(), out.as_mut_slice());
        Ok(out)
    }

    /// `paddle.argmax(x, axis, keepdim)`: i64 indices, the first on ties.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 3], vec![1, 7, 7, 9, 4, 9]).unwrap();
    /// assert_eq!(x.argmax(Some(1), false).unwrap().as_slice(), &[1, 0]);
    /// assert_eq!(x.argmax(None, true).unwrap().dims().as_slice(), &[1, 1]);
    /// let s = DynTensor::new(&[], vec![3.0f32]).unwrap();
    /// assert_eq!(s.argmax(Some(0), true).unwrap().dims().as_slice(), &[1]); // Paddle
    /// ```
    pub fn argmax(
        &self,
        axis: Option<isize>,
        keepdim: bool,
    ) -> Result<DynTensor<i64>, ReduceError> {
        self.arg_reduce(ArgKind::ArgMax, axis, keepdim)
    }

    /// `paddle.argmin(x, axis, keepdim)`: i64 indices, the first on ties.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 3], vec![1, 0, 0, 9, 4, 9]).unwrap();
    /// assert_eq!(x.argmin(Some(-1), false).unwrap().as_slice(), &[1, 1]);
    /// ```
    pub fn argmin(
        &self,
        axis: Option<isize>,
        keepdim: bool,
    ) -> Result<DynTensor<i64>, ReduceError> {
        self.arg_reduce(ArgKind::ArgMin, axis, keepdim)
    }
}
