//! Streamed runs (issue 70): a chain of convolutions, depthwise
//! convolutions and pools computed a band of output rows at a time, so
//! that the tensors between them are never whole.
//!
//! Each tensor between two stages of a run is a *ring* of the rows its
//! consumer's window still needs: input row `r` at ring row
//! `r % ring_rows`, as the band kernels ([`crate::conv_2d_int8_band`],
//! ...) read it. The run is computed in *pull order*: for each band of
//! the last stage's output rows, each earlier stage first computes the
//! rows the next one reads and has not got yet ([`walk`]). The planner
//! ([`crate::schedule`], feature `alloc`) sizes the rings with the same
//! walk ([`ring_rows`]); [`StreamRun`] runs it.

use core::ops::Range;

use crate::window::RowAxis;

/// The most stages one streamed run has (the walk keeps one counter per
/// stage, on the stack).
///
/// ```
/// assert!(shapecheck_tflite::stream::MAX_STAGES >= 32);
/// ```
pub const MAX_STAGES: usize = 64;

/// The vertical geometry of one stage: how its output rows step over its
/// input rows (as the kernel's `RowAxis`: stride, padding above,
/// dilation, filter rows).
///
/// ```
/// use shapecheck_tflite::stream::RowGeometry;
///
/// // a 3-row filter of stride 2, one row of padding above, 96 rows in, 48 out
/// let g = RowGeometry { input_rows: 96, output_rows: 48, stride: 2, pad_top: 0, dilation: 1, filter: 3 };
/// assert_eq!(g.needed(0..1), 0..3);
/// assert_eq!(g.needed(1..3), 2..7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowGeometry {
    /// the input's rows
    pub input_rows: usize,
    /// the output's rows
    pub output_rows: usize,
    /// the window's stride down the rows
    pub stride: usize,
    /// the padding rows above the input
    pub pad_top: usize,
    /// the filter's dilation down the rows
    pub dilation: usize,
    /// the filter's rows
    pub filter: usize,
}

impl RowGeometry {
    /// The input rows that output rows `rows` read: from the first tap
    /// inside the input of any of them to one past the last (`0..0` when
    /// every tap is padding).
    ///
    /// ```
    /// use shapecheck_tflite::stream::RowGeometry;
    ///
    /// // SAME, 3 rows, stride 1: output row 0 reads rows 0 and 1 (and a padding row)
    /// let g = RowGeometry { input_rows: 8, output_rows: 8, stride: 1, pad_top: 1, dilation: 1, filter: 3 };
    /// assert_eq!(g.needed(0..1), 0..2);
    /// assert_eq!(g.needed(7..8), 6..8);
    /// ```
    pub fn needed(self, rows: Range<usize>) -> Range<usize> {
        self.axis().needed(rows)
    }

    fn axis(self) -> RowAxis {
        RowAxis {
            stride: self.stride,
            pad: self.pad_top,
            dilation: self.dilation,
            filter: self.filter,
            size: self.input_rows,
        }
    }
}

/// Walks a run of `stages` (each one's input the previous one's output)
/// in pull order, `band` output rows at a time: calls `compute(stage,
/// rows)` for each band of rows a stage computes, at most `band` rows,
/// every stage's rows in ascending order and each row once, a stage's
/// rows after the rows of the stage before that they read, and only
/// those. Stops, returning `false`, when `compute` does; returns `false`
/// too for no stage, more than [`MAX_STAGES`], or a `band` of 0.
///
/// ```
/// use shapecheck_tflite::stream::{walk, RowGeometry};
///
/// // two 1×1 stages of 3 rows, 2 rows at a time
/// let one = RowGeometry { input_rows: 3, output_rows: 3, stride: 1, pad_top: 0, dilation: 1, filter: 1 };
/// let mut calls = Vec::new();
/// assert!(walk(&[one, one], 2, |stage, rows| { calls.push((stage, rows)); true }));
/// assert_eq!(calls, [(0, 0..2), (1, 0..2), (0, 2..3), (1, 2..3)]);
/// ```
pub fn walk(
    stages: &[RowGeometry],
    band: usize,
    mut compute: impl FnMut(usize, Range<usize>) -> bool,
) -> bool {
    let Some(last) = stages.len().checked_sub(1) else {
        return false;
    };
    if stages.len() > MAX_STAGES || band == 0 {
        return false;
    }
    let mut done = [0usize; MAX_STAGES];
    let rows = stages.get(last).map_or(0, |s| s.output_rows);
    pull(stages, band, &mut done, last, rows, &mut compute)
}

/// Computes stage `k`'s rows up to `upto` (those it has not got), `band`
/// at a time, each band after the rows of the stage before that it
/// reads.
fn pull(
    stages: &[RowGeometry],
    band: usize,
    done: &mut [usize; MAX_STAGES],
    k: usize,
    upto: usize,
    compute: &mut impl FnMut(usize, Range<usize>) -> bool,
) -> bool {
    let Some(stage) = stages.get(k).copied() else {
        return false;
    };
    loop {
        let Some(have) = done.get(k).copied() else {
            return false;
        };
        if have >= upto {
            return true;
        }
        let end = have.saturating_add(band).min(upto);
        if let Some(before) = k.checked_sub(1) {
            let needed = stage.needed(have..end);
            if !pull(stages, band, done, before, needed.end, compute) {
                return false;
            }
        }
        if !compute(k, have..end) {
            return false;
        }
        if let Some(slot) = done.get_mut(k) {
            *slot = end;
        }
    }
}

/// The rows of each ring of a run walked `band` rows at a time:
/// `rings[k]`, for each stage `k` but the last, the most input rows stage
/// `k + 1` reads at one call, and at least the most rows stage `k`
/// writes at one (the ring of stage `k`'s output never needs more: stage
/// `k` computes only the rows that call reads, after the rows it no
/// longer reads). `false`, `rings` untouched beyond the first
/// `stages.len() - 1`, when the walk fails ([`walk`]) or `rings` is
/// shorter.
///
/// ```
/// use shapecheck_tflite::stream::{ring_rows, RowGeometry};
///
/// // a 3×3 SAME stage after a 1×1 one, one output row at a time: 3 rows
/// let one = RowGeometry { input_rows: 8, output_rows: 8, stride: 1, pad_top: 0, dilation: 1, filter: 1 };
/// let three = RowGeometry { pad_top: 1, filter: 3, ..one };
/// let mut rings = [0];
/// assert!(ring_rows(&[one, three], 1, &mut rings));
/// assert_eq!(rings, [3]);
/// ```
pub fn ring_rows(stages: &[RowGeometry], band: usize, rings: &mut [usize]) -> bool {
    if rings.len() < stages.len().saturating_sub(1) {
        return false;
    }
    for r in rings.iter_mut().take(stages.len().saturating_sub(1)) {
        *r = 0;
    }
    let last = stages.len().saturating_sub(1);
    walk(stages, band, |k, rows| {
        // a band written into the ring (two parts where it wraps)
        if k < last {
            if let Some(r) = rings.get_mut(k) {
                *r = (*r).max(rows.end - rows.start);
            }
        }
        if let (Some(before), Some(stage)) = (k.checked_sub(1), stages.get(k)) {
            let n = stage.needed(rows);
            if let Some(r) = rings.get_mut(before) {
                *r = (*r).max(n.end - n.start);
            }
        }
        true
    })
}

/// How many kernel calls stage `k`'s band of `rows` is, written into a
/// ring of `ring` rows: one, or two where it wraps past the ring's last
/// row (the band kernels write a contiguous output). The parts, in
/// order, as `(rows, ring row of the first)`.
///
/// ```
/// use shapecheck_tflite::stream::ring_parts;
///
/// assert_eq!(ring_parts(4..6, 3), [Some((4..6, 1)), None]);
/// assert_eq!(ring_parts(5..7, 3), [Some((5..6, 2)), Some((6..7, 0))]);
/// ```
pub fn ring_parts(rows: Range<usize>, ring: usize) -> [Option<(Range<usize>, usize)>; 2] {
    let Some(at) = rows.start.checked_rem(ring) else {
        return [None, None];
    };
    let room = ring - at;
    if rows.end - rows.start.min(rows.end) <= room {
        return [Some((rows, at)), None];
    }
    let split = rows.start + room;
    [Some((rows.start..split, at)), Some((split..rows.end, 0))]
}
