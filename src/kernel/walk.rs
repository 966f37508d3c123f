//! The walk: how the operands of an op are read to produce its output,
//! row by row, each operand by its strides (0 where it broadcasts), after
//! merging the dims every operand walks contiguously (internal). The loops
//! of `mod.rs` and `backward.rs` and the fused expressions' pieces run
//! along it.

use crate::shape::{Dims, MAX_RANK};

/// Moves a row-major multi-index one step forward (wrapping at the end).
pub(crate) fn advance_index(index: &mut Dims, dims: &Dims) {
    let mut buf = [0usize; MAX_RANK];
    for (b, &i) in buf.iter_mut().zip(index.iter()) {
        *b = i;
    }
    for (b, &d) in buf.iter_mut().zip(dims.iter()).rev() {
        *b += 1;
        if *b < d {
            break;
        }
        *b = 0;
    }
    if let Ok(next) = Dims::new(buf.get(..dims.rank()).unwrap_or(&[])) {
        *index = next;
    }
}

/// How `K` operands are walked to produce an output: the output dims after
/// merging, and each operand's stride per dim (0 where it broadcasts).
#[derive(Clone, Copy, Debug)]
pub struct Walk<const K: usize> {
    pub(super) rank: usize,
    pub(super) dims: [usize; MAX_RANK],
    pub(super) strides: [[usize; MAX_RANK]; K],
    pub(super) numel: usize,
    /// Each operand's stride along the innermost dim (`strides[k][rank - 1]`),
    /// kept as a field: a static op's walk is a constant, and reading this
    /// from it folds at compile time, so only the inner loop of its stride
    /// case is generated (computing it on each call is a loop that
    /// `opt-level = "s"` does not unroll, which keeps every case).
    pub(super) inner: [usize; K],
}

impl<const K: usize> Walk<K> {
    /// `out` is the output's dims; `operands[k]` operand k's dims placed in the
    /// same frame (same rank, each dim equal to `out`'s or 1).
    #[cfg(test)]
    pub fn new(out: &Dims, operands: [&Dims; K]) -> Self {
        let mut o = [1usize; MAX_RANK];
        for (slot, &d) in o.iter_mut().zip(out.iter()) {
            *slot = d;
        }
        let ops: [[usize; MAX_RANK]; K] = core::array::from_fn(|k| {
            let mut a = [1usize; MAX_RANK];
            if let Some(op) = operands.get(k) {
                for (slot, &d) in a.iter_mut().zip(op.iter()) {
                    *slot = d;
                }
            }
            a
        });
        Self::from_frame(out.rank(), o, ops)
    }

    /// [`Walk::new`] on fixed arrays, as a `const fn`: a static op evaluates it
    /// at compile time, so its loops run over constants.
    // Every index below is guarded by `< MAX_RANK` or `< K`.
    #[allow(clippy::indexing_slicing)]
    pub const fn from_frame(
        rank: usize,
        out: [usize; MAX_RANK],
        ops: [[usize; MAX_RANK]; K],
    ) -> Self {
        let rank = if rank < MAX_RANK { rank } else { MAX_RANK };
        let full = frame_strides(rank, &out, &ops);
        // drop size-1 dims, then merge neighbours every operand walks contiguously
        let mut dims = [1usize; MAX_RANK];
        let mut strides = [[0usize; MAX_RANK]; K];
        let mut merged = 0usize;
        let mut numel = 1usize;
        let mut i = 0;
        while i < rank {
            let d = out[i];
            numel = numel.saturating_mul(d);
            if d != 1 {
                let mut mergeable = merged > 0;
                let mut k = 0;
                while mergeable && k < K {
                    if strides[k][merged - 1] != full[k][i].saturating_mul(d) {
                        mergeable = false;
                    }
                    k += 1;
                }
                let slot = if mergeable { merged - 1 } else { merged };
                dims[slot] = if mergeable {
                    dims[slot].saturating_mul(d)
                } else {
                    d
                };
                let mut k = 0;
                while k < K {
                    strides[k][slot] = full[k][i];
                    k += 1;
                }
                if !mergeable {
                    merged += 1;
                }
            }
            i += 1;
        }
        if merged == 0 {
            // a single element: one row of length 1, every operand repeated
            merged = 1;
            dims[0] = 1;
        }
        let mut inner = [0usize; K];
        let mut k = 0;
        while k < K {
            inner[k] = strides[k][merged - 1];
            k += 1;
        }
        Walk {
            rank: merged,
            dims,
            strides,
            numel,
            inner,
        }
    }

    /// [`Walk::from_frame`], merging only the dims that make up its row:
    /// the outer dims (size 1 dropped) stay one loop each, when that is at
    /// most 4 loops in all. The walk of a fused expression: with a static
    /// tree every loop has a constant count, and the compiler unrolls the
    /// inner ones and vectorizes along the output as a hand-written nested
    /// loop is; bench F3 (`[2,3,4,5] x [3,4,1] + [5]`, outer dims 3 and 4
    /// merged by `from_frame` into a loop of 12) was vectorized across rows
    /// of 5 instead, with a shuffle per element, at three times the time
    /// (docs/measurements.md). Every operand reads as in `from_frame`'s walk.
    // Every index below is guarded by `< MAX_RANK` or `< K`.
    #[allow(clippy::indexing_slicing)]
    pub const fn nested_from_frame(
        rank: usize,
        out: [usize; MAX_RANK],
        ops: [[usize; MAX_RANK]; K],
    ) -> Self {
        let merged = Self::from_frame(rank, out, ops);
        let rank = if rank < MAX_RANK { rank } else { MAX_RANK };
        // the frame's dims that make up the row: the shortest suffix whose
        // product is the row's length
        let row = merged.inner();
        let mut first = rank;
        let mut acc = 1usize;
        while first > 0 && acc < row {
            first -= 1;
            acc = acc.saturating_mul(out[first]);
        }
        let mut loops = 1;
        let mut i = 0;
        while i < first {
            if out[i] != 1 {
                loops += 1;
            }
            i += 1;
        }
        if acc != row || loops > 4 || loops <= merged.rank {
            return merged;
        }
        let full = frame_strides(rank, &out, &ops);
        let mut dims = [1usize; MAX_RANK];
        let mut strides = [[0usize; MAX_RANK]; K];
        let mut slot = 0;
        let mut i = 0;
        while i < first {
            if out[i] != 1 {
                dims[slot] = out[i];
                let mut k = 0;
                while k < K {
                    strides[k][slot] = full[k][i];
                    k += 1;
                }
                slot += 1;
            }
            i += 1;
        }
        dims[slot] = row;
        let mut k = 0;
        while k < K {
            strides[k][slot] = merged.inner[k];
            k += 1;
        }
        Walk {
            rank: loops,
            dims,
            strides,
            numel: merged.numel,
            inner: merged.inner,
        }
    }

    /// This walk with its first output dim, planned as `planned`, set to
    /// `size`: valid for a walk planned from shapes whose only run-time dims
    /// land on the output's first dim, with `planned` not 1 (that dim is
    /// then the outermost loop, alone or merged into the first slot; no
    /// stride counts it, since strides count the dims inside).
    #[must_use]
    pub const fn with_first_dim(mut self, planned: usize, size: usize) -> Self {
        if planned > 1 {
            self.dims[0] = (self.dims[0] / planned).saturating_mul(size);
            self.numel = (self.numel / planned).saturating_mul(size);
        }
        self
    }

    /// The number of output elements.
    pub const fn numel(&self) -> usize {
        self.numel
    }

    /// The length of the innermost (contiguous) loop.
    // the index is checked against the array's length first
    #[allow(clippy::indexing_slicing)]
    pub const fn inner(&self) -> usize {
        match self.rank.checked_sub(1) {
            Some(last) if last < MAX_RANK => self.dims[last],
            _ => 1,
        }
    }

    /// Each operand's stride along the innermost loop: 1 (walks) or 0 (repeats).
    pub const fn inner_strides(&self) -> [usize; K] {
        self.inner
    }

    pub(super) fn dim(&self, axis: usize) -> usize {
        self.dims.get(axis).copied().unwrap_or(1)
    }

    pub(super) fn stride(&self, k: usize, axis: usize) -> usize {
        self.strides
            .get(k)
            .and_then(|s| s.get(axis))
            .copied()
            .unwrap_or(0)
    }

    /// Every operand's stride along `axis` (0 past the rank).
    #[inline(always)]
    fn strides_at(&self, axis: usize) -> [usize; K] {
        let mut s = [0usize; K];
        lanes_mut(&mut s, |k, v| *v = self.stride(k, axis));
        s
    }

    /// Calls `f(offsets)` for every output row in order, where `offsets` are
    /// the operands' element offsets at the start of the row. Walks of rank
    /// 1 to 3 (the common case after merging) run as plain nested loops; higher
    /// ranks use an odometer that updates offsets incrementally (a fused
    /// expression's walk, which may keep 4 loops, runs
    /// [`Walk::for_each_numbered_row`]).
    ///
    /// The per-operand updates go through [`lanes_mut`], written out for 2
    /// and 3 operands: a loop over the operands is not unrolled at
    /// `opt-level = "s"`, and kept the offsets in memory, where the compiler
    /// can neither fold a static walk's strides nor see the offsets' range.
    #[inline(always)]
    pub fn for_each_row(&self, mut f: impl FnMut([usize; K])) {
        if self.numel == 0 || self.inner() == 0 {
            return;
        }
        match self.rank {
            0 | 1 => f([0; K]),
            2 => {
                let s0 = self.strides_at(0);
                let mut off = [0usize; K];
                for _ in 0..self.dim(0) {
                    f(off);
                    lanes_mut(&mut off, |k, o| *o = o.wrapping_add(lane(&s0, k)));
                }
            }
            3 => {
                let s0 = self.strides_at(0);
                let s1 = self.strides_at(1);
                let mut outer = [0usize; K];
                for _ in 0..self.dim(0) {
                    let mut off = outer;
                    for _ in 0..self.dim(1) {
                        f(off);
                        lanes_mut(&mut off, |k, o| *o = o.wrapping_add(lane(&s1, k)));
                    }
                    lanes_mut(&mut outer, |k, o| *o = o.wrapping_add(lane(&s0, k)));
                }
            }
            _ => self.odometer(f),
        }
    }

    /// [`Walk::for_each_row`], also giving each row's number (0, 1, 2, ...
    /// in order), computed from the loops' counters: where the loops' counts
    /// are constants (a static walk) the compiler then knows each row's
    /// range, so a row cut from the output by its number keeps no check.
    /// Rank 4 is a nested loop too: a fused expression's walk
    /// ([`Walk::nested_from_frame`]) keeps up to 4 loops. Only
    /// [`for_each_tile`] (the fused expressions' loop) calls it, so the
    /// plain ops' loops, instantiated for every stride case, stay as they
    /// were (a debug build of the tests: 40 s longer with every walk
    /// going through this one).
    #[inline(always)]
    pub fn for_each_numbered_row(&self, mut f: impl FnMut([usize; K], usize)) {
        if self.numel == 0 || self.inner() == 0 {
            return;
        }
        match self.rank {
            0 | 1 => f([0; K], 0),
            2 => {
                let s0 = self.strides_at(0);
                let mut off = [0usize; K];
                for i0 in 0..self.dim(0) {
                    f(off, i0);
                    lanes_mut(&mut off, |k, o| *o = o.wrapping_add(lane(&s0, k)));
                }
            }
            3 => {
                let s0 = self.strides_at(0);
                let s1 = self.strides_at(1);
                let d1 = self.dim(1);
                let mut outer = [0usize; K];
                for i0 in 0..self.dim(0) {
                    let mut off = outer;
                    for i1 in 0..d1 {
                        f(off, i0.wrapping_mul(d1).wrapping_add(i1));
                        lanes_mut(&mut off, |k, o| *o = o.wrapping_add(lane(&s1, k)));
                    }
                    lanes_mut(&mut outer, |k, o| *o = o.wrapping_add(lane(&s0, k)));
                }
            }
            4 => {
                let s0 = self.strides_at(0);
                let s1 = self.strides_at(1);
                let s2 = self.strides_at(2);
                let (d1, d2) = (self.dim(1), self.dim(2));
                let mut o0 = [0usize; K];
                let mut r0 = 0usize;
                for _ in 0..self.dim(0) {
                    let (mut o1, mut r1) = (o0, r0);
                    for _ in 0..d1 {
                        let (mut off, mut row) = (o1, r1);
                        for _ in 0..d2 {
                            f(off, row);
                            lanes_mut(&mut off, |k, o| *o = o.wrapping_add(lane(&s2, k)));
                            row = row.wrapping_add(1);
                        }
                        lanes_mut(&mut o1, |k, o| *o = o.wrapping_add(lane(&s1, k)));
                        r1 = r1.wrapping_add(d2);
                    }
                    lanes_mut(&mut o0, |k, o| *o = o.wrapping_add(lane(&s0, k)));
                    r0 = r0.wrapping_add(d1.wrapping_mul(d2));
                }
            }
            _ => {
                let mut row = 0usize;
                self.odometer(|offsets| {
                    f(offsets, row);
                    row = row.wrapping_add(1);
                });
            }
        }
    }

    pub(super) fn odometer(&self, mut f: impl FnMut([usize; K])) {
        let rows = self.numel / self.inner();
        let mut c = Cursor {
            counter: [0; MAX_RANK],
            offsets: [0; K],
        };
        for _ in 0..rows {
            f(c.offsets);
            self.advance(&mut c);
        }
    }

    /// Moves `c` to the start of the next row (the odometer's step).
    #[inline(always)]
    pub(super) fn advance(&self, c: &mut Cursor<K>) {
        let mut axis = self.rank.saturating_sub(1);
        while axis > 0 {
            axis -= 1;
            let d = self.dim(axis);
            let Some(i) = c.counter.get_mut(axis) else {
                return;
            };
            *i += 1;
            if *i < d {
                for (k, o) in c.offsets.iter_mut().enumerate() {
                    *o = o.wrapping_add(self.stride(k, axis));
                }
                return;
            }
            *i = 0;
            for (k, o) in c.offsets.iter_mut().enumerate() {
                *o = o.wrapping_sub(self.stride(k, axis).wrapping_mul(d - 1));
            }
        }
    }
}

/// Each operand's stride per frame dim when it is read contiguously (0
/// where it broadcasts: its dim is 1 and the output's is not).
// Every index below is guarded by `< MAX_RANK` (`rank` is clamped) or `< K`.
#[allow(clippy::indexing_slicing)]
const fn frame_strides<const K: usize>(
    rank: usize,
    out: &[usize; MAX_RANK],
    ops: &[[usize; MAX_RANK]; K],
) -> [[usize; MAX_RANK]; K] {
    let rank = if rank < MAX_RANK { rank } else { MAX_RANK };
    let mut full = [[0usize; MAX_RANK]; K];
    let mut k = 0;
    while k < K {
        let mut acc = 1usize;
        let mut i = rank;
        while i > 0 {
            i -= 1;
            let d = ops[k][i];
            full[k][i] = if d == 1 && out[i] != 1 { 0 } else { acc };
            acc = acc.saturating_mul(d);
        }
        k += 1;
    }
    full
}

/// Where a walk stands at the start of an output row: the multi-index of
/// the row over the outer dims, and each operand's offset there (the
/// odometer's state; `par` starts one at any row).
pub(super) struct Cursor<const K: usize> {
    pub(super) counter: [usize; MAX_RANK],
    pub(super) offsets: [usize; K],
}

/// `a[k]`, 0 past the end.
#[inline(always)]
fn lane<const K: usize>(a: &[usize; K], k: usize) -> usize {
    a.get(k).copied().unwrap_or(0)
}

/// `f(k, &mut a[k])` for every operand `k`, written out one by one for 2,
/// 3 and 4 operands (every op's count, and a fused expression's up to 4
/// leaves): `opt-level = "s"` keeps a loop over the operands as a loop,
/// with the array in memory.
#[inline(always)]
fn lanes_mut<const K: usize>(a: &mut [usize; K], mut f: impl FnMut(usize, &mut usize)) {
    match a.as_mut_slice() {
        [a0, a1] => {
            f(0, a0);
            f(1, a1);
        }
        [a0, a1, a2] => {
            f(0, a0);
            f(1, a1);
            f(2, a2);
        }
        // four: a fused expression's (select of two binary nodes)
        [a0, a1, a2, a3] => {
            f(0, a0);
            f(1, a1);
            f(2, a2);
            f(3, a3);
        }
        rest => {
            for (k, v) in rest.iter_mut().enumerate() {
                f(k, v);
            }
        }
    }
}

/// The output's rows of `n` elements, in order (as `chunks_exact_mut`, but
/// by an offset: in a static op's constant loops the compiler sees its
/// range and drops the checks, where the iterator kept its own count).
pub(super) struct Rows<'a, T> {
    pub(super) out: &'a mut [T],
    pub(super) at: usize,
    pub(super) n: usize,
}

impl<T> Rows<'_, T> {
    /// Row `r` (the rows are `n` long).
    #[inline(always)]
    pub(super) fn row_at(&mut self, r: usize) -> Option<&mut [T]> {
        let start = r.wrapping_mul(self.n);
        self.out.get_mut(start..start.checked_add(self.n)?)
    }

    #[inline(always)]
    pub(super) fn next_row(&mut self) -> Option<&mut [T]> {
        let start = self.at;
        self.at = start.wrapping_add(self.n);
        self.out.get_mut(start..start.checked_add(self.n)?)
    }
}

/// Calls `f(offsets, start, piece)` for the output cut into pieces: each
/// row of the walk in order, in pieces of at most `tile` elements, where
/// `offsets` are the operands' offsets at the start of the row and `start`
/// is the piece's position in the row (an operand that walks the row reads
/// from `offsets[k] + start`, one that repeats along it reads
/// `offsets[k]`). The loop of fused expressions ([`crate::expr`]), the
/// walk of [`binary`](super::binary) for any number of operands: a piece small enough to
/// stay in L1 is computed node by node, so memory is still crossed once.
///
/// `BY_NUMBER` says how a row is cut from `out`: at its number, computed
/// from the loops' counters ([`Walk::for_each_numbered_row`]), or at a
/// running count. Both cut the same rows; on a small static walk they
/// compile differently, and each is the faster where it is used (bench F3,
/// docs/measurements.md). By number where `out` is a local the compiler
/// sees whole ([`crate::expr::Expr::eval`]): each row's range is then
/// known without unrolling the loops, so no row is checked (16 ns against
/// 26 ns by count). By count in a function of its own (`eval_into`'s),
/// which the compiler unrolls whole and vectorizes across rows (13 ns
/// against 20 ns by number).
#[inline(always)]
pub fn for_each_tile<T, const K: usize, const BY_NUMBER: bool>(
    walk: &Walk<K>,
    out: &mut [T],
    tile: usize,
    mut f: impl FnMut(&[usize; K], usize, &mut [T]),
) {
    let n = walk.inner();
    if n == 0 || walk.numel() == 0 {
        return;
    }
    let tile = if tile == 0 { 1 } else { tile };
    let mut rows = Rows { out, at: 0, n };
    walk.for_each_numbered_row(
        #[inline(always)]
        |offsets, r| {
            let Some(row) = (if BY_NUMBER {
                rows.row_at(r)
            } else {
                rows.next_row()
            }) else {
                return;
            };
            if n <= tile {
                f(&offsets, 0, row);
                return;
            }
            let mut start = 0;
            for piece in row.chunks_mut(tile) {
                let len = piece.len();
                f(&offsets, start, piece);
                start += len;
            }
        },
    );
}
