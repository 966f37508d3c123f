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
    #[doc(hidden)]
    pub trait Sealed {}
}

/// `Send + Sync` with feature `rayon`, every type without: the bound that
/// lets an op whose element type is any `Copy` type (dynamic_stitch) split
/// its work across threads when the feature is on. Every primitive type,
/// and every type without raw pointers or cells, has it either way.
///
/// ```
/// use shapecheck::element::MaybeSync;
/// use shapecheck::{stitch_slices, StitchPair};
/// // every primitive type has it, with or without feature `rayon`
/// fn has_bound<T: MaybeSync>() {}
/// has_bound::<f32>();
/// has_bound::<(u8, bool)>();
/// // the bound on dynamic_stitch's element type, which can be any `Copy` type
/// let p = StitchPair::new(&[2], &[1i32, 0], &[2], &[(1u8, true), (2u8, false)]).unwrap();
/// let mut out = [(0u8, false); 2];
/// stitch_slices(&[p], &mut out).unwrap();
/// assert_eq!(out, [(2, false), (1, true)]);
/// ```
#[cfg(feature = "rayon")]
#[doc(hidden)]
pub trait MaybeSync: Send + Sync {}
#[cfg(feature = "rayon")]
impl<T: Send + Sync + ?Sized> MaybeSync for T {}
/// `Send + Sync` with feature `rayon`, every type without: the bound that
/// lets an op whose element type is any `Copy` type (dynamic_stitch) split
/// its work across threads when the feature is on. Every primitive type,
/// and every type without raw pointers or cells, has it either way.
///
/// ```
/// use shapecheck::element::MaybeSync;
/// use shapecheck::{stitch_slices, StitchPair};
/// // every primitive type has it, with or without feature `rayon`
/// fn has_bound<T: MaybeSync>() {}
/// has_bound::<f32>();
/// has_bound::<(u8, bool)>();
/// // the bound on dynamic_stitch's element type, which can be any `Copy` type
/// let p = StitchPair::new(&[2], &[1i32, 0], &[2], &[(1u8, true), (2u8, false)]).unwrap();
/// let mut out = [(0u8, false); 2];
/// stitch_slices(&[p], &mut out).unwrap();
/// assert_eq!(out, [(2, false), (1, true)]);
/// ```
#[cfg(not(feature = "rayon"))]
#[doc(hidden)]
pub trait MaybeSync {}
#[cfg(not(feature = "rayon"))]
impl<T: ?Sized> MaybeSync for T {}

/// A numeric element type of a tensor.
///
/// ```
/// use shapecheck::prelude::*;
/// fn sum<T: Element>(xs: &[T]) -> T {
///     xs.iter().fold(T::default(), |acc, &v| T::add(acc, v))
/// }
/// assert_eq!(sum(&[1i32, 2, 3]), 6);
/// assert_eq!(sum(&[0.5f64, 0.25]), 0.75);
/// assert_eq!(<f32 as Element>::DTYPE, "float32");
/// assert!(<i64 as Element>::IS_INTEGER);
/// assert!(!<f64 as Element>::IS_INTEGER);
/// ```
pub trait Element:
    Copy + Default + Debug + PartialEq + PartialOrd + Send + Sync + 'static + sealed::Sealed
{
    /// The framework dtype name (`"float32"`, `"int64"`, ...).
    const DTYPE: &'static str;
    /// `true` for integer types (division by zero is an error for them).
    const IS_INTEGER: bool;
    /// `a + b` (wrapping for integers).
    ///
    /// ```
    /// use shapecheck::Element;
    /// assert_eq!(<f32 as Element>::add(0.5, 0.25), 0.75);
    /// assert_eq!(<i8 as Element>::add(127, 1), -128);
    /// ```
    #[must_use]
    fn add(a: Self, b: Self) -> Self;
    /// `a - b` (wrapping for integers).
    ///
    /// ```
    /// use shapecheck::Element;
    /// assert_eq!(<f64 as Element>::sub(1.0, 0.25), 0.75);
    /// assert_eq!(<u8 as Element>::sub(0, 1), 255);
    /// ```
    #[must_use]
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b` (wrapping for integers).
    ///
    /// ```
    /// use shapecheck::Element;
    /// assert_eq!(<f32 as Element>::mul(1.5, 2.0), 3.0);
    /// assert_eq!(<i32 as Element>::mul(i32::MAX, 2), -2);
    /// ```
    #[must_use]
    fn mul(a: Self, b: Self) -> Self;
    /// `a / b`; integers truncate toward zero, and the caller rules out `b == 0`
    /// (this returns 0 rather than panicking if it is not ruled out).
    ///
    /// ```
    /// use shapecheck::Element;
    /// assert_eq!(<i32 as Element>::div(-7, 2), -3);
    /// assert_eq!(<i32 as Element>::div(7, 0), 0);
    /// assert_eq!(<i32 as Element>::div(i32::MIN, -1), i32::MIN);
    /// assert_eq!(<f64 as Element>::div(1.0, 0.0), f64::INFINITY);
    /// ```
    #[must_use]
    fn div(a: Self, b: Self) -> Self;
    /// `true` if the value is zero.
    ///
    /// ```
    /// use shapecheck::Element;
    /// assert!(<f32 as Element>::is_zero(-0.0));
    /// assert!(<u8 as Element>::is_zero(0));
    /// assert!(!<i64 as Element>::is_zero(-1));
    /// ```
    #[must_use]
    fn is_zero(self) -> bool;
    /// The value as `f64` (exact for every value the vectors use).
    ///
    /// ```
    /// use shapecheck::Element;
    /// assert_eq!(<i64 as Element>::to_f64(-3), -3.0);
    /// assert_eq!(<f32 as Element>::to_f64(0.5), 0.5);
    /// ```
    #[must_use]
    fn to_f64(self) -> f64;
    /// The nearest value of this type to `v` (`as` conversion: integers truncate and saturate).
    ///
    /// ```
    /// use shapecheck::Element;
    /// assert_eq!(<i32 as Element>::from_f64(2.9), 2);
    /// assert_eq!(<i32 as Element>::from_f64(-2.9), -2);
    /// assert_eq!(<u8 as Element>::from_f64(-3.0), 0);
    /// assert_eq!(<u8 as Element>::from_f64(300.0), 255);
    /// assert_eq!(<f32 as Element>::from_f64(0.5), 0.5);
    /// ```
    #[must_use]
    fn from_f64(v: f64) -> Self;
    /// Feature `matrixmultiply`: `c = a · b` for `[m, k, n] = dims`, `a`'s
    /// element `(i, p)` at `i · sa[0] + p · sa[1]`, `b`'s `(p, j)` at
    /// `p · sb[0] + j · sb[1]`, `c` row-major `m × n`, through
    /// matrixmultiply's blocked kernels (`f32`, `f64`). `false`, with nothing
    /// written, for the other types, without the feature, or where an index
    /// would fall outside a slice.
    #[doc(hidden)]
    #[inline(always)]
    fn gemm(
        dims: [usize; 3],
        a: &[Self],
        sa: [usize; 2],
        b: &[Self],
        sb: [usize; 2],
        c: &mut [Self],
    ) -> bool {
        let _ = (dims, a, sa, b, sb, c);
        false
    }
}

/// IEEE 754 arithmetic.
impl sealed::Sealed for f32 {}
impl Element for f32 {
    #[cfg(feature = "matrixmultiply")]
    #[inline(always)]
    fn gemm(
        dims: [usize; 3],
        a: &[Self],
        sa: [usize; 2],
        b: &[Self],
        sb: [usize; 2],
        c: &mut [Self],
    ) -> bool {
        crate::kernel::gemm::sgemm(dims, a, sa, b, sb, c)
    }
    const DTYPE: &'static str = "float32";
    const IS_INTEGER: bool = false;
    #[inline(always)]
    fn add(a: Self, b: Self) -> Self {
        a + b
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        a - b
    }
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        a * b
    }
    #[inline(always)]
    fn div(a: Self, b: Self) -> Self {
        a / b
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0.0
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

/// IEEE 754 arithmetic.
impl sealed::Sealed for f64 {}
impl Element for f64 {
    #[cfg(feature = "matrixmultiply")]
    #[inline(always)]
    fn gemm(
        dims: [usize; 3],
        a: &[Self],
        sa: [usize; 2],
        b: &[Self],
        sb: [usize; 2],
        c: &mut [Self],
    ) -> bool {
        crate::kernel::gemm::dgemm(dims, a, sa, b, sb, c)
    }
    const DTYPE: &'static str = "float64";
    const IS_INTEGER: bool = false;
    #[inline(always)]
    fn add(a: Self, b: Self) -> Self {
        a + b
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        a - b
    }
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        a * b
    }
    #[inline(always)]
    fn div(a: Self, b: Self) -> Self {
        a / b
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0.0
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v
    }
}

/// `Element` for an integer type: wrapping arithmetic; division by zero
/// gives 0 (the ops rule it out first, and return an error); conversions
/// from `f64` truncate toward zero and saturate.
macro_rules! int_element {
    ($t:ty, $name:literal) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: &'static str = $name;
            const IS_INTEGER: bool = true;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self {
                a.wrapping_sub(b)
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                a.wrapping_mul(b)
            }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self {
                a.checked_div(b)
                    .unwrap_or_else(|| if b == 0 { 0 } else { a.wrapping_div(b) })
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
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
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::SameElement;
/// // the bound every elementwise op states: `TY: SameElement<T>`
/// fn add_same<T: Element, TY: SameElement<T> + Copy>(x: &[T], y: &[TY]) -> T {
///     T::add(x[0], TY::same(y)[0])
/// }
/// assert_eq!(add_same(&[1.0f32], &[2.0f32]), 3.0);
/// ```
///
/// Mixed element types do not compile: "elementwise/element-type: the operands
/// must hold one element type, but one holds f32 and the other f64".
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let x = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![1.0, 2.0]).unwrap();
/// let y = tensor![3.0f64, 4.0];
/// let _ = x.try_elementwise_add(&y, Axis::<-1>, Identity);
/// ```
#[diagnostic::on_unimplemented(
    message = "elementwise/element-type: the operands must hold one element type, but one holds {T} and the other {Self}",
    label = "expected a tensor of {T}, found one of {Self}",
    note = "convert one operand first; shapecheck never promotes element types implicitly"
)]
#[doc(hidden)]
pub trait SameElement<T> {
    /// The slice as a slice of `T` (the identity: `Self` is `T`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::SameElement;
    /// assert_eq!(<f32 as SameElement<f32>>::same(&[1.0, 2.0]), &[1.0, 2.0]);
    /// ```
    fn same(s: &[Self]) -> &[T]
    where
        Self: Sized;
    /// The value as a `T` (the identity), for a number given to an operator
    /// (`&x * 2.0`).
    ///
    /// ```
    /// use shapecheck::SameElement;
    /// assert_eq!(<i32 as SameElement<i32>>::same_value(7), 7);
    /// ```
    fn same_value(self) -> T
    where
        Self: Sized;
}

impl<T> SameElement<T> for T {
    #[inline(always)]
    fn same(s: &[T]) -> &[T] {
        s
    }
    #[inline(always)]
    fn same_value(self) -> T {
        self
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
