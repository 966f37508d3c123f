//! The planner: the one place where a frame (an op's rule's answer: the
//! output's dims and each operand's dims placed in them) becomes a walk,
//! and where the loop over that walk is chosen (internal).
//!
//! An op says what its rule gives its shape types ([`ShapeFrame`], one
//! impl per op, written beside its rule) and, when it runs, what the rule
//! gives its dims; everything after that is here:
//! - the walk: a constant the compiler computes when every shape is static
//!   ([`Planned::STATIC`], [`Planned::WALK`]); a constant whose first dim
//!   is set when the op runs, when every run-time dim lands on the
//!   output's first dim ([`plain`]); else planned from the frame when the
//!   op runs ([`walk`]). A fused expression's walk keeps its outer loops
//!   apart where the target spends code to save time ([`fused_walk`]).
//! - the loop: a binary op's rayon split, streaming stores or plain rows
//!   ([`binary_then`], its stride cases chosen once in
//!   [`super::binary`]); a fused expression's rows, whole or in pieces
//!   ([`rows_or_pieces`], [`static_rows_or_pieces`]), split across
//!   rayon's pool for a large output ([`tiles`]).
//!
//! A static walk is an associated constant of [`Planned`]: no planning,
//! no heap and no branch on the shapes is left when the op runs.

use super::{stream, Walk, SPEED_OVER_SIZE};
use crate::broadcast::Frame;
use core::marker::PhantomData;

/// What an op's rule gives the shape types `Self` stands for, computed by
/// the compiler with the op's run-time rule (so the two cannot disagree).
/// Implemented once per op, beside the op's kernel; [`Planned`] turns it
/// into walks.
pub(crate) trait ShapeFrame<const K: usize> {
    /// The frame, when every shape is static; `None` when a dim is known
    /// only when the op runs. A static frame the rule rejects is the
    /// implementing op's build error, with its own message.
    const STATIC: Option<Frame<K>>;
    /// For shapes with run-time dims: the frames with every run-time dim
    /// set to 2 and to 3, for an op whose plain form may run on a walk the
    /// compiler plans (its bounds prove each run-time dim meets only 1s or
    /// no dim). `None`: the walk is planned when the op runs.
    const PLACEHOLDERS: Option<[Frame<K>; 2]> = None;
    /// A fused expression's frame: its walk keeps its outer loops apart
    /// ([`fused_walk`]).
    const FUSED: bool = false;
    /// The operands the walk reads (the first `LANES` of `K`): a fused
    /// expression has as many as leaves, rounded up to a lane count.
    const LANES: usize = K;
    /// The build error where a static walk ([`Planned::WALK`]) is asked of
    /// shapes without a static frame: the forms that ask say in their
    /// bounds that every shape is static, so this is the rule's own
    /// message where it rejects static shapes (one error, at the user's
    /// call), or a bug.
    const NOT_STATIC: &'static str =
        "shapecheck bug: a static walk was asked of shapes with run-time dims";
}

/// The walk of a plain op's frame, planned when the op runs: every dim the
/// operands walk contiguously merged into one loop.
#[inline(always)]
pub(crate) const fn walk<const K: usize>(f: &Frame<K>) -> Walk<K> {
    Walk::from_frame(f.rank, f.out, f.ops)
}

/// The walk of a fused expression's frame: its outer loops kept apart
/// where the target spends code to save time ([`SPEED_OVER_SIZE`]; see
/// [`Walk::nested_from_frame`]), merged as a plain op's elsewhere.
pub(crate) const fn fused_walk<const K: usize>(f: &Frame<K>) -> Walk<K> {
    if SPEED_OVER_SIZE {
        Walk::nested_from_frame(f.rank, f.out, f.ops)
    } else {
        Walk::from_frame(f.rank, f.out, f.ops)
    }
}

/// [`walk`] or [`fused_walk`], as `F` says.
const fn walk_of<F: ShapeFrame<K>, const K: usize>(f: &Frame<K>) -> Walk<K> {
    if F::FUSED {
        fused_walk(f)
    } else {
        walk(f)
    }
}

/// The walks the compiler plans for the shape types of `F`.
pub(crate) struct Planned<F, const K: usize>(PhantomData<F>);

impl<F: ShapeFrame<K>, const K: usize> Planned<F, K> {
    /// The walk, when every shape is static.
    pub(crate) const STATIC: Option<Walk<K>> = match F::STATIC {
        Some(f) => Some(walk_of::<F, K>(&f)),
        None => None,
    };

    /// The walk of shapes that are all static (the forms whose bounds
    /// say so); where there is none, the build error
    /// [`ShapeFrame::NOT_STATIC`].
    pub(crate) const WALK: Walk<K> = match F::STATIC {
        Some(f) => walk_of::<F, K>(&f),
        None => fail(F::NOT_STATIC),
    };

    /// The length of a row of the static walk; `None` for shapes whose walk
    /// is planned when the op runs (named by loops that run both, so it
    /// builds wherever [`Self::STATIC`] does).
    pub(crate) const INNER: Option<usize> = match Self::STATIC {
        Some(w) => Some(w.inner()),
        None => None,
    };

    /// Each operand's step along a row of [`Self::WALK`].
    pub(crate) const STRIDES: [usize; K] = Self::WALK.inner_strides();

    /// Whether every operand walks along the rows of [`Self::WALK`].
    const EVERY_LANE_WALKS: bool = every_lane_walks(&Self::STRIDES, F::LANES);

    /// The walk of shapes whose run-time dims all land on the output's
    /// first dim (a batch: `[Dyn, 3, 4, 5]` times `[3, 4]`, or two tensors
    /// with one brand on their rows): the frame with each run-time dim set
    /// to 2, whose first dim is set to the real size when the op runs
    /// ([`Walk::with_first_dim`]). The run-time dims are found by planning
    /// with 2 and with 3: the output dims that differ are theirs. `None` for
    /// other shapes, and for fused expressions.
    const LEADING: Option<Walk<K>> = match F::PLACEHOLDERS {
        Some([f2, f3]) if !F::FUSED && leads(&f2, &f3) => Some(walk(&f2)),
        _ => None,
    };
}

/// Fails const evaluation with `message`, reported at the caller's line
/// (not inside `panic!`'s expansion).
#[track_caller]
#[allow(clippy::panic)]
const fn fail(message: &str) -> ! {
    panic!("{}", message)
}

/// The size a leading walk was planned with (see [`Planned::LEADING`]).
const PLACEHOLDER: usize = 2;

/// Whether `f2` and `f3` (one frame planned with every run-time dim as 2
/// and as 3) differ only in the output's first dim.
// Every index below is guarded by `< rank <= MAX_RANK`.
#[allow(clippy::indexing_slicing)]
const fn leads<const K: usize>(f2: &Frame<K>, f3: &Frame<K>) -> bool {
    if f2.rank != f3.rank {
        return false;
    }
    let (o2, o3) = (f2.out_dims(), f3.out_dims());
    let (o2, o3) = (o2.as_slice(), o3.as_slice());
    let mut i = 1;
    while i < o2.len() && i < o3.len() {
        if o2[i] != o3[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The walk of a plain (not `try_`) form, chosen from the shape types
/// alone (the bounds only say whether the op may run): the static constant
/// ([`Planned::STATIC`]); the leading constant with its first dim set to
/// `out_first` ([`Planned::LEADING`]); else the walk of `run_time()`, the
/// rule's frame of the dims when the op runs. The constants are the shape
/// types', so the compiler drops the branches not taken.
///
/// A static walk is returned as a reference to the constant itself; the
/// others are kept in the caller's `room`. (Returned as a copy, the static
/// walk's strides were no longer folded into the loops: S1 compiled with
/// the bounds checks, a `memset` and two copies of its result,
/// `benches/codegen/run.sh`.) `None` only if `run_time()` is, which the
/// plain forms' bounds rule out; the caller then writes nothing rather
/// than panicking in library code.
#[inline(always)]
pub(crate) fn plain<F: ShapeFrame<K>, const K: usize>(
    out_first: usize,
    room: &mut Option<Walk<K>>,
    run_time: impl FnOnce() -> Option<Frame<K>>,
) -> Option<&Walk<K>> {
    if let Some(w) = &Planned::<F, K>::STATIC {
        return Some(w);
    }
    *room = match Planned::<F, K>::LEADING {
        Some(w) => Some(w.with_first_dim(PLACEHOLDER, out_first)),
        None => run_time().map(|f| walk_of::<F, K>(&f)),
    };
    room.as_ref()
}

/// What runs over each finished piece of a binary op's output (an
/// elementwise op's activation), as soon as the piece is written.
pub(crate) trait Finish<T>: Copy + Sync + Send {
    /// `true` if the pass changes nothing (the output is then not read
    /// again in the op, and may be streamed past the cache).
    fn is_nothing(self) -> bool;
    /// The pass over `piece`.
    fn apply(self, piece: &mut [T]);
}

/// `out = then(f(x, y))` along `walk`, the loop chosen here: with feature
/// `rayon`, an output of [`super::par::PAR_MIN_ELEMS`] elements or more
/// is split across the pool (each piece finished as soon as it is
/// written); an output past the cache that nothing reads again in the op
/// is streamed to memory, as memcpy writes it; else the plain rows.
/// Inlined, so a static op (constant walk, constant op) compiles to loops
/// over constants.
#[inline(always)]
pub(crate) fn binary_then<T, F, A>(walk: &Walk<2>, x: &[T], y: &[T], out: &mut [T], f: F, then: A)
where
    T: Copy + Send + Sync,
    F: Fn(T, T) -> T + Sync + Send,
    A: Finish<T>,
{
    #[cfg(feature = "rayon")]
    if super::par::splits(walk.numel()) {
        return super::par::binary(walk, x, y, out, f, |piece| then.apply(piece));
    }
    if then.is_nothing() && stream::pays::<T>(out.len()) {
        return super::binary_streaming(walk, x, y, out, f);
    }
    super::binary(walk, x, y, out, f);
    then.apply(out);
}

/// A fused expression's loop over the rows of its walk, in its two stride
/// cases: `STRIDED = false` where every operand walks along the rows
/// (stride 1 each), `true` where some repeat an element (stride 0).
/// `strides` is each operand's step along a row.
pub(crate) trait RowCases<const K: usize> {
    /// What the loop returns.
    type Out;
    /// The loop for one case.
    fn run<const STRIDED: bool>(self, walk: &Walk<K>, strides: &[usize; K]) -> Self::Out;
}

/// Runs `body` in the stride case of `walk` (planned when the op runs),
/// whose first `lanes` operands are read.
#[inline(always)]
pub(crate) fn rows_or_pieces<const K: usize, B: RowCases<K>>(
    walk: &Walk<K>,
    lanes: usize,
    body: B,
) -> B::Out {
    let strides = walk.inner_strides();
    if every_lane_walks(&strides, lanes) {
        body.run::<false>(walk, &strides)
    } else {
        body.run::<true>(walk, &strides)
    }
}

/// [`rows_or_pieces`] on the static walk of `F`: the case is a constant.
#[inline(always)]
pub(crate) fn static_rows_or_pieces<F: ShapeFrame<K>, const K: usize, B: RowCases<K>>(
    body: B,
) -> B::Out {
    let walk = &Planned::<F, K>::WALK;
    if Planned::<F, K>::EVERY_LANE_WALKS {
        body.run::<false>(walk, &Planned::<F, K>::STRIDES)
    } else {
        body.run::<true>(walk, &Planned::<F, K>::STRIDES)
    }
}

/// [`rows_or_pieces`] where every row is read element by element along
/// the strides (an in-place evaluation, whose output is also read).
#[inline(always)]
pub(crate) fn strided_rows<const K: usize, B: RowCases<K>>(walk: &Walk<K>, body: B) -> B::Out {
    body.run::<true>(walk, &walk.inner_strides())
}

/// Whether the first `lanes` operands all walk along the rows (stride 1).
// Every index below is guarded by `< K`.
#[allow(clippy::indexing_slicing)]
const fn every_lane_walks<const K: usize>(strides: &[usize; K], lanes: usize) -> bool {
    let mut k = 0;
    while k < lanes && k < K {
        if strides[k] != 1 {
            return false;
        }
        k += 1;
    }
    true
}

/// Whether an output of `numel` elements is split across rayon's pool
/// (see [`super::par::splits`]): a fused expression's `try_eval` then fills
/// its result first and shares its rows out.
#[cfg(feature = "rayon")]
#[inline(always)]
pub(crate) fn splits(numel: usize) -> bool {
    super::par::splits(numel)
}

/// [`super::for_each_tile`], or with feature `rayon` for an output of at
/// least `PAR_MIN_ELEMS` elements, its split across rayon's pool (pieces of
/// whole rows; each element is computed as the serial loop computes it, so
/// the result is the same bit for bit).
#[inline(always)]
pub(crate) fn tiles<T: Send, const K: usize, const BY_NUMBER: bool>(
    walk: &Walk<K>,
    out: &mut [T],
    tile: usize,
    f: impl Fn(&[usize; K], usize, &mut [T]) + Sync + Send,
) {
    #[cfg(feature = "rayon")]
    if super::par::splits(out.len()) {
        super::par::for_each_tile(walk, out, tile, f);
        return;
    }
    super::for_each_tile::<T, K, BY_NUMBER>(walk, out, tile, f);
}
