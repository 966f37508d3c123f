//! [`DynLodTensor`]: a LoD over a [`DynTensor`], the dynamic path (feature
//! `alloc`). The same checks as [`LodTensor`](crate::LodTensor), with the
//! rank a run-time value (a scalar is [`LodError::ScalarDense`]).

use super::check::check_lod;
use super::seq::{check_walk, row_span, rows_of};
use super::{Lengths, LengthsBuf, Levels, LodError, Offsets, OwnedLod};
use crate::dims::Dims;
use crate::dynamic::DynTensor;
use alloc::vec::Vec;
use core::ops::Range;

/// A [`DynTensor`] and the levels of a LoD over its rows.
///
/// ```
/// use shapecheck::{DynLodTensor, DynTensor, Lengths};
/// let dense = DynTensor::new(&[6, 1], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
/// let x = DynLodTensor::from_lengths(dense, &[Lengths::new(&[2, 3, 1])]).unwrap();
/// assert_eq!(x.level(0).unwrap().as_slice(), &[0, 2, 5, 6]);
/// let seqs: Vec<&[f32]> = x.sequences(0).unwrap().map(|s| s.data()).collect();
/// assert_eq!(seqs, [&[1.0, 2.0][..], &[3.0, 4.0, 5.0], &[6.0]]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DynLodTensor<T, L = OwnedLod> {
    dense: DynTensor<T>,
    lod: L,
}

fn rows_of_dense<T: Copy>(dense: &DynTensor<T>) -> Result<usize, LodError> {
    dense.dims().first().copied().ok_or(LodError::ScalarDense)
}

impl<T: Copy, L: Levels> DynLodTensor<T, L> {
    /// `dense` with the offsets `lod`, checked by Paddle's `CheckLoD`.
    pub fn new(dense: DynTensor<T>, lod: L) -> Result<Self, LodError> {
        check_lod(&lod, rows_of_dense(&dense)?)?;
        Ok(DynLodTensor { dense, lod })
    }

    /// Builds without the nesting check: for `lod_reset` (its rule checked
    /// the new level, and an `append` does not nest-check, as in Paddle).
    pub(crate) fn from_parts_unchecked(dense: DynTensor<T>, lod: L) -> Self {
        DynLodTensor { dense, lod }
    }

    /// The dense tensor.
    pub fn dense(&self) -> &DynTensor<T> {
        &self.dense
    }

    /// The levels.
    pub fn lod(&self) -> &L {
        &self.lod
    }

    /// The dense tensor and the levels.
    pub fn into_parts(self) -> (DynTensor<T>, L) {
        (self.dense, self.lod)
    }

    /// The number of rows (the first dim; rank 0 is rejected on construction).
    pub fn rows(&self) -> usize {
        self.dense.dims().first().copied().unwrap_or(0)
    }

    /// The number of levels.
    pub fn levels(&self) -> usize {
        self.lod.count()
    }

    /// Level `k`'s offsets.
    pub fn level(&self, k: usize) -> Option<Offsets<'_>> {
        self.lod.level(k)
    }

    /// Every level as sequence lengths (Paddle's `recursive_sequence_lengths`).
    pub fn lengths(&self) -> Vec<LengthsBuf> {
        OwnedLod::lengths_of(&self.lod)
    }

    /// Runs all of `CheckLoD` again.
    pub fn check(&self) -> Result<(), LodError> {
        check_lod(&self.lod, self.rows())
    }

    /// The sequences of level `level`, each its rows' dims and elements.
    pub fn sequences(&self, level: usize) -> Result<DynSequences<'_, T, L>, LodError> {
        check_walk(&self.lod, level)?;
        let rows = self.rows();
        let numel = self.dense.as_slice().len();
        Ok(DynSequences {
            lod: &self.lod,
            data: self.dense.as_slice(),
            dims: self.dense.dims(),
            row_len: numel.checked_div(rows).unwrap_or(0),
            level,
            next: 0,
            end: self.lod.level(level).map_or(0, |o| o.sequences()),
        })
    }
}

impl<T: Copy> DynLodTensor<T, OwnedLod> {
    /// `dense` with a LoD given as lengths (Paddle's
    /// `recursive_sequence_lengths`), converted to offsets and checked.
    pub fn from_lengths(dense: DynTensor<T>, lengths: &[Lengths<'_>]) -> Result<Self, LodError> {
        let lod = OwnedLod::from_lengths(lengths, rows_of_dense(&dense)?)?;
        Ok(DynLodTensor { dense, lod })
    }
}

/// One sequence of a [`DynLodTensor`]'s level.
#[derive(Clone, Debug, PartialEq)]
pub struct DynSequence<'a, T> {
    index: usize,
    rows: Range<usize>,
    dims: Dims,
    data: &'a [T],
}

impl<'a, T> DynSequence<'a, T> {
    /// Its position within its level.
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }
    /// The dense rows it spans.
    #[must_use]
    pub fn rows(&self) -> Range<usize> {
        self.rows.clone()
    }
    /// The dims of its rows (the dense dims, the first one its row count).
    #[must_use]
    pub fn dims(&self) -> Dims {
        self.dims
    }
    /// Its elements, row-major (a view, no copy).
    #[must_use]
    pub fn data(&self) -> &'a [T] {
        self.data
    }
}

/// The sequences of one level of a [`DynLodTensor`].
pub struct DynSequences<'a, T, L> {
    lod: &'a L,
    data: &'a [T],
    dims: Dims,
    row_len: usize,
    level: usize,
    next: usize,
    end: usize,
}

impl<'a, T, L: Levels> Iterator for DynSequences<'a, T, L> {
    type Item = DynSequence<'a, T>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let index = self.next;
        let rows = row_span(self.lod, self.level, index..index.saturating_add(1))?;
        let data = rows_of(self.data, self.row_len, &rows)?;
        let mut dims = [0usize; crate::dims::MAX_RANK];
        let rank = self.dims.rank();
        for (d, s) in dims.iter_mut().zip(self.dims.iter()) {
            *d = *s;
        }
        if let Some(first) = dims.first_mut() {
            *first = rows.len();
        }
        let dims = Dims::new(dims.get(..rank).unwrap_or(&[])).ok()?;
        self.next = index.saturating_add(1);
        Some(DynSequence {
            index,
            rows,
            dims,
            data,
        })
    }
}
