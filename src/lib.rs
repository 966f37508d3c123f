//! # shapecheck
//!
//! Tensors whose shapes live in the type system. A shape is a tuple of dims
//! (`shape![2, 3, 4]` is `(Dim<2>, Dim<3>, Dim<4>)`); operators check their
//! shape rules with trait bounds, so a wrong shape is a compile error whose
//! first line names both shapes in decimal and the rule that failed. Dims only
//! known at run time are [`Dyn`]; anything that involves one is checked at run
//! time and returns a typed error, never a panic.
//!
//! ```
//! use shapecheck::prelude::*;
//!
//! let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
//! let y = Tensor::<f32, shape![3]>::from_array([10.0, 20.0, 30.0]);
//! // numpy broadcasting (Paddle's axis = -1): the output type is computed by the compiler
//! let z: Tensor<f32, shape![2, 3]> = x.elementwise_mul(&y, Axis::<-1>, Identity);
//! assert_eq!(z.as_slice(), &[10.0, 40.0, 90.0, 40.0, 100.0, 180.0]);
//! ```
//!
//! A shape the rule rejects does not compile (see `ui-tests/elementwise/`):
//!
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(1.0);
//! let y = Tensor::<f32, shape![3, 4]>::full(2.0);
//! // [3, 4] right-aligned against [2, 3, 4, 5] pairs 4 with 3: rejected
//! let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
//! ```
//!
//! ## The operators
//! | operator | static path | dynamic path |
//! |---|---|---|
//! | Paddle `elementwise_mul` / add / sub / div / max / min with `axis` and `act` | [`Tensor::elementwise_mul`] and siblings, `&x * &y` | [`ops::elementwise::elementwise_slices`], [`DynTensor::elementwise`](dynamic::DynTensor::elementwise) |
//! | OpenVINO `Select-1` (none / numpy / pdpd) | [`select()`] | [`ops::select::select_slices`], [`DynTensor::select`](dynamic::DynTensor::select) |
//! | Paddle `multiplex` | [`multiplex()`], [`multiplex!`] | [`ops::multiplex::multiplex_slices`], [`DynTensor::multiplex`](dynamic::DynTensor::multiplex) |
//! | Paddle `lod_reset` on [LoD tensors](lod) | [`LodTensor::lod_reset`], [`LodTensor::lod_reset_by_data`], [`LodTensor::lod_reset_like`] | [`lod_reset_rule`], [`DynLodTensor::lod_reset`](lod::DynLodTensor::lod_reset) |
//! | TensorFlow `dynamic_stitch` / `dynamic_partition` | [`dynamic_stitch()`] ([`Stitch`]), `dynamic_partition`, [`dynamic_partition_into`] | [`stitch_slices`], [`partition_slices`], [`DynTensor::dynamic_stitch`](dynamic::DynTensor::dynamic_stitch), [`DynTensor::dynamic_partition`](dynamic::DynTensor::dynamic_partition) |
//!
//! Each module's docs state the rule, cite the framework behaviour it matches
//! and say where the framework's documentation and implementation differ.
//!
//! ## Optional features
//! `std` (default) and `alloc` as described above; the interop features are
//! all off by default, and none turns on `std` (only `ndarray` turns on
//! `alloc`). Each lives in `shapecheck::interop::<feature>`, whose module
//! docs say what is copied and what is checked where.
//!
//! | feature | gives |
//! |---|---|
//! | `ndarray` | zero-copy `ArrayView` ↔ tensor views (standard layout), owned conversions, `DynTensor` ↔ `ArrayD` |
//! | `nalgebra` | `SMatrix` / `DMatrix` ↔ 2-D tensors (a transposing copy: nalgebra is column-major) |
//! | `generic-array` | `GenericArray<T, N>` as storage, its length checked; `TDim<N>`, a dim from a typenum |
//! | `serde` | `Serialize` / `Deserialize` for tensors, `DynTensor`, `Dims`, shapes checked |
//! | `defmt` | `defmt::Format` for tensors, dims and the error types |
//! | `half` | `f16` / `bf16` elements for every op |
//!
//! ## Layout of the crate
//! (`ARCHITECTURE.md` in the repository says what may import what.)
//! - [`dim`], [`dims`] and [`mod@shape`]: what a dim and a shape are, static
//!   or dynamic, and [`ShapeError`];
//! - [`rules`]: the shape-compatibility rules as traits (one per rule, each
//!   carrying the compile error it reports);
//! - [`storage`] and [`mod@tensor`]: inline arrays, heap buffers and borrowed
//!   views; a result's storage is chosen by its shape ([`storage::OutputStorage`]);
//! - [`ops`]: one folder per operator: `mod.rs` (API and docs), `rule.rs` (the
//!   one run-time shape rule), its kernel; the shared loops are in the
//!   private `kernel` module;
//! - [`dynamic`]: [`dynamic::DynTensor`], the run-time escape hatch (feature `alloc`).
//! - [`lod`]: LoD tensors (Paddle's ragged batches): offsets and lengths, `CheckLoD`, sequences;
//! - `interop`: the optional features above (present when one is on).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![warn(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
// Unit tests inside the library may unwrap: a failed unwrap there is a failed test.
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]
// Errors carry the offending shapes by value (`Dims`, 72 bytes, no heap) so
// that they work without `alloc`; a few hundred bytes of `Err` are cheap next
// to the work any op does, so the size lint is off crate-wide.
#![allow(clippy::result_large_err)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

extern crate self as shapecheck;

mod broadcast;
pub mod dim;
pub mod dims;
pub mod element;
pub mod error;
mod kernel;
pub mod lod;
pub mod ops;
pub mod rules;
pub mod shape;
pub mod storage;
pub mod tensor;

#[cfg(feature = "alloc")]
pub mod dynamic;

#[cfg(any(
    feature = "ndarray",
    feature = "nalgebra",
    feature = "generic-array",
    feature = "serde",
    feature = "defmt",
    feature = "half"
))]
pub mod interop;

pub use dim::{Dim, DimLike, Dyn, One, StaticDim};
pub use element::Element;
pub use error::ShapeError;
pub use ops::elementwise::operators::{BroadcastOf, BroadcastResult, BroadcastWith, FloatElement};
pub use ops::elementwise::{
    Activation, ActivationKind, Add, Axis, BinaryOp, BinaryOpKind, Div, ElementwiseError, Identity,
    Max, Min, Mul, Relu, Sigmoid, Sub, Tanh,
};
pub use ops::multiplex::{
    multiplex, multiplex_into, multiplex_output_dims, multiplex_slices, CandidateCount,
    IndexElement, MultiplexError,
};
pub use ops::select::{
    select, select_into, select_output_dims, select_slices, try_select, try_select_into,
    AutoBroadcast, CondElement, ElseElement, NoBroadcast, Numpy, Pdpd, SelectError, SelectInput,
    SelectMode,
};
#[cfg(feature = "alloc")]
pub use ops::stitch::dynamic_partition;
pub use ops::stitch::{
    dynamic_partition_into, dynamic_stitch, partition_slices, stitch_slices, IndexSlice,
    Partitions, Stitch, StitchError, StitchIndex, StitchPair,
};
pub use shape::{Dims, Shape, StaticShape, MAX_RANK};
pub use storage::{Inline, Storage, StorageMut};
pub use tensor::Tensor;

#[cfg(feature = "alloc")]
pub use dynamic::DynTensor;

// LoD tensors and lod_reset (Paddle)
pub use lod::{
    check_lengths, check_lod, Lengths, Levels, LodError, LodTensor, Offsets, ResetLevels, RowShape,
    Sequence, Sequences,
};
#[cfg(feature = "alloc")]
pub use lod::{DynLodTensor, DynSequence, DynSequences, LengthsBuf, OffsetsBuf, OwnedLod};
#[cfg(feature = "alloc")]
pub use ops::lod_reset::DynY;
pub use ops::lod_reset::{lod_reset_rule, LevelSource, LodResetError, NewLevel, ResetPlan, YInput};

/// Writes a shape type: `shape![2, 3, 4]` is `(Dim<2>, Dim<3>, Dim<4>)`.
///
/// A literal `1` becomes [`One`] (the dim that broadcasts), `Dyn` becomes
/// [`Dyn`] (a dim known at run time) and any other expression `N` becomes
/// `Dim<{ N }>`, for any `usize` (no table limit). `shape![]` is the scalar
/// shape `()`.
///
/// ```
/// use shapecheck::{shape, Dim, Dyn, One};
/// let _: Option<shape![2, 1, 1500]> = Some((Dim::<2>, One, Dim::<1500>));
/// let _: Option<shape![Dyn, 16]> = Some((Dyn(7), Dim::<16>));
/// ```
#[macro_export]
macro_rules! shape {
    ($($dims:tt)*) => { $crate::__private::shape!($crate; $($dims)*) };
}

/// A tensor literal: `tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]` is an inline
/// `Tensor<f64, shape![2, 3]>` built with [`Tensor::from_array`].
///
/// - The shape is read from the nesting, up to rank 8 ([`MAX_RANK`]); a dim
///   of size 1 is [`One`], as in [`shape!`] (so it broadcasts).
/// - The element type is inferred as for an array literal: `1.0` alone is
///   `f64`, `1.0f32` (or an annotation on the binding) makes it `f32`; any
///   `Copy` expression works (`tensor![true, false]`, `tensor![a, b]`).
/// - `tensor![5]` is a one-element vector, shape `[1]`; a rank-0 (scalar)
///   tensor is `Tensor::<T, shape![]>::from_array(v)`. `tensor![]` is an empty
///   vector, shape `[0]`, whose element type must come from elsewhere.
/// - Trailing commas are allowed; repeat expressions (`[0.0; 3]`) are not.
/// - A ragged literal is a compile error pointing at the offending row:
///   "tensor!: row 1 has 2 elements, but row 0 has 3".
///
/// ```
/// use shapecheck::{shape, tensor, Tensor};
/// let m = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
/// let _: &Tensor<f64, shape![2, 3]> = &m;
/// assert_eq!(m.as_slice(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
///
/// let c = tensor![[1.5f32], [2.5], [3.5],]; // a column: shape [3, 1]
/// let _: &Tensor<f32, shape![3, 1]> = &c;
///
/// let v = tensor![7];
/// let _: &Tensor<i32, shape![1]> = &v;
/// ```
///
/// ```compile_fail
/// use shapecheck::tensor;
/// let _ = tensor![[1, 2, 3], [4, 5]]; // tensor!: row 1 has 2 elements, but row 0 has 3
/// ```
#[macro_export]
macro_rules! tensor {
    ($($rows:tt)*) => { $crate::__private::tensor!($crate; $($rows)*) };
}

/// What the exported macros expand to (not API): the procedural macros,
/// which take the path to this crate first (`$crate`), so that they work
/// when a user renames the library in their Cargo.toml.
#[doc(hidden)]
pub mod __private {
    pub use shapecheck_macros::{shape, tensor};
}

/// Everything a user of the static and dynamic APIs needs, in one import.
pub mod prelude {
    pub use crate::dim::{Dim, DimLike, Dyn, One, StaticDim};
    pub use crate::element::Element;
    pub use crate::ops::elementwise::operators::{BroadcastOf, BroadcastWith};
    pub use crate::ops::elementwise::{
        Activation, ActivationKind, Add, Axis, BinaryOp, BinaryOpKind, Div, Identity, Max, Min,
        Mul, Relu, Sigmoid, Sub, Tanh,
    };
    pub use crate::ops::select::{AutoBroadcast, NoBroadcast, Numpy, Pdpd};
    pub use crate::shape;
    pub use crate::shape::{Shape, StaticShape};
    pub use crate::storage::{Inline, Storage, StorageMut};
    pub use crate::tensor;
    pub use crate::tensor::Tensor;

    #[cfg(feature = "alloc")]
    pub use crate::dynamic::DynTensor;
}

/// The examples of README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
