//! The static path: one entry, [`Tensor::softmax_into`] (any shape, the
//! rule checked when it runs), and the two named forms for static shapes
//! (an inline result; the axis rule holds by the types).

use super::bounds::{SoftmaxAxis, SoftmaxOutput};
use super::rule::plan;
use super::{SoftmaxError, SoftmaxKind};
use crate::shape::Shape;
use crate::storage::{OutputStorage, OwnedStorage, Storage, StorageMut};
use crate::tensor::{Owned, Tensor};

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// The one entry: `kind` along `axis` into `out` (x's dims, checked:
    /// `shape/output`), the rule ([`rule::plan`](super::rule::plan))
    /// checked on x's dims before `out` is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::softmax::SoftmaxKind;
    /// let x = Tensor::<f64, shape![Dyn], Vec<f64>>::with_dims(&[2], vec![0.0, 0.0]).unwrap();
    /// let mut out = Tensor::<f64, shape![2]>::full(9.0);
    /// x.softmax_into(SoftmaxKind::Softmax, Axis::<0>, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[0.5, 0.5]);
    /// ```
    pub fn softmax_into<Ax, O, BO>(
        &self,
        kind: SoftmaxKind,
        _axis: Ax,
        out: &mut Tensor<T, O, BO>,
    ) -> Result<(), SoftmaxError>
    where
        S: SoftmaxAxis<T, Ax>,
        O: Shape,
        BO: StorageMut<T>,
    {
        let p = plan(&self.dims(), S::AXIS)?;
        p.x.expect_output(out.dims())?;
        S::run(&p, kind, self.as_slice(), out.as_mut_slice());
        Ok(())
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// softmax or log_softmax (`kind`) along `axis` into a new tensor of x's
    /// shape, for shapes with run-time dims (a `Vec` then, a `Room` for
    /// bounded dims); the rule checked before anything is allocated.
    fn try_softmaxed<Ax>(&self, kind: SoftmaxKind, axis: Ax) -> Result<Owned<T, S>, SoftmaxError>
    where
        T: Default,
        S: SoftmaxAxis<T, Ax> + OutputStorage<T>,
    {
        plan(&self.dims(), S::AXIS)?;
        let shape = *self.shape();
        let buf = <S as OutputStorage<T>>::Buffer::try_filled(&shape, T::default())?;
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        self.softmax_into(kind, axis, &mut out)?;
        Ok(out)
    }

    /// [`softmax`](Self::softmax) for shapes with run-time dims.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::with_dims(&[1, 2], vec![0.0, 0.0]).unwrap();
    /// assert_eq!(x.try_softmax(Axis::<-1>).unwrap().as_slice(), &[0.5, 0.5]);
    /// ```
    pub fn try_softmax<Ax>(&self, axis: Ax) -> Result<Owned<T, S>, SoftmaxError>
    where
        T: Default,
        S: SoftmaxAxis<T, Ax> + OutputStorage<T>,
    {
        self.try_softmaxed(SoftmaxKind::Softmax, axis)
    }

    /// [`log_softmax`](Self::log_softmax) for shapes with run-time dims.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f64, shape![Dyn], Vec<f64>>::with_dims(&[2], vec![0.0, 0.0]).unwrap();
    /// assert_eq!(x.try_log_softmax(Axis::<0>).unwrap().as_slice(), &[-core::f64::consts::LN_2; 2]);
    /// ```
    pub fn try_log_softmax<Ax>(&self, axis: Ax) -> Result<Owned<T, S>, SoftmaxError>
    where
        T: Default,
        S: SoftmaxAxis<T, Ax> + OutputStorage<T>,
    {
        self.try_softmaxed(SoftmaxKind::LogSoftmax, axis)
    }
}

/// The plain forms: any shape (the axis rule holds by the types, and
/// softmax has no other), the result stored as its shape chooses
/// ([`Owned`]: inline for static shapes, a `Room` for bounded dims, a `Vec`
/// for `Dyn` or a brand), with x's shape, so a brand stays a brand.
impl<T: Copy + Default, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// A softmax's result: a fresh tensor written by the entry.
    fn softmaxed<Ax>(&self, kind: SoftmaxKind, axis: Ax) -> Owned<T, SoftmaxOutput<S, T, Ax>>
    where
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: OutputStorage<T>,
    {
        let shape = self.shape().output_shape();
        let buf =
            <SoftmaxOutput<S, T, Ax> as OutputStorage<T>>::Buffer::filled(&shape, T::default());
        let mut out = Tensor::from_parts_unchecked(shape, buf);
        // the axis the types accepted, out of x's shape: the entry's checks hold
        let _checked: Result<(), SoftmaxError> = self.softmax_into(kind, axis, &mut out);
        out
    }

    /// `paddle.nn.functional.softmax(x, axis)`: `exp(x - max) / sum` along
    /// the axis (1.0 for a 0-d x).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let p = tensor![[0.0f32, 0.0], [0.0, 2.0f32.ln()]].softmax(Axis::<-1>);
    /// assert_eq!(p.as_slice()[..2], [0.5, 0.5]);
    /// assert!((p.as_slice()[3] - 2.0 / 3.0).abs() < 1e-6);
    /// ```
    pub fn softmax<Ax>(&self, axis: Ax) -> Owned<T, SoftmaxOutput<S, T, Ax>>
    where
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: OutputStorage<T>,
    {
        self.softmaxed(SoftmaxKind::Softmax, axis)
    }

    /// `paddle.nn.functional.log_softmax(x, axis)`: `x - max - ln(sum)`
    /// along the axis (0.0 for a 0-d x).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let l = tensor![1.0f64, 1.0].log_softmax(Axis::<0>);
    /// assert!(l.iter().all(|v| (v + core::f64::consts::LN_2).abs() < 1e-15));
    /// ```
    pub fn log_softmax<Ax>(&self, axis: Ax) -> Owned<T, SoftmaxOutput<S, T, Ax>>
    where
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: OutputStorage<T>,
    {
        self.softmaxed(SoftmaxKind::LogSoftmax, axis)
    }
}
