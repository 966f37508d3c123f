//! `lod_reset` on the static path: [`LodTensor`] methods, the dense shape a
//! type and the LoD data, so every form returns a `Result`.

use super::kernel::write_level;
use super::rule::{lod_reset_rule, ResetPlan, YInput};
use super::LodResetError;
use crate::lod::{Levels, LodTensor, Offsets, ResetLevels};
use crate::rows::RowShape;
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;

impl<T: Copy, S: RowShape, B: Storage<T>, L: Levels> LodTensor<T, S, B, L> {
    /// Paddle's `lod_reset(x, target_lod=target, append=append)`: the
    /// output has x's dense tensor and the level `target` (offsets), alone
    /// or after x's levels if `append`. Nothing is copied; use
    /// `x.view().lod_reset(..)` to keep `x`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let levels = [Offsets::new(&[0, 1, 3])];
    /// let x = LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &levels[..]).unwrap();
    /// let out = x.view().lod_reset(Offsets::new(&[0, 2, 3]), false).unwrap();
    /// assert_eq!(out.level(0).unwrap().as_slice(), &[0, 2, 3]);
    /// // with append, x's level first
    /// let out = x.lod_reset(Offsets::new(&[0, 2, 3]), true).unwrap();
    /// assert_eq!(out.levels(), 2);
    /// ```
    pub fn lod_reset(
        self,
        target: Offsets<'_>,
        append: bool,
    ) -> Result<LodTensor<T, S, B, ResetLevels<'_, L>>, LodResetError> {
        lod_reset_rule(self.rows(), None, Some(target), append)?;
        let (dense, lod) = self.into_parts();
        Ok(LodTensor::from_parts_unchecked(
            dense,
            ResetLevels::new(lod, append, target),
        ))
    }

    /// Paddle's `lod_reset(x, y, append=append)` for a y without LoD: y's
    /// int32 elements (any shape, flattened) are the new level's offsets,
    /// written into `buf` (at least one entry per element of y; nothing is
    /// written on error).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &[][..]).unwrap();
    /// let y = Tensor::<i32, shape![3]>::from_array([0, 1, 3]);
    /// let mut buf = [0usize; 3];
    /// let out = x.lod_reset_by_data(&y, false, &mut buf).unwrap();
    /// assert_eq!(out.level(0).unwrap().as_slice(), &[0, 1, 3]);
    /// ```
    pub fn lod_reset_by_data<'n, S2: Shape, B2: Storage<i32>>(
        self,
        y: &Tensor<i32, S2, B2>,
        append: bool,
        buf: &'n mut [usize],
    ) -> Result<LodTensor<T, S, B, ResetLevels<'n, L>>, LodResetError> {
        let data = y.as_slice();
        let plan = lod_reset_rule(self.rows(), Some(YInput::Int32(data)), None, append)?;
        let len = buf.len();
        let dst = buf.get_mut(..data.len()).ok_or(LodResetError::Buffer {
            needed: data.len(),
            len,
        })?;
        if let ResetPlan::NewLevel { level, .. } = plan {
            write_level(level, dst);
        }
        let (dense, lod) = self.into_parts();
        let dst: &'n [usize] = dst;
        Ok(LodTensor::from_parts_unchecked(
            dense,
            ResetLevels::new(lod, append, Offsets::new(dst)),
        ))
    }

    /// Paddle's `lod_reset(x, y)` for a y that carries a LoD: the output has
    /// x's dense tensor and all of y's levels (borrowed), once y's last
    /// level is checked to end at x's row count. A y without LoD is
    /// [`LodResetError::YWithoutLod`] here: Paddle then reads y's int32
    /// data, which is [`lod_reset_by_data`](Self::lod_reset_by_data).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &[][..]).unwrap();
    /// let y_levels = [Offsets::new(&[0, 2, 3])];
    /// let y = LodTensor::new(Tensor::<i64, shape![3]>::full(0), &y_levels[..]).unwrap();
    /// let out = x.lod_reset_like(&y).unwrap();
    /// assert_eq!(out.level(0).unwrap().as_slice(), &[0, 2, 3]);
    /// ```
    pub fn lod_reset_like<U: Copy, S2: RowShape, B2: Storage<U>, LY: Levels>(
        self,
        y: &LodTensor<U, S2, B2, LY>,
    ) -> Result<LodTensor<T, S, B, &LY>, LodResetError> {
        let last = y
            .levels()
            .checked_sub(1)
            .and_then(|k| y.level(k))
            .and_then(|o| o.last())
            .ok_or(LodResetError::YWithoutLod)?;
        lod_reset_rule(self.rows(), Some(YInput::Lod { last }), None, false)?;
        let (dense, _) = self.into_parts();
        Ok(LodTensor::from_parts_unchecked(dense, y.lod()))
    }
}
