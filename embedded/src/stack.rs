//! Stack measurement by painting: fill the free stack (from cortex-m-rt's
//! `_stack_end`, the top of .bss / the heap start, up to just below the
//! current stack pointer) with a pattern, run, then find the lowest word that
//! no longer holds the pattern. The stack grows down from `_stack_start`.
//!
//! A word that the program wrote with the pattern's own value would hide one
//! word of depth: the pattern is an odd value no test data contains.

use core::ptr::{addr_of, read_volatile, write_volatile};

const PAINT: u32 = 0xC5AC_5EED;

extern "C" {
    static _stack_start: u32;
    static _stack_end: u32;
}

fn bottom() -> usize {
    addr_of!(_stack_end) as usize
}

fn top() -> usize {
    addr_of!(_stack_start) as usize
}

/// Paints every free stack word below the caller's frame; returns the
/// address up to which it painted (exclusive).
#[inline(never)]
pub fn paint() -> usize {
    let sp = cortex_m::register::msp::read() as usize;
    // this function is a leaf: nothing it does goes below `sp`; 16 bytes of
    // margin all the same
    let end = (sp - 16) & !3;
    fill((bottom() + 3) & !3, end);
    end
}

#[inline(always)]
fn fill(mut p: usize, end: usize) {
    while p < end {
        // SAFETY: callers pass a range of the unused part of the stack
        // region (cortex-m-rt puts nothing between `_stack_end` and the
        // stack), below every live frame.
        unsafe { write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// The lowest stack address written since [`paint`].
#[inline(never)]
fn lowest_written() -> usize {
    let mut p = (bottom() + 3) & !3;
    let top = top();
    // SAFETY: reads of the stack region's words, below the live frames
    while p < top && unsafe { read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    p
}

/// The peak stack since reset, in bytes, as far as the last [`paint`] can
/// tell (the deepest point reached after it, counted from the stack's top).
pub fn peak() -> usize {
    top() - lowest_written()
}

/// The stack used below `base` (a [`paint`] result) since that paint: the
/// depth of what ran in between, its own frames included.
pub fn used_below(base: usize) -> usize {
    base.saturating_sub(lowest_written())
}

/// The stack `f` uses below this function's frame, in bytes: what a call
/// from `f` to a function that is not inlined costs (its frame and
/// everything it calls), to the word. `f`'s own locals live in this frame
/// and are not counted.
#[inline(never)]
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = cortex_m::register::msp::read() as usize & !3;
    let painted = paint();
    // the words between paint's frame and this one: free again now, and no
    // call is made while they are filled
    fill(painted, base);
    let r = f();
    (r, used_below(base))
}
