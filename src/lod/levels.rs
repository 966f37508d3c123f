//! Where a LoD's levels live: [`Levels`] is read access to a list of
//! [`Offsets`] levels, whatever holds them.
//!
//! - `&[Offsets]` (or an array `[Offsets; N]`): levels borrowed from the
//!   caller's slices, no heap (the embedded form); `Vec<Offsets>` with `alloc`;
//! - [`OwnedLod`] (feature `alloc`): `Vec<Vec<usize>>` of offsets;
//! - [`ResetLevels`]: the levels of a `lod_reset` result, which borrows or
//!   keeps the input's levels and adds one, without copying;
//! - [`BoundedLod`]: levels stored inline with room for a number of levels
//!   and of offsets per level fixed in the type: no heap, no caller buffer.

use super::offsets::write_prefix_sums;
use super::{Lengths, LodError, Offsets};

/// A list of LoD levels (offsets), level 0 the top (coarsest) one. The
/// number of levels is a run-time value.
#[diagnostic::on_unimplemented(
    message = "LoD: `{Self}` is not a list of LoD levels; levels are `Offsets`",
    label = "expected levels of `Offsets`, such as `&[Offsets]`",
    note = "offsets and lengths are distinct types: build a LoD from `Lengths` with `LodTensor::from_lengths` or `from_lengths_in`"
)]
#[doc(hidden)]
pub trait Levels {
    /// The number of levels.
    fn count(&self) -> usize;
    /// Level `k`, `None` if `k >= count()`.
    fn level(&self, k: usize) -> Option<Offsets<'_>>;
}

#[diagnostic::do_not_recommend]
impl Levels for [Offsets<'_>] {
    fn count(&self) -> usize {
        self.len()
    }
    fn level(&self, k: usize) -> Option<Offsets<'_>> {
        self.get(k).copied()
    }
}

#[diagnostic::do_not_recommend]
impl<const N: usize> Levels for [Offsets<'_>; N] {
    fn count(&self) -> usize {
        N
    }
    fn level(&self, k: usize) -> Option<Offsets<'_>> {
        self.get(k).copied()
    }
}

#[diagnostic::do_not_recommend]
impl<L: Levels + ?Sized> Levels for &L {
    fn count(&self) -> usize {
        (**self).count()
    }
    fn level(&self, k: usize) -> Option<Offsets<'_>> {
        (**self).level(k)
    }
}

/// The levels of a `lod_reset` result: the input's levels `base` (kept when
/// appending, otherwise unused) and the new last level. Nothing is copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResetLevels<'n, L> {
    base: L,
    append: bool,
    last: Offsets<'n>,
}

impl<'n, L: Levels> ResetLevels<'n, L> {
    /// `base`'s levels then `last` if `append`, otherwise `last` alone.
    pub(crate) fn new(base: L, append: bool, last: Offsets<'n>) -> Self {
        ResetLevels { base, append, last }
    }

    /// The new (last) level.
    pub fn new_level(&self) -> Offsets<'n> {
        self.last
    }

    /// The input's levels, as given.
    pub fn base(&self) -> &L {
        &self.base
    }
}

#[diagnostic::do_not_recommend]
impl<L: Levels> Levels for ResetLevels<'_, L> {
    fn count(&self) -> usize {
        if self.append {
            self.base.count().saturating_add(1)
        } else {
            1
        }
    }
    fn level(&self, k: usize) -> Option<Offsets<'_>> {
        let kept = if self.append { self.base.count() } else { 0 };
        if k < kept {
            self.base.level(k)
        } else if k == kept {
            Some(self.last)
        } else {
            None
        }
    }
}

#[cfg(feature = "alloc")]
mod owned {
    use super::*;
    use crate::lod::check::check_lengths;
    use crate::lod::{Lengths, LengthsBuf, LodError};
    use alloc::vec::Vec;

    /// Levels of offsets on the heap (feature `alloc`).
    #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
    pub struct OwnedLod(Vec<Vec<usize>>);

    impl OwnedLod {
        /// Levels from lists of offsets (checked where they are used, as
        /// for [`Offsets::new`]).
        #[must_use]
        pub fn from_offsets(levels: Vec<Vec<usize>>) -> Self {
            OwnedLod(levels)
        }

        /// The levels `lengths` (one [`Lengths`] per level, top first)
        /// converted to offsets, after [`check_lengths`] against `rows`
        /// dense rows: what the `from_lengths` of both LoD tensors build.
        pub(crate) fn from_lengths(lengths: &[Lengths<'_>], rows: usize) -> Result<Self, LodError> {
            check_lengths(lengths, rows)?;
            let mut levels = Vec::new();
            levels
                .try_reserve_exact(lengths.len())
                .map_err(|_| LodError::Allocation { len: lengths.len() })?;
            for (k, l) in lengths.iter().enumerate() {
                levels.push(l.to_offsets(k)?.into_vec());
            }
            Ok(OwnedLod(levels))
        }

        /// Every level of `levels` as sequence lengths (Paddle's
        /// `recursive_sequence_lengths`), for the `lengths` of both LoD
        /// tensors.
        pub(crate) fn lengths_of<L: Levels + ?Sized>(levels: &L) -> Vec<LengthsBuf> {
            (0..levels.count())
                .filter_map(|k| levels.level(k))
                .map(|o| o.to_lengths())
                .collect()
        }

        /// A copy of any levels.
        pub fn copy_of<L: Levels + ?Sized>(levels: &L) -> Self {
            OwnedLod(
                (0..levels.count())
                    .filter_map(|k| levels.level(k))
                    .map(|o| o.as_slice().to_vec())
                    .collect(),
            )
        }

        /// The levels' offsets.
        #[must_use = "`into_offsets` consumes the levels: dropping the result drops them"]
        pub fn into_offsets(self) -> Vec<Vec<usize>> {
            self.0
        }

        /// The levels' offsets, borrowed.
        #[must_use]
        pub fn as_offsets(&self) -> &[Vec<usize>] {
            &self.0
        }
    }

    #[diagnostic::do_not_recommend]
    impl Levels for Vec<Offsets<'_>> {
        fn count(&self) -> usize {
            self.len()
        }
        fn level(&self, k: usize) -> Option<Offsets<'_>> {
            self.get(k).copied()
        }
    }

    #[diagnostic::do_not_recommend]
    impl Levels for OwnedLod {
        fn count(&self) -> usize {
            self.0.len()
        }
        fn level(&self, k: usize) -> Option<Offsets<'_>> {
            self.0.get(k).map(|v| Offsets::new(v))
        }
    }
}

#[cfg(feature = "alloc")]
pub use owned::OwnedLod;

/// LoD levels stored inline: at most `LEVELS` levels of at most `OFFSETS`
/// offsets each (a level of `n` sequences has `n + 1` offsets, so at most
/// `OFFSETS - 1` sequences). No heap and no caller buffer: the RAM is in the
/// type (`LEVELS * (OFFSETS + 1) + 1` words), and a LoD that does not fit is
/// a [`LodError::Capacity`] (`lod/capacity`) when it is made. `Copy`.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{BoundedLod, Lengths, Levels};
/// let lod = BoundedLod::<2, 5>::from_lengths(&[Lengths::new(&[2, 1]), Lengths::new(&[1, 1, 3])]).unwrap();
/// assert_eq!(lod.count(), 2);
/// assert_eq!(lod.level(1).unwrap().as_slice(), &[0, 1, 2, 5]);
/// // five sequences need six offsets: one more than the type has room for
/// let err = BoundedLod::<2, 5>::from_lengths(&[Lengths::new(&[1; 5])]).unwrap_err();
/// assert_eq!(err.rule(), "lod/capacity");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundedLod<const LEVELS: usize, const OFFSETS: usize> {
    offsets: [[usize; OFFSETS]; LEVELS],
    /// The offsets used in each level.
    used: [usize; LEVELS],
    /// The levels used.
    count: usize,
}

impl<const LEVELS: usize, const OFFSETS: usize> BoundedLod<LEVELS, OFFSETS> {
    /// The levels of Paddle's `recursive_sequence_lengths` (one [`Lengths`]
    /// per level, top first), converted to offsets. Only the room is
    /// checked here; the levels against a tensor's rows are checked by
    /// [`LodTensor::from_lengths_bounded`](crate::LodTensor::from_lengths_bounded)
    /// or [`LodTensor::new`](crate::LodTensor::new).
    ///
    /// # Errors
    /// [`LodError::Capacity`] for more than `LEVELS` levels or a level of
    /// more than `OFFSETS - 1` sequences.
    ///
    /// ```
    /// use shapecheck::{BoundedLod, Lengths, Levels};
    /// let lod = BoundedLod::<1, 4>::from_lengths(&[Lengths::new(&[2, 3])]).unwrap();
    /// assert_eq!(lod.level(0).unwrap().as_slice(), &[0, 2, 5]);
    /// let err = BoundedLod::<1, 4>::from_lengths(&[Lengths::new(&[1]), Lengths::new(&[1])]).unwrap_err();
    /// assert_eq!(err.to_string(), "the LoD needs 2 levels, but its type has room for 1");
    /// ```
    pub fn from_lengths(lengths: &[Lengths<'_>]) -> Result<Self, LodError> {
        if lengths.len() > LEVELS {
            return Err(LodError::Capacity {
                what: "levels",
                capacity: LEVELS,
                needed: lengths.len(),
            });
        }
        if let Some(l) = lengths.iter().find(|l| l.len().saturating_add(1) > OFFSETS) {
            return Err(LodError::Capacity {
                what: "offsets",
                capacity: OFFSETS,
                needed: l.len().saturating_add(1),
            });
        }
        let mut lod = BoundedLod {
            offsets: [[0; OFFSETS]; LEVELS],
            used: [0; LEVELS],
            count: lengths.len(),
        };
        for ((row, used), l) in lod.offsets.iter_mut().zip(&mut lod.used).zip(lengths) {
            *used = l.len().saturating_add(1);
            write_prefix_sums(l.as_slice(), row.get_mut(..*used).unwrap_or(&mut []));
        }
        Ok(lod)
    }
}

#[diagnostic::do_not_recommend]
impl<const LEVELS: usize, const OFFSETS: usize> Levels for BoundedLod<LEVELS, OFFSETS> {
    fn count(&self) -> usize {
        self.count
    }
    fn level(&self, k: usize) -> Option<Offsets<'_>> {
        if k >= self.count {
            return None;
        }
        let used = *self.used.get(k)?;
        Some(Offsets::new(self.offsets.get(k)?.get(..used)?))
    }
}
