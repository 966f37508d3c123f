//! Support for the firmware tests of shapecheck on a Cortex-M under QEMU:
//! - a panic handler that exits with failure, and [`Checks`], a check
//!   counter that reports through semihosting and exits with QEMU's exit
//!   code (0 = every check held), with the test's peak stack;
//! - the conformance vectors embedded by build.rs ([`vectors`], [`Vector`]);
//! - one case through one API form: the macros `elementwise_case!`,
//!   `select_case!`, `multiplex_case!` (static API) and [`slices`] (the
//!   no-heap dynamic path);
//! - [`stack`] (painting, to measure stack on target), [`firmware`] (the end
//!   of a size firmware), and with the `alloc` feature the global heap
//!   (`heap`); [`fused`], the data of the fused-expression size firmwares;
//!   [`core_ops`], those of matmul's, sum's and softmax's; [`one_op`],
//!   TFLite Micro's one-op models through the interpreter.
#![no_std]

use core::panic::PanicInfo;
use cortex_m_semihosting::{debug, hprintln};
use shapecheck::{StaticShape, Tensor};

mod cases;
pub mod core_ops;
pub mod firmware;
pub mod fused;
#[cfg(feature = "alloc")]
pub mod heap;
pub mod one_op;
pub mod slices;
pub mod stack;

pub use cases::Sentinel;

/// The conformance vectors the tests and firmwares ask for with
/// `// vector: NAME = FILE CASE#K` lines (see build.rs): one module per
/// requesting source file, one module per case.
pub mod vectors {
    include!(concat!(env!("OUT_DIR"), "/vectors.rs"));
}

/// A tensor of a conformance vector, in flash: its dims and row-major data.
#[derive(Debug, Clone, Copy)]
pub struct Vector<T: 'static> {
    /// The dims, as recorded.
    pub dims: &'static [usize],
    /// The row-major data, as recorded.
    pub data: &'static [T],
}

impl<T: Copy> Vector<T> {
    /// A view over the vector's data with the static shape `S`; `None` if
    /// the recorded dims are not `S`'s (a vector file changed under the test).
    pub fn view<S: StaticShape>(&self) -> Option<Tensor<T, S, &'static [T]>> {
        if self.dims != S::DIMS {
            return None;
        }
        Tensor::from_storage(self.data).ok()
    }

    /// An inline copy of the vector with the static shape `S` (None as for
    /// [`view`](Self::view)).
    pub fn inline<S: StaticShape>(&self) -> Option<Tensor<T, S>>
    where
        T: Default,
    {
        if self.dims != S::DIMS {
            return None;
        }
        Tensor::from_slice(self.data).ok()
    }
}

/// Views over `K` vectors of one static shape `S` (multiplex's candidates).
pub fn views<T: Copy, S: StaticShape, const K: usize>(
    list: &[Vector<T>],
) -> Option<[Tensor<T, S, &'static [T]>; K]> {
    if list.len() != K {
        return None;
    }
    let views: [Option<Tensor<T, S, &'static [T]>>; K] =
        core::array::from_fn(|i| list.get(i).and_then(Vector::view::<S>));
    if views.iter().any(Option::is_none) {
        return None;
    }
    Some(views.map(|v| v.unwrap_or_else(|| unreachable!())))
}

/// A panic (none should happen: the library never panics) fails the run.
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

/// Counts checks and failures of one firmware test, and measures its stack.
pub struct Checks {
    name: &'static str,
    run: u32,
    failed: u32,
    /// the deepest stack before the last [`repaint_stack`](Self::repaint_stack)
    peak_before: usize,
}

impl Checks {
    /// A new, empty counter for the test `name`; paints the free stack
    /// below the caller so that [`finish`](Self::finish) can report the
    /// peak stack of the test (call it first thing in `main`).
    pub fn new(name: &'static str) -> Self {
        stack::paint();
        Checks {
            name,
            run: 0,
            failed: 0,
            peak_before: 0,
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

    /// The peak stack since reset or the last call, then the free stack
    /// painted again: what runs next is measured alone (a test's parts
    /// each with their own peak), and [`finish`](Self::finish) still
    /// reports the deepest of all.
    pub fn repaint_stack(&mut self) -> usize {
        let peak = stack::peak();
        self.peak_before = self.peak_before.max(peak);
        stack::paint();
        peak
    }

    /// How many checks failed so far.
    pub fn failed(&self) -> u32 {
        self.failed
    }

    /// `Some(v)`, or a failed check named `what` and `None`.
    #[track_caller]
    pub fn some<V>(&mut self, v: Option<V>, what: &str) -> Option<V> {
        if v.is_none() {
            self.check(false, what);
        }
        v
    }

    /// `got == want` element by element (exact: integers, and floats whose
    /// value is exact, which the vectors' are except tanh / sigmoid).
    #[track_caller]
    pub fn eq<T: PartialEq + core::fmt::Debug>(&mut self, got: &[T], want: &[T], what: &str) {
        let ok = got == want;
        self.check(ok, what);
        if !ok {
            hprintln!("  got  {:?}\n  want {:?}", got, want);
        }
    }

    /// `got` matches `want` element by element: exactly for integers and
    /// booleans, within `tol * max(1, |want|)` for floats (`tol` 0: exactly).
    #[track_caller]
    pub fn approx<T: Approx>(&mut self, got: &[T], want: &[T], tol: f64, what: &str) {
        let ok = got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.near(*w, tol));
        self.check(ok, what);
        if !ok {
            hprintln!("  got  {:?}\n  want {:?}", got, want);
        }
    }

    /// Prints the tally and the peak stack, and exits QEMU: success only if
    /// every check held.
    pub fn finish(self) -> ! {
        let peak = stack::peak().max(self.peak_before);
        hprintln!(
            "{}: {} checks, {} failed, peak stack {} B",
            self.name,
            self.run,
            self.failed,
            peak
        );
        debug::exit(if self.failed == 0 && self.run > 0 {
            debug::EXIT_SUCCESS
        } else {
            debug::EXIT_FAILURE
        });
        #[allow(clippy::empty_loop)]
        loop {}
    }
}

/// Element comparison for [`Checks::approx`].
pub trait Approx: Copy + PartialEq + core::fmt::Debug {
    /// `self` equals `want`, within `tol` relative for floats.
    fn near(self, want: Self, tol: f64) -> bool {
        let _ = tol;
        self == want
    }
}
impl Approx for bool {}
impl Approx for i32 {}
impl Approx for i64 {}
impl Approx for f32 {
    fn near(self, want: f32, tol: f64) -> bool {
        (self as f64).near(want as f64, tol)
    }
}
impl Approx for f64 {
    fn near(self, want: f64, tol: f64) -> bool {
        let d = if self > want {
            self - want
        } else {
            want - self
        };
        let m = if want < 0.0 { -want } else { want };
        self == want || d <= tol * if m > 1.0 { m } else { 1.0 }
    }
}

/// The value of the attribute `key` in a case's `ATTRS`, as text.
pub fn attr(attrs: &[(&'static str, &'static str)], key: &str) -> Option<&'static str> {
    attrs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// What an op call gave, whether it returns `()`, a tensor or a `Result`:
/// lets one macro drive the infallible and the fallible forms.
pub trait Outcome {
    /// The success value.
    type Ok;
    /// `Some` on success.
    fn outcome(self) -> Option<Self::Ok>;
}
impl Outcome for () {
    type Ok = ();
    fn outcome(self) -> Option<()> {
        Some(())
    }
}
impl<T: Copy, S: shapecheck::Shape, B: shapecheck::Storage<T>> Outcome for Tensor<T, S, B> {
    type Ok = Self;
    fn outcome(self) -> Option<Self> {
        Some(self)
    }
}
impl<V, E> Outcome for Result<V, E> {
    type Ok = V;
    fn outcome(self) -> Option<V> {
        self.ok()
    }
}
