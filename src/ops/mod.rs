//! The operators, one module each: API (static and dynamic), docs, tests.
//!
//! Static path: methods on [`Tensor`](crate::Tensor) whose shape rules are
//! trait bounds (a wrong shape does not compile). The plain form of a method
//! needs every dim static and cannot fail on shapes; the `try_` form also
//! accepts [`Dyn`](crate::Dyn) dims and returns the op's error enum. Dynamic
//! path: functions over `(dims, data)` slices (no heap) and methods of
//! [`DynTensor`](crate::DynTensor) (feature `alloc`), every check a `Result`.

pub mod elementwise;
pub mod multiplex;
pub mod select;
