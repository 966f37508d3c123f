//! Feature `rayon`: the shared loops split across rayon's thread pool
//! (internal).
//!
//! An output of at least [`PAR_MIN_ELEMS`] elements is cut into disjoint,
//! contiguous pieces, each written by one task; every piece computes
//! exactly the elements the serial loop would, so the results are the same
//! bit for bit. Below the threshold, or when the pool has one thread, the
//! callers run the serial loops unchanged (a static op's element count is a
//! constant, so for small static shapes the test folds away).

use super::{binary_piece, by_stride_case, BinaryCase, Cursor, Walk};
use crate::shape::MAX_RANK;
use rayon::prelude::*;

/// Outputs with fewer elements than this run serially: 2^18 elements (1 MiB
/// of `f32`). Picked by measurement (`benches/benches/rayon.rs`, group
/// `R threshold`, with the threshold lowered to 2^10 for the run:
/// elementwise_mul into, `[k, 256] x [256]`, 2 cores shared with other
/// builds, load average 3): 1 thread against 2, 2^12 elements 0.52 against
/// 1.73 µs, 2^14 2.6 / 2.7 µs, 2^16 8.7 / 10.3 µs, 2^17 16.4 / 11.1 µs,
/// 2^18 30.8 / 22.7 µs. The split pays from 2^17 on; 2^18 leaves a margin
/// for a busy pool.
pub const PAR_MIN_ELEMS: usize = 1 << 18;

/// Pieces per thread for the elementwise loops: more than one, so that a
/// thread slowed by other work on the machine leaves pieces to the others.
const PIECES_PER_THREAD: usize = 4;

/// `true` if an output of `numel` elements is split: at least
/// [`PAR_MIN_ELEMS`] and a pool of more than one thread.
#[inline(always)]
pub fn splits(numel: usize) -> bool {
    numel >= PAR_MIN_ELEMS && rayon::current_num_threads() > 1
}

/// Cuts `out` into pieces of whole rows of `row_len` elements, about
/// `pieces` in all, and calls `f(piece, first_row)` for each on the pool.
pub fn for_row_pieces<T: Send>(
    out: &mut [T],
    row_len: usize,
    pieces: usize,
    f: impl Fn(&mut [T], usize) + Sync + Send,
) {
    if row_len == 0 || out.is_empty() {
        return;
    }
    let rows = out.len() / row_len;
    let rows_per_piece = rows.div_ceil(pieces.max(1)).max(1);
    let piece_len = rows_per_piece.saturating_mul(row_len);
    out.par_chunks_mut(piece_len)
        .enumerate()
        .for_each(|(i, piece)| f(piece, i.saturating_mul(rows_per_piece)));
}

impl<const K: usize> Walk<K> {
    /// The cursor at the start of output row `row` (rows of `inner()`
    /// elements, in order).
    fn cursor(&self, row: usize) -> Cursor<K> {
        let mut c = Cursor {
            counter: [0; MAX_RANK],
            offsets: [0; K],
        };
        let mut r = row;
        let mut axis = self.rank.saturating_sub(1);
        while axis > 0 {
            axis -= 1;
            let d = self.dim(axis).max(1);
            let i = r % d;
            r /= d;
            if let Some(slot) = c.counter.get_mut(axis) {
                *slot = i;
            }
            for (k, o) in c.offsets.iter_mut().enumerate() {
                *o = o.wrapping_add(i.wrapping_mul(self.stride(k, axis)));
            }
        }
        c
    }
}

/// [`super::for_each_tile`] for `out`, whole rows of the output from row
/// `first_row` on: each row's pieces get the offsets the serial loop gives
/// them.
fn for_each_tile_from<T, const K: usize>(
    walk: &Walk<K>,
    first_row: usize,
    out: &mut [T],
    tile: usize,
    f: &impl Fn(&[usize; K], usize, &mut [T]),
) {
    let n = walk.inner();
    if n == 0 {
        return;
    }
    let tile = tile.max(1);
    let mut cur = walk.cursor(first_row);
    for row in out.chunks_mut(n) {
        if n <= tile {
            f(&cur.offsets, 0, row);
        } else {
            let mut start = 0;
            for piece in row.chunks_mut(tile) {
                let len = piece.len();
                f(&cur.offsets, start, piece);
                start += len;
            }
        }
        walk.advance(&mut cur);
    }
}

/// [`super::for_each_tile`] on the pool: the output cut into pieces of
/// whole rows, each piece's rows in order on one thread (callers check
/// [`splits`] first). `f` computes each element from the operands alone,
/// so the result is the serial loop's, bit for bit.
pub fn for_each_tile<T: Send, const K: usize>(
    walk: &Walk<K>,
    out: &mut [T],
    tile: usize,
    f: impl Fn(&[usize; K], usize, &mut [T]) + Sync + Send,
) {
    let pieces = rayon::current_num_threads().saturating_mul(PIECES_PER_THREAD);
    for_row_pieces(out, walk.inner(), pieces, |piece, first_row| {
        for_each_tile_from(walk, first_row, piece, tile, &f);
    });
}

/// [`super::binary`] for the output elements `start..start + out.len()`
/// only (`out` is that part of the output): the same stride cases
/// ([`super::by_stride_case`]), each row cut to the part inside the range.
pub fn binary_range<T: Copy, F: Fn(T, T) -> T>(
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &mut [T],
    start: usize,
    f: &F,
) {
    by_stride_case(
        walk,
        Range {
            walk,
            x,
            y,
            out,
            start,
            f,
        },
    );
}

/// [`binary_range`]'s loop.
struct Range<'a, T, F> {
    walk: &'a Walk<2>,
    x: &'a [T],
    y: &'a [T],
    out: &'a mut [T],
    start: usize,
    f: &'a F,
}

impl<T: Copy, F: Fn(T, T) -> T> BinaryCase for Range<'_, T, F> {
    fn run<const X_WALKS: bool, const Y_WALKS: bool>(self) {
        let Range {
            walk,
            x,
            y,
            out,
            start,
            f,
        } = self;
        let n = walk.inner();
        if n == 0 || walk.numel() == 0 {
            return;
        }
        let mut cur = walk.cursor(start / n);
        let mut col = start % n;
        let mut done = 0usize;
        while done < out.len() {
            let len = (n - col).min(out.len() - done);
            let Some(o) = out.get_mut(done..done + len) else {
                return;
            };
            let [ox, oy] = cur.offsets;
            let ox = if X_WALKS { ox.wrapping_add(col) } else { ox };
            let oy = if Y_WALKS { oy.wrapping_add(col) } else { oy };
            binary_piece::<T, X_WALKS, Y_WALKS>(o, (x, ox), (y, oy), f);
            done += len;
            col = 0;
            walk.advance(&mut cur);
        }
    }
}

/// [`super::binary`] on the pool, then `after` on each finished piece (the
/// activation): callers check [`splits`] first.
pub fn binary<T, F, A>(walk: &Walk<2>, x: &[T], y: &[T], out: &mut [T], f: F, after: A)
where
    T: Copy + Send + Sync,
    F: Fn(T, T) -> T + Sync + Send,
    A: Fn(&mut [T]) + Sync + Send,
{
    let pieces = rayon::current_num_threads().saturating_mul(PIECES_PER_THREAD);
    for_row_pieces(out, 1, pieces, |piece, start| {
        binary_range(walk, x, y, piece, start, &f);
        after(piece);
    });
}

#[cfg(test)]
mod tests;
