//! Support for the firmware tests of shapecheck on a Cortex-M4F under QEMU:
//! a panic handler that exits with failure, and a check counter that reports
//! through semihosting and exits with QEMU's exit code (0 = every check held).
#![no_std]

use core::panic::PanicInfo;
use cortex_m_semihosting::{debug, hprintln};

/// A panic (none should happen: the library never panics) fails the run.
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

/// Counts checks and failures of one firmware test.
pub struct Checks {
    name: &'static str,
    run: u32,
    failed: u32,
}

impl Checks {
    /// A new, empty counter for the test `name`.
    pub const fn new(name: &'static str) -> Self {
        Checks {
            name,
            run: 0,
            failed: 0,
        }
    }

    /// Records one check; a failure is printed with its line and `what`.
    #[track_caller]
    pub fn check(&mut self, ok: bool, what: &str) {
        self.run += 1;
        if !ok {
            self.failed += 1;
            let at = core::panic::Location::caller();
            hprintln!("FAILED {}:{}: {}", at.file(), at.line(), what);
        }
    }

    /// `got == want` element by element (exact: integers, and floats whose
    /// hand-computed value is exactly representable).
    #[track_caller]
    pub fn eq<T: PartialEq + core::fmt::Debug>(&mut self, got: &[T], want: &[T], what: &str) {
        let ok = got == want;
        self.check(ok, what);
        if !ok {
            hprintln!("  got  {:?}\n  want {:?}", got, want);
        }
    }

    /// `|got - want| <= tol` element by element.
    #[track_caller]
    pub fn close(&mut self, got: &[f32], want: &[f32], tol: f32, what: &str) {
        let ok = got.len() == want.len()
            && got.iter().zip(want).all(|(g, w)| {
                let d = *g - *w;
                d <= tol && -d <= tol
            });
        self.check(ok, what);
        if !ok {
            hprintln!("  got  {:?}\n  want {:?}", got, want);
        }
    }

    /// Prints the tally and exits QEMU: success only if every check held.
    pub fn finish(self) -> ! {
        hprintln!("{}: {} checks, {} failed", self.name, self.run, self.failed);
        debug::exit(if self.failed == 0 && self.run > 0 {
            debug::EXIT_SUCCESS
        } else {
            debug::EXIT_FAILURE
        });
        #[allow(clippy::empty_loop)]
        loop {}
    }
}
