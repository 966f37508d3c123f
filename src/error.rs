//! Errors shared by every operator: [`ShapeError`], defined with the dims it
//! describes in [`crate::dims`]. Each operator has its own error enum on top
//! (for example [`ElementwiseError`](crate::ElementwiseError)) that wraps it.
//!
//! Every error enum of the crate is written with `rule_errors!`: one line
//! per variant gives its rule id and its message, so the enum, its `rule()`,
//! its `Display` and its `Error` impl cannot disagree.

pub use crate::dims::ShapeError;

/// Defines an error enum whose variants each report one rule.
///
/// Each variant is written as `Variant { fields } => "rule/id", ("message", args…)`:
/// the macro emits the `#[non_exhaustive]`-ready enum (attributes pass
/// through), `pub const fn rule(&self) -> &'static str` (documented by the
/// attributes before `fn rule;`), `Display` (the message, with the fields
/// in scope by name) and `core::error::Error`. The optional last clause
/// `Shape(ShapeError) => |e| rule, ("message", args…);` adds a variant that
/// wraps a [`ShapeError`] (its rule id computed from it, its source the
/// wrapped error) and `From<ShapeError>`, so `?` lifts a shape error into the
/// op's error.
macro_rules! rule_errors {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $var:ident $({ $($(#[$fmeta:meta])* $field:ident : $fty:ty),* $(,)? })?
                    => $rule:literal, ($($msg:tt)+)
            ),* $(,)?
        }
        $(#[$rmeta:meta])*
        fn rule;
        $(
            $(#[$smeta:meta])*
            Shape($sty:ident) => |$e:ident| $srule:expr, ($($smsg:tt)+);
        )?
    ) => {
        $(#[$meta])*
        pub enum $name {
            $(
                $(#[$vmeta])*
                $var $({ $($(#[$fmeta])* $field: $fty),* })?,
            )*
            $(
                $(#[$smeta])*
                Shape($sty),
            )?
        }

        impl $name {
            $(#[$rmeta])*
            pub const fn rule(&self) -> &'static str {
                match self {
                    $($name::$var { .. } => $rule,)*
                    $($name::Shape($e) => $srule,)?
                }
            }
        }

        impl core::fmt::Display for $name {
            #[allow(unused_variables)]
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self {
                    $($name::$var $({ $($field),* })? => write!(f, $($msg)+),)*
                    $($name::Shape($e) => write!(f, $($smsg)+),)?
                }
            }
        }

        impl core::error::Error for $name {
            fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
                match self {
                    $($name::Shape($e) => Some($e),)?
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }

        $(
            impl From<$sty> for $name {
                fn from($e: $sty) -> Self {
                    $name::Shape($e)
                }
            }
        )?
    };
}
pub(crate) use rule_errors;

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
    pub(crate) const fn push_dims(self, dims: crate::dim::StaticDims) -> Msg {
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
