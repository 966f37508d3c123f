//! [`LodTensor`]: a dense tensor and the levels of a LoD over its rows.

use super::check::{check_lengths, check_lod};
use super::offsets::write_prefix_sums;
use super::{BoundedLod, Lengths, Levels, LodError, Offsets, RowShape};
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;
use core::fmt;

/// A LoD ("level of detail") tensor, Paddle's ragged batch: a dense tensor
/// whose rows are split into sequences by the levels of a LoD (see the
/// [module docs](crate::lod)).
///
/// The dense part is any [`Tensor<T, S, B>`](Tensor) of rank at least 1
/// (usually `shape![Dyn, ...]`, the rows known at run time; a static first
/// dim works too), kept as it is: inline, on the heap or borrowed. The
/// levels `L` are any [`Levels`]: `&[Offsets]` borrowed from the caller (no
/// heap), [`OwnedLod`](crate::OwnedLod) (feature `alloc`), or the
/// [`ResetLevels`](crate::ResetLevels) of a `lod_reset` result.
///
/// Invariant: every level has at least 2 offsets, starts at 0 and never
/// decreases, and the last level ends at the row count. The constructors
/// also check that each upper level counts the sequences of the level below
/// (all of Paddle's `CheckLoD`); `lod_reset` with `append` does not, as in
/// Paddle, and [`sequences`](Self::sequences) checks it for the levels it
/// walks.
pub struct LodTensor<T: Copy, S: Shape, B: Storage<T>, L> {
    dense: Tensor<T, S, B>,
    lod: L,
}

/// The dense shape (`Self`) and the levels `L` of a LoD tensor, as one
/// blanket impl over the link [`LodPartsLink`]: `S: RowShape` and
/// `L: Levels`. [`LodTensor::new`] names [`Dense`](Self::Dense) and
/// [`Lod`](Self::Lod) in its return type (they are `Self` and `L`), so that
/// rustc reports a failing rule once, at the call, by the rule's own message.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::lod::LodParts;
/// use shapecheck::Offsets;
/// type Parts<'a> = <shape![Dyn, 4] as LodParts<&'a [Offsets<'a>]>>::Dense;
/// let _: Option<Parts<'_>> = Some((Dyn(6), Dim::<4>));
/// ```
#[doc(hidden)]
pub trait LodParts<L>: Shape {
    /// `Self`, once it is a [`RowShape`].
    type Dense: RowShape;
    /// `L`, once it is [`Levels`].
    type Lod: Levels;
    /// `dense` and `lod` as the types above (the identity).
    fn parts<T: Copy, B: Storage<T>>(
        dense: Tensor<T, Self, B>,
        lod: L,
    ) -> (Tensor<T, Self::Dense, B>, Self::Lod);
}

/// [`RowShape`] of `S` and [`Levels`] of `L` as a link with `Self = ()`
/// (any `Self`), whose types are `S` and `L`; see [`LodParts`]. Without it
/// (`LodParts` over the two rules directly), `ui-tests/lod/fail/scalar_dense`
/// is two errors and `lengths_for_offsets` quotes `new`'s bound (27 lines).
#[doc(hidden)]
pub trait LodPartsLink<S: Shape, L> {
    /// `S` as a [`RowShape`].
    type Dense: RowShape;
    /// `dense` itself.
    fn dense<T: Copy, B: Storage<T>>(dense: Tensor<T, S, B>) -> Tensor<T, Self::Dense, B>;
    /// `L` as [`Levels`].
    type Lod: Levels;
    /// `lod` itself.
    fn lod(lod: L) -> Self::Lod;
}

impl<P, S: RowShape, L: Levels> LodPartsLink<S, L> for P {
    type Dense = S;
    #[inline(always)]
    fn dense<T: Copy, B: Storage<T>>(dense: Tensor<T, S, B>) -> Tensor<T, S, B> {
        dense
    }
    type Lod = L;
    #[inline(always)]
    fn lod(lod: L) -> L {
        lod
    }
}

impl<S: Shape, L> LodParts<L> for S
where
    (): LodPartsLink<S, L>,
{
    type Dense = <() as LodPartsLink<S, L>>::Dense;
    type Lod = <() as LodPartsLink<S, L>>::Lod;
    #[inline(always)]
    fn parts<T: Copy, B: Storage<T>>(
        dense: Tensor<T, S, B>,
        lod: L,
    ) -> (Tensor<T, Self::Dense, B>, Self::Lod) {
        (
            <() as LodPartsLink<S, L>>::dense(dense),
            <() as LodPartsLink<S, L>>::lod(lod),
        )
    }
}

/// The [`LodTensor`] that [`LodTensor::new`] builds from a `Tensor<T, S, B>`
/// and levels `L`: `LodTensor<T, S, B, L>` (see [`LodParts`]).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::lod::LodTensorOf;
/// use shapecheck::{LodTensor, Offsets};
/// let levels = [Offsets::new(&[0, 2, 3])];
/// let x: LodTensorOf<f32, shape![3, 2], _, &[Offsets<'_>]> =
///     LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &levels[..]).unwrap();
/// assert_eq!(x.rows(), 3);
/// ```
pub type LodTensorOf<T, S, B, L> =
    LodTensor<T, <S as LodParts<L>>::Dense, B, <S as LodParts<L>>::Lod>;

impl<T: Copy, S: Shape, B: Storage<T>, L> LodTensor<T, S, B, L> {
    /// A LoD tensor of `dense` and the offsets `lod`, checked by Paddle's
    /// `CheckLoD` against `dense`'s rows ([`check_lod`]). The result is a
    /// `LodTensor<T, S, B, L>` ([`LodTensorOf`]); `S` must be a
    /// [`RowShape`] and `L` [`Levels`] (compile errors otherwise).
    pub fn new(dense: Tensor<T, S, B>, lod: L) -> Result<LodTensorOf<T, S, B, L>, LodError>
    where
        S: LodParts<L>,
    {
        let (dense, lod) = S::parts(dense, lod);
        check_lod(&lod, dense.shape().rows())?;
        Ok(LodTensor { dense, lod })
    }
}

impl<T: Copy, S: RowShape, B: Storage<T>, L: Levels> LodTensor<T, S, B, L> {
    /// Builds without checking: for `lod_reset`, which checked its rule.
    pub(crate) fn from_parts_unchecked(dense: Tensor<T, S, B>, lod: L) -> Self {
        LodTensor { dense, lod }
    }

    /// The dense tensor.
    pub fn dense(&self) -> &Tensor<T, S, B> {
        &self.dense
    }

    /// The levels.
    pub fn lod(&self) -> &L {
        &self.lod
    }

    /// The dense tensor and the levels.
    pub fn into_parts(self) -> (Tensor<T, S, B>, L) {
        (self.dense, self.lod)
    }

    /// The dense tensor's elements, row-major.
    pub fn as_slice(&self) -> &[T] {
        self.dense.as_slice()
    }

    /// The number of rows (the dense tensor's first dim).
    pub fn rows(&self) -> usize {
        self.dense.shape().rows()
    }

    /// The number of levels (0: no LoD).
    pub fn levels(&self) -> usize {
        self.lod.count()
    }

    /// Level `k`'s offsets, `None` if there is no level `k`.
    pub fn level(&self, k: usize) -> Option<Offsets<'_>> {
        self.lod.level(k)
    }

    /// A borrowed view: the same dense data and levels, nothing copied.
    pub fn view(&self) -> LodTensor<T, S, &[T], &L> {
        LodTensor {
            dense: self.dense.view(),
            lod: &self.lod,
        }
    }

    /// Runs all of `CheckLoD` again (an `append` by `lod_reset` may leave
    /// levels whose counts do not nest, as Paddle does).
    pub fn check(&self) -> Result<(), LodError> {
        check_lod(&self.lod, self.rows())
    }

    /// Level `k` as sequence lengths, written into `buf` (no heap).
    pub fn lengths_into<'b>(
        &self,
        k: usize,
        buf: &'b mut [usize],
    ) -> Result<Lengths<'b>, LodError> {
        let o = self.lod.level(k).ok_or(LodError::NoSuchLevel {
            level: k,
            levels: self.lod.count(),
        })?;
        o.lengths_into(buf)
    }

    /// Every level as sequence lengths: Paddle's `recursive_sequence_lengths`.
    #[cfg(feature = "alloc")]
    pub fn lengths(&self) -> alloc::vec::Vec<crate::lod::LengthsBuf> {
        crate::lod::OwnedLod::lengths_of(&self.lod)
    }

    /// A copy of the levels on the heap.
    #[cfg(feature = "alloc")]
    pub fn to_owned_lod(&self) -> crate::lod::OwnedLod {
        crate::lod::OwnedLod::copy_of(&self.lod)
    }
}

#[cfg(feature = "alloc")]
impl<T: Copy, S: RowShape, B: Storage<T>> LodTensor<T, S, B, crate::lod::OwnedLod> {
    /// A LoD tensor from Paddle's `recursive_sequence_lengths` (one
    /// [`Lengths`] per level, top first): converted to offsets and checked
    /// ([`check_lengths`]). Feature `alloc`; [`from_lengths_in`](LodTensor::from_lengths_in)
    /// needs no heap.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::{Lengths, LodTensor};
    /// let dense = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::with_dims(&[6, 1], vec![1., 2., 3., 4., 5., 6.]).unwrap();
    /// let x = LodTensor::from_lengths(dense, &[Lengths::new(&[2, 2]), Lengths::new(&[2, 2, 1, 1])]).unwrap();
    /// assert_eq!(x.level(0).unwrap().as_slice(), &[0, 2, 4]);
    /// assert_eq!(x.level(1).unwrap().as_slice(), &[0, 2, 4, 5, 6]);
    /// ```
    pub fn from_lengths(dense: Tensor<T, S, B>, lengths: &[Lengths<'_>]) -> Result<Self, LodError> {
        let lod = crate::lod::OwnedLod::from_lengths(lengths, dense.shape().rows())?;
        Ok(LodTensor { dense, lod })
    }
}

impl<'b, T: Copy, S: RowShape, B: Storage<T>> LodTensor<T, S, B, &'b [Offsets<'b>]> {
    /// [`from_lengths`](LodTensor::from_lengths) without a heap: the offsets
    /// are written into `offsets_buf` (it needs the number of lengths plus 1
    /// per level) and the level list into `levels_buf` (one entry per
    /// level). Everything is checked before anything is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::{Lengths, LodTensor, Offsets};
    /// let dense = Tensor::<i32, shape![5, 2]>::from_array([[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]]);
    /// let (mut offsets, mut levels) = ([0usize; 8], [Offsets::new(&[]); 2]);
    /// let x = LodTensor::from_lengths_in(
    ///     dense,
    ///     &[Lengths::new(&[1, 2]), Lengths::new(&[2, 1, 2])],
    ///     &mut offsets,
    ///     &mut levels,
    /// )
    /// .unwrap();
    /// assert_eq!(x.level(1).unwrap().as_slice(), &[0, 2, 3, 5]);
    /// ```
    pub fn from_lengths_in(
        dense: Tensor<T, S, B>,
        lengths: &[Lengths<'_>],
        offsets_buf: &'b mut [usize],
        levels_buf: &'b mut [Offsets<'b>],
    ) -> Result<Self, LodError> {
        check_lengths(lengths, dense.shape().rows())?;
        // no overflow: every level's sum fits, so its length does too
        let needed = lengths.iter().fold(0usize, |acc, l| {
            acc.saturating_add(l.len()).saturating_add(1)
        });
        if offsets_buf.len() < needed {
            return Err(LodError::Buffer {
                what: "offsets",
                needed,
                len: offsets_buf.len(),
            });
        }
        let levels_len = levels_buf.len();
        let slots = levels_buf
            .get_mut(..lengths.len())
            .ok_or(LodError::Buffer {
                what: "levels",
                needed: lengths.len(),
                len: levels_len,
            })?;
        let mut rest: &'b mut [usize] = offsets_buf;
        for (slot, l) in slots.iter_mut().zip(lengths) {
            let n = l.len().saturating_add(1);
            let Some((head, tail)) = core::mem::take(&mut rest).split_at_mut_checked(n) else {
                break; // not reached: the buffer's length was checked
            };
            write_prefix_sums(l.as_slice(), head);
            let head: &'b [usize] = head;
            *slot = Offsets::new(head);
            rest = tail;
        }
        let lod: &'b [Offsets<'b>] = slots;
        Ok(LodTensor { dense, lod })
    }
}

impl<T: Copy, S: RowShape, B: Storage<T>, const LEVELS: usize, const OFFSETS: usize>
    LodTensor<T, S, B, BoundedLod<LEVELS, OFFSETS>>
{
    /// A LoD tensor from Paddle's `recursive_sequence_lengths` with its
    /// levels inline ([`BoundedLod`]): no heap and no caller buffer. The
    /// levels are checked as by [`from_lengths`](LodTensor::from_lengths),
    /// then against the room in the type.
    ///
    /// # Errors
    /// The [`check_lengths`] errors, then [`LodError::Capacity`].
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::{BoundedLod, Lengths, LodTensor};
    /// let dense = Tensor::<i32, shape![5, 2]>::from_array([[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]]);
    /// let x = LodTensor::<_, _, _, BoundedLod<2, 4>>::from_lengths_bounded(
    ///     dense,
    ///     &[Lengths::new(&[1, 2]), Lengths::new(&[2, 1, 2])],
    /// )
    /// .unwrap();
    /// assert_eq!(x.level(1).unwrap().as_slice(), &[0, 2, 3, 5]);
    /// // the lengths must still cover the rows
    /// let err = LodTensor::<_, _, _, BoundedLod<1, 4>>::from_lengths_bounded(dense_again(), &[Lengths::new(&[2])]);
    /// assert_eq!(err.unwrap_err().rule(), "lod/rows");
    /// # fn dense_again() -> Tensor<i32, shape![5, 2]> { Tensor::full(0) }
    /// ```
    pub fn from_lengths_bounded(
        dense: Tensor<T, S, B>,
        lengths: &[Lengths<'_>],
    ) -> Result<Self, LodError> {
        check_lengths(lengths, dense.shape().rows())?;
        let lod = BoundedLod::from_lengths(lengths)?;
        Ok(LodTensor { dense, lod })
    }
}

impl<T: Copy, S: Shape, B: Storage<T> + Clone, L: Levels + Clone> Clone for LodTensor<T, S, B, L> {
    fn clone(&self) -> Self {
        LodTensor {
            dense: self.dense.clone(),
            lod: self.lod.clone(),
        }
    }
}

impl<T: Copy + fmt::Debug, S: Shape, B: Storage<T>, L: Levels> fmt::Debug
    for LodTensor<T, S, B, L>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for k in 0..self.lod.count() {
            if let Some(o) = self.lod.level(k) {
                list.entry(&o.as_slice());
            }
        }
        list.finish()?;
        write!(f, " {:?}", self.dense)
    }
}

impl<T, S, B, L, B2, L2> PartialEq<LodTensor<T, S, B2, L2>> for LodTensor<T, S, B, L>
where
    T: Copy + PartialEq,
    S: Shape,
    B: Storage<T>,
    B2: Storage<T>,
    L: Levels,
    L2: Levels,
{
    /// Equal dense tensors and equal offsets, level by level.
    fn eq(&self, other: &LodTensor<T, S, B2, L2>) -> bool {
        self.dense == other.dense
            && self.lod.count() == other.lod.count()
            && (0..self.lod.count()).all(|k| self.lod.level(k) == other.lod.level(k))
    }
}
