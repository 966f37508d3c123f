//! The reductions on [`DynTensor`]: every rule checked when the op runs
//! (feature `alloc`), spelled as the static path's methods.

use super::backward::{checked_plan, reduce_backward, ReduceGradKind};
use super::kernel::{arg, reduce_into};
use super::rule::plan;
use super::{ArgKind, DynArgAxis, DynAxes, ReduceElement, ReduceError, ReduceKind, Reduction};
use crate::dynamic::DynTensor;
use crate::ops::elementwise::GradElement;

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

impl<T: ReduceElement + GradElement> DynTensor<T> {
    /// The one entry of the reductions' gradients (see
    /// [`Tensor::reduce_backward_into`](crate::Tensor::reduce_backward_into)):
    /// x's (`self`) gradient of `kind` over `axes` (empty: every dim), from
    /// the forward's `out` (read by max and min) and `dout`, whose dims must
    /// be the output's (`reduce/dout-shape`); every check is made before the
    /// result is allocated.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// use shapecheck::ops::reduce::ReduceGradKind;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f32, 4.0, 4.0, 2.0]).unwrap();
    /// let out = x.max(&[], false).unwrap();
    /// let gx = x.reduce_backward(ReduceGradKind::Max, &[], false, &out, &out).unwrap();
    /// assert_eq!(gx.as_slice(), &[0.0, 4.0, 4.0, 0.0]);
    /// let err = x.reduce_backward(ReduceGradKind::Max, &[0], false, &out, &out).unwrap_err();
    /// assert_eq!(err.rule(), "reduce/dout-shape");
    /// ```
    pub fn reduce_backward(
        &self,
        kind: ReduceGradKind,
        axes: &[isize],
        keepdim: bool,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, ReduceError> {
        let p = checked_plan(
            kind,
            &self.dims(),
            Some(axes),
            keepdim,
            &out.dims(),
            &dout.dims(),
        )?;
        let mut gx = DynTensor::defaulted(&p.x)?;
        reduce_backward(
            &p,
            kind,
            self.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
        );
        Ok(gx)
    }

    /// The gradient of [`DynTensor::sum`]: `dout` broadcast back.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    /// let dout = DynTensor::new(&[2, 1], vec![1.0, 2.0]).unwrap();
    /// assert_eq!(x.sum_backward(&[1], true, &dout).unwrap().as_slice(), &[1.0, 1.0, 2.0, 2.0]);
    /// ```
    pub fn sum_backward(
        &self,
        axes: &[isize],
        keepdim: bool,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, ReduceError> {
        self.reduce_backward(ReduceGradKind::Sum, axes, keepdim, dout, dout)
    }

    /// The gradient of [`DynTensor::mean`]: `dout / count` broadcast back.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    /// let dout = DynTensor::new(&[], vec![8.0]).unwrap();
    /// assert_eq!(x.mean_backward(&[], false, &dout).unwrap().as_slice(), &[2.0; 4]);
    /// ```
    pub fn mean_backward(
        &self,
        axes: &[isize],
        keepdim: bool,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, ReduceError> {
        self.reduce_backward(ReduceGradKind::Mean, axes, keepdim, dout, dout)
    }

    /// The gradient of [`DynTensor::max`] from its output `out`: `dout` to
    /// every position equal to the max.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[3], vec![2.0f32, 1.0, 2.0]).unwrap();
    /// let out = x.max(&[0], false).unwrap();
    /// assert_eq!(x.max_backward(&[0], false, &out, &out).unwrap().as_slice(), &[2.0, 0.0, 2.0]);
    /// ```
    pub fn max_backward(
        &self,
        axes: &[isize],
        keepdim: bool,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, ReduceError> {
        self.reduce_backward(ReduceGradKind::Max, axes, keepdim, out, dout)
    }

    /// The gradient of [`DynTensor::min`] from its output `out`: `dout` to
    /// every position equal to the min.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let x = DynTensor::new(&[3], vec![2.0f32, 1.0, 2.0]).unwrap();
    /// let out = x.min(&[0], true).unwrap();
    /// assert_eq!(x.min_backward(&[0], true, &out, &out).unwrap().as_slice(), &[0.0, 1.0, 0.0]);
    /// ```
    pub fn min_backward(
        &self,
        axes: &[isize],
        keepdim: bool,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, ReduceError> {
        self.reduce_backward(ReduceGradKind::Min, axes, keepdim, out, dout)
    }
}

/// The `try_` spellings: the static path's names for its checked forms
/// ([`Tensor::try_sum`](crate::Tensor::try_sum) and the rest), taking the
/// static path's markers or values chosen at run time (`DynAxes`,
/// `DynArgAxis`), so that one function body, written with `?`, runs on
/// `Tensor`s and on `DynTensor`s under one `use shapecheck::prelude::*`. On
/// run-time shapes every form is checked: the same rule, result and error
/// as the forms above (keepdim false).
impl<T: ReduceElement> DynTensor<T> {
    /// [`sum`](Self::sum) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(x.try_sum(Axis::<-1>).unwrap().as_slice(), &[6i64, 15]);
    /// assert_eq!(x.try_sum(-1).unwrap(), x.sum(&[-1], false).unwrap());
    /// assert_eq!(x.try_sum(Axis::<2>).unwrap_err().rule(), "reduce/axis-range");
    /// ```
    pub fn try_sum(&self, axes: impl DynAxes) -> Result<DynTensor<T::Sum>, ReduceError>
    where
        T::Sum: Default,
    {
        self.sum(axes.axes(), false)
    }

    /// [`mean`](Self::mean) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(x.try_mean(Axis::<0>).unwrap().as_slice(), &[2.0, 3.0]);
    /// ```
    pub fn try_mean(&self, axes: impl DynAxes) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.mean(axes.axes(), false)
    }

    /// [`prod`](Self::prod) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 3, 4]).unwrap();
    /// assert_eq!(x.try_prod(All).unwrap().as_slice(), &[84]);
    /// ```
    pub fn try_prod(&self, axes: impl DynAxes) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.prod(axes.axes(), false)
    }

    /// [`max`](Self::max) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 3, 4]).unwrap();
    /// assert_eq!(x.try_max((Axis::<0>,)).unwrap().as_slice(), &[3, 7]);
    /// let e = DynTensor::new(&[2, 0], vec![0i32; 0]).unwrap();
    /// assert_eq!(e.try_max(1).unwrap_err().rule(), "reduce/empty");
    /// ```
    pub fn try_max(&self, axes: impl DynAxes) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.max(axes.axes(), false)
    }

    /// [`min`](Self::min) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 3, 4]).unwrap();
    /// assert_eq!(x.try_min(&[-1][..]).unwrap().as_slice(), &[1, 3]);
    /// ```
    pub fn try_min(&self, axes: impl DynAxes) -> Result<DynTensor<T>, ReduceError>
    where
        T: Default,
    {
        self.min(axes.axes(), false)
    }

    /// [`argmax`](Self::argmax) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let x = DynTensor::new(&[2, 3], vec![1, 7, 7, 9, 4, 9]).unwrap();
    /// assert_eq!(x.try_argmax(Axis::<-1>).unwrap().as_slice(), &[1, 0]);
    /// assert_eq!(x.try_argmax(All).unwrap().as_slice(), &[3]);
    /// ```
    pub fn try_argmax(&self, axis: impl DynArgAxis) -> Result<DynTensor<i64>, ReduceError> {
        self.argmax(axis.arg_axis(), false)
    }

    /// [`argmin`](Self::argmin) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 7, 0, 9, 4, 9]).unwrap();
    /// assert_eq!(x.try_argmin(1).unwrap().as_slice(), &[2, 1]);
    /// ```
    pub fn try_argmin(&self, axis: impl DynArgAxis) -> Result<DynTensor<i64>, ReduceError> {
        self.argmin(axis.arg_axis(), false)
    }

    /// [`reduce`](Self::reduce) under the static path's name for its
    /// checked entry, [`Tensor::try_reduce`](crate::Tensor::try_reduce):
    /// `kind` over `axes` (the static path's markers or values chosen at run
    /// time), the reduced dims dropped.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceKind;
    /// let x = DynTensor::new(&[2, 2], vec![1, 7, 3, 4]).unwrap();
    /// let s = x.try_reduce::<i64, _>(ReduceKind::Sum, Axis::<0>).unwrap();
    /// assert_eq!((s.dims().as_slice(), s.as_slice()), (&[2][..], &[4i64, 11][..]));
    /// assert_eq!(s, x.reduce::<i64>(ReduceKind::Sum, &[0], false).unwrap());
    /// let e = DynTensor::new(&[0, 2], vec![0i32; 0]).unwrap();
    /// assert_eq!(e.try_reduce::<i32, _>(ReduceKind::Max, 0).unwrap_err().rule(), "reduce/empty");
    /// ```
    pub fn try_reduce<U, Ax>(&self, kind: ReduceKind, axes: Ax) -> Result<DynTensor<U>, ReduceError>
    where
        U: ReduceElement + From<T> + Default,
        Ax: DynAxes,
    {
        self.reduce(kind, axes.axes(), false)
    }

    /// [`try_reduce`](Self::try_reduce) keeping the reduced dims as 1
    /// ([`Tensor::try_reduce_keepdim`](crate::Tensor::try_reduce_keepdim)'s twin).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceKind;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let m = x.try_reduce_keepdim::<f32, _>(ReduceKind::Max, Axis::<0>).unwrap();
    /// assert_eq!((m.dims().as_slice(), m.as_slice()), (&[1, 2][..], &[3.0, 4.0][..]));
    /// assert_eq!(x.try_reduce_keepdim::<f32, _>(ReduceKind::Max, 2).unwrap_err().rule(), "reduce/axis-range");
    /// ```
    pub fn try_reduce_keepdim<U, Ax>(
        &self,
        kind: ReduceKind,
        axes: Ax,
    ) -> Result<DynTensor<U>, ReduceError>
    where
        U: ReduceElement + From<T> + Default,
        Ax: DynAxes,
    {
        self.reduce(kind, axes.axes(), true)
    }

    /// [`arg_reduce`](Self::arg_reduce) under the static path's name for
    /// its checked entry, [`Tensor::try_arg_reduce`](crate::Tensor::try_arg_reduce):
    /// i64 indices along `axis` (a marker, an `isize`, or `All`: the
    /// flattened x), the reduced dim dropped.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ArgKind;
    /// let x = DynTensor::new(&[2, 3], vec![1.0f32, 9.0, 9.0, 7.0, 3.0, 8.0]).unwrap();
    /// assert_eq!(x.try_arg_reduce(ArgKind::ArgMax, Axis::<1>).unwrap().as_slice(), &[1, 2]);
    /// let e = DynTensor::new(&[0, 3], vec![0.0f32; 0]).unwrap();
    /// assert_eq!(e.try_arg_reduce(ArgKind::ArgMin, 0).unwrap_err().rule(), "reduce/empty");
    /// ```
    pub fn try_arg_reduce<Ax: DynArgAxis>(
        &self,
        kind: ArgKind,
        axis: Ax,
    ) -> Result<DynTensor<i64>, ReduceError> {
        self.arg_reduce(kind, axis.arg_axis(), false)
    }

    /// [`try_arg_reduce`](Self::try_arg_reduce) keeping the reduced dim as 1
    /// ([`Tensor::try_arg_reduce_keepdim`](crate::Tensor::try_arg_reduce_keepdim)'s twin).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ArgKind;
    /// let x = DynTensor::new(&[2, 2], vec![1, 9, 7, 3]).unwrap();
    /// let i = x.try_arg_reduce_keepdim(ArgKind::ArgMax, Axis::<0>).unwrap();
    /// assert_eq!((i.dims().as_slice(), i.as_slice()), (&[1, 2][..], &[1, 0][..]));
    /// ```
    pub fn try_arg_reduce_keepdim<Ax: DynArgAxis>(
        &self,
        kind: ArgKind,
        axis: Ax,
    ) -> Result<DynTensor<i64>, ReduceError> {
        self.arg_reduce(kind, axis.arg_axis(), true)
    }
}

/// The gradients' `try_` spelling: the static path's name for its checked
/// entry, with its markers or values chosen at run time.
impl<T: ReduceElement + GradElement> DynTensor<T> {
    /// [`reduce_backward`](Self::reduce_backward) under the static path's
    /// name for its checked form,
    /// [`Tensor::try_reduce_backward`](crate::Tensor::try_reduce_backward):
    /// `axes` as the static path's markers or values chosen at run time.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceGradKind;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let dout = DynTensor::new(&[2], vec![1.0f32, 2.0]).unwrap();
    /// let gx = x.try_reduce_backward(ReduceGradKind::Sum, Axis::<-1>, false, &dout, &dout).unwrap();
    /// assert_eq!(gx.as_slice(), &[1.0, 1.0, 2.0, 2.0]);
    /// let err = x.try_reduce_backward(ReduceGradKind::Sum, Axis::<0>, true, &dout, &dout).unwrap_err();
    /// assert_eq!(err.rule(), "reduce/dout-shape");
    /// ```
    pub fn try_reduce_backward<Ax: DynAxes>(
        &self,
        kind: ReduceGradKind,
        axes: Ax,
        keepdim: bool,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
    ) -> Result<DynTensor<T>, ReduceError> {
        self.reduce_backward(kind, axes.axes(), keepdim, out, dout)
    }
}
