//! The static path: one entry per op, [`Tensor::reduce_into`] and
//! [`Tensor::arg_reduce_into`] (the rule checked when they run, on any
//! shape), and the named forms, short delegations for static shapes whose
//! output type [`Reduce`] computes (an inline result, no heap; the rule
//! holds by the types, and the zero-size check of max / min is a constant).

use super::bounds::{ArgKeepOutput, OneAxis, Reduce, ReduceKeepOutput, ReduceOutput, StaticCheck};
use super::kernel;
use super::rule::plan;
use super::{ArgKind, ReduceElement, ReduceError, ReduceKind, Reduction};
use crate::shape::Shape;
use crate::storage::{OutputStorage, OwnedStorage, Storage, StorageMut};
use crate::tensor::{Owned, Tensor};

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// The one entry of the reductions: `kind` over `axes` into `out`
    /// (`keepdim`: the reduced dims kept as 1), any shape, every rule checked
    /// here by [`rule::plan`](super::rule::plan) on x's dims before `out` is
    /// written, `out`'s dims too (`shape/output`). `U` is `T::Sum` for sum,
    /// `T` for the others.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceKind;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::with_dims(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let mut out = Tensor::<f32, shape![2]>::full(0.0);
    /// x.reduce_into(ReduceKind::Mean, Axis::<0>, false, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[2.0, 3.0]);
    /// ```
    pub fn reduce_into<U, Ax, O, BO>(
        &self,
        kind: ReduceKind,
        _axes: Ax,
        keepdim: bool,
        out: &mut Tensor<U, O, BO>,
    ) -> Result<(), ReduceError>
    where
        T: ReduceElement,
        U: ReduceElement + From<T>,
        S: Reduce<Ax>,
        O: Shape,
        BO: StorageMut<U>,
    {
        let p = plan(&self.dims(), S::AXES, keepdim, Reduction::Reduce(kind))?;
        p.out.expect_output(out.dims())?;
        kernel::reduce_into(&p, kind, self.as_slice(), out.as_mut_slice());
        Ok(())
    }

    /// The one entry of argmax / argmin: i64 indices into `out`, any shape,
    /// every rule checked here (see [`Tensor::reduce_into`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ArgKind;
    /// let x = tensor![[1, 9], [7, 3]];
    /// let mut out = Tensor::<i64, shape![2, 1]>::full(0);
    /// x.arg_reduce_into(ArgKind::ArgMax, Axis::<1>, true, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[1, 0]);
    /// ```
    pub fn arg_reduce_into<Ax, O, BO>(
        &self,
        kind: ArgKind,
        _axis: Ax,
        keepdim: bool,
        out: &mut Tensor<i64, O, BO>,
    ) -> Result<(), ReduceError>
    where
        T: ReduceElement,
        Ax: OneAxis,
        S: Reduce<Ax>,
        O: Shape,
        BO: StorageMut<i64>,
    {
        let p = plan(&self.dims(), S::AXES, keepdim, Reduction::Arg(kind))?;
        p.out.expect_output(out.dims())?;
        kernel::arg(&p, kind, self.as_slice(), out.as_mut_slice());
        Ok(())
    }

    /// [`Tensor::reduce_into`] into a new tensor (reduced dims dropped), for
    /// shapes with run-time dims (a `Vec` result then).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceKind;
    /// let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[0, 2], vec![]).unwrap();
    /// let s = x.try_reduce::<i64, _>(ReduceKind::Sum, Axis::<0>).unwrap();
    /// assert_eq!(s.as_slice(), &[0, 0]);
    /// assert_eq!(x.try_reduce::<i32, _>(ReduceKind::Max, Axis::<0>).unwrap_err().rule(), "reduce/empty");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_reduce<U, Ax>(
        &self,
        kind: ReduceKind,
        axes: Ax,
    ) -> Result<Owned<U, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        U: ReduceElement + From<T>,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<U>,
    {
        // the rule first: nothing is allocated for an input it rejects
        plan(&self.dims(), S::AXES, false, Reduction::Reduce(kind))?;
        let shape = <S as Reduce<Ax>>::out_shape(self.shape());
        let buf = <ReduceOutput<S, Ax> as OutputStorage<U>>::Buffer::try_filled(&shape, U::ZERO)?;
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        self.reduce_into(kind, axes, false, &mut out)?;
        Ok(out)
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// [`Tensor::try_reduce`] keeping the reduced dims as 1 (`keepdim`), for
    /// shapes with run-time dims; every check before anything is allocated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceKind;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::with_dims(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let m = x.try_reduce_keepdim::<f32, _>(ReduceKind::Max, Axis::<0>).unwrap();
    /// let _: &Tensor<f32, (One, Dim<2>)> = &m; // static: inline
    /// assert_eq!(m.as_slice(), &[3.0, 4.0]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_reduce_keepdim<U, Ax>(
        &self,
        kind: ReduceKind,
        axes: Ax,
    ) -> Result<Owned<U, ReduceKeepOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        U: ReduceElement + From<T>,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: OutputStorage<U>,
    {
        plan(&self.dims(), S::AXES, true, Reduction::Reduce(kind))?;
        let shape = <S as Reduce<Ax>>::kept_shape(self.shape());
        let buf =
            <ReduceKeepOutput<S, Ax> as OutputStorage<U>>::Buffer::try_filled(&shape, U::ZERO)?;
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        self.reduce_into(kind, axes, true, &mut out)?;
        Ok(out)
    }

    /// argmax / argmin into a new tensor (the reduced dim dropped), for
    /// shapes with run-time dims (`reduce/empty` for a reduced dim of size 0).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ArgKind;
    /// let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0, 9.0, 9.0, 7.0, 3.0, 8.0]).unwrap();
    /// assert_eq!(x.try_arg_reduce(ArgKind::ArgMax, Axis::<1>).unwrap().as_slice(), &[1, 2]);
    /// let e = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[0, 3], vec![]).unwrap();
    /// assert_eq!(e.try_arg_reduce(ArgKind::ArgMin, Axis::<0>).unwrap_err().rule(), "reduce/empty");
    /// ```
    pub fn try_arg_reduce<Ax>(
        &self,
        kind: ArgKind,
        axis: Ax,
    ) -> Result<Owned<i64, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        Ax: OneAxis,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<i64>,
    {
        plan(&self.dims(), S::AXES, false, Reduction::Arg(kind))?;
        let shape = <S as Reduce<Ax>>::out_shape(self.shape());
        let buf = <ReduceOutput<S, Ax> as OutputStorage<i64>>::Buffer::try_filled(&shape, 0)?;
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        self.arg_reduce_into(kind, axis, false, &mut out)?;
        Ok(out)
    }

    /// [`Tensor::try_arg_reduce`] keeping the reduced dim as 1.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ArgKind;
    /// let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[2, 2], vec![1, 9, 7, 3]).unwrap();
    /// let i = x.try_arg_reduce_keepdim(ArgKind::ArgMax, Axis::<0>).unwrap();
    /// assert_eq!((i.dims().as_slice(), i.as_slice()), (&[1, 2][..], &[1, 0][..]));
    /// ```
    pub fn try_arg_reduce_keepdim<Ax>(
        &self,
        kind: ArgKind,
        axis: Ax,
    ) -> Result<Owned<i64, ArgKeepOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        Ax: OneAxis,
        S: Reduce<Ax>,
        ArgKeepOutput<S, Ax>: OutputStorage<i64>,
    {
        plan(&self.dims(), S::AXES, true, Reduction::Arg(kind))?;
        let shape = <S as Reduce<Ax>>::arg_kept_shape(self.shape());
        let buf = <ArgKeepOutput<S, Ax> as OutputStorage<i64>>::Buffer::try_filled(&shape, 0)?;
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        self.arg_reduce_into(kind, axis, true, &mut out)?;
        Ok(out)
    }
}

/// The `try_` forms, one per reduction, for any shape: the rule checked
/// when they run (a reduced `Dyn` dim of size 0 is `reduce/empty` for max,
/// min, argmax and argmin). Spelled as on [`DynTensor`](crate::DynTensor),
/// whose `try_` forms take these markers or values chosen at run time, so
/// that one body runs on both paths.
impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// `paddle.sum(x, axes)` for any shape, the rule checked when it runs
    /// ([`Tensor::try_reduce`] with `ReduceKind::Sum`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(x.try_sum(Axis::<0>).unwrap().as_slice(), &[4i64, 6]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_sum<Ax>(&self, axes: Ax) -> Result<Owned<T::Sum, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T::Sum>,
    {
        self.try_reduce::<T::Sum, Ax>(ReduceKind::Sum, axes)
    }

    /// `paddle.mean(x, axes)` for any shape, the rule checked when it runs
    /// ([`Tensor::try_reduce`] with `ReduceKind::Mean`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::with_dims(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(x.try_mean(Axis::<-1>).unwrap().as_slice(), &[1.5, 3.5]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_mean<Ax>(&self, axes: Ax) -> Result<Owned<T, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.try_reduce::<T, Ax>(ReduceKind::Mean, axes)
    }

    /// `paddle.prod(x, axes)` for any shape, the rule checked when it runs
    /// ([`Tensor::try_reduce`] with `ReduceKind::Prod`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(x.try_prod(All).unwrap().as_slice(), &[24]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_prod<Ax>(&self, axes: Ax) -> Result<Owned<T, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.try_reduce::<T, Ax>(ReduceKind::Prod, axes)
    }

    /// `paddle.max(x, axes)` for any shape, the rule checked when it runs
    /// ([`Tensor::try_reduce`] with `ReduceKind::Max`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(x.try_max(Axis::<0>).unwrap().as_slice(), &[3, 4]);
    /// let e = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[0, 2], vec![]).unwrap();
    /// assert_eq!(e.try_max(Axis::<0>).unwrap_err().rule(), "reduce/empty");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_max<Ax>(&self, axes: Ax) -> Result<Owned<T, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.try_reduce::<T, Ax>(ReduceKind::Max, axes)
    }

    /// `paddle.min(x, axes)` for any shape, the rule checked when it runs
    /// ([`Tensor::try_reduce`] with `ReduceKind::Min`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(x.try_min(Axis::<1>).unwrap().as_slice(), &[1, 3]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_min<Ax>(&self, axes: Ax) -> Result<Owned<T, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.try_reduce::<T, Ax>(ReduceKind::Min, axes)
    }

    /// `paddle.argmax(x, axis)` for any shape, the rule checked when it runs
    /// ([`Tensor::try_arg_reduce`] with `ArgKind::ArgMax`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0, 9.0, 0.0, 7.0, 3.0, 8.0]).unwrap();
    /// assert_eq!(x.try_argmax(Axis::<-1>).unwrap().as_slice(), &[1, 2]);
    /// ```
    pub fn try_argmax<Ax: OneAxis>(
        &self,
        axis: Ax,
    ) -> Result<Owned<i64, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<i64>,
    {
        self.try_arg_reduce(ArgKind::ArgMax, axis)
    }

    /// `paddle.argmin(x, axis)` for any shape, the rule checked when it runs
    /// ([`Tensor::try_arg_reduce`] with `ArgKind::ArgMin`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0, 9.0, 0.0, 7.0, 3.0, 8.0]).unwrap();
    /// assert_eq!(x.try_argmin(Axis::<-1>).unwrap().as_slice(), &[2, 1]);
    /// ```
    pub fn try_argmin<Ax: OneAxis>(
        &self,
        axis: Ax,
    ) -> Result<Owned<i64, ReduceOutput<S, Ax>>, ReduceError>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<i64>,
    {
        self.try_arg_reduce(ArgKind::ArgMin, axis)
    }
}

/// The named forms: any shape whose reduced dims the rule needs not look
/// at when it runs (sum, mean, prod over any axis; max, min, argmax, argmin
/// over static, non-empty dims: a constant check, see [`StaticCheck`]). The
/// result is stored as its shape chooses ([`Owned`]: inline for static
/// shapes, a `Room` for bounded dims, a `Vec` for `Dyn` or a brand) and
/// built from x's shape, so a brand stays a brand. Each calls the entry
/// once; the rule held when the call compiled, so its `Ok` is certain and
/// the output is returned as written.
impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// A reduction's result: a fresh tensor of shape `shape` written by the
    /// entry. `KEEP`: keepdim; `NEEDS_ONE`: max or min. The rule's verdict
    /// and its output dims are checked against the types when the call is
    /// built ([`StaticCheck`]).
    fn reduced<U, Ax, O, const KEEP: bool, const NEEDS_ONE: bool>(
        &self,
        kind: ReduceKind,
        axes: Ax,
        shape: O,
    ) -> Owned<U, O>
    where
        T: ReduceElement,
        U: ReduceElement + From<T>,
        S: Reduce<Ax>,
        O: OutputStorage<U>,
    {
        let () = StaticCheck::<S, Ax, O, KEEP, NEEDS_ONE, false>::CHECK;
        let buf = <O as OutputStorage<U>>::Buffer::filled(&shape, U::ZERO);
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        // the rule held on these shapes and gave the output type's dims
        // (the check above): the entry's checks hold
        let _checked: Result<(), ReduceError> = self.reduce_into(kind, axes, KEEP, &mut out);
        out
    }

    /// An argmax / argmin's result, as [`Self::reduced`].
    fn arg_reduced<Ax: OneAxis, O, const KEEP: bool>(
        &self,
        kind: ArgKind,
        axis: Ax,
        shape: O,
    ) -> Owned<i64, O>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        O: OutputStorage<i64>,
    {
        let () = StaticCheck::<S, Ax, O, KEEP, true, true>::CHECK;
        let buf = <O as OutputStorage<i64>>::Buffer::filled(&shape, 0);
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        let _checked: Result<(), ReduceError> = self.arg_reduce_into(kind, axis, KEEP, &mut out);
        out
    }

    /// `paddle.sum(x, axes)`: i64 for i32 elements ([`ReduceElement::Sum`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let s: Tensor<i64, shape![3]> = tensor![[1, 2, 3], [4, 5, 6]].sum(Axis::<0>);
    /// assert_eq!(s.as_slice(), &[5, 7, 9]);
    /// ```
    pub fn sum<Ax>(&self, axes: Ax) -> Owned<T::Sum, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T::Sum>,
    {
        self.reduced::<_, _, _, false, false>(
            ReduceKind::Sum,
            axes,
            <S as Reduce<Ax>>::out_shape(self.shape()),
        )
    }

    /// `paddle.sum(x, axes, keepdim=True)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let s: Tensor<f32, shape![2, 1]> = tensor![[1.0f32, 2.0], [3.0, 4.0]].sum_keepdim(Axis::<-1>);
    /// assert_eq!(s.as_slice(), &[3.0, 7.0]);
    /// ```
    pub fn sum_keepdim<Ax>(&self, axes: Ax) -> Owned<T::Sum, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: OutputStorage<T::Sum>,
    {
        self.reduced::<_, _, _, true, false>(
            ReduceKind::Sum,
            axes,
            <S as Reduce<Ax>>::kept_shape(self.shape()),
        )
    }

    /// `paddle.mean(x, axes)`: the sum over the count, rounded once.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(tensor![[1.0f64, 2.0], [4.0, 8.0]].mean(Axis::<1>).as_slice(), &[1.5, 6.0]);
    /// ```
    pub fn mean<Ax>(&self, axes: Ax) -> Owned<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, false, false>(
            ReduceKind::Mean,
            axes,
            <S as Reduce<Ax>>::out_shape(self.shape()),
        )
    }

    /// `paddle.mean(x, axes, keepdim=True)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let m: Tensor<f32, shape![1, 1]> = tensor![[1.0f32, 2.0], [4.0, 8.0]].mean_keepdim(All);
    /// assert_eq!(m.as_slice(), &[3.75]);
    /// ```
    pub fn mean_keepdim<Ax>(&self, axes: Ax) -> Owned<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, true, false>(
            ReduceKind::Mean,
            axes,
            <S as Reduce<Ax>>::kept_shape(self.shape()),
        )
    }

    /// `paddle.max(x, axes)`; a reduced dim of size 0 fails the build (`reduce/empty`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(tensor![[1, 9], [7, 3]].max(Axis::<0>).as_slice(), &[7, 9]);
    /// ```
    pub fn max<Ax>(&self, axes: Ax) -> Owned<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, false, true>(
            ReduceKind::Max,
            axes,
            <S as Reduce<Ax>>::out_shape(self.shape()),
        )
    }

    /// `paddle.max(x, axes, keepdim=True)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let m: Tensor<i32, shape![2, 1]> = tensor![[1, 9], [7, 3]].max_keepdim(Axis::<1>);
    /// assert_eq!(m.as_slice(), &[9, 7]);
    /// ```
    pub fn max_keepdim<Ax>(&self, axes: Ax) -> Owned<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, true, true>(
            ReduceKind::Max,
            axes,
            <S as Reduce<Ax>>::kept_shape(self.shape()),
        )
    }

    /// `paddle.min(x, axes)`; a reduced dim of size 0 fails the build (`reduce/empty`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// assert_eq!(tensor![[1, 9], [7, 3]].min(All).as_slice(), &[1]);
    /// ```
    pub fn min<Ax>(&self, axes: Ax) -> Owned<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, false, true>(
            ReduceKind::Min,
            axes,
            <S as Reduce<Ax>>::out_shape(self.shape()),
        )
    }

    /// `paddle.min(x, axes, keepdim=True)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let m: Tensor<i32, shape![1, 2]> = tensor![[1, 9], [7, 3]].min_keepdim((Axis::<0>,));
    /// assert_eq!(m.as_slice(), &[1, 3]);
    /// ```
    pub fn min_keepdim<Ax>(&self, axes: Ax) -> Owned<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, true, true>(
            ReduceKind::Min,
            axes,
            <S as Reduce<Ax>>::kept_shape(self.shape()),
        )
    }

    /// `paddle.prod(x, axes)` (integers wrap on overflow).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(tensor![[1, 9], [7, 3]].prod(Axis::<1>).as_slice(), &[9, 21]);
    /// ```
    pub fn prod<Ax>(&self, axes: Ax) -> Owned<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, false, false>(
            ReduceKind::Prod,
            axes,
            <S as Reduce<Ax>>::out_shape(self.shape()),
        )
    }

    /// `paddle.prod(x, axes, keepdim=True)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let p: Tensor<i32, shape![1, 1]> = tensor![[1, 9], [7, 3]].prod_keepdim(All);
    /// assert_eq!(p.as_slice(), &[189]);
    /// ```
    pub fn prod_keepdim<Ax>(&self, axes: Ax) -> Owned<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: OutputStorage<T>,
    {
        self.reduced::<_, _, _, true, false>(
            ReduceKind::Prod,
            axes,
            <S as Reduce<Ax>>::kept_shape(self.shape()),
        )
    }

    /// `paddle.argmax(x, axis)`: i64 indices, the first on ties; [`All`](super::All)
    /// indexes the flattened x.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let x = tensor![[1, 9, 9], [7, 3, 7]];
    /// assert_eq!(x.argmax(Axis::<-1>).as_slice(), &[1, 0]);
    /// assert_eq!(x.argmax(All).as_slice(), &[1]);
    /// ```
    pub fn argmax<Ax: OneAxis>(&self, axis: Ax) -> Owned<i64, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<i64>,
    {
        self.arg_reduced::<_, _, false>(
            ArgKind::ArgMax,
            axis,
            <S as Reduce<Ax>>::out_shape(self.shape()),
        )
    }

    /// `paddle.argmax(x, axis, keepdim=True)` (`[1]` for a 0-d x over an axis).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let i: Tensor<i64, shape![2, 1]> = tensor![[1, 9], [7, 3]].argmax_keepdim(Axis::<1>);
    /// assert_eq!(i.as_slice(), &[1, 0]);
    /// ```
    pub fn argmax_keepdim<Ax: OneAxis>(&self, axis: Ax) -> Owned<i64, ArgKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ArgKeepOutput<S, Ax>: OutputStorage<i64>,
    {
        self.arg_reduced::<_, _, true>(
            ArgKind::ArgMax,
            axis,
            <S as Reduce<Ax>>::arg_kept_shape(self.shape()),
        )
    }

    /// `paddle.argmin(x, axis)`: i64 indices, the first on ties.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(tensor![[1, 0, 0], [7, 3, 7]].argmin(Axis::<1>).as_slice(), &[1, 1]);
    /// ```
    pub fn argmin<Ax: OneAxis>(&self, axis: Ax) -> Owned<i64, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: OutputStorage<i64>,
    {
        self.arg_reduced::<_, _, false>(
            ArgKind::ArgMin,
            axis,
            <S as Reduce<Ax>>::out_shape(self.shape()),
        )
    }

    /// `paddle.argmin(x, axis, keepdim=True)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let i: Tensor<i64, shape![1, 2]> = tensor![[1, 0], [7, 3]].argmin_keepdim(Axis::<0>);
    /// assert_eq!(i.as_slice(), &[0, 0]);
    /// ```
    pub fn argmin_keepdim<Ax: OneAxis>(&self, axis: Ax) -> Owned<i64, ArgKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ArgKeepOutput<S, Ax>: OutputStorage<i64>,
    {
        self.arg_reduced::<_, _, true>(
            ArgKind::ArgMin,
            axis,
            <S as Reduce<Ax>>::arg_kept_shape(self.shape()),
        )
    }
}
