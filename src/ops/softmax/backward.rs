//! The gradients of softmax and log_softmax: from the forward's output
//! `out` and the upstream gradient `dout` (both x's shape), x's gradient,
//! typed as x. As PaddlePaddle 3.3.1's `softmax_grad` and
//! `log_softmax_grad`, only `out` is read (x's values are not), row by row
//! along the axis:
//!
//! | op | dx |
//! |---|---|
//! | softmax | `out · (dout - Σ dout · out)` |
//! | log_softmax | `dout - exp(out) · Σ dout` |
//!
//! Forms: the one entry [`Tensor::softmax_backward_into`] (any shape, the
//! axis rule and `out`'s, `dout`'s and `gx`'s dims checked before anything
//! is written), [`Tensor::try_softmax_backward`] (a fresh result, run-time
//! dims), the named forms [`Tensor::softmax_backward`] and
//! [`Tensor::log_softmax_backward`] (`out` and `dout` typed as the
//! forward's output: one of another shape is a compile error naming both
//! shapes; any shape whose dims its type proves, static or branded, with
//! no `Result`; an inline result for a static x, no heap), `DynTensor::softmax_backward` (and
//! `log_softmax_backward`, `softmax_backward_with`) and
//! [`softmax_backward_slices`].

use super::bounds::{SoftmaxAxis, SoftmaxOutput};
use super::rule::{plan, SoftmaxPlan};
use super::{SoftmaxElement, SoftmaxError, SoftmaxKind};
use crate::dims::Dims;
use crate::shape::{ProvenShape, Shape};
use crate::storage::{OutputStorage, OwnedStorage, Storage, StorageMut};
use crate::tensor::{Owned, Tensor};

/// The axis rule, then `out`'s and `dout`'s dims against x's: the checks
/// of every run-time form, before anything is written.
pub(super) fn checked_plan(
    x: &[usize],
    axis: isize,
    out: &[usize],
    dout: &[usize],
) -> Result<SoftmaxPlan, SoftmaxError> {
    let p = plan(x, axis)?;
    for found in [out, dout] {
        if p.x.as_slice() != found {
            return Err(SoftmaxError::GradShape {
                expected: p.x,
                found: Dims::new(found)?,
            });
        }
    }
    Ok(p)
}

/// x's gradient under the plan into `gx` (every slice x's count).
pub(crate) fn softmax_backward<T: SoftmaxElement>(
    p: &SoftmaxPlan,
    kind: SoftmaxKind,
    out: &[T],
    dout: &[T],
    gx: &mut [T],
) {
    let (n, inner) = (p.n, p.inner);
    let block = n * inner;
    if block == 0 {
        return;
    }
    let blocks = out
        .chunks_exact(block)
        .zip(dout.chunks_exact(block))
        .zip(gx.chunks_exact_mut(block));
    for ((os, ds), gs) in blocks {
        if inner == 1 {
            row(kind, os, ds, gs);
            continue;
        }
        for j in 0..inner {
            // the column j: elements j, j + inner, ...
            let at = |k: usize| k * inner + j;
            let mut s = T::zero();
            for k in 0..n {
                if let (Some(&o), Some(&d)) = (os.get(at(k)), ds.get(at(k))) {
                    s = s + weight(kind, o, d);
                }
            }
            for k in 0..n {
                if let (Some(&o), Some(&d), Some(g)) =
                    (os.get(at(k)), ds.get(at(k)), gs.get_mut(at(k)))
                {
                    *g = grad(kind, o, d, s);
                }
            }
        }
    }
}

/// One contiguous row: its sum, then each element.
#[inline(always)]
fn row<T: SoftmaxElement>(kind: SoftmaxKind, os: &[T], ds: &[T], gs: &mut [T]) {
    let s = os
        .iter()
        .zip(ds)
        .fold(T::zero(), |a, (&o, &d)| a + weight(kind, o, d));
    for ((g, &o), &d) in gs.iter_mut().zip(os).zip(ds) {
        *g = grad(kind, o, d, s);
    }
}

/// What a row sums: `dout · out` (softmax) or `dout` (log_softmax).
#[inline(always)]
fn weight<T: SoftmaxElement>(kind: SoftmaxKind, o: T, d: T) -> T {
    match kind {
        SoftmaxKind::Softmax => d * o,
        SoftmaxKind::LogSoftmax => d,
    }
}

/// One element's gradient from its row's sum `s`.
#[inline(always)]
fn grad<T: SoftmaxElement>(kind: SoftmaxKind, o: T, d: T, s: T) -> T {
    match kind {
        SoftmaxKind::Softmax => o * (d - s),
        SoftmaxKind::LogSoftmax => d - o.exp() * s,
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// The one entry of the gradients: x's (`self`) gradient of `kind`
    /// along `axis` into `gx`, from the forward's output `out` and the
    /// upstream gradient `dout`. Any shape: the axis rule, then `out`'s and
    /// `dout`'s dims against x's (`softmax/dout-shape`) and `gx`'s
    /// (`shape/output`), all checked before `gx` is written. x's values are
    /// not read (Paddle's grad reads the output).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::softmax::SoftmaxKind;
    /// let x = tensor![[0.0f64, 0.0]];
    /// let out = x.softmax(Axis::<-1>); // [0.5, 0.5]
    /// let dout = tensor![[1.0f64, 0.0]];
    /// let mut gx = Tensor::<f64, shape![1, 2]>::zeros();
    /// x.softmax_backward_into(SoftmaxKind::Softmax, Axis::<-1>, &out, &dout, &mut gx).unwrap();
    /// assert_eq!(gx.as_slice(), &[0.25, -0.25]);
    /// ```
    pub fn softmax_backward_into<Ax, O, BO, D, BD, G, BG>(
        &self,
        kind: SoftmaxKind,
        _axis: Ax,
        out: &Tensor<T, O, BO>,
        dout: &Tensor<T, D, BD>,
        gx: &mut Tensor<T, G, BG>,
    ) -> Result<(), SoftmaxError>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax>,
        O: Shape,
        BO: Storage<T>,
        D: Shape,
        BD: Storage<T>,
        G: Shape,
        BG: StorageMut<T>,
    {
        let p = checked_plan(&self.dims(), S::AXIS, &out.dims(), &dout.dims())?;
        p.x.expect_output(gx.dims())?;
        softmax_backward(&p, kind, out.as_slice(), dout.as_slice(), gx.as_mut_slice());
        Ok(())
    }

    /// [`Tensor::softmax_backward_into`] into a fresh tensor typed as x, for
    /// shapes with run-time dims (a `Vec` then); every check is made before
    /// anything is allocated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::softmax::SoftmaxKind;
    /// let x = Tensor::<f64, shape![Dyn], Vec<f64>>::with_dims(&[2], vec![0.0, 0.0]).unwrap();
    /// let out = Tensor::<f64, shape![2]>::full(-core::f64::consts::LN_2);
    /// let dout = Tensor::<f64, shape![2]>::from_array([1.0, 0.0]);
    /// let gx = x.try_softmax_backward(SoftmaxKind::LogSoftmax, Axis::<0>, &out, &dout).unwrap();
    /// assert!((gx.as_slice()[0] - 0.5).abs() < 1e-15 && (gx.as_slice()[1] + 0.5).abs() < 1e-15);
    /// let err = x.try_softmax_backward(SoftmaxKind::LogSoftmax, Axis::<0>, &out, &tensor![1.0f64]).unwrap_err();
    /// assert_eq!(err.rule(), "softmax/dout-shape");
    /// ```
    pub fn try_softmax_backward<Ax, O, BO, D, BD>(
        &self,
        kind: SoftmaxKind,
        axis: Ax,
        out: &Tensor<T, O, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> Result<Owned<T, S>, SoftmaxError>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax> + OutputStorage<T>,
        O: Shape,
        BO: Storage<T>,
        D: Shape,
        BD: Storage<T>,
    {
        // every check first: nothing is allocated for inputs they reject
        checked_plan(&self.dims(), S::AXIS, &out.dims(), &dout.dims())?;
        let shape = *self.shape();
        let buf = <S as OutputStorage<T>>::Buffer::try_filled(&shape, T::zero())?;
        let mut gx = Tensor::from_parts_unchecked(shape, buf);
        self.softmax_backward_into(kind, axis, out, dout, &mut gx)?;
        Ok(gx)
    }
}

/// The named forms: any shape whose dims are proven by its type
/// ([`ProvenShape`]: static or branded, so `out`'s and `dout`'s dims need
/// no check; a `Dyn` dim takes [`Tensor::try_softmax_backward`]); results
/// stored as the shape chooses ([`Owned`]: inline for a static x). `out`
/// and `dout` have the forward output's type, so one of another shape does
/// not compile.
impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// A named backward's result: a fresh tensor of the output's (x's)
    /// shape written by the entry, whose checks hold by the types.
    fn softmax_grad<Ax, BO, D, BD>(
        &self,
        kind: SoftmaxKind,
        axis: Ax,
        out: &Tensor<T, SoftmaxOutput<S, T, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> SoftmaxGrad<T, D, SoftmaxOutput<S, T, Ax>>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: ProvenShape + OutputStorage<T>,
        D: Shape + SoftmaxDoutRule<SoftmaxOutput<S, T, Ax>>,
        BO: Storage<T>,
        BD: Storage<T>,
    {
        let shape = *out.shape();
        let buf = <SoftmaxOutput<S, T, Ax> as OutputStorage<T>>::Buffer::filled(&shape, T::zero());
        let mut gx = Tensor::from_parts_unchecked(shape, buf);
        // x's shape, proven by its type; out and dout of that type
        let _checked: Result<(), SoftmaxError> =
            self.softmax_backward_into(kind, axis, out, dout, &mut gx);
        <D as SoftmaxDoutRule<SoftmaxOutput<S, T, Ax>>>::grad(gx)
    }

    /// The gradient of [`softmax`](Self::softmax) from its output `out`:
    /// `out · (dout - Σ dout · out)` along the axis, typed as x.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f64, 1.0], [0.0, 0.0]];
    /// let out = x.softmax(Axis::<0>);
    /// let gx = x.softmax_backward(Axis::<0>, &out, &tensor![[2.0f64, 0.0], [0.0, 0.0]]);
    /// assert!((gx.as_slice()[0] - 2.0 * out.as_slice()[0] * out.as_slice()[2]).abs() < 1e-15);
    /// assert_eq!(gx.as_slice()[1], 0.0);
    /// ```
    pub fn softmax_backward<Ax, BO, D, BD>(
        &self,
        axis: Ax,
        out: &Tensor<T, SoftmaxOutput<S, T, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> SoftmaxGrad<T, D, SoftmaxOutput<S, T, Ax>>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: ProvenShape + OutputStorage<T>,
        D: Shape + SoftmaxDoutRule<SoftmaxOutput<S, T, Ax>>,
        BO: Storage<T>,
        BD: Storage<T>,
    {
        self.softmax_grad(SoftmaxKind::Softmax, axis, out, dout)
    }

    /// The gradient of [`log_softmax`](Self::log_softmax) from its output
    /// `out`: `dout - exp(out) · Σ dout` along the axis, typed as x.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![0.0f32, 0.0];
    /// let out = x.log_softmax(Axis::<-1>);
    /// let gx = x.log_softmax_backward(Axis::<-1>, &out, &tensor![1.0f32, 1.0]);
    /// assert!(gx.iter().all(|g| g.abs() < 1e-6)); // a constant shift has no gradient
    /// ```
    pub fn log_softmax_backward<Ax, BO, D, BD>(
        &self,
        axis: Ax,
        out: &Tensor<T, SoftmaxOutput<S, T, Ax>, BO>,
        dout: &Tensor<T, D, BD>,
    ) -> SoftmaxGrad<T, D, SoftmaxOutput<S, T, Ax>>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: ProvenShape + OutputStorage<T>,
        D: Shape + SoftmaxDoutRule<SoftmaxOutput<S, T, Ax>>,
        BO: Storage<T>,
        BD: Storage<T>,
    {
        self.softmax_grad(SoftmaxKind::LogSoftmax, axis, out, dout)
    }
}

/// The upstream gradient's rule: `Self` (dout's shape) is the forward
/// output's shape `Out` (x's); one impl, for `Out` itself.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::softmax::SoftmaxDout;
/// fn takes<D: SoftmaxDout<shape![2, 3]>>() {}
/// takes::<shape![2, 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "softmax/dout-shape: dout is {Self}, but the forward output (x's shape) is {Out}",
    label = "dout must have the forward output's shape",
    note = "the gradient flowing back into softmax or log_softmax has x's shape"
)]
#[doc(hidden)]
pub trait SoftmaxDout<Out> {}

#[diagnostic::do_not_recommend]
impl<Out> SoftmaxDout<Out> for Out {}

/// [`SoftmaxDout`] of `D` as a link with `Self = ()` (any `Self`), which
/// [`SoftmaxDoutRule`] requires, so that a wrong `dout` is one short error
/// by [`SoftmaxDout`]'s message.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::softmax::SoftmaxDoutLink;
/// fn takes<D>() where (): SoftmaxDoutLink<D, shape![2]> {}
/// takes::<shape![2]>();
/// ```
#[doc(hidden)]
pub trait SoftmaxDoutLink<D, Out> {
    /// `Out`, once the rule holds: the gradient's shape.
    type X: Shape;
    /// A gradient of shape `Out` as one of [`Self::X`] (the same type).
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, Out, B>) -> Tensor<T, Self::X, B>
    where
        Out: Shape;
}

impl<P, D: SoftmaxDout<Out>, Out: Shape> SoftmaxDoutLink<D, Out> for P {
    type X = Out;
    #[inline(always)]
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, Out, B>) -> Tensor<T, Out, B> {
        g
    }
}

/// The upstream gradient's rule as the backward states it: `Self` (dout's
/// shape) is the forward output's shape `Out` ([`SoftmaxDout`] carries the
/// message); its [`X`](Self::X), x's shape once the rule holds, is the
/// gradient's type (so that a wrong `dout` is one error, where the result
/// type is formed). One blanket impl.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::softmax::SoftmaxDoutRule;
/// fn takes<D: SoftmaxDoutRule<shape![2]>>() {}
/// takes::<shape![2]>();
/// ```
#[doc(hidden)]
pub trait SoftmaxDoutRule<Out> {
    /// `Out`, once the rule holds.
    type X: Shape;
    /// A gradient of shape `Out` as one of [`Self::X`] (the same type).
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, Out, B>) -> Tensor<T, Self::X, B>
    where
        Out: Shape;
}

impl<D, Out> SoftmaxDoutRule<Out> for D
where
    (): SoftmaxDoutLink<D, Out>,
{
    type X = <() as SoftmaxDoutLink<D, Out>>::X;
    #[inline(always)]
    fn grad<T: Copy, B: Storage<T>>(g: Tensor<T, Out, B>) -> Tensor<T, Self::X, B>
    where
        Out: Shape,
    {
        <() as SoftmaxDoutLink<D, Out>>::grad(g)
    }
}

/// x's gradient type for a `dout` of shape `D` (x's shape `Out` once `D`
/// is it), stored as `Out`'s results are ([`Owned`]: inline for a static
/// `Out`).
pub type SoftmaxGrad<T, D, Out> =
    Tensor<T, <D as SoftmaxDoutRule<Out>>::X, <Out as OutputStorage<T>>::Buffer>;

/// The backward without a heap, shapes given as values (as
/// [`softmax_slices`](super::softmax_slices) for the forward): x's gradient
/// of `kind` along `axis` into `gx`, from the forward's `out` and `dout`
/// (x's length each). Every check is made before `gx` is written. Returns
/// x's dims.
///
/// ```
/// use shapecheck::ops::softmax::{softmax_backward_slices, SoftmaxKind};
/// let out = [0.5f64, 0.5];
/// let mut gx = [0.0; 2];
/// softmax_backward_slices(SoftmaxKind::Softmax, &[1, 2], 1, &out, &[1.0, 0.0], &mut gx).unwrap();
/// assert_eq!(gx, [0.25, -0.25]);
/// ```
pub fn softmax_backward_slices<T: SoftmaxElement>(
    kind: SoftmaxKind,
    x_dims: &[usize],
    axis: isize,
    out: &[T],
    dout: &[T],
    gx: &mut [T],
) -> Result<Dims, SoftmaxError> {
    let p = plan(x_dims, axis)?;
    Dims::for_data(x_dims, out.len())?;
    Dims::for_data(x_dims, dout.len())?;
    Dims::for_data(x_dims, gx.len())?;
    softmax_backward(&p, kind, out, dout, gx);
    Ok(p.x)
}
