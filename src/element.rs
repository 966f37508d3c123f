//! Element types: `f32`, `f64`, `i32`, `i64` (and the other primitive
//! integers), with the arithmetic the frameworks use.
//!
//! Integer arithmetic wraps on overflow as the frameworks' C++ kernels do in
//! practice (Rust's debug-mode overflow panic must never fire on user data);
//! integer division truncates toward zero and division by zero is reported by
//! the op as an error before any element is computed.

use core::fmt::Debug;
use num_traits::Float;

mod sealed {
    pub trait Sealed {}
}

/// A numeric element type of a tensor.
pub trait Element:
    Copy + Default + Debug + PartialEq + PartialOrd + Send + Sync + 'static + sealed::Sealed
{
    /// The framework dtype name (`"float32"`, `"int64"`, ...).
    const DTYPE: &'static str;
    /// `true` for integer types (division by zero is an error for them).
    const IS_INTEGER: bool;
    /// `a + b` (wrapping for integers).
    fn add(a: Self, b: Self) -> Self;
    /// `a - b` (wrapping for integers).
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b` (wrapping for integers).
    fn mul(a: Self, b: Self) -> Self;
    /// `a / b`; integers truncate toward zero, and the caller rules out `b == 0`
    /// (this returns 0 rather than panicking if it is not ruled out).
    fn div(a: Self, b: Self) -> Self;
    /// `true` if the value is zero.
    fn is_zero(self) -> bool;
    /// The value as `f64` (exact for every value the vectors use).
    fn to_f64(self) -> f64;
    /// The nearest value of this type to `v` (`as` conversion: integers truncate and saturate).
    fn from_f64(v: f64) -> Self;
}

/// `Element` for one type: its name, whether it is an integer, its zero,
/// and its four operations (written over `a` and `b`).
macro_rules! element {
    ($t:ty, $name:literal, $int:literal, $zero:literal,
     |$a:ident, $b:ident| $($op:ident = $body:expr),*) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: &'static str = $name;
            const IS_INTEGER: bool = $int;
            $(
                #[inline(always)]
                fn $op($a: Self, $b: Self) -> Self {
                    $body
                }
            )*
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == $zero
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
        }
    };
}

/// IEEE 754 arithmetic.
macro_rules! float_element {
    ($t:ty, $name:literal) => {
        element!(
            $t,
            $name,
            false,
            0.0,
            |a, b| add = a + b,
            sub = a - b,
            mul = a * b,
            div = a / b
        );
    };
}

/// Wrapping arithmetic; division by zero gives 0 (the ops rule it out first).
macro_rules! int_element {
    ($t:ty, $name:literal) => {
        element!(
            $t,
            $name,
            true,
            0,
            |a, b| add = a.wrapping_add(b),
            sub = a.wrapping_sub(b),
            mul = a.wrapping_mul(b),
            div = a
                .checked_div(b)
                .unwrap_or_else(|| if b == 0 { 0 } else { a.wrapping_div(b) })
        );
    };
}

float_element!(f32, "float32");
float_element!(f64, "float64");
int_element!(i8, "int8");
int_element!(i16, "int16");
int_element!(i32, "int32");
int_element!(i64, "int64");
int_element!(u8, "uint8");
int_element!(u16, "uint16");
int_element!(u32, "uint32");
int_element!(u64, "uint64");

/// "Both operands hold the same element type": implemented only for `T: SameElement<T>`.
/// Frameworks either reject mixed element types (Paddle 2.x: "Input tensors
/// must be same type") or promote them silently; shapecheck asks for an
/// explicit conversion, and says so at compile time.
#[diagnostic::on_unimplemented(
    message = "elementwise/element-type: the operands must hold one element type, but one holds {T} and the other {Self}",
    label = "expected a tensor of {T}, found one of {Self}",
    note = "convert one operand first; shapecheck never promotes element types implicitly"
)]
pub trait SameElement<T> {
    /// The slice as a slice of `T` (the identity: `Self` is `T`).
    fn same(s: &[Self]) -> &[T]
    where
        Self: Sized;
}

impl<T> SameElement<T> for T {
    #[inline(always)]
    fn same(s: &[T]) -> &[T] {
        s
    }
}

/// `tanh` in `f64` (no_std through `libm`).
#[inline]
pub(crate) fn tanh_f64(v: f64) -> f64 {
    Float::tanh(v)
}

/// `1 / (1 + e^-v)` in `f64`.
#[inline]
pub(crate) fn sigmoid_f64(v: f64) -> f64 {
    1.0 / (1.0 + Float::exp(-v))
}

/// `f16` and `bf16` (feature `half`): arithmetic as the frameworks' half
/// kernels do it, each operation in `f32` and rounded once to the half type;
/// activations in `f64`, rounded once. See [`interop::half`](crate::interop::half).
#[cfg(feature = "half")]
macro_rules! half_element {
    ($t:ty, $name:literal) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: &'static str = $name;
            const IS_INTEGER: bool = false;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() + b.to_f32())
            }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() - b.to_f32())
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() * b.to_f32())
            }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() / b.to_f32())
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self.to_f32() == 0.0
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                <$t>::to_f64(self)
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                <$t>::from_f64(v)
            }
        }
    };
}

#[cfg(feature = "half")]
half_element!(half::f16, "float16");
#[cfg(feature = "half")]
half_element!(half::bf16, "bfloat16");
