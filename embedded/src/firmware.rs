//! The end of a size firmware (examples/size_*.rs): reports the stack of
//! its one op call and exits through semihosting. Nothing
//! here uses `core::fmt`, so the firmware's flash is the op, its data and
//! this frame.

use cortex_m_semihosting::{debug, hio};

/// Prints `op stack: N B` (`used`: what [`stack::measure`] gave for the op
/// call alone) and exits: success if `ok` (the op's output is the expected
/// one).
pub fn finish(used: usize, ok: bool) -> ! {
    let mut line = *b"op stack:            B\n";
    let mut n = used;
    let mut at = 19;
    loop {
        line[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 || at == 10 {
            break;
        }
        at -= 1;
    }
    if let Ok(mut out) = hio::hstdout() {
        let _ = out.write_all(&line);
    }
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    #[allow(clippy::empty_loop)]
    loop {}
}
