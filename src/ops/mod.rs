//! The operators, one module each: API (static and dynamic), docs, tests.
//!
//! Static path: methods on [`Tensor`](crate::Tensor) whose shape rules are
//! trait bounds (a wrong shape does not compile). The plain form of a method
//! needs every dim static and cannot fail on shapes; the `try_` form also
//! accepts [`Dyn`](crate::Dyn) dims and returns the op's error enum. Dynamic
//! path: functions over `(dims, data)` slices (no heap) and methods of
//! [`DynTensor`](crate::DynTensor) (feature `alloc`), every check a `Result`.

/// Declares an attribute's kinds from one table: the value enum (dynamic
/// path), one marker type per kind (static path, each with the value as its
/// `KIND`), and the Paddle name of each kind (`name`, `from_exact_name`).
macro_rules! kind_types {
    (
        $(#[$tm:meta])* trait $tr:ident;
        $(#[$km:meta])* enum $kind:ident $(default $def:ident)? {
            $($(#[$m:meta])* $name:ident = $paddle:literal,)*
        }
    ) => {
        $(#[$tm])*
        pub trait $tr: Copy + Default {
            /// The same attribute as a value.
            const KIND: $kind;
        }

        $(#[$km])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $kind {
            $($(#[$m])* $name,)*
        }

        $(impl Default for $kind {
            fn default() -> Self {
                $kind::$def
            }
        })?

        $(
            $(#[$m])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct $name;
            impl $tr for $name {
                const KIND: $kind = $kind::$name;
            }
            /// The marker's value, so that the dynamic path takes either.
            impl From<$name> for $kind {
                fn from(_: $name) -> $kind {
                    $kind::$name
                }
            }
        )*

        impl $kind {
            /// Every kind, in the order of the table.
            pub const ALL: &'static [$kind] = &[$($kind::$name),*];

            /// Paddle's name of this kind.
            ///
            /// ```
            /// use shapecheck::{ActivationKind, BinaryOpKind};
            /// assert_eq!(BinaryOpKind::Sub.name(), "elementwise_sub");
            /// assert_eq!(ActivationKind::Sigmoid.name(), "sigmoid");
            /// ```
            pub const fn name(self) -> &'static str {
                match self {
                    $($kind::$name => $paddle,)*
                }
            }

            /// The kind whose Paddle name is exactly `name`.
            fn from_exact_name(name: &str) -> Option<Self> {
                match name {
                    $($paddle => Some($kind::$name),)*
                    _ => None,
                }
            }
        }
    };
}

/// Fails const evaluation with `message`, reported at the caller's line: a
/// rule checked by a constant at monomorphisation (stable Rust has no bound
/// for it) reports its own message and that line only, not the expansion of
/// `assert!`.
#[track_caller]
#[allow(clippy::panic)]
pub(crate) const fn const_fail(message: &str) -> ! {
    panic!("{}", message)
}

/// Seals the helper traits of the type-level rules (the per-rank alignment
/// traits and the placements): the crate uses them in bounds, nobody
/// implements them.
pub(crate) mod sealed {
    /// Implemented by shapes, axes and elementwise's placements only.
    #[doc(hidden)]
    pub trait Sealed {}
    impl<S: crate::shape::Shape> Sealed for S {}
    impl<const A: isize> Sealed for super::elementwise::Axis<A> {}
    impl<const O: usize> Sealed for super::elementwise::At<O> {}
    impl<const O: usize, const K: usize> Sealed for super::elementwise::AtTrimmed<O, K> {}
    impl Sealed for super::elementwise::Identical {}
    impl Sealed for super::elementwise::BeforeStart {}
    impl Sealed for super::elementwise::OutOfRange {}
}

/// The op markers of the elementwise family (`x.try_elementwise(Mul, ...)`),
/// here rather than in the prelude: their names are `core::ops`' traits.
pub use elementwise::{Add, Div, Max, Min, Mul, Sub};

mod elements;
pub use elements::{ElementRule, Elements, SameRule, SameShape};
pub mod elementwise;
pub mod indexed;
#[cfg(feature = "tflite")]
pub mod layers;
pub mod lod_reset;
pub mod matmul;
pub mod multiplex;
pub mod partition;
pub mod reduce;
pub mod reshape;
pub mod select;
pub mod softmax;
mod static_shape;
pub mod stitch;
pub use static_shape::StaticShape;
