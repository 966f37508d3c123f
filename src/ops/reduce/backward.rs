//! The gradients of sum, mean, max and min: from the forward's x, its
//! output `out` and the upstream gradient `dout` (the output's shape), x's
//! gradient, typed as x.
//!
//! The rule, for each element `x[i]` and the output element `o(i)` it was
//! reduced into (PaddlePaddle 3.3.1's reduce grad ops):
//!
//! | op | dx\[i\] |
//! |---|---|
//! | sum | `dout[o(i)]` |
//! | mean | `dout[o(i)] / count` (count: the elements each output element reduces) |
//! | max, min | `dout[o(i)]` where `x[i] == out[o(i)]`, 0 elsewhere |
//!
//! max and min send the **whole** `dout` to **every** position equal to the
//! extreme, as `paddle.max` / `paddle.min` do (their docs: "max propagates
//! gradient to all of them"); `paddle.amax` would split it evenly, and a
//! first-index rule (as argmax picks) is neither. A NaN never equals `out`,
//! so it gets 0. `keepdim` changes the output's dims, not its order, so
//! `dout` is read the same way with or without it. prod has no backward
//! here ([`ReduceGradKind`] has no such kind).
//!
//! Forms: the one entry [`Tensor::reduce_backward_into`] (any shape, the
//! rule and `out`'s, `dout`'s and `gx`'s dims checked before anything is
//! written), [`Tensor::try_reduce_backward`] (a fresh result, run-time
//! dims), the named forms ([`Tensor::sum_backward`],
//! `mean_backward`, `max_backward`, `min_backward` and their `_keepdim_`
//! forms: `dout` typed as the forward's output, so one of another shape is
//! a compile error naming both shapes; any x whose output's dims its type
//! proves, static or branded, so a `Dyn` batch reduced away passes, with
//! no `Result`; an inline result for a static x, no heap), the same
//! with `_into` (`sum_backward_into(axes, &dout, &mut gx)`: any storage,
//! x's dims proven too, cannot fail),
//! `DynTensor::reduce_backward` (and `sum_backward`, ...) and
//! [`reduce_backward_slices`].

use super::bounds::{Reduce, ReduceKeepOutput, ReduceOutput, StaticCheck};
use super::kernel::OutputOffsets;
use super::rule::{plan, ReducePlan};
use super::{ReduceElement, ReduceError, ReduceKind, Reduction};
use crate::dims::Dims;
use crate::ops::elementwise::GradElement;
use crate::shape::{ProvenShape, Shape};
use crate::storage::{OutputStorage, OwnedStorage, Storage, StorageMut};
use crate::tensor::{Owned, Tensor};

/// The reductions with a backward: sum, mean, max, min.
///
/// ```
/// use shapecheck::ops::reduce::{ReduceGradKind, ReduceKind};
/// assert_eq!(ReduceGradKind::Max.forward(), ReduceKind::Max);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceGradKind {
    /// `paddle.sum`'s gradient: `dout` broadcast back.
    Sum,
    /// `paddle.mean`'s: `dout / count` broadcast back.
    Mean,
    /// `paddle.max`'s: `dout` to every position equal to the max.
    Max,
    /// `paddle.min`'s: `dout` to every position equal to the min.
    Min,
}

impl ReduceGradKind {
    /// The forward reduction.
    #[must_use]
    pub const fn forward(self) -> ReduceKind {
        match self {
            ReduceGradKind::Sum => ReduceKind::Sum,
            ReduceGradKind::Mean => ReduceKind::Mean,
            ReduceGradKind::Max => ReduceKind::Max,
            ReduceGradKind::Min => ReduceKind::Min,
        }
    }
}

/// The rule, then `out`'s and `dout`'s dims against the output's: the
/// checks of every run-time form, before anything is written.
pub(super) fn checked_plan(
    kind: ReduceGradKind,
    x: &[usize],
    axes: Option<&[isize]>,
    keepdim: bool,
    out: &[usize],
    dout: &[usize],
) -> Result<ReducePlan, ReduceError> {
    let p = plan(x, axes, keepdim, Reduction::Reduce(kind.forward()))?;
    for found in [out, dout] {
        if p.out.as_slice() != found {
            return Err(ReduceError::GradShape {
                expected: p.out,
                found: Dims::new(found)?,
            });
        }
    }
    Ok(p)
}

/// x's gradient under the plan into `gx` (x's count): each element from
/// its output element ([`OutputOffsets`]).
pub(crate) fn reduce_backward<T: GradElement + ReduceElement>(
    p: &ReducePlan,
    kind: ReduceGradKind,
    x: &[T],
    out: &[T],
    dout: &[T],
    gx: &mut [T],
) {
    let mut offsets = OutputOffsets::new(p);
    for (i, g) in gx.iter_mut().enumerate() {
        let o = offsets.at();
        let d = dout.get(o).copied().unwrap_or(T::ZERO);
        *g = match kind {
            ReduceGradKind::Sum => d,
            ReduceGradKind::Mean => d.div_count(p.count),
            ReduceGradKind::Max | ReduceGradKind::Min => match (x.get(i), out.get(o)) {
                (Some(v), Some(m)) if v == m => d,
                _ => T::ZERO,
            },
        };
        offsets.step();
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// The one entry of the reductions' gradients: x's (`self`) gradient
    /// of `kind` over `axes` (`keepdim` as the forward) into `gx`, from the
    /// forward's output `out` (read by max and min; sum and mean check only
    /// its dims) and the upstream gradient `dout`. Any shape: the rule, then
    /// `out`'s and `dout`'s dims against the output's (`reduce/dout-shape`)
    /// and `gx`'s against x's (`shape/output`), all checked before `gx` is
    /// written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceGradKind;
    /// let x = tensor![[1.0f32, 5.0, 5.0], [4.0, 2.0, 0.0]];
    /// let out = x.max(Axis::<1>);
    /// let dout = tensor![1.0f32, 2.0];
    /// let mut gx = Tensor::<f32, shape![2, 3]>::zeros();
    /// x.reduce_backward_into(ReduceGradKind::Max, Axis::<1>, false, &out, &dout, &mut gx).unwrap();
    /// assert_eq!(gx.as_slice(), &[0.0, 1.0, 1.0, 2.0, 0.0, 0.0]); // every max gets dout
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn reduce_backward_into<Ax, O, BO, D, BD, G, BG>(
        &self,
        kind: ReduceGradKind,
        _axes: Ax,
        keepdim: bool,
        out: &Tensor<T, O, BO>,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, G, BG>,
    ) -> Result<(), ReduceError>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        O: Shape,
        BO: Storage<T>,
        D: Shape,
        BD: Storage<T>,
        G: Shape,
        BG: StorageMut<T>,
    {
        let p = checked_plan(
            kind,
            &self.dims(),
            S::AXES,
            keepdim,
            &out.dims(),
            &dout.dims(),
        )?;
        p.x.expect_output(gx.dims())?;
        reduce_backward(
            &p,
            kind,
            self.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
        );
        Ok(())
    }

    /// [`Tensor::reduce_backward_into`] into a fresh tensor typed as x, for
    /// shapes with run-time dims (a `Vec` then); every check is made before
    /// anything is allocated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::reduce::ReduceGradKind;
    /// let x = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::with_dims(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let dout = Tensor::<f64, shape![1, 2]>::from_array([[1.0, 2.0]]);
    /// let gx = x.try_reduce_backward(ReduceGradKind::Mean, Axis::<0>, true, &dout, &dout).unwrap();
    /// assert_eq!(gx.as_slice(), &[0.5, 1.0, 0.5, 1.0]);
    /// let err = x.try_reduce_backward(ReduceGradKind::Sum, Axis::<1>, true, &dout, &dout).unwrap_err();
    /// assert_eq!(err.rule(), "reduce/dout-shape");
    /// ```
    pub fn try_reduce_backward<Ax, O, BO, D, BD>(
        &self,
        kind: ReduceGradKind,
        axes: Ax,
        keepdim: bool,
        out: &Tensor<T, O, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> Result<Owned<T, S>, ReduceError>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax> + OutputStorage<T>,
        O: Shape,
        BO: Storage<T>,
        D: Shape,
        BD: Storage<T>,
    {
        // every check first: nothing is allocated for inputs they reject
        checked_plan(
            kind,
            &self.dims(),
            S::AXES,
            keepdim,
            &out.dims(),
            &dout.dims(),
        )?;
        let shape = *self.shape();
        let buf = <S as OutputStorage<T>>::Buffer::try_filled(&shape, T::ZERO)?;
        let mut gx = Tensor::from_parts_unchecked(shape, buf);
        self.reduce_backward_into(kind, axes, keepdim, out, dout, &mut gx)?;
        Ok(gx)
    }
}

/// The named forms: any shape whose output's dims are proven by its type
/// ([`ProvenShape`]: static or branded, so `dout`'s and `out`'s dims need
/// no check: a `Dyn` batch reduced away, or branded, passes; a `Dyn` dim
/// kept takes [`Tensor::try_reduce_backward`]); results stored as x's
/// shape chooses ([`Owned`]: inline for a static x). `dout` (and `out`)
/// have the forward output's type, so one of another shape does not
/// compile. The `_into` forms also need x's dims proven (`gx` has x's
/// type).
impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// A named backward's result: a fresh tensor of x's shape written by
    /// the entry, whose checks hold (the rule ran at compile time,
    /// [`StaticCheck`], and `dout` has the output type `O`, `out` too where
    /// read, whose dims its type proves).
    fn reduce_grad<Ax, O, OT, BO, D, BD, const KEEP: bool>(
        &self,
        kind: ReduceGradKind,
        axes: Ax,
        out: &Tensor<T, OT, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, O, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        S: OutputStorage<T>,
        O: ProvenShape,
        OT: Shape,
        BO: Storage<T>,
        D: Shape + ReduceDoutRule<O, S>,
        BD: Storage<T>,
    {
        let () = StaticCheck::<S, Ax, O, KEEP, false, false>::CHECK;
        let shape = *self.shape();
        let buf = <S as OutputStorage<T>>::Buffer::filled(&shape, T::ZERO);
        let mut gx = Tensor::from_parts_unchecked(shape, buf);
        let _checked: Result<(), ReduceError> =
            self.reduce_backward_into(kind, axes, KEEP, out, dout, &mut gx);
        <D as ReduceDoutRule<O, S>>::grad(gx)
    }

    /// The gradient of [`sum`](Self::sum): `dout` broadcast back over the
    /// reduced dims, typed as x.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    /// let dout = tensor![10.0f32, 20.0]; // typed as x.sum(Axis::<1>)
    /// let gx: Tensor<f32, shape![2, 3]> = x.sum_backward(Axis::<1>, &dout);
    /// assert_eq!(gx.as_slice(), &[10.0, 10.0, 10.0, 20.0, 20.0, 20.0]);
    /// ```
    pub fn sum_backward<Ax, D, BD>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceOutput<S, Ax>, _, _, _, _, false>(
            ReduceGradKind::Sum,
            axes,
            dout,
            dout,
        )
    }

    /// The gradient of [`sum_keepdim`](Self::sum_keepdim).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let x = tensor![[1.0f64, 2.0], [3.0, 4.0]];
    /// let gx = x.sum_keepdim_backward(All, &tensor![[0.5f64]]);
    /// assert_eq!(gx.as_slice(), &[0.5; 4]);
    /// ```
    pub fn sum_keepdim_backward<Ax, D, BD>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceKeepOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, true>(
            ReduceGradKind::Sum,
            axes,
            dout,
            dout,
        )
    }

    /// The gradient of [`mean`](Self::mean): `dout / count` broadcast back.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let gx = x.mean_backward(Axis::<0>, &tensor![2.0f32, 4.0]);
    /// assert_eq!(gx.as_slice(), &[1.0, 2.0, 1.0, 2.0]);
    /// ```
    pub fn mean_backward<Ax, D, BD>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceOutput<S, Ax>, _, _, _, _, false>(
            ReduceGradKind::Mean,
            axes,
            dout,
            dout,
        )
    }

    /// The gradient of [`mean_keepdim`](Self::mean_keepdim).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let gx = x.mean_keepdim_backward(Axis::<1>, &tensor![[2.0f32], [4.0]]);
    /// assert_eq!(gx.as_slice(), &[1.0, 1.0, 2.0, 2.0]);
    /// ```
    pub fn mean_keepdim_backward<Ax, D, BD>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceKeepOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, true>(
            ReduceGradKind::Mean,
            axes,
            dout,
            dout,
        )
    }

    /// The gradient of [`max`](Self::max) from its output `out`: `dout` to
    /// every position equal to the max (Paddle's `paddle.max`), 0 elsewhere.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 9.0, 9.0], [7.0, 3.0, 5.0]];
    /// let out = x.max(Axis::<-1>);
    /// let gx = x.max_backward(Axis::<-1>, &out, &tensor![1.0f32, 2.0]);
    /// assert_eq!(gx.as_slice(), &[0.0, 1.0, 1.0, 2.0, 0.0, 0.0]);
    /// ```
    pub fn max_backward<Ax, BO, D, BD>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BO: Storage<T>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceOutput<S, Ax>, _, _, _, _, false>(
            ReduceGradKind::Max,
            axes,
            out,
            dout,
        )
    }

    /// The gradient of [`max_keepdim`](Self::max_keepdim).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 9.0], [7.0, 3.0]];
    /// let out = x.max_keepdim(Axis::<0>);
    /// let gx = x.max_keepdim_backward(Axis::<0>, &out, &tensor![[1.0f32, 2.0]]);
    /// assert_eq!(gx.as_slice(), &[0.0, 2.0, 1.0, 0.0]);
    /// ```
    pub fn max_keepdim_backward<Ax, BO, D, BD>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceKeepOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceKeepOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BO: Storage<T>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, true>(
            ReduceGradKind::Max,
            axes,
            out,
            dout,
        )
    }

    /// The gradient of [`min`](Self::min) from its output `out`: `dout` to
    /// every position equal to the min, 0 elsewhere.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let x = tensor![[1.0f32, 9.0], [1.0, 3.0]];
    /// let out = x.min(All);
    /// let gx = x.min_backward(All, &out, &Tensor::<f32, shape![]>::full(3.0));
    /// assert_eq!(gx.as_slice(), &[3.0, 0.0, 3.0, 0.0]);
    /// ```
    pub fn min_backward<Ax, BO, D, BD>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BO: Storage<T>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceOutput<S, Ax>, _, _, _, _, false>(
            ReduceGradKind::Min,
            axes,
            out,
            dout,
        )
    }

    /// The gradient of [`min_keepdim`](Self::min_keepdim).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 9.0], [7.0, 3.0]];
    /// let out = x.min_keepdim(Axis::<1>);
    /// let gx = x.min_keepdim_backward(Axis::<1>, &out, &tensor![[1.0f32], [2.0]]);
    /// assert_eq!(gx.as_slice(), &[1.0, 0.0, 0.0, 2.0]);
    /// ```
    pub fn min_keepdim_backward<Ax, BO, D, BD>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceKeepOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> ReduceGrad<T, D, ReduceKeepOutput<S, Ax>, S>
    where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: OutputStorage<T>,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BO: Storage<T>,
        BD: Storage<T>,
    {
        self.reduce_grad::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, true>(
            ReduceGradKind::Min,
            axes,
            out,
            dout,
        )
    }

    /// A named backward into `gx` (any storage, a caller's buffer
    /// included): the entry, whose checks hold by the types (x's, `out`'s
    /// and `dout`'s dims proven by them).
    fn reduce_grad_into<Ax, O, OT, BO, D, BD, BG, const KEEP: bool>(
        &self,
        kind: ReduceGradKind,
        axes: Ax,
        out: &Tensor<T, OT, BO>,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<O, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        S: ProvenShape,
        O: ProvenShape,
        OT: Shape,
        BO: Storage<T>,
        D: Shape + ReduceDoutRule<O, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        let () = StaticCheck::<S, Ax, O, KEEP, false, false>::CHECK;
        let _checked: Result<(), ReduceError> =
            self.reduce_backward_into(kind, axes, KEEP, out, dout, gx);
    }

    /// [`sum_backward`](Self::sum_backward) writing into `gx` (any storage,
    /// a caller's buffer included: no heap). Every shape static; the call
    /// cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut buf = [0.0f32; 4];
    /// let mut gx = Tensor::<f32, shape![2, 2], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// x.sum_backward_into(Axis::<0>, &tensor![1.0f32, 2.0], &mut gx);
    /// assert_eq!(buf, [1.0, 2.0, 1.0, 2.0]);
    /// ```
    pub fn sum_backward_into<Ax, D, BD, BG>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceOutput<S, Ax>, _, _, _, _, _, false>(
            ReduceGradKind::Sum,
            axes,
            dout,
            dout,
            gx,
        );
    }

    /// [`sum_keepdim_backward`](Self::sum_keepdim_backward) writing into `gx` (any storage:
    /// no heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut gx = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.sum_keepdim_backward_into(Axis::<1>, &tensor![[1.0f32], [2.0]], &mut gx);
    /// assert_eq!(gx.as_slice(), &[1.0, 1.0, 2.0, 2.0]);
    /// ```
    pub fn sum_keepdim_backward_into<Ax, D, BD, BG>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, _, true>(
            ReduceGradKind::Sum,
            axes,
            dout,
            dout,
            gx,
        );
    }

    /// [`mean_backward`](Self::mean_backward) writing into `gx` (any storage:
    /// no heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut gx = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.mean_backward_into(Axis::<0>, &tensor![2.0f32, 4.0], &mut gx);
    /// assert_eq!(gx.as_slice(), &[1.0, 2.0, 1.0, 2.0]);
    /// ```
    pub fn mean_backward_into<Ax, D, BD, BG>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceOutput<S, Ax>, _, _, _, _, _, false>(
            ReduceGradKind::Mean,
            axes,
            dout,
            dout,
            gx,
        );
    }

    /// [`mean_keepdim_backward`](Self::mean_keepdim_backward) writing into `gx` (any storage:
    /// no heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut gx = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.mean_keepdim_backward_into(Axis::<1>, &tensor![[2.0f32], [4.0]], &mut gx);
    /// assert_eq!(gx.as_slice(), &[1.0, 1.0, 2.0, 2.0]);
    /// ```
    pub fn mean_keepdim_backward_into<Ax, D, BD, BG>(
        &self,
        axes: Ax,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, _, true>(
            ReduceGradKind::Mean,
            axes,
            dout,
            dout,
            gx,
        );
    }

    /// [`max_backward`](Self::max_backward) writing into `gx` (any storage:
    /// no heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 9.0], [9.0, 3.0]];
    /// let mut gx = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.max_backward_into(Axis::<1>, &x.max(Axis::<1>), &tensor![1.0f32, 2.0], &mut gx);
    /// assert_eq!(gx.as_slice(), &[0.0, 1.0, 2.0, 0.0]);
    /// ```
    pub fn max_backward_into<Ax, BO, D, BD, BG>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        BO: Storage<T>,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceOutput<S, Ax>, _, _, _, _, _, false>(
            ReduceGradKind::Max,
            axes,
            out,
            dout,
            gx,
        );
    }

    /// [`max_keepdim_backward`](Self::max_keepdim_backward) writing into `gx` (any storage:
    /// no heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 9.0], [9.0, 3.0]];
    /// let mut gx = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.max_keepdim_backward_into(Axis::<1>, &x.max_keepdim(Axis::<1>), &tensor![[1.0f32], [2.0]], &mut gx);
    /// assert_eq!(gx.as_slice(), &[0.0, 1.0, 2.0, 0.0]);
    /// ```
    pub fn max_keepdim_backward_into<Ax, BO, D, BD, BG>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceKeepOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        BO: Storage<T>,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, _, true>(
            ReduceGradKind::Max,
            axes,
            out,
            dout,
            gx,
        );
    }

    /// [`min_backward`](Self::min_backward) writing into `gx` (any storage:
    /// no heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 9.0], [9.0, 3.0]];
    /// let mut gx = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.min_backward_into(Axis::<1>, &x.min(Axis::<1>), &tensor![1.0f32, 2.0], &mut gx);
    /// assert_eq!(gx.as_slice(), &[1.0, 0.0, 0.0, 2.0]);
    /// ```
    pub fn min_backward_into<Ax, BO, D, BD, BG>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        BO: Storage<T>,
        D: Shape + ReduceDoutRule<ReduceOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceOutput<S, Ax>, _, _, _, _, _, false>(
            ReduceGradKind::Min,
            axes,
            out,
            dout,
            gx,
        );
    }

    /// [`min_keepdim_backward`](Self::min_keepdim_backward) writing into `gx` (any storage:
    /// no heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 9.0], [9.0, 3.0]];
    /// let mut gx = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.min_keepdim_backward_into(Axis::<0>, &x.min_keepdim(Axis::<0>), &tensor![[1.0f32, 2.0]], &mut gx);
    /// assert_eq!(gx.as_slice(), &[1.0, 0.0, 0.0, 2.0]);
    /// ```
    pub fn min_keepdim_backward_into<Ax, BO, D, BD, BG>(
        &self,
        axes: Ax,
        out: &Tensor<T, ReduceKeepOutput<S, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, <D as ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>>::X, BG>,
    ) where
        T: GradElement + ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: ProvenShape,
        S: ProvenShape,
        BO: Storage<T>,
        D: Shape + ReduceDoutRule<ReduceKeepOutput<S, Ax>, S>,
        BD: Storage<T>,
        BG: StorageMut<T>,
    {
        self.reduce_grad_into::<_, ReduceKeepOutput<S, Ax>, _, _, _, _, _, true>(
            ReduceGradKind::Min,
            axes,
            out,
            dout,
            gx,
        );
    }
}

/// The upstream gradient's rule: `Self` (dout's shape) is the forward
/// output's shape `Out` (of x `X` reduced); one impl, for `Out` itself.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::reduce::ReduceDout;
/// fn takes<D: ReduceDout<shape![2], shape![2, 3]>>() {}
/// takes::<shape![2]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "reduce/dout-shape: dout is {Self}, but the forward output of x {X} is {Out}",
    label = "dout must have the forward output's shape",
    note = "the gradient flowing back into a reduction has the shape of its output (reduced dims dropped, or kept as One with keepdim)"
)]
#[doc(hidden)]
pub trait ReduceDout<Out, X> {}

#[diagnostic::do_not_recommend]
impl<Out, X> ReduceDout<Out, X> for Out {}

/// [`ReduceDout`] of `D` as a link with `Self = ()` (any `Self`), which
/// [`ReduceDoutRule`] requires, so that a wrong `dout` is one short error
/// by [`ReduceDout`]'s message.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::reduce::ReduceDoutLink;
/// fn takes<D>() where (): ReduceDoutLink<D, shape![2], shape![2, 3]> {}
/// takes::<shape![2]>();
/// ```
#[doc(hidden)]
pub trait ReduceDoutLink<D, Out, X> {
    /// `X`, once the rule holds: the gradient's shape.
    type X: Shape;
    /// A gradient of shape `X` as one of [`Self::X`] (the same type).
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, X, B>) -> Tensor<T, Self::X, B>
    where
        X: Shape;
}

impl<P, D: ReduceDout<Out, X>, Out, X: Shape> ReduceDoutLink<D, Out, X> for P {
    type X = X;
    #[inline(always)]
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, X, B>) -> Tensor<T, X, B> {
        g
    }
}

/// The upstream gradient's rule as the backward states it: `Self` (dout's
/// shape) is the forward output's shape `Out` ([`ReduceDout`] carries the
/// message); its [`X`](Self::X), x's shape once the rule holds, is the
/// gradient's type (so that a wrong `dout` is one error, where the result
/// type is formed). One blanket impl.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::reduce::ReduceDoutRule;
/// fn takes<D: ReduceDoutRule<shape![2], shape![2, 3]>>() {}
/// takes::<shape![2]>();
/// ```
#[doc(hidden)]
pub trait ReduceDoutRule<Out, X> {
    /// `X`, once the rule holds.
    type X: Shape;
    /// A gradient of shape `X` as one of [`Self::X`] (the same type).
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, X, B>) -> Tensor<T, Self::X, B>
    where
        X: Shape;
}

impl<D, Out, X> ReduceDoutRule<Out, X> for D
where
    (): ReduceDoutLink<D, Out, X>,
{
    type X = <() as ReduceDoutLink<D, Out, X>>::X;
    #[inline(always)]
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, X, B>) -> Tensor<T, Self::X, B>
    where
        X: Shape,
    {
        <() as ReduceDoutLink<D, Out, X>>::grad(g)
    }
}

/// x's gradient type for a `dout` of shape `D` (x's shape `X` once `D` is
/// the forward output's `Out`), stored as `X`'s results are ([`Owned`]:
/// inline for a static `X`).
pub type ReduceGrad<T, D, Out, X> =
    Tensor<T, <D as ReduceDoutRule<Out, X>>::X, <X as OutputStorage<T>>::Buffer>;

/// The backward without a heap, shapes given as values (as
/// [`reduce_slices`](super::reduce_slices) for the forward): x's gradient
/// of `kind` over `axes` (`None` or empty: every dim) into `gx` (x's
/// length), from the forward's `out` and `dout` (the output's length each;
/// `out` is read by max and min only). Every check is made before `gx` is
/// written. Returns the output dims.
///
/// ```
/// use shapecheck::ops::reduce::{reduce_backward_slices, ReduceGradKind};
/// let x = [1.0f32, 5.0, 3.0, 4.0];
/// let (out, dout) = ([5.0f32, 4.0], [1.0f32, 2.0]);
/// let mut gx = [0.0f32; 4];
/// reduce_backward_slices(ReduceGradKind::Max, &[2, 2], &x, Some(&[1]), false, &out, &dout, &mut gx).unwrap();
/// assert_eq!(gx, [0.0, 1.0, 0.0, 2.0]);
/// let err = reduce_backward_slices(ReduceGradKind::Sum, &[2, 2], &x, Some(&[1]), false, &out, &dout[..1], &mut gx).unwrap_err();
/// assert_eq!(err.rule(), "shape/data-length");
/// ```
#[allow(clippy::too_many_arguments)]
pub fn reduce_backward_slices<T: GradElement + ReduceElement>(
    kind: ReduceGradKind,
    x_dims: &[usize],
    x: &[T],
    axes: Option<&[isize]>,
    keepdim: bool,
    out: &[T],
    dout: &[T],
    gx: &mut [T],
) -> Result<Dims, ReduceError> {
    let p = plan(x_dims, axes, keepdim, Reduction::Reduce(kind.forward()))?;
    Dims::for_data(x_dims, x.len())?;
    Dims::for_data(x_dims, gx.len())?;
    Dims::for_data(p.out.as_slice(), out.len())?;
    Dims::for_data(p.out.as_slice(), dout.len())?;
    reduce_backward(&p, kind, x, out, dout, gx);
    Ok(p.out)
}
