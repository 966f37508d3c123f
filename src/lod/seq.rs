//! Walking the sequences of a level as views of the dense data.

use super::check::check_nesting;
use super::{Levels, LodError, LodTensor, RowShape};
use crate::storage::Storage;
use crate::tensor::Tensor;
use core::ops::Range;

/// The rows spanned by sequences `range` of level `level`: their offsets
/// followed down to the last level. `None` if an offset has no entry below
/// (not reached once [`check_nesting`] passed from `level` down).
pub(crate) fn row_span<L: Levels + ?Sized>(
    lod: &L,
    level: usize,
    range: Range<usize>,
) -> Option<Range<usize>> {
    let (mut lo, mut hi) = (range.start, range.end);
    for k in level..lod.count() {
        let o = lod.level(k)?.as_slice();
        lo = *o.get(lo)?;
        hi = *o.get(hi)?;
    }
    Some(lo..hi)
}

/// Checks that `level` exists and that the levels from it down nest.
pub(crate) fn check_walk<L: Levels + ?Sized>(lod: &L, level: usize) -> Result<(), LodError> {
    let levels = lod.count();
    if level >= levels {
        return Err(LodError::NoSuchLevel { level, levels });
    }
    check_nesting(lod, level)
}

/// The elements of rows `rows` when a row holds `row_len` elements.
pub(crate) fn rows_of<'a, T>(
    data: &'a [T],
    row_len: usize,
    rows: &Range<usize>,
) -> Option<&'a [T]> {
    data.get(rows.start.checked_mul(row_len)?..rows.end.checked_mul(row_len)?)
}

/// One sequence of a level: the rows it spans, as a tensor view, and (above
/// the last level) the sequences of the next level it holds.
pub struct Sequence<'a, T: Copy, S: RowShape, L: Levels> {
    walk: LevelWalk<'a, T, S, L>,
    index: usize,
    rows: Range<usize>,
    data: &'a [T],
}

impl<'a, T: Copy, S: RowShape, L: Levels> Sequence<'a, T, S, L> {
    /// Its position within its level.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The dense tensor's rows it spans.
    pub fn rows(&self) -> Range<usize> {
        self.rows.clone()
    }

    /// Its rows as a tensor view (no copy): the dense shape with the first
    /// dim `Dyn(rows)`.
    pub fn tensor(&self) -> Tensor<T, S::Rows, &'a [T]> {
        let shape = self.walk.shape.with_rows(self.rows.len());
        // the length fits by construction; an empty view otherwise
        Tensor::with_shape(shape, self.data)
            .unwrap_or_else(|_| Tensor::from_parts_unchecked(self.walk.shape.with_rows(0), &[]))
    }

    /// The sequences of the next level it holds (a sequence of sequences);
    /// nothing at the last level.
    pub fn sequences(&self) -> Sequences<'a, T, S, L> {
        let below = self.walk.level.saturating_add(1);
        let span = self
            .walk
            .lod
            .level(self.walk.level)
            .and_then(|o| {
                let s = o.as_slice();
                Some(*s.get(self.index)?..*s.get(self.index.saturating_add(1))?)
            })
            .filter(|_| below < self.walk.lod.count())
            .unwrap_or(0..0);
        Sequences {
            walk: LevelWalk {
                level: below,
                ..self.walk
            },
            next: span.start,
            end: span.end,
        }
    }
}

/// What a walk over a level needs: the levels, the data, the dense shape.
struct LevelWalk<'a, T, S, L> {
    lod: &'a L,
    data: &'a [T],
    shape: S,
    row_len: usize,
    level: usize,
}

impl<T, S: Copy, L> Clone for LevelWalk<'_, T, S, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, S: Copy, L> Copy for LevelWalk<'_, T, S, L> {}

/// The sequences of one level, in order (see [`LodTensor::sequences`]).
pub struct Sequences<'a, T: Copy, S: RowShape, L: Levels> {
    walk: LevelWalk<'a, T, S, L>,
    next: usize,
    end: usize,
}

impl<'a, T: Copy, S: RowShape, L: Levels> Iterator for Sequences<'a, T, S, L> {
    type Item = Sequence<'a, T, S, L>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let index = self.next;
        let rows = row_span(
            self.walk.lod,
            self.walk.level,
            index..index.saturating_add(1),
        )?;
        let data = rows_of(self.walk.data, self.walk.row_len, &rows)?;
        self.next = index.saturating_add(1);
        Some(Sequence {
            walk: self.walk,
            index,
            rows,
            data,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (0, Some(n))
    }
}

impl<T: Copy, S: RowShape, B: Storage<T>, L: Levels> LodTensor<T, S, B, L> {
    /// The sequences of level `level` (0 is the top), each a view of the
    /// dense rows it spans; above the last level each also walks the
    /// sequences it holds. An error if the level does not exist or if the
    /// levels from it down do not nest (possible only after an `append`).
    pub fn sequences(&self, level: usize) -> Result<Sequences<'_, T, S, L>, LodError> {
        check_walk(self.lod(), level)?;
        let shape = *self.dense().shape();
        let rows = self.rows();
        let numel = self.as_slice().len();
        let row_len = numel.checked_div(rows).unwrap_or(0);
        let end = self.lod().level(level).map_or(0, |o| o.sequences());
        Ok(Sequences {
            walk: LevelWalk {
                lod: self.lod(),
                data: self.as_slice(),
                shape,
                row_len,
                level,
            },
            next: 0,
            end,
        })
    }
}
