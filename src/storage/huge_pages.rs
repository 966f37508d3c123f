//! Transparent huge pages for large results (Linux, feature `std`).
//!
//! A fresh heap result of 32 MiB is 8192 pages of 4 KiB, and the first write
//! to each is a page fault: for an allocating `[256, 128, 256]` product the
//! faults cost more than the product itself. With the kernel's transparent
//! huge pages in `madvise` mode (the usual default) only memory marked with
//! `madvise(MADV_HUGEPAGE)` is backed by 2 MiB pages, one fault each; numpy
//! marks its buffers of 4 MiB or more the same way. The advice changes how
//! the kernel backs the pages, never their contents, so results are the same
//! with it, without it, and where the kernel ignores it (THP `never`, no THP
//! support: the call fails and the error is ignored).
//!
//! Only with `std` on Linux: `std` links the C library there, and the `libc`
//! crate gives `madvise` and each architecture's `MADV_HUGEPAGE`. Without
//! `std` (or elsewhere) `advise` does nothing.

#[cfg(all(feature = "std", target_os = "linux"))]
pub(crate) use linux::*;

/// With `std` on Linux: `madvise`.
#[cfg(all(feature = "std", target_os = "linux"))]
mod linux {
    use alloc::vec::Vec;

    /// The huge page size of x86-64 (and of aarch64 with 4 KiB pages). The
    /// advice covers whole aligned blocks of this size only: a huge page
    /// cannot straddle the buffer's ends, and a block start is aligned to
    /// any base page size.
    const HUGE: usize = 2 << 20;
    /// Buffers from this size on are advised (numpy's threshold).
    pub(crate) const MIN_BYTES: usize = 4 << 20;

    /// The aligned huge-page blocks inside the `bytes` bytes at address
    /// `start`, as (offset from `start`, length), or `None` if the buffer is
    /// smaller than [`MIN_BYTES`] or holds no whole block.
    pub(crate) fn blocks(start: usize, bytes: usize) -> Option<(usize, usize)> {
        if bytes < MIN_BYTES {
            return None;
        }
        let end = start.checked_add(bytes)?;
        let first = start.checked_add(HUGE - 1)? & !(HUGE - 1);
        let last = end & !(HUGE - 1);
        (last > first).then(|| (first - start, last - first))
    }

    /// Asks for huge pages over `buf`'s allocation (its capacity), before
    /// anything writes to it.
    pub(crate) fn advise<T>(buf: &mut Vec<T>) {
        let bytes = buf.capacity().saturating_mul(core::mem::size_of::<T>());
        let base = buf.as_mut_ptr().cast::<u8>();
        if let Some((offset, len)) = blocks(base as usize, bytes) {
            let at = base.wrapping_add(offset).cast::<libc::c_void>();
            // SAFETY: `[at, at + len)` lies inside the allocation `buf` owns
            // (`blocks` keeps to its `bytes`). MADV_HUGEPAGE reads and
            // writes no memory; it only tells the kernel how to back these
            // pages. A failure leaves everything as it was: it is ignored.
            unsafe {
                libc::madvise(at, len, libc::MADV_HUGEPAGE);
            }
        }
    }
}

/// Without `std` on Linux: no advice.
#[cfg(not(all(feature = "std", target_os = "linux")))]
pub(crate) fn advise<T>(_buf: &mut alloc::vec::Vec<T>) {}
