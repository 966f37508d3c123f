//! The loops every operator shares, static and dynamic path alike (internal).
//!
//! Broadcasting is done by strides: each operand is described in the frame of
//! the output's dims, and a dim it broadcasts along gets stride 0. Adjacent
//! dims that every operand walks contiguously are merged first, so a
//! `[256, 128, 256] x [128, 256]` product runs as one long contiguous inner
//! loop per outer row; inner loops are slice zips the compiler vectorizes,
//! with no per-element index arithmetic and no bounds checks that can fail.

mod backward;
#[cfg(feature = "matrixmultiply")]
pub(crate) mod gemm;
pub(crate) mod prefetch;
pub(crate) mod stream;
mod walk;

#[cfg(test)]
use crate::shape::Dims;
pub use backward::{binary_backward, select_backward};
pub(crate) use walk::advance_index;
#[cfg(feature = "rayon")]
use walk::Cursor;
use walk::Rows;
pub use walk::{for_each_tile, Walk};

/// Whether this target takes the paths that spend code to save time:
/// targets with vector units (SSE2, NEON, wasm's SIMD), whose cores also
/// run several instructions at once; not the Cortex-M0 and M4F, whose
/// firmware bytes are kept (docs/embedded.md). The paths, each with what it
/// buys:
/// - a fused expression's static walk keeps its outer loops apart
///   ([`Walk::nested_from_frame`]) and checks the leaves' lengths once up
///   front, so the compiler vectorizes along the output (bench F3's
///   `eval_into`: 12 ns against 33 ns; on the M4F 152 B against 288 B);
/// - dynamic_partition counts its values in four tallies (W7 `into`:
///   8.8 ms against 10.9 ms; on the M4F 508 B against 718 B).
pub(crate) const SPEED_OVER_SIZE: bool = cfg!(any(
    target_feature = "sse2",
    target_feature = "neon",
    target_feature = "simd128"
));

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

/// [`binary`] writing `out` with streaming stores ([`stream`]), for an
/// output larger than the cache that nothing reads next in the same op:
/// the two stride cases where `x` walks the row (W1's `[1, 1]`, and `[1,
/// 0]`) compute each row a piece at a time and stream it, when the rows
/// are long ([`stream::MIN_ROW`]); the others are [`binary`]'s loops.
#[inline(always)]
pub fn binary_streaming<T: Copy, F: Fn(T, T) -> T>(
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &mut [T],
    f: F,
) {
    let n = walk.inner();
    if n == 0 || walk.numel() == 0 {
        return;
    }
    if n < stream::MIN_ROW {
        return binary(walk, x, y, out, f);
    }
    let mut rows = Rows { out, at: 0, n };
    match walk.inner_strides() {
        [1, 1] => walk.for_each_row(|[ox, oy]| {
            if let (Some(o), Some(a), Some(b)) =
                (rows.next_row(), x.get(ox..ox + n), y.get(oy..oy + n))
            {
                stream::write_row(o, |start, dst| {
                    let (a, b) = (a.get(start..).unwrap_or(&[]), b.get(start..).unwrap_or(&[]));
                    for ((o, &a), &b) in dst.iter_mut().zip(a).zip(b) {
                        *o = f(a, b);
                    }
                });
            }
        }),
        [1, 0] => walk.for_each_row(|[ox, oy]| {
            if let (Some(o), Some(a), Some(&b)) = (rows.next_row(), x.get(ox..ox + n), y.get(oy)) {
                stream::write_row(o, |start, dst| {
                    for (o, &a) in dst.iter_mut().zip(a.get(start..).unwrap_or(&[])) {
                        *o = f(a, b);
                    }
                });
            }
        }),
        _ => return binary(walk, x, y, rows.out, f),
    }
    stream::fence();
}

/// The longest row [`select`] blends from both sides when cond repeats
/// along it (a longer one is copied from one side).
const SHORT_ROW: usize = 16;

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
        // cond repeats along the row: the whole row comes from one side.
        // A short row (a constant for static shapes) blends both sides
        // without a branch, as a hand loop compiles; a long one copies or
        // fills from the chosen side, reading only that side.
        [_, st, se] if n <= SHORT_ROW => walk.for_each_row(
            #[inline(always)]
            |[oc, ot, oe]| {
                let (Some(o), Some(&c)) = (rows.next_row(), c.get(oc)) else {
                    return;
                };
                let tr = t.get(ot..ot + if st == 1 { n } else { 1 });
                let er = e.get(oe..oe + if se == 1 { n } else { 1 });
                let (Some(tr), Some(er)) = (tr, er) else {
                    return;
                };
                match (tr, er) {
                    (&[tv], &[ev]) => o.fill(pick(c, tv, ev)),
                    (&[tv], er) => {
                        for (o, &ev) in o.iter_mut().zip(er) {
                            *o = pick(c, tv, ev);
                        }
                    }
                    (tr, &[ev]) => {
                        for (o, &tv) in o.iter_mut().zip(tr) {
                            *o = pick(c, tv, ev);
                        }
                    }
                    (tr, er) => {
                        for ((o, &tv), &ev) in o.iter_mut().zip(tr).zip(er) {
                            *o = pick(c, tv, ev);
                        }
                    }
                }
            },
        ),
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

#[cfg(feature = "rayon")]
pub mod par;

#[cfg(test)]
mod tests;
