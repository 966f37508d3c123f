//! `lod_reset`'s backward: the gradient of x from the gradient of the
//! output, `dout`.
//!
//! ## The rule
//! `lod_reset` keeps x's dense data and changes only its LoD, so the
//! gradient of x is `dout`'s data unchanged (the identity), **carrying x's
//! LoD**, not the reset one: Paddle 3.3.1's `lod_reset_grad` shares x's LoD
//! with `X@GRAD` (`tests/vectors/grad/lod_reset_grad.json`: the
//! gradient's `lod_offsets` are x's, every level). y and the target offsets
//! have no gradient.
//!
//! ```
//! use shapecheck::prelude::*;
//! let x_levels = [Offsets::new(&[0, 1, 3])];
//! let x = LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &x_levels[..]).unwrap();
//! let out = x.view().lod_reset(Offsets::new(&[0, 2, 3]), false).unwrap();
//! assert_eq!(out.level(0).unwrap().as_slice(), &[0, 2, 3]);
//! let dout = Tensor::<f32, shape![3, 2]>::from_array([[1., 2.], [3., 4.], [5., 6.]]);
//! let dx = x.lod_reset_backward(dout);
//! assert_eq!(dx.as_slice(), dout.as_slice());
//! assert_eq!(dx.level(0).unwrap().as_slice(), &[0, 1, 3]); // x's LoD
//! ```

use super::LodResetError;
use crate::lod::{Levels, LodTensor};
use crate::ops::StaticShape;
use crate::rows::RowShape;
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;

impl<T: Copy, S: RowShape, B: Storage<T>, L: Levels> LodTensor<T, S, B, L> {
    /// The gradient of x (`self`) for `lod_reset`: `dout` (x's shape, the
    /// output's dense shape) moved, not copied, under x's LoD (borrowed).
    /// For a static shape nothing can fail: a `dout` of another shape does
    /// not compile (`ui-tests/grad/fail/lod_reset_dout_shape.rs`). With a
    /// run-time dim, [`try_lod_reset_backward`](Self::try_lod_reset_backward).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let levels = [Offsets::new(&[0, 1, 2])];
    /// let x = LodTensor::new(Tensor::<f64, shape![2, 1]>::full(0.0), &levels[..]).unwrap();
    /// let dx = x.lod_reset_backward(Tensor::<f64, shape![2, 1]>::from_array([[1.5], [2.5]]));
    /// assert_eq!((dx.as_slice(), dx.levels()), (&[1.5, 2.5][..], 1));
    /// ```
    pub fn lod_reset_backward<BD: Storage<T>>(
        &self,
        dout: Tensor<T, S, BD>,
    ) -> LodTensor<T, S, BD, &L>
    where
        S: StaticShape,
    {
        LodTensor::from_parts_unchecked(dout, self.lod())
    }

    /// [`lod_reset_backward`](Self::lod_reset_backward) for shapes with a
    /// run-time dim: `dout`'s dims must be x's ([`LodResetError::DoutShape`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let dense = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 4]).unwrap();
    /// let levels = [Offsets::new(&[0, 2])];
    /// let x = LodTensor::new(dense, &levels[..]).unwrap();
    /// let dout = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let dx = x.try_lod_reset_backward(dout).unwrap();
    /// assert_eq!(dx.level(0).unwrap().as_slice(), &[0, 2]);
    /// let short = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(1), Dim), vec![1.0, 2.0]).unwrap();
    /// let err = x.try_lod_reset_backward(short).unwrap_err();
    /// assert_eq!(err.to_string(), "lod_reset backward: dout must have x's shape [2, 2], but it is [1, 2]");
    /// ```
    pub fn try_lod_reset_backward<BD: Storage<T>>(
        &self,
        dout: Tensor<T, S, BD>,
    ) -> Result<LodTensor<T, S, BD, &L>, LodResetError> {
        let x = self.dense().dims();
        if dout.dims() != x {
            return Err(LodResetError::DoutShape {
                x,
                dout: dout.dims(),
            });
        }
        Ok(LodTensor::from_parts_unchecked(dout, self.lod()))
    }

    /// The gradient's data copied from `dout` into `grad`, a caller's
    /// tensor of x's shape (no heap); the gradient's LoD is x's
    /// ([`lod`](Self::lod)). Run-time dims are checked first
    /// ([`LodResetError::DoutShape`], [`LodResetError::GradShape`]); on
    /// error `grad` is untouched.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = LodTensor::new(Tensor::<i32, shape![2]>::full(0), &[][..]).unwrap();
    /// let mut grad = Tensor::<i32, shape![2]>::full(0);
    /// x.lod_reset_backward_into(&tensor![7, 8], &mut grad).unwrap();
    /// assert_eq!(grad.as_slice(), &[7, 8]);
    /// ```
    pub fn lod_reset_backward_into<BD: Storage<T>, BG: StorageMut<T>>(
        &self,
        dout: &Tensor<T, S, BD>,
        grad: &mut Tensor<T, S, BG>,
    ) -> Result<(), LodResetError> {
        let x = self.dense().dims();
        if !S::IS_STATIC {
            if dout.dims() != x {
                return Err(LodResetError::DoutShape {
                    x,
                    dout: dout.dims(),
                });
            }
            if grad.dims() != x {
                return Err(LodResetError::GradShape {
                    x,
                    grad: grad.dims(),
                });
            }
        }
        // the same dims: the same length
        for (g, &d) in grad.as_mut_slice().iter_mut().zip(dout.as_slice()) {
            *g = d;
        }
        Ok(())
    }
}
