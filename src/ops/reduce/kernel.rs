//! The reduction loops, written once: [`fold`] (sum, mean, max, min, prod)
//! and [`arg`] (argmax, argmin), from a [`ReducePlan`]. x's dims are first
//! coalesced into alternating runs of kept and reduced dims; the innermost
//! run is contiguous, so a reduced innermost run is one row folded with
//! eight accumulators (it vectorises), and a kept one is a row added into
//! an output row element by element (it vectorises too).
//! [`reduce_slices`] is the dynamic path over slices.

use super::rule::{plan, ReducePlan};
use super::{ArgKind, ReduceElement, ReduceError, ReduceKind, Reduction};
use crate::dims::{Dims, MAX_RANK};
use crate::kernel::SPEED_OVER_SIZE;

/// Lanes of the row fold: sixteen independent accumulators (four SSE
/// registers of f32, enough to hide the add's latency), so that a sum over
/// the last axis is not one long dependency chain.
const LANES: usize = 16;

/// x's dims as alternating runs (size, reduced): adjacent dims of the same
/// kind merged, dims of size 1 dropped (they are either). At most MAX_RANK.
pub(crate) fn runs(p: &ReducePlan) -> ([(usize, bool); MAX_RANK], usize) {
    let mut out = [(1usize, false); MAX_RANK];
    let mut len = 0usize;
    for (&d, &r) in p.x.as_slice().iter().zip(p.reduced.iter()) {
        if d == 1 {
            continue;
        }
        match len.checked_sub(1).and_then(|last| out.get_mut(last)) {
            Some(prev) if prev.1 == r => prev.0 *= d,
            _ => {
                if let Some(slot) = out.get_mut(len) {
                    *slot = (d, r);
                    len += 1;
                }
            }
        }
    }
    (out, len)
}

/// A row folded by `f` (after `widen`) with [`LANES`] accumulators
/// started at `init`, merged by `f` at the end.
#[inline(always)]
fn fold_row<T: Copy, U: Copy>(
    row: &[T],
    init: U,
    widen: &impl Fn(T) -> U,
    f: &impl Fn(U, U) -> U,
) -> U {
    let mut acc = [init; LANES];
    let mut chunks = row.chunks_exact(LANES);
    for c in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a = f(*a, widen(v));
        }
    }
    // halves folded onto each other: a tree, as the lanes were independent
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        let (lo, hi) = acc.split_at_mut(width);
        for (a, &b) in lo.iter_mut().zip(hi.iter()) {
            *a = f(*a, b);
        }
    }
    let [mut r, ..] = acc;
    for &v in chunks.remainder() {
        r = f(r, widen(v));
    }
    r
}

/// Every element of `x` folded by `f` into its output element (`out`
/// starts at `init` everywhere); `x` and `out` have the plan's counts.
/// `widen` maps an element to the output type first (i32 to i64 for sum).
#[inline(always)]
fn fold<T: Copy, U: Copy>(
    p: &ReducePlan,
    x: &[T],
    out: &mut [U],
    init: U,
    widen: impl Fn(T) -> U,
    f: impl Fn(U, U) -> U,
) {
    out.fill(init);
    if x.is_empty() {
        // a zero-size x: every output element is `init` (0 for sum, 1 for prod)
        return;
    }
    let (runs, len) = runs(p);
    let Some(&(inner, inner_reduced)) = len.checked_sub(1).and_then(|l| runs.get(l)) else {
        // every dim 1 (or a 0-d x): one element each, in order
        for (o, &v) in out.iter_mut().zip(x) {
            *o = f(*o, widen(v));
        }
        return;
    };
    // the outer runs' output strides (0 for a reduced run) and sizes
    let outer = runs.get(..len - 1).unwrap_or(&[]);
    // a reduced run just outside a kept inner run (max over axis 0 of a
    // matrix): its `rows` all fold into the same output row, taken
    // together below and left out of the odometer (its stride is 0)
    let (outer, rows) = match outer.split_last() {
        Some((&(size, true), rest)) if SPEED_OVER_SIZE && !inner_reduced => (rest, size),
        _ => (outer, 1),
    };
    let mut stride = [0usize; MAX_RANK];
    let mut step = if inner_reduced { 1 } else { inner };
    for (k, &(size, reduced)) in outer.iter().enumerate().rev() {
        if let Some(s) = stride.get_mut(k) {
            *s = if reduced { 0 } else { step };
        }
        if !reduced {
            step *= size;
        }
    }
    let mut index = [0usize; MAX_RANK];
    let mut o = 0usize;
    for src in x.chunks_exact(inner * rows) {
        if inner_reduced {
            if let Some(slot) = out.get_mut(o) {
                *slot = f(*slot, fold_row(src, init, &widen, &f));
            }
        } else if let Some(dst) = out.get_mut(o..o + inner) {
            // four rows per pass over the output row (where `rows` > 1):
            // it is loaded and stored a quarter as often, and each element
            // still takes the rows in order (the same bits for sum)
            let mut rest = src;
            if SPEED_OVER_SIZE {
                let mut quads = src.chunks_exact(4 * inner);
                for q in &mut quads {
                    let mut r = q.chunks_exact(inner);
                    let (Some(a), Some(b), Some(c), Some(e)) =
                        (r.next(), r.next(), r.next(), r.next())
                    else {
                        break;
                    };
                    for ((((d, &a), &b), &c), &e) in dst.iter_mut().zip(a).zip(b).zip(c).zip(e) {
                        *d = f(f(f(f(*d, widen(a)), widen(b)), widen(c)), widen(e));
                    }
                }
                rest = quads.remainder();
            }
            for row in rest.chunks_exact(inner) {
                for (d, &v) in dst.iter_mut().zip(row) {
                    *d = f(*d, widen(v));
                }
            }
        }
        // the odometer over the outer runs
        for (k, &(size, _)) in outer.iter().enumerate().rev() {
            let (Some(i), Some(&s)) = (index.get_mut(k), stride.get(k)) else {
                break;
            };
            *i += 1;
            o += s;
            if *i < size {
                break;
            }
            *i = 0;
            o -= s * size;
        }
    }
}

/// `kind` of `x` under the plan into `out`, in the output type `U`
/// (`T::Sum` for sum, `T` otherwise).
pub(crate) fn reduce_into<T: Copy, U: ReduceElement + From<T>>(
    p: &ReducePlan,
    kind: ReduceKind,
    x: &[T],
    out: &mut [U],
) {
    match kind {
        ReduceKind::Sum => fold(p, x, out, U::ZERO, U::from, U::add),
        ReduceKind::Mean => {
            fold(p, x, out, U::ZERO, U::from, U::add);
            for o in out.iter_mut() {
                *o = o.div_count(p.count);
            }
        }
        ReduceKind::Max => fold(p, x, out, U::LOWEST, U::from, U::max_of),
        ReduceKind::Min => fold(p, x, out, U::HIGHEST, U::from, U::min_of),
        ReduceKind::Prod => fold(p, x, out, U::ONE, U::from, U::mul),
    }
}

/// argmax / argmin (`kind`) of `x` under the plan (one reduced axis, or
/// every dim: the index into the flattened x) into `out`: the first index
/// on ties.
pub(crate) fn arg<T: ReduceElement>(p: &ReducePlan, kind: ArgKind, x: &[T], out: &mut [i64]) {
    let better = |v: T, best: T| match kind {
        ArgKind::ArgMin => v < best,
        ArgKind::ArgMax => v > best,
    };
    // an index is below x's count, which an i64 holds on every target
    let index = |k: usize| i64::try_from(k).unwrap_or(i64::MAX);
    // x as [outer, n, inner] around its reduced dims (one axis, or all)
    let (mut outer, mut n, mut inner) = (1usize, 1usize, 1usize);
    let mut seen = false;
    for (&d, &r) in p.x.as_slice().iter().zip(p.reduced.iter()) {
        if r {
            n *= d;
            seen = true;
        } else if seen {
            inner *= d;
        } else {
            outer *= d;
        }
    }
    if n == 0 || inner == 0 {
        return;
    }
    let mut o = out.iter_mut();
    for block in x.chunks_exact(n * inner).take(outer) {
        if inner == 1 {
            // a contiguous row: one pass (see `arg_row`)
            let best = match kind {
                ArgKind::ArgMax => arg_row(block, |v, best| v > best, T::max_of),
                ArgKind::ArgMin => arg_row(block, |v, best| v < best, T::min_of),
            };
            if let Some(slot) = o.next() {
                *slot = index(best);
            }
            continue;
        }
        for j in 0..inner {
            let mut best = 0;
            let Some(&mut_first) = block.get(j) else {
                continue;
            };
            let mut bv = mut_first;
            for k in 1..n {
                if let Some(&v) = block.get(k * inner + j)
                    && better(v, bv)
                {
                    best = k;
                    bv = v;
                }
            }
            if let Some(slot) = o.next() {
                *slot = index(best);
            }
        }
    }
}

/// The elements of a row read as one block by [`arg_row`]: 256 (1 KiB of
/// f32), so that the block found is read again from L1 and the blocks'
/// merges are few (AM1, a row of 4096: 16 merges and a search of one block).
const ARG_BLOCK: usize = 256;

/// The index of a contiguous row's max (`better` is `>`, `pick` max_of) or
/// min (`<`, min_of): the first index on ties, and 0 if the first element
/// is a NaN; a later NaN is passed over (as the loop `if v > best` over the
/// row: a NaN is never better, and nothing is better than a NaN).
///
/// The row is read once from memory: each block of [`ARG_BLOCK`] is folded
/// with the lanes of `fold_row` (started at the first element), and the
/// running best changes only where a block's fold is strictly better, so the
/// block kept is the first one holding the final best; the first position
/// in it holding a value equal to the best is the answer, found in that
/// block alone (still in L1). Equal values (0.0 and -0.0 too) are the same
/// to `==` as to the element-by-element loop, which keeps the first.
#[inline(always)]
fn arg_row<T: ReduceElement>(
    row: &[T],
    better: impl Fn(T, T) -> bool,
    pick: impl Fn(T, T) -> T,
) -> usize {
    let Some(&first) = row.first() else {
        return 0;
    };
    let (mut best, mut at) = (first, 0);
    for (b, block) in row.chunks(ARG_BLOCK).enumerate() {
        let m = fold_row(block, first, &|v| v, &pick);
        if better(m, best) {
            best = m;
            at = b * ARG_BLOCK;
        }
    }
    let block = row.get(at..).unwrap_or(&[]);
    at + first_equal(block.get(..ARG_BLOCK).unwrap_or(block), best)
}

/// The first position of `row` holding `pick` (0 if none: a NaN row), found
/// a chunk of [`LANES`] at a time (a branch-free compare per chunk).
#[inline(always)]
fn first_equal<T: Copy + PartialEq>(row: &[T], pick: T) -> usize {
    let mut chunks = row.chunks_exact(LANES);
    let mut at = 0;
    for c in &mut chunks {
        if c.iter().fold(false, |hit, &v| hit | (v == pick)) {
            return at + c.iter().position(|&v| v == pick).unwrap_or(0);
        }
        at += LANES;
    }
    chunks
        .remainder()
        .iter()
        .position(|&v| v == pick)
        .map_or(0, |k| at + k)
}

/// The dynamic path over slices: `kind` of x (`x_dims`, `x`) over `axes`
/// (`None` or empty: every dim) into `out`, whose length must be the
/// output's count; returns the output dims. Every rule is checked before
/// `out` is written. `U` is the output type: `T::Sum` for sum (i64 for
/// i32), `T` for the others.
///
/// ```
/// use shapecheck::ops::reduce::{reduce_slices, ReduceKind};
/// let x = [1, 5, 3, 4, 2, 6];
/// let mut out = [0i64; 2];
/// let dims = reduce_slices(ReduceKind::Sum, &[2, 3], &x, Some(&[1]), false, &mut out).unwrap();
/// assert_eq!((dims.as_slice(), out), (&[2][..], [9, 12]));
/// let err = reduce_slices(ReduceKind::Max, &[2, 3], &x, Some(&[1, -1]), false, &mut out).unwrap_err();
/// assert_eq!(err.rule(), "reduce/duplicate-axis");
/// ```
pub fn reduce_slices<T: Copy, U: ReduceElement + From<T>>(
    kind: ReduceKind,
    x_dims: &[usize],
    x: &[T],
    axes: Option<&[isize]>,
    keepdim: bool,
    out: &mut [U],
) -> Result<Dims, ReduceError> {
    let p = plan(x_dims, axes, keepdim, Reduction::Reduce(kind))?;
    Dims::for_data(x_dims, x.len())?;
    Dims::for_data(p.out.as_slice(), out.len())?;
    reduce_into(&p, kind, x, out);
    Ok(p.out)
}

/// argmax / argmin over slices: `axis` `None` gives the index into the
/// flattened x; `out` (i64 indices) must have the output's count.
///
/// ```
/// use shapecheck::ops::reduce::{arg_slices, ArgKind};
/// let x = [1.0f32, 5.0, 5.0, 4.0, 2.0, 6.0];
/// let mut out = [0i64; 2];
/// arg_slices(ArgKind::ArgMax, &[2, 3], &x, Some(1), false, &mut out).unwrap();
/// assert_eq!(out, [1, 2]); // the first index on ties
/// let mut all = [0i64; 1];
/// arg_slices(ArgKind::ArgMin, &[2, 3], &x, None, false, &mut all).unwrap();
/// assert_eq!(all, [0]);
/// ```
pub fn arg_slices<T: ReduceElement>(
    kind: ArgKind,
    x_dims: &[usize],
    x: &[T],
    axis: Option<isize>,
    keepdim: bool,
    out: &mut [i64],
) -> Result<Dims, ReduceError> {
    let axes = axis.map(|a| [a]);
    let p = plan(
        x_dims,
        axes.as_ref().map(|a| &a[..]),
        keepdim,
        Reduction::Arg(kind),
    )?;
    Dims::for_data(x_dims, x.len())?;
    Dims::for_data(p.out.as_slice(), out.len())?;
    arg(&p, kind, x, out);
    Ok(p.out)
}

/// x's elements in order, each with the offset of the output element it
/// reduces into: an odometer over x's dims, a reduced dim moving no output
/// offset. For the loops that visit x element by element (the backward, a
/// fused expression's reduction).
pub(crate) struct OutputOffsets {
    dims: Dims,
    stride: [usize; MAX_RANK],
    index: [usize; MAX_RANK],
    at: usize,
}

impl OutputOffsets {
    /// At x's first element (output offset 0).
    pub(crate) fn new(p: &ReducePlan) -> OutputOffsets {
        let mut stride = [0usize; MAX_RANK];
        let mut step = 1usize;
        for (k, &d) in p.x.as_slice().iter().enumerate().rev() {
            let reduced = p.reduced.get(k).copied().unwrap_or(true);
            if let Some(s) = stride.get_mut(k) {
                *s = if reduced { 0 } else { step };
            }
            if !reduced {
                step *= d;
            }
        }
        OutputOffsets {
            dims: p.x,
            stride,
            index: [0; MAX_RANK],
            at: 0,
        }
    }

    /// The current element's output offset.
    #[inline(always)]
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    /// On to x's next element, last dim fastest.
    #[inline(always)]
    pub(crate) fn step(&mut self) {
        for (k, &size) in self.dims.as_slice().iter().enumerate().rev() {
            let (Some(i), Some(&s)) = (self.index.get_mut(k), self.stride.get(k)) else {
                break;
            };
            *i += 1;
            self.at += s;
            if *i < size {
                break;
            }
            *i = 0;
            self.at -= s * size;
        }
    }
}
