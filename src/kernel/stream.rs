//! Streaming (non-temporal) stores for outputs larger than the cache: the
//! written lines go to memory without being read first and without
//! evicting the operands, as `memcpy` does for such sizes.
//!
//! An ordinary store to a line not in the cache first reads the line
//! ("read for ownership"): an op writing a 32 MiB output reads 32 MiB more
//! than `memcpy` of the same output, which streams. Below the threshold the
//! output may stay in the cache for whoever reads it next, and ordinary
//! stores are right. The threshold is `memcpy`'s own rule (glibc's): three
//! quarters of the last-level cache, as the CPU reports it. Where no cache
//! is reported, or on a target other than x86_64, nothing streams and
//! [`write_row`] is the plain loop.
//!
//! Measured on W1 (`docs/measurements.md`, "Streaming stores").

/// Whether an output of `len` elements of `T` is written with streaming
/// stores: at least [`MIN_ROW`] elements and [`min_bytes`] bytes, of an
/// element of at most 16 bytes whose alignment divides 16.
#[inline]
pub(crate) fn pays<T>(len: usize) -> bool {
    // elsewhere a constant `false`, so that the streaming loops are not
    // compiled in (the firmware's code size)
    if cfg!(not(target_arch = "x86_64")) {
        return false;
    }
    // first what a static op's constant length answers at compile time (no
    // row of an output this short is streamed), so that small static ops
    // compile to no cache lookup and no streaming loop
    if len < MIN_ROW {
        return false;
    }
    let size = core::mem::size_of::<T>();
    size > 0
        && size <= 16
        && 16 % core::mem::align_of::<T>() == 0
        && len.saturating_mul(size) >= min_bytes()
}

/// The shortest output row (in elements) that is streamed: each row pays a
/// setup (its unaligned head, the pieces' buffer), which short rows do not
/// earn back. Measured on W2 (`[256, 128, 256] x [128]` at axis 1, rows of
/// 256): 4.7-5.3 ms streamed against 2.8-3.0 ms with ordinary stores, where
/// W1's rows of 32768 went from 4.05 to 3.65 ms (memcpy 3.6 ms).
pub(crate) const MIN_ROW: usize = 4096;

/// The elements written per streamed piece: a stack buffer of this many is
/// computed by the caller's loop, then streamed (a multiple of 16, so
/// every piece is a whole number of 16-byte stores for any element size).
/// Only x86_64 streams (elsewhere it would be an unused constant).
#[cfg(target_arch = "x86_64")]
const PIECE: usize = 64;

/// Writes one output row `o`: `fill(start, dst)` computes the row's
/// elements `start..start + dst.len()` into `dst`. The head of the row up
/// to a 16-byte boundary and its tail are filled in place; the middle is
/// computed [`PIECE`] elements at a time into a stack buffer and streamed
/// to `o`. On targets without streaming stores, `fill(0, o)`.
///
/// Call [`fence`] once after the last row, before the output is handed to
/// anyone.
#[inline(always)]
pub(crate) fn write_row<T: Copy>(o: &mut [T], mut fill: impl FnMut(usize, &mut [T])) {
    #[cfg(target_arch = "x86_64")]
    {
        let head = o.as_ptr().align_offset(16);
        let Some(first) = o.first().copied() else {
            return;
        };
        if head < o.len() {
            let (front, rest) = o.split_at_mut(head);
            fill(0, front);
            let mut buf = [first; PIECE];
            let mut pieces = rest.chunks_exact_mut(PIECE);
            let mut start = head;
            for dst in &mut pieces {
                fill(start, &mut buf);
                stream_piece(dst, &buf);
                start += PIECE;
            }
            fill(start, pieces.into_remainder());
            return;
        }
    }
    fill(0, o);
}

/// Streams `src` to `dst` (equal lengths of [`PIECE`] elements, `dst`
/// 16-byte aligned), 16 bytes per store.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn stream_piece<T: Copy>(dst: &mut [T], src: &[T; PIECE]) {
    use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
    let bytes = core::mem::size_of_val(src);
    if dst.len() != PIECE || dst.as_ptr().align_offset(16) != 0 {
        // not reached: `write_row` gives whole aligned pieces
        dst.copy_from_slice(src);
        return;
    }
    let (from, to) = (src.as_ptr().cast::<u8>(), dst.as_mut_ptr().cast::<u8>());
    let mut at = 0;
    while at + 16 <= bytes {
        // SAFETY: `dst` and `src` are both `bytes` long (`PIECE` elements
        // of `T`, checked above), and `at + 16 <= bytes`, so both 16-byte
        // ranges are in bounds. `to + at` is 16-byte aligned (`dst` is,
        // checked above, and `at` is a multiple of 16), as `_mm_stream_si128`
        // requires; `_mm_loadu_si128` reads unaligned. SSE2 is part of
        // x86_64. The two ranges do not overlap (`src` is the caller's stack
        // buffer, `dst` a `&mut` borrow). `T: Copy`, so a bytewise copy is a
        // copy of the values.
        unsafe {
            let v = _mm_loadu_si128(from.add(at).cast::<__m128i>());
            _mm_stream_si128(to.add(at).cast::<__m128i>(), v);
        }
        at += 16;
    }
}

/// Orders the streaming stores before any later store or read of the
/// output (by another thread too): they are weakly ordered until then.
#[inline]
pub(crate) fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` only orders earlier stores; SSE is part of x86_64.
    unsafe {
        core::arch::x86_64::_mm_sfence();
    }
}

/// Three quarters of the last-level cache in bytes, read once from the CPU
/// (`usize::MAX` where it reports none: never stream).
fn min_bytes() -> usize {
    use core::sync::atomic::{AtomicUsize, Ordering};
    // 0: not read yet
    static MIN: AtomicUsize = AtomicUsize::new(0);
    match MIN.load(Ordering::Relaxed) {
        0 => {
            let m = last_level_cache().map_or(usize::MAX, |c| c / 4 * 3).max(1);
            MIN.store(m, Ordering::Relaxed);
            m
        }
        m => m,
    }
}

/// The size of the largest data or unified cache the CPU describes
/// (CPUID leaf 4 on Intel, 0x8000_001D on AMD: the same layout).
#[cfg(target_arch = "x86_64")]
fn last_level_cache() -> Option<usize> {
    use core::arch::x86_64::__cpuid_count;
    let extended = __cpuid_count(0x8000_0000, 0).eax;
    let leaf = if __cpuid_count(0, 0).eax >= 4 && __cpuid_count(4, 0).eax & 0x1f != 0 {
        4
    } else if extended >= 0x8000_001d {
        0x8000_001d
    } else {
        return None;
    };
    let mut largest = None;
    for sub in 0..16 {
        let r = __cpuid_count(leaf, sub);
        // kind 0: no more caches; 2 is an instruction cache
        match r.eax & 0x1f {
            0 => break,
            2 => continue,
            _ => {}
        }
        let ways = ((r.ebx >> 22) & 0x3ff) as usize + 1;
        let partitions = ((r.ebx >> 12) & 0x3ff) as usize + 1;
        let line = (r.ebx & 0xfff) as usize + 1;
        let sets = r.ecx as usize + 1;
        let size = ways
            .checked_mul(partitions)
            .and_then(|s| s.checked_mul(line))
            .and_then(|s| s.checked_mul(sets));
        largest = largest.max(size);
    }
    largest
}

/// No streaming stores on this target.
#[cfg(not(target_arch = "x86_64"))]
fn last_level_cache() -> Option<usize> {
    None
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::{vec, vec::Vec};

    /// `write_row` computes every element exactly where the plain loop
    /// does, for rows of every length from 0 to 300 at every offset from
    /// a 16-byte boundary, for 1-, 4-, 8- and 16-byte elements.
    #[test]
    fn write_row_writes_what_the_plain_loop_writes() {
        fn check<T: Copy + PartialEq + core::fmt::Debug + From<u8>>(tag: &str) {
            let f = |i: usize| T::from((i * 7 % 251) as u8);
            for offset in 0..16 {
                for len in 0..300 {
                    let mut buf = vec![T::from(255u8); len + offset + 16];
                    let o = &mut buf[offset..offset + len];
                    write_row(o, |start, dst| {
                        for (k, d) in dst.iter_mut().enumerate() {
                            *d = f(start + k);
                        }
                    });
                    fence();
                    let want: Vec<T> = (0..len).map(f).collect();
                    assert_eq!(
                        &buf[offset..offset + len],
                        &want[..],
                        "{tag} {offset} {len}"
                    );
                    assert!(
                        buf[..offset].iter().all(|&v| v == T::from(255u8)),
                        "{tag} before"
                    );
                    assert!(
                        buf[offset + len..].iter().all(|&v| v == T::from(255u8)),
                        "{tag} after"
                    );
                }
            }
        }
        check::<u8>("u8");
        check::<f32>("f32");
        check::<f64>("f64");
        check::<u128>("u128");
    }

    /// The threshold: never below 1, and only for small elements that fit
    /// a 16-byte store.
    #[test]
    fn pays_only_for_small_elements_past_the_threshold() {
        assert!(min_bytes() >= 1);
        assert!(!pays::<f32>(0));
        assert!(!pays::<()>(usize::MAX));
        assert!(!pays::<[u8; 17]>(usize::MAX));
        assert_eq!(pays::<f32>(usize::MAX), min_bytes() != usize::MAX);
    }
}
