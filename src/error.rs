//! Errors shared by every operator: [`ShapeError`] and `rule_errors!`, the
//! macro every error enum of the crate is written with, both defined in
//! [`crate::dims`] (`ShapeError` holds [`Dims`](crate::Dims) and `Dims`
//! returns it, so the two live in one module, and the macro beside the enum
//! it first writes); and `Msg`, a compile-time message. Each operator has
//! its own error enum on top (for example
//! [`ElementwiseError`](crate::ElementwiseError)) that wraps `ShapeError`.
//!
//! With `rule_errors!`, one line per variant gives its rule id and its
//! message, so the enum, its `rule()`, its `Display` and its `Error` impl
//! cannot disagree.

pub(crate) use crate::dims::rule_errors;
pub use crate::dims::ShapeError;

/// A message built at compile time (const evaluation cannot format). Only
/// ever evaluated in constants: every index is guarded by its loop condition,
/// and even a wrong one would be a compile error, never a run-time panic.
pub(crate) struct Msg {
    pub(crate) buf: [u8; 320],
    pub(crate) len: usize,
}

#[allow(clippy::indexing_slicing)]
impl Msg {
    pub(crate) const fn push(mut self, s: &str) -> Msg {
        let s = s.as_bytes();
        let mut i = 0;
        while i < s.len() && self.len < self.buf.len() {
            self.buf[self.len] = s[i];
            self.len += 1;
            i += 1;
        }
        self
    }
    pub(crate) const fn push_num(mut self, n: usize) -> Msg {
        let mut digits = [0u8; 20];
        let mut k = 0;
        let mut n = n;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
        self
    }
    /// An empty message.
    pub(crate) const fn new() -> Msg {
        Msg {
            buf: [0; 320],
            len: 0,
        }
    }
    /// Static sizes as `[2, 3]`.
    pub(crate) const fn push_sizes(self, dims: &[usize]) -> Msg {
        let mut m = self.push("[");
        let mut i = 0;
        while i < dims.len() {
            if i > 0 {
                m = m.push(", ");
            }
            m = m.push_num(dims[i]);
            i += 1;
        }
        m.push("]")
    }
    /// Dims as the compiler knows them as `[Dyn, 3]`.
    pub(crate) const fn push_dims(self, dims: &[Option<usize>]) -> Msg {
        let mut m = self.push("[");
        let mut i = 0;
        while i < dims.len() {
            if i > 0 {
                m = m.push(", ");
            }
            m = match dims[i] {
                Some(d) => m.push_num(d),
                None => m.push("Dyn"),
            };
            i += 1;
        }
        m.push("]")
    }
}
