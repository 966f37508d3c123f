//! The dynamic path of `lod_reset`: Paddle's arguments as they come
//! (feature `alloc`).

use super::kernel::write_level;
use super::rule::{lod_reset_rule, ResetPlan, YInput};
use super::LodResetError;
use crate::dynamic::DynTensor;
use crate::element::Element;
use crate::lod::{DynLodTensor, Levels, Offsets, OwnedLod};
use alloc::vec::Vec;
use core::any::Any;

/// The y argument of [`DynLodTensor::lod_reset`]: its LoD (if any) and its
/// data as the rule reads them. Made by [`DynLodTensor::as_y`] or, for a
/// plain int32 tensor, [`DynY::data`].
#[derive(Clone, Copy)]
pub struct DynY<'a> {
    input: YInput<'a>,
    levels: &'a dyn Levels,
}

const NO_LEVELS: &[Offsets<'static>] = &[];

impl<'a> DynY<'a> {
    /// A plain tensor (no LoD) whose int32 elements are offsets.
    #[must_use]
    pub fn data(y: &'a DynTensor<i32>) -> Self {
        DynY {
            input: YInput::Int32(y.as_slice()),
            levels: &NO_LEVELS,
        }
    }

    /// What the rule sees.
    #[must_use]
    pub fn input(&self) -> YInput<'a> {
        self.input
    }
}

impl<T: Element, L: Levels> DynLodTensor<T, L> {
    /// This tensor as the y of a `lod_reset`: its LoD if it has one,
    /// otherwise its data (offsets if int32, an error in the rule if not).
    ///
    /// ```
    /// use shapecheck::{DynLodTensor, DynTensor, Lengths, YInput};
    /// let y = DynLodTensor::from_lengths(
    ///     DynTensor::new(&[3], vec![0i64; 3]).unwrap(),
    ///     &[Lengths::new(&[1, 2])],
    /// )
    /// .unwrap();
    /// assert_eq!(y.as_y().input(), YInput::Lod { last: 3 });
    /// ```
    pub fn as_y(&self) -> DynY<'_> {
        let lod = self.lod();
        let last = lod
            .count()
            .checked_sub(1)
            .and_then(|k| lod.level(k))
            .and_then(|o| o.last());
        let input = match last {
            Some(last) => YInput::Lod { last },
            None => match (self.dense() as &dyn Any).downcast_ref::<DynTensor<i32>>() {
                Some(d) => YInput::Int32(d.as_slice()),
                None => YInput::NotInt32 { dtype: T::DTYPE },
            },
        };
        DynY { input, levels: lod }
    }
}

impl<T: Copy, L: Levels> DynLodTensor<T, L> {
    /// Paddle's `lod_reset(x, y, target_lod, append)` with its checks and
    /// precedence ([`lod_reset_rule`]): x's dense tensor (moved, not copied)
    /// under the new levels.
    ///
    /// ```
    /// use shapecheck::{DynLodTensor, DynTensor, DynY, Lengths, Offsets};
    /// let x = DynLodTensor::from_lengths(
    ///     DynTensor::new(&[6, 1], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap(),
    ///     &[Lengths::new(&[2, 3, 1])],
    /// )
    /// .unwrap();
    /// // y's int32 data [[0, 2, 6]] as offsets (Paddle's example 2, corrected)
    /// let y = DynTensor::new(&[1, 3], vec![0, 2, 6]).unwrap();
    /// let out = x.clone().lod_reset(Some(DynY::data(&y)), None, false).unwrap();
    /// assert_eq!(out.level(0).unwrap().as_slice(), &[0, 2, 6]);
    /// // no y and no target
    /// let err = x.lod_reset(None, None, false).unwrap_err();
    /// assert!(err.to_string().starts_with("lod_reset: no new LoD was given"));
    /// ```
    pub fn lod_reset(
        self,
        y: Option<DynY<'_>>,
        target: Option<Offsets<'_>>,
        append: bool,
    ) -> Result<DynLodTensor<T, OwnedLod>, LodResetError> {
        let lod = self.lod_reset_levels(y, target, append)?;
        let (dense, _) = self.into_parts();
        Ok(DynLodTensor::from_parts_unchecked(dense, lod))
    }

    /// The levels [`lod_reset`](Self::lod_reset) would give, with `self`
    /// left as it is (on error too).
    ///
    /// ```
    /// use shapecheck::{DynLodTensor, DynTensor, Levels, Offsets};
    /// let x = DynLodTensor::from_lengths(DynTensor::new(&[3], vec![1.0f32; 3]).unwrap(), &[])
    ///     .unwrap();
    /// let lod = x.lod_reset_levels(None, Some(Offsets::new(&[0, 1, 3])), false).unwrap();
    /// assert_eq!(lod.level(0).unwrap().as_slice(), &[0, 1, 3]);
    /// ```
    pub fn lod_reset_levels(
        &self,
        y: Option<DynY<'_>>,
        target: Option<Offsets<'_>>,
        append: bool,
    ) -> Result<OwnedLod, LodResetError> {
        let plan = lod_reset_rule(self.rows(), y.map(|y| y.input), target, append)?;
        Ok(match (plan, y) {
            (ResetPlan::NewLevel { level, append }, _) => {
                let kept = if append { self.levels() } else { 0 };
                let mut levels: Vec<Vec<usize>> = Vec::new();
                let n = kept.saturating_add(1);
                levels
                    .try_reserve_exact(n)
                    .map_err(|_| LodResetError::Allocation { len: n })?;
                for k in 0..kept {
                    if let Some(o) = self.level(k) {
                        levels.push(o.as_slice().to_vec());
                    }
                }
                let mut new = Vec::new();
                new.try_reserve_exact(level.len())
                    .map_err(|_| LodResetError::Allocation { len: level.len() })?;
                new.resize(level.len(), 0);
                write_level(level, &mut new);
                levels.push(new);
                OwnedLod::from_offsets(levels)
            }
            (ResetPlan::UseYLod, Some(y)) => OwnedLod::copy_of(y.levels),
            // the rule uses y's LoD only when y is given
            (ResetPlan::UseYLod, None) => return Err(LodResetError::NoSource),
        })
    }
}

impl<T: Copy, L: Levels> DynLodTensor<T, L> {
    /// The gradient of x (`self`) for `lod_reset` on run-time shapes:
    /// `dout` (moved, not copied) under x's LoD (borrowed), not the reset
    /// one; `dout`'s dims must be x's ([`LodResetError::DoutShape`]).
    ///
    /// ```
    /// use shapecheck::{DynLodTensor, DynTensor, Lengths, Offsets};
    /// let x = DynLodTensor::from_lengths(DynTensor::new(&[3, 1], vec![1.0f32, 2.0, 3.0]).unwrap(), &[Lengths::new(&[1, 2])]).unwrap();
    /// let out = x.clone().lod_reset(None, Some(Offsets::new(&[0, 3])), false).unwrap();
    /// assert_eq!(out.level(0).unwrap().as_slice(), &[0, 3]);
    /// let dout = DynTensor::new(&[3, 1], vec![0.5f32, -1.0, 2.0]).unwrap();
    /// let dx = x.lod_reset_backward(dout).unwrap();
    /// assert_eq!(dx.level(0).unwrap().as_slice(), &[0, 1, 3]); // x's LoD
    /// assert_eq!(dx.dense().as_slice(), &[0.5, -1.0, 2.0]);
    /// let err = x.lod_reset_backward(DynTensor::new(&[1, 3], vec![0.0; 3]).unwrap()).unwrap_err();
    /// assert_eq!(err.rule(), "lod_reset/dout-shape");
    /// ```
    pub fn lod_reset_backward(
        &self,
        dout: DynTensor<T>,
    ) -> Result<DynLodTensor<T, &L>, LodResetError> {
        let x = self.dense().dims();
        if dout.dims() != x {
            return Err(LodResetError::DoutShape {
                x,
                dout: dout.dims(),
            });
        }
        Ok(DynLodTensor::from_parts_unchecked(dout, self.lod()))
    }
}
