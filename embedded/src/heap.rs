//! The heap of the alloc variant (feature `alloc`): a 32 KiB static array
//! managed by embedded-alloc's linked-list allocator, the global allocator
//! of every firmware built with the feature.

use core::cell::Cell;
use core::mem::MaybeUninit;
use cortex_m::interrupt::{self, Mutex};
use embedded_alloc::LlffHeap;

#[global_allocator]
static HEAP: LlffHeap = LlffHeap::empty();

/// The heap's size in bytes.
pub const SIZE: usize = 32 * 1024;

/// Gives the heap its memory; call first thing in `main`, before any
/// allocation (a second call does nothing).
pub fn init() {
    static mut MEMORY: [MaybeUninit<u8>; SIZE] = [MaybeUninit::uninit(); SIZE];
    // a flag under a critical section, not an atomic swap: the Cortex-M0
    // has no atomic read-modify-write
    static DONE: Mutex<Cell<bool>> = Mutex::new(Cell::new(false));
    interrupt::free(|cs| {
        let done = DONE.borrow(cs);
        if !done.replace(true) {
            // SAFETY: reached once (DONE), before any allocation; MEMORY is
            // used by nothing else.
            unsafe { HEAP.init(&raw mut MEMORY as usize, SIZE) }
        }
    });
}

/// Bytes allocated now.
pub fn used() -> usize {
    HEAP.used()
}
