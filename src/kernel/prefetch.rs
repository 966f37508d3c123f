//! Asking the cache for a row before it is written, for writes scattered
//! over an output larger than the cache (dynamic_stitch's rows, each to the
//! row its index names).
//!
//! A store to a line that is not in the cache waits for the line to be read
//! first, and a core keeps only a few such stores waiting: a loop of
//! scattered row copies stalls on each row in turn. The rows' places are
//! known ahead (the indices), so each row's lines are asked for
//! [`AHEAD`] rows before it is copied, and the reads overlap. A hint is not
//! a memory access: it changes no value, and the results are the same with
//! or without it (on targets other than x86_64 there is none).
//!
//! Measured on W5's shapes, copies of rows by a permutation into a buffer
//! of 4 KiB pages (`docs/measurements.md`, "W5: the rows asked for ahead"):
//! rows of 32 to 256 bytes on outputs of 1 to 64 MiB took 0.62 to 0.92 of
//! the plain loop's time; rows of 16 bytes on 16 and 64 MiB 1.04 to 1.24,
//! and an output of 256 KiB 0.96.

/// How many rows ahead of the copy a row is asked for: 16 and 32 measured
/// the same on W5's shapes; 4 and 8 less of the gain.
pub(crate) const AHEAD: usize = 16;

/// Whether a scatter of rows of `row_len` elements of `T` into an output of
/// `out_len` elements asks for its rows ahead: rows of at least
/// [`MIN_ROW_BYTES`] into at least [`MIN_OUT_BYTES`], on targets that trade
/// code for time ([`super::SPEED_OVER_SIZE`]; elsewhere a constant `false`
/// and the plain loop alone is compiled).
#[inline(always)]
pub(crate) fn pays<T>(row_len: usize, out_len: usize) -> bool {
    let size = core::mem::size_of::<T>();
    super::SPEED_OVER_SIZE
        && cfg!(target_arch = "x86_64")
        && row_len.saturating_mul(size) >= MIN_ROW_BYTES
        && out_len.saturating_mul(size) >= MIN_OUT_BYTES
}

/// The shortest row asked for ahead: rows of 16 bytes (four to a cache
/// line) were slower with the hints on outputs of 16 and 64 MiB.
const MIN_ROW_BYTES: usize = 32;

/// The smallest output whose rows are asked for ahead: on 256 KiB the
/// hinted loop took 0.96 of the plain one's time, on 1 MiB 0.71 to 0.74.
const MIN_OUT_BYTES: usize = 1 << 20;

/// The bytes of a cache line on the targets that take the hints.
const LINE: usize = 64;

/// Asks the cache for every line of `row`, to be written soon.
#[inline(always)]
pub(crate) fn row<T>(row: &[T]) {
    let bytes = core::mem::size_of_val(row);
    let first = row.as_ptr().cast::<u8>();
    let mut at = 0;
    while at < bytes {
        line(first.wrapping_add(at));
        at += LINE;
    }
    // the last line, which the steps above miss when `row` starts inside a
    // line and ends in the next one
    if bytes > 0 {
        line(first.wrapping_add(bytes - 1));
    }
}

/// Asks for the cache line holding `at` (a byte of a row, inside it).
#[inline(always)]
fn line(at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch hint reads nothing into the program, writes nothing
    // and never faults, whatever the address (here always inside a row);
    // SSE, which has it, is part of every x86_64 target. The write hint
    // compiles to `prefetchw` where the target has it, else (the baseline
    // x86_64 target, which the measurements used) to `prefetcht0`.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_ET0};
        _mm_prefetch::<_MM_HINT_ET0>(at.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}
