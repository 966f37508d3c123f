//! The Rust writer `model!`'s generated code is made with: a value written
//! as the constant expression that rebuilds it ([`WriteRust`]), for the
//! primitives here and, beside each type's definition, for every type a
//! prepared step holds.

use core::fmt::{self, Write};
use core::marker::PhantomData;
use core::ops::Range;

/// A value written as a Rust constant expression that rebuilds it, naming
/// this module's items through the path `k` (the generated code's path to
/// this module, e.g. `::shapecheck::tflite::compiled`). Each step type
/// and each type in it implements it beside its definition.
pub trait WriteRust {
    /// Writes the expression.
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result;
}

/// `k::name { field: value, ... }`: a struct, or an enum's struct variant
/// (`name` is then `Enum::Variant`).
pub fn write_struct(
    w: &mut dyn Write,
    k: &str,
    name: &str,
    fields: &[(&str, &dyn WriteRust)],
) -> fmt::Result {
    write!(w, "{k}::{name} {{ ")?;
    for (field, value) in fields {
        write!(w, "{field}: ")?;
        value.write_rust(w, k)?;
        w.write_str(", ")?;
    }
    w.write_str("}")
}

/// `k::name(value, ...)`: an enum's tuple variant.
pub fn write_tuple(
    w: &mut dyn Write,
    k: &str,
    name: &str,
    values: &[&dyn WriteRust],
) -> fmt::Result {
    write!(w, "{k}::{name}(")?;
    for value in values {
        value.write_rust(w, k)?;
        w.write_str(", ")?;
    }
    w.write_str(")")
}

/// `k::name`: an enum's unit variant.
pub fn write_path(w: &mut dyn Write, k: &str, name: &str) -> fmt::Result {
    write!(w, "{k}::{name}")
}

impl WriteRust for usize {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}usize")
    }
}

impl WriteRust for i8 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i8")
    }
}

impl WriteRust for i16 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i16")
    }
}

impl WriteRust for i32 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i32")
    }
}

impl WriteRust for u32 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}u32")
    }
}

impl WriteRust for i64 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i64")
    }
}

impl WriteRust for bool {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}")
    }
}

impl WriteRust for f32 {
    /// By its bits: every value exactly, infinities and NaN included.
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(
            w,
            "::core::primitive::f32::from_bits({:#010x}u32)",
            self.to_bits()
        )
    }
}

impl WriteRust for Range<usize> {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{}usize..{}usize", self.start, self.end)
    }
}

impl<T: WriteRust> WriteRust for Option<T> {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        match self {
            Some(v) => {
                w.write_str("::core::option::Option::Some(")?;
                v.write_rust(w, k)?;
                w.write_str(")")
            }
            None => w.write_str("::core::option::Option::None"),
        }
    }
}

impl<T: WriteRust, const N: usize> WriteRust for [T; N] {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        w.write_str("[")?;
        for v in self {
            v.write_rust(w, k)?;
            w.write_str(", ")?;
        }
        w.write_str("]")
    }
}

/// `&[v, ...]`: in a `static`'s value, promoted to a `'static` array.
impl<T: WriteRust> WriteRust for &[T] {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        w.write_str("&[")?;
        for v in self.iter() {
            v.write_rust(w, k)?;
            w.write_str(", ")?;
        }
        w.write_str("]")
    }
}

impl<A: WriteRust, B: WriteRust> WriteRust for (A, B) {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        w.write_str("(")?;
        self.0.write_rust(w, k)?;
        w.write_str(", ")?;
        self.1.write_rust(w, k)?;
        w.write_str(")")
    }
}

impl<A: WriteRust, B: WriteRust, C: WriteRust> WriteRust for (A, B, C) {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        w.write_str("(")?;
        self.0.write_rust(w, k)?;
        w.write_str(", ")?;
        self.1.write_rust(w, k)?;
        w.write_str(", ")?;
        self.2.write_rust(w, k)?;
        w.write_str(")")
    }
}

impl<T> WriteRust for PhantomData<T> {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        w.write_str("::core::marker::PhantomData")
    }
}
