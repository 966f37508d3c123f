//! The operators, one module each: API (static and dynamic), docs, tests.
//!
//! Static path: methods on [`Tensor`](crate::Tensor) whose shape rules are
//! trait bounds (a wrong shape does not compile). The plain form of a method
//! needs every dim static and cannot fail on shapes; the `try_` form also
//! accepts [`Dyn`](crate::Dyn) dims and returns the op's error enum. Dynamic
//! path: functions over `(dims, data)` slices (no heap) and methods of
//! [`DynTensor`](crate::DynTensor) (feature `alloc`), every check a `Result`.

/// Declares the marker types of an attribute's static form (`Mul`, `Relu`,
/// ...), each with the attribute's value as its `KIND`.
macro_rules! kind_types {
    ($(#[$tm:meta])* trait $tr:ident => $kind:ident { $($(#[$m:meta])* $name:ident = $val:expr;)* }) => {
        $(#[$tm])*
        pub trait $tr: Copy + Default {
            /// The same attribute as a value.
            const KIND: $kind;
        }
        $(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl $tr for $name {
            const KIND: $kind = $val;
        }
        )*
    };
}

pub mod elementwise;
pub mod lod_reset;
pub mod multiplex;
pub mod select;
pub mod stitch;
