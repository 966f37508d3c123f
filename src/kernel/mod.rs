//! The loops every operator shares, static and dynamic path alike (internal).
//!
//! Broadcasting is done by strides: each operand is described in the frame of
//! the output's dims, and a dim it broadcasts along gets stride 0. Adjacent
//! dims that every operand walks contiguously are merged first, so a
//! `[256, 128, 256] x [128, 256]` product runs as one long contiguous inner
//! loop per outer row; inner loops are slice zips the compiler vectorizes,
//! with no per-element index arithmetic and no bounds checks that can fail.

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
    rank: usize,
    dims: [usize; MAX_RANK],
    strides: [[usize; MAX_RANK]; K],
    numel: usize,
    /// Each operand's stride along the innermost dim (`strides[k][rank - 1]`),
    /// kept as a field: a static op's walk is a constant, and reading this
    /// from it folds at compile time, so only the inner loop of its stride
    /// case is generated (computing it on each call is a loop that
    /// `opt-level = "s"` does not unroll, which keeps every case).
    inner: [usize; K],
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
        // contiguous strides of each operand in the frame, 0 where it broadcasts
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
    pub fn inner(&self) -> usize {
        self.dims
            .get(self.rank.wrapping_sub(1))
            .copied()
            .unwrap_or(1)
    }

    /// Each operand's stride along the innermost loop: 1 (walks) or 0 (repeats).
    pub fn inner_strides(&self) -> [usize; K] {
        self.inner
    }

    fn dim(&self, axis: usize) -> usize {
        self.dims.get(axis).copied().unwrap_or(1)
    }

    fn stride(&self, k: usize, axis: usize) -> usize {
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
    /// ranks use an odometer that updates offsets incrementally.
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

    fn odometer(&self, mut f: impl FnMut([usize; K])) {
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
    fn advance(&self, c: &mut Cursor<K>) {
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

/// Where a walk stands at the start of an output row: the multi-index of
/// the row over the outer dims, and each operand's offset there (the
/// odometer's state; `par` starts one at any row).
struct Cursor<const K: usize> {
    counter: [usize; MAX_RANK],
    offsets: [usize; K],
}

/// `a[k]`, 0 past the end.
#[inline(always)]
fn lane<const K: usize>(a: &[usize; K], k: usize) -> usize {
    a.get(k).copied().unwrap_or(0)
}

/// `f(k, &mut a[k])` for every operand `k`, written out one by one for 2
/// and 3 operands (every op's count): `opt-level = "s"` keeps a loop over
/// the operands as a loop, with the array in memory.
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
struct Rows<'a, T> {
    out: &'a mut [T],
    at: usize,
    n: usize,
}

impl<T> Rows<'_, T> {
    #[inline(always)]
    fn next_row(&mut self) -> Option<&mut [T]> {
        let start = self.at;
        self.at = start.wrapping_add(self.n);
        self.out.get_mut(start..start.checked_add(self.n)?)
    }
}

/// `out[i] = f(x[i], y[i])` over a broadcast walk. `out` is contiguous with
/// the walk's element count; `x` and `y` hold their operands' elements.
#[inline(always)]
pub fn binary<T: Copy, F: Fn(T, T) -> T>(walk: &Walk<2>, x: &[T], y: &[T], out: &mut [T], f: F) {
    let n = walk.inner();
    if n == 0 || walk.numel() == 0 {
        return;
    }
    let mut rows = Rows { out, at: 0, n };
    // one loop per stride case, chosen once: the inner loops are plain zips
    match walk.inner_strides() {
        [1, 1] => walk.for_each_row(|[ox, oy]| {
            if let (Some(o), Some(a), Some(b)) =
                (rows.next_row(), x.get(ox..ox + n), y.get(oy..oy + n))
            {
                for ((o, &a), &b) in o.iter_mut().zip(a).zip(b) {
                    *o = f(a, b);
                }
            }
        }),
        [1, _] => walk.for_each_row(|[ox, oy]| {
            if let (Some(o), Some(a), Some(&b)) = (rows.next_row(), x.get(ox..ox + n), y.get(oy)) {
                for (o, &a) in o.iter_mut().zip(a) {
                    *o = f(a, b);
                }
            }
        }),
        [_, 1] => walk.for_each_row(|[ox, oy]| {
            if let (Some(o), Some(&a), Some(b)) = (rows.next_row(), x.get(ox), y.get(oy..oy + n)) {
                for (o, &b) in o.iter_mut().zip(b) {
                    *o = f(a, b);
                }
            }
        }),
        _ => walk.for_each_row(|[ox, oy]| {
            if let (Some(o), Some(&a), Some(&b)) = (rows.next_row(), x.get(ox), y.get(oy)) {
                o.fill(f(a, b));
            }
        }),
    }
}

/// `out[i] = if c[i] { t[i] } else { e[i] }` over a broadcast walk of three
/// operands (cond, then, else).
///
/// One loop per stride case, chosen once per call from the walk's inner
/// strides: each inner loop is a plain zip (or a fill, or a row copy when cond
/// repeats along the row), and the choice uses
/// [`core::hint::select_unpredictable`], so that a cond that changes at random
/// compiles to a branch-free blend the compiler vectorizes rather than to a
/// branch that mispredicts half the time. Inlined, so a static select
/// (constant walk) compiles to loops over constants.
#[inline(always)]
pub fn select<T: Copy>(walk: &Walk<3>, c: &[bool], t: &[T], e: &[T], out: &mut [T]) {
    use core::hint::select_unpredictable as pick;
    let n = walk.inner();
    if n == 0 || walk.numel() == 0 {
        return;
    }
    let mut rows = Rows { out, at: 0, n };
    match walk.inner_strides() {
        [1, 1, 1] => walk.for_each_row(
            #[inline(always)]
            |[oc, ot, oe]| {
                if let (Some(o), Some(c), Some(t), Some(e)) = (
                    rows.next_row(),
                    c.get(oc..oc + n),
                    t.get(ot..ot + n),
                    e.get(oe..oe + n),
                ) {
                    for (((o, &c), &t), &e) in o.iter_mut().zip(c).zip(t).zip(e) {
                        *o = pick(c, t, e);
                    }
                }
            },
        ),
        [1, 1, _] => walk.for_each_row(
            #[inline(always)]
            |[oc, ot, oe]| {
                if let (Some(o), Some(c), Some(t), Some(&e)) = (
                    rows.next_row(),
                    c.get(oc..oc + n),
                    t.get(ot..ot + n),
                    e.get(oe),
                ) {
                    for ((o, &c), &t) in o.iter_mut().zip(c).zip(t) {
                        *o = pick(c, t, e);
                    }
                }
            },
        ),
        [1, _, 1] => walk.for_each_row(
            #[inline(always)]
            |[oc, ot, oe]| {
                if let (Some(o), Some(c), Some(&t), Some(e)) = (
                    rows.next_row(),
                    c.get(oc..oc + n),
                    t.get(ot),
                    e.get(oe..oe + n),
                ) {
                    for ((o, &c), &e) in o.iter_mut().zip(c).zip(e) {
                        *o = pick(c, t, e);
                    }
                }
            },
        ),
        [1, _, _] => walk.for_each_row(
            #[inline(always)]
            |[oc, ot, oe]| {
                if let (Some(o), Some(c), Some(&t), Some(&e)) =
                    (rows.next_row(), c.get(oc..oc + n), t.get(ot), e.get(oe))
                {
                    for (o, &c) in o.iter_mut().zip(c) {
                        *o = pick(c, t, e);
                    }
                }
            },
        ),
        // cond repeats along the row: the whole row comes from one side
        [_, st, se] => walk.for_each_row(
            #[inline(always)]
            |[oc, ot, oe]| {
                let (Some(o), Some(&c)) = (rows.next_row(), c.get(oc)) else {
                    return;
                };
                let (src, off, stride) = if c { (t, ot, st) } else { (e, oe, se) };
                if stride == 1 {
                    if let Some(src) = src.get(off..off + n) {
                        o.copy_from_slice(src);
                    }
                } else if let Some(&v) = src.get(off) {
                    o.fill(v);
                }
            },
        ),
    }
}

/// Stores one gradient value: written (`SUM = false`, an operand that does
/// not broadcast: the walk meets each of its elements once) or added to what
/// is there (`SUM = true`, an operand that broadcasts: its gradient is the
/// sum over every output element that read it).
#[inline(always)]
fn put<T: Copy, const SUM: bool>(g: &mut T, v: T, add: impl Fn(T, T) -> T) {
    *g = if SUM { add(*g, v) } else { v };
}

/// The backward of a binary op along its forward walk: for every output
/// element `i`, `(a, b) = f(x, y, out[i], dout[i])` with `x` and `y` the
/// operands' elements the forward read there; `a` goes to `gx` at `x`'s
/// offset and `b` to `gy` at `y`'s, added where the operand broadcasts
/// (stride 0), so that each gradient is the broadcast read backwards: the
/// sum over every output dim where the operand is absent or 1. One pass over
/// `dout`, no intermediate of the output's size. `gx` and `gy` have their
/// operands' lengths; an operand met once per element (its length is the
/// output's) is written, any other is zeroed first and summed into.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn binary_backward<T: Copy + Default, F: Fn(T, T, T, T) -> (T, T)>(
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &[T],
    dout: &[T],
    gx: &mut [T],
    gy: &mut [T],
    add: impl Fn(T, T) -> T + Copy,
    f: F,
) {
    let numel = walk.numel();
    let (sum_x, sum_y) = (gx.len() != numel, gy.len() != numel);
    if sum_x {
        gx.fill(T::default());
    }
    if sum_y {
        gy.fill(T::default());
    }
    let g = Grads { gx, gy };
    match (sum_x, sum_y) {
        (false, false) => g.rows::<false, false, _, _>(walk, x, y, out, dout, add, f),
        (false, true) => g.rows::<false, true, _, _>(walk, x, y, out, dout, add, f),
        (true, false) => g.rows::<true, false, _, _>(walk, x, y, out, dout, add, f),
        (true, true) => g.rows::<true, true, _, _>(walk, x, y, out, dout, add, f),
    }
}

/// The two gradients a binary backward writes.
struct Grads<'a, T> {
    gx: &'a mut [T],
    gy: &'a mut [T],
}

impl<T: Copy> Grads<'_, T> {
    /// [`binary_backward`]'s loops, with the store of each gradient fixed
    /// ([`put`]): a plain zip where both operands walk the row, otherwise
    /// element by element along the operands' inner strides.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn rows<
        const SX: bool,
        const SY: bool,
        A: Fn(T, T) -> T + Copy,
        F: Fn(T, T, T, T) -> (T, T),
    >(
        self,
        walk: &Walk<2>,
        x: &[T],
        y: &[T],
        out: &[T],
        dout: &[T],
        add: A,
        f: F,
    ) {
        let n = walk.inner();
        if n == 0 || walk.numel() == 0 {
            return;
        }
        let Grads { gx, gy } = self;
        let mut at = 0usize;
        match walk.inner_strides() {
            [1, 1] => walk.for_each_row(|[ox, oy]| {
                let row = at;
                at = at.wrapping_add(n);
                if let (Some(d), Some(o), Some(a), Some(b), Some(ga), Some(gb)) = (
                    dout.get(row..row + n),
                    out.get(row..row + n),
                    x.get(ox..ox + n),
                    y.get(oy..oy + n),
                    gx.get_mut(ox..ox + n),
                    gy.get_mut(oy..oy + n),
                ) {
                    for (((((ga, gb), &a), &b), &o), &d) in
                        ga.iter_mut().zip(gb.iter_mut()).zip(a).zip(b).zip(o).zip(d)
                    {
                        let (va, vb) = f(a, b, o, d);
                        put::<T, SX>(ga, va, add);
                        put::<T, SY>(gb, vb, add);
                    }
                }
            }),
            [sx, sy] => walk.for_each_row(|[ox, oy]| {
                let row = at;
                at = at.wrapping_add(n);
                let (Some(d), Some(o)) = (dout.get(row..row + n), out.get(row..row + n)) else {
                    return;
                };
                for (i, (&o, &d)) in o.iter().zip(d).enumerate() {
                    let (ix, iy) = (ox + i * sx, oy + i * sy);
                    if let (Some(&a), Some(&b)) = (x.get(ix), y.get(iy)) {
                        let (va, vb) = f(a, b, o, d);
                        if let Some(ga) = gx.get_mut(ix) {
                            put::<T, SX>(ga, va, add);
                        }
                        if let Some(gb) = gy.get_mut(iy) {
                            put::<T, SY>(gb, vb, add);
                        }
                    }
                }
            }),
        }
    }
}

/// The backward of select along its forward walk (cond, then, else): each
/// output element's `dout` goes to `then`'s gradient where cond is true and
/// to `else`'s where it is false (0 to the other), summed where an operand
/// broadcasts, as [`binary_backward`] does. Cond has no gradient.
#[inline(always)]
pub fn select_backward<T: Copy + Default>(
    walk: &Walk<3>,
    c: &[bool],
    dout: &[T],
    gt: &mut [T],
    ge: &mut [T],
    add: impl Fn(T, T) -> T + Copy,
) {
    let numel = walk.numel();
    let (sum_t, sum_e) = (gt.len() != numel, ge.len() != numel);
    if sum_t {
        gt.fill(T::default());
    }
    if sum_e {
        ge.fill(T::default());
    }
    let n = walk.inner();
    if n == 0 || numel == 0 {
        return;
    }
    let zero = T::default();
    let [sc, st, se] = walk.inner_strides();
    let mut at = 0usize;
    walk.for_each_row(|[oc, ot, oe]| {
        let row = at;
        at = at.wrapping_add(n);
        let Some(d) = dout.get(row..row + n) else {
            return;
        };
        for (i, &d) in d.iter().enumerate() {
            let Some(&c) = c.get(oc + i * sc) else {
                return;
            };
            let (vt, ve) = if c { (d, zero) } else { (zero, d) };
            if let Some(g) = gt.get_mut(ot + i * st) {
                *g = if sum_t { add(*g, vt) } else { vt };
            }
            if let Some(g) = ge.get_mut(oe + i * se) {
                *g = if sum_e { add(*g, ve) } else { ve };
            }
        }
    });
}

#[cfg(feature = "rayon")]
pub mod par;

#[cfg(test)]
mod tests;
