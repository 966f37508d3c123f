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
pub(crate) mod plan;
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
    by_stride_case(walk, Rowwise { walk, x, y, out, f });
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
    if walk.inner() < stream::MIN_ROW {
        return binary(walk, x, y, out, f);
    }
    by_stride_case(walk, Streamed { walk, x, y, out, f });
}

/// A loop over a two-operand walk, written once for every stride case:
/// `X_WALKS` (`Y_WALKS`) says whether x (y) walks along the rows (inner
/// stride 1) or repeats one element (stride 0). Each case is compiled on
/// its own, so its inner loop is a plain zip (or a fill).
pub(crate) trait BinaryCase {
    /// The loop for one case.
    fn run<const X_WALKS: bool, const Y_WALKS: bool>(self);
}

/// The one place a two-operand walk's inner strides choose a loop: `body`
/// in the walk's stride case, chosen once per call (a constant for a
/// static walk, so only that case is compiled in).
#[inline(always)]
pub(crate) fn by_stride_case(walk: &Walk<2>, body: impl BinaryCase) {
    match walk.inner_strides() {
        [1, 1] => body.run::<true, true>(),
        [1, _] => body.run::<true, false>(),
        [_, 1] => body.run::<false, true>(),
        _ => body.run::<false, false>(),
    }
}

/// `o[i] = f(a, b)` for one piece of a row in the stride case
/// `X_WALKS`/`Y_WALKS`: an operand that walks the row reads `o.len()`
/// elements from its offset, one that repeats reads the element there.
/// Nothing is written if an operand is shorter than its offset says (the
/// callers' shapes rule that out).
#[inline(always)]
pub(crate) fn binary_piece<T: Copy, const X_WALKS: bool, const Y_WALKS: bool>(
    o: &mut [T],
    (x, ox): (&[T], usize),
    (y, oy): (&[T], usize),
    f: &impl Fn(T, T) -> T,
) {
    let n = o.len();
    match (X_WALKS, Y_WALKS) {
        (true, true) => {
            if let (Some(a), Some(b)) = (x.get(ox..ox + n), y.get(oy..oy + n)) {
                for ((o, &a), &b) in o.iter_mut().zip(a).zip(b) {
                    *o = f(a, b);
                }
            }
        }
        (true, false) => {
            if let (Some(a), Some(&b)) = (x.get(ox..ox + n), y.get(oy)) {
                for (o, &a) in o.iter_mut().zip(a) {
                    *o = f(a, b);
                }
            }
        }
        (false, true) => {
            if let (Some(&a), Some(b)) = (x.get(ox), y.get(oy..oy + n)) {
                for (o, &b) in o.iter_mut().zip(b) {
                    *o = f(a, b);
                }
            }
        }
        (false, false) => {
            if let (Some(&a), Some(&b)) = (x.get(ox), y.get(oy)) {
                o.fill(f(a, b));
            }
        }
    }
}

/// [`binary`]'s loop: every row of the walk in order.
struct Rowwise<'a, T, F> {
    walk: &'a Walk<2>,
    x: &'a [T],
    y: &'a [T],
    out: &'a mut [T],
    f: F,
}

impl<T: Copy, F: Fn(T, T) -> T> BinaryCase for Rowwise<'_, T, F> {
    #[inline(always)]
    fn run<const X_WALKS: bool, const Y_WALKS: bool>(self) {
        let Rowwise { walk, x, y, out, f } = self;
        let n = walk.inner();
        if n == 0 || walk.numel() == 0 {
            return;
        }
        let mut rows = Rows { out, at: 0, n };
        walk.for_each_row(|[ox, oy]| {
            if let Some(o) = rows.next_row() {
                binary_piece::<T, X_WALKS, Y_WALKS>(o, (x, ox), (y, oy), &f);
            }
        });
    }
}

/// [`binary_streaming`]'s loop: where x walks the rows, each row computed a
/// piece at a time and streamed; elsewhere [`binary`]'s.
struct Streamed<'a, T, F> {
    walk: &'a Walk<2>,
    x: &'a [T],
    y: &'a [T],
    out: &'a mut [T],
    f: F,
}

impl<T: Copy, F: Fn(T, T) -> T> BinaryCase for Streamed<'_, T, F> {
    #[inline(always)]
    fn run<const X_WALKS: bool, const Y_WALKS: bool>(self) {
        let Streamed { walk, x, y, out, f } = self;
        if !X_WALKS {
            return Rowwise { walk, x, y, out, f }.run::<X_WALKS, Y_WALKS>();
        }
        let n = walk.inner();
        if n == 0 || walk.numel() == 0 {
            return;
        }
        let mut rows = Rows { out, at: 0, n };
        walk.for_each_row(|[ox, oy]| {
            if let Some(o) = rows.next_row() {
                stream::write_row(o, |start, dst| {
                    let oy = if Y_WALKS { oy + start } else { oy };
                    binary_piece::<T, X_WALKS, Y_WALKS>(dst, (x, ox + start), (y, oy), &f);
                });
            }
        });
        stream::fence();
    }
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
