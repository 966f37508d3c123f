//! The loops every operator shares, static and dynamic path alike.
//!
//! Broadcasting is done by strides: each operand is described in the frame of
//! the output's dims, and a dim it broadcasts along gets stride 0. Adjacent
//! dims that every operand walks contiguously are merged first, so a
//! `[256, 128, 256] x [128, 256]` product runs as one long contiguous inner
//! loop per outer row; inner loops are slice zips the compiler vectorizes,
//! with no per-element index arithmetic and no bounds checks that can fail.

use crate::shape::{Dims, MAX_RANK};

/// Places `dims` at position `at` of a frame of rank `rank`, with 1 elsewhere.
/// Dims that would fall past the end are dropped: callers only do that with
/// trailing dims of size 1 (Paddle's "trailing 1s are ignored" rule).
pub fn place(dims: &[usize], at: usize, rank: usize) -> Dims {
    let mut buf = [1usize; MAX_RANK];
    for (slot, &d) in buf.iter_mut().take(rank).skip(at).zip(dims) {
        *slot = d;
    }
    Dims::new(buf.get(..rank.min(MAX_RANK)).unwrap_or(&[])).unwrap_or(Dims::SCALAR)
}

/// The broadcast of dims already placed in one frame: `b` where `a` is 1,
/// otherwise `a`. Only meaningful when every pair is compatible (equal, or one
/// of them 1), which the caller has established.
pub fn broadcast_dims(a: &Dims, b: &Dims) -> Dims {
    let mut out = *a;
    let buf: [usize; MAX_RANK] = core::array::from_fn(|i| {
        let x = a.get(i).copied().unwrap_or(1);
        let y = b.get(i).copied().unwrap_or(1);
        if x == 1 {
            y
        } else {
            x
        }
    });
    if let Ok(d) = Dims::new(buf.get(..a.rank()).unwrap_or(&[])) {
        out = d;
    }
    out
}

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
    rank: usize,
    dims: [usize; MAX_RANK],
    strides: [[usize; MAX_RANK]; K],
    numel: usize,
}

impl<const K: usize> Walk<K> {
    /// `out` is the output's dims; `operands[k]` operand k's dims placed in the
    /// same frame (same rank, each dim equal to `out`'s or 1).
    pub fn new(out: &Dims, operands: [&Dims; K]) -> Self {
        // contiguous strides of each operand in the frame, 0 where it broadcasts
        let mut full: [[usize; MAX_RANK]; K] = [[0; MAX_RANK]; K];
        for (st, op) in full.iter_mut().zip(operands.iter()) {
            let mut acc = 1usize;
            for (i, (&d, &o)) in op.iter().zip(out.iter()).enumerate().rev() {
                if let Some(s) = st.get_mut(i) {
                    *s = if d == 1 && o != 1 { 0 } else { acc };
                }
                acc = acc.saturating_mul(d);
            }
        }
        // drop size-1 dims, then merge neighbours every operand walks contiguously
        let mut dims = [1usize; MAX_RANK];
        let mut strides = [[0usize; MAX_RANK]; K];
        let mut rank = 0usize;
        let mut numel = 1usize;
        for (i, &d) in out.iter().enumerate() {
            numel = numel.saturating_mul(d);
            if d == 1 {
                continue;
            }
            let mergeable = rank > 0
                && full.iter().zip(strides.iter()).all(|(f, s)| {
                    let prev = s.get(rank - 1).copied().unwrap_or(0);
                    let cur = f.get(i).copied().unwrap_or(0);
                    prev == cur.saturating_mul(d)
                });
            if mergeable {
                if let Some(slot) = dims.get_mut(rank - 1) {
                    *slot = slot.saturating_mul(d);
                }
                for (f, s) in full.iter().zip(strides.iter_mut()) {
                    if let (Some(dst), Some(&src)) = (s.get_mut(rank - 1), f.get(i)) {
                        *dst = src;
                    }
                }
            } else {
                if let Some(slot) = dims.get_mut(rank) {
                    *slot = d;
                }
                for (f, s) in full.iter().zip(strides.iter_mut()) {
                    if let (Some(dst), Some(&src)) = (s.get_mut(rank), f.get(i)) {
                        *dst = src;
                    }
                }
                rank += 1;
            }
        }
        if rank == 0 {
            // a single element: one row of length 1
            rank = 1;
            dims[0] = 1;
            for s in strides.iter_mut() {
                s[0] = 0;
            }
        }
        Walk {
            rank,
            dims,
            strides,
            numel,
        }
    }

    /// The number of output elements.
    pub fn numel(&self) -> usize {
        self.numel
    }

    /// The length of the innermost (contiguous) loop.
    pub fn inner(&self) -> usize {
        self.dims.get(self.rank - 1).copied().unwrap_or(1)
    }

    /// Each operand's stride along the innermost loop: 1 (walks) or 0 (repeats).
    pub fn inner_strides(&self) -> [usize; K] {
        core::array::from_fn(|k| {
            self.strides
                .get(k)
                .and_then(|s| s.get(self.rank - 1))
                .copied()
                .unwrap_or(0)
        })
    }

    /// Calls `f(row, offsets)` for every output row in order, where `offsets`
    /// are the operands' element offsets at the start of the row.
    pub fn for_each_row(&self, mut f: impl FnMut(usize, [usize; K])) {
        let inner = self.inner();
        if self.numel == 0 || inner == 0 {
            return;
        }
        let rows = self.numel / inner;
        let outer = self.rank - 1;
        let mut counter = [0usize; MAX_RANK];
        let mut offsets = [0usize; K];
        for row in 0..rows {
            f(row, offsets);
            // odometer over the outer dims, updating offsets incrementally
            let mut axis = outer;
            while axis > 0 {
                axis -= 1;
                let d = self.dims.get(axis).copied().unwrap_or(1);
                let Some(c) = counter.get_mut(axis) else {
                    break;
                };
                *c += 1;
                if *c < d {
                    for (o, s) in offsets.iter_mut().zip(self.strides.iter()) {
                        *o = o.wrapping_add(s.get(axis).copied().unwrap_or(0));
                    }
                    break;
                }
                *c = 0;
                for (o, s) in offsets.iter_mut().zip(self.strides.iter()) {
                    let st = s.get(axis).copied().unwrap_or(0);
                    *o = o.wrapping_sub(st.wrapping_mul(d - 1));
                }
            }
        }
    }
}

/// `out[i] = f(x[i], y[i])` over a broadcast walk. `out` is contiguous with
/// the walk's element count; `x` and `y` hold their operands' elements.
#[inline]
pub fn binary<T: Copy, F: Fn(T, T) -> T>(walk: &Walk<2>, x: &[T], y: &[T], out: &mut [T], f: F) {
    let n = walk.inner();
    if n == 0 || walk.numel() == 0 {
        return;
    }
    let [sx, sy] = walk.inner_strides();
    let mut rows = out.chunks_exact_mut(n);
    walk.for_each_row(|_, [ox, oy]| {
        let Some(o) = rows.next() else { return };
        match (sx, sy) {
            (1, 1) => {
                if let (Some(a), Some(b)) = (x.get(ox..ox + n), y.get(oy..oy + n)) {
                    for ((o, &a), &b) in o.iter_mut().zip(a).zip(b) {
                        *o = f(a, b);
                    }
                }
            }
            (1, _) => {
                if let (Some(a), Some(&b)) = (x.get(ox..ox + n), y.get(oy)) {
                    for (o, &a) in o.iter_mut().zip(a) {
                        *o = f(a, b);
                    }
                }
            }
            (_, 1) => {
                if let (Some(&a), Some(b)) = (x.get(ox), y.get(oy..oy + n)) {
                    for (o, &b) in o.iter_mut().zip(b) {
                        *o = f(a, b);
                    }
                }
            }
            _ => {
                if let (Some(&a), Some(&b)) = (x.get(ox), y.get(oy)) {
                    o.fill(f(a, b));
                }
            }
        }
    });
}

/// One operand's elements along an inner row: walked (stride 1) or repeated (stride 0).
#[derive(Clone, Copy)]
enum Row<'a, T> {
    Walk(&'a [T]),
    Repeat(T),
}

impl<'a, T: Copy> Row<'a, T> {
    #[inline(always)]
    fn new(data: &'a [T], offset: usize, stride: usize, n: usize) -> Option<Self> {
        if stride == 1 {
            data.get(offset..offset + n).map(Row::Walk)
        } else {
            data.get(offset).map(|&v| Row::Repeat(v))
        }
    }
    #[inline(always)]
    fn at(&self, i: usize, fallback: T) -> T {
        match self {
            Row::Walk(s) => s.get(i).copied().unwrap_or(fallback),
            Row::Repeat(v) => *v,
        }
    }
}

/// `out[i] = if c[i] { t[i] } else { e[i] }` over a broadcast walk of three operands.
pub fn select<T: Copy>(walk: &Walk<3>, c: &[bool], t: &[T], e: &[T], out: &mut [T]) {
    let n = walk.inner();
    if n == 0 || walk.numel() == 0 {
        return;
    }
    let [sc, st, se] = walk.inner_strides();
    let mut rows = out.chunks_exact_mut(n);
    walk.for_each_row(|_, [oc, ot, oe]| {
        let Some(o) = rows.next() else { return };
        let (Some(rc), Some(rt), Some(re)) = (
            Row::new(c, oc, sc, n),
            Row::new(t, ot, st, n),
            Row::new(e, oe, se, n),
        ) else {
            return;
        };
        if let (Row::Walk(c), Row::Walk(t), Row::Walk(e)) = (rc, rt, re) {
            for (((o, &c), &t), &e) in o.iter_mut().zip(c).zip(t).zip(e) {
                *o = if c { t } else { e };
            }
        } else {
            for (i, o) in o.iter_mut().enumerate() {
                *o = if rc.at(i, false) {
                    rt.at(i, *o)
                } else {
                    re.at(i, *o)
                };
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(d: &[usize]) -> Dims {
        Dims::new(d).unwrap()
    }

    #[test]
    fn merges_contiguous_dims() {
        let out = dims(&[256, 128, 256]);
        let y = place(&[128, 256], 1, 3);
        let w = Walk::new(&out, [&out, &y]);
        assert_eq!(w.rank, 2);
        assert_eq!(w.inner(), 128 * 256);
        assert_eq!(w.inner_strides(), [1, 1]);
    }

    #[test]
    fn broadcast_along_inner_dim() {
        let out = dims(&[2, 3]);
        let x = dims(&[2, 1]);
        let w = Walk::new(&out, [&out, &x]);
        let a = [1, 2, 3, 4, 5, 6];
        let b = [10, 20];
        let mut o = [0; 6];
        binary(&w, &a, &b, &mut o, |p, q| p + q);
        assert_eq!(o, [11, 12, 13, 24, 25, 26]);
    }

    #[test]
    fn odometer_walks_outer_dims() {
        let out = dims(&[2, 3, 2]);
        let x = dims(&[2, 1, 2]);
        let w = Walk::new(&out, [&out, &x]);
        let a: [i32; 12] = core::array::from_fn(|i| i as i32);
        let b = [100, 200, 300, 400];
        let mut o = [0; 12];
        binary(&w, &a, &b, &mut o, |p, q| p + q);
        assert_eq!(
            o,
            [100, 201, 102, 203, 104, 205, 306, 407, 308, 409, 310, 411]
        );
    }
}
