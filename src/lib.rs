//! # shapecheck
//!
//! Tensors whose shapes live in the type system: a wrong shape is a compile
//! error naming both shapes and the rule; a shape known only at run time
//! ([`Dyn`]) is checked when the op runs and returns a typed error, never a
//! panic. One import brings everything ([`prelude`]):
//!
//! ```
//! use shapecheck::prelude::*;
//!
//! // a literal's shape is read from its nesting: [2, 3]
//! let x = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let y = Tensor::<f32, shape![3]>::from_array([10.0, 20.0, 30.0]);
//! // Paddle's elementwise_mul, axis -1 (numpy), then relu; the output type is computed
//! let z: Tensor<f32, shape![2, 3]> = x.elementwise_mul(&y, Axis::<-1>, Relu);
//! assert_eq!(z.as_slice(), &[10.0, 40.0, 90.0, 40.0, 100.0, 180.0]);
//! // OpenVINO Select-1 with numpy broadcasting: cond [2, 1] against [2, 3]
//! let cond = tensor![[true], [false]];
//! let picked = select(&cond, &z, &x, Numpy);
//! assert_eq!(picked.as_slice(), &[10.0, 40.0, 90.0, 4.0, 5.0, 6.0]);
//! // a run-time dim: the same op through its `try_` form, with a typed error
//! let rows = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim::<3>), vec![1.0; 6]).unwrap();
//! let sum = rows.try_elementwise_add(&y, Axis::<-1>, Identity).unwrap();
//! assert_eq!(sum.dims().as_slice(), &[2, 3]);
//! let narrow = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![0.0; 2]).unwrap();
//! let err = rows.try_elementwise_add(&narrow, Axis::<-1>, Identity).unwrap_err();
//! assert_eq!(err.rule(), "elementwise/broadcast");
//! ```
//!
//! A shape the rule rejects does not compile, and the one error names both
//! shapes and the rule (see `ui-tests/`):
//!
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(1.0);
//! let y = Tensor::<f32, shape![3, 4]>::full(2.0);
//! // elementwise/broadcast: X (Dim<2>, Dim<3>, Dim<4>, Dim<5>) and Y (Dim<3>, Dim<4>)
//! // do not broadcast with Axis<-1>: aligned dims Dim<4> (X) and Dim<3> (Y) differ ...
//! let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
//! ```
//!
//! ## One naming rule for every op
//! - `op`: the checked form. The compiler checks the shape rule; the result
//!   comes back as is when nothing can fail at run time, and as a `Result`
//!   only where the *values* can fail (integer `elementwise_div`, multiplex's
//!   index values, stitch and partition indices, LoD offsets).
//! - `try_op`: the form for shapes with run-time ([`Dyn`]) dims, returning
//!   `Result` for the part of the rule the compiler could not check. It
//!   exists where `op` would otherwise fail; where `op` already returns a
//!   `Result` and accepts `Dyn` dims (multiplex, dynamic_stitch,
//!   dynamic_partition, lod_reset) there is no second name for it.
//! - `op_into`: writes into a caller's buffer (`out: &mut Tensor<T, S, &mut [T]>`
//!   or any mutable storage), so it needs no heap.
//! - The three data-dependent ops (multiplex, dynamic_stitch,
//!   dynamic_partition) return a builder ([`Multiplex`], [`Stitch`],
//!   [`Partition`]) whose methods take the output one way each, the same
//!   four for all three: `.run()` (a new tensor), `.run_into(&mut buf)`
//!   (views into the front of your buffer, no heap),
//!   `.run_bounded::<CAP>()` (rows [`Bounded<CAP>`] in a [`Room`]: no heap
//!   and no caller buffer; more rows than `CAP` is `shape/capacity`, found
//!   before anything is written) and `.run_bounded_into(&mut out)` (the
//!   same into a bounded tensor the caller keeps; on any error it is
//!   untouched).
//!
//! | op | `op` | `try_op` | `op_into` |
//! |---|---|---|---|
//! | elementwise mul / add / sub / max / min | [`Tensor::elementwise_mul`], ... | [`Tensor::try_elementwise_mul`], ..., [`Tensor::try_elementwise`] (op as a value) | [`Tensor::elementwise_mul_into`], [`Tensor::try_elementwise_mul_into`], [`Tensor::try_elementwise_into`] |
//! | elementwise div | [`Tensor::elementwise_div`] (`Result`: integer division by zero) | [`Tensor::try_elementwise_div`] | [`Tensor::elementwise_div_into`], [`Tensor::try_elementwise_div_into`] |
//! | select | [`select()`] | [`try_select`] | [`select_into`], [`try_select_into`] |
//! | multiplex | [`multiplex()`]`(..).run()`, [`multiplex!`] (`Result`: index values) | (the `op` form) | [`Multiplex::run_into`]; bounded: [`Multiplex::run_bounded`], [`Multiplex::run_bounded_into`] |
//! | dynamic_stitch | [`dynamic_stitch()`]`(..).pair(..).run()` (`Result`) | (the `op` form) | [`Stitch::run_into`]; bounded: [`Stitch::run_bounded`], [`Stitch::run_bounded_into`] |
//! | dynamic_partition | [`dynamic_partition()`]`(..).run()` (`Result`) | (the `op` form) | [`Partition::run_into`]; bounded: [`Partition::run_bounded`], [`Partition::run_bounded_into`] |
//! | lod_reset | [`LodTensor::lod_reset`], `_by_data`, `_like` (`Result`) | (the `op` form) | (borrows its levels: nothing to write) |
//! | matmul | [`Tensor::matmul`], [`Tensor::matmul_t`] (x's rows pass unchecked: a `Dyn` batch too) | [`Tensor::try_matmul`] | [`Tensor::matmul_into`], [`Tensor::try_matmul_into`] |
//! | sum / mean / prod / max / min (`_keepdim`) | [`Tensor::sum`], ... over any shape; max and min over static, non-empty dims | [`Tensor::try_sum`], [`Tensor::try_mean`], [`Tensor::try_prod`], [`Tensor::try_max`], [`Tensor::try_min`], [`Tensor::try_reduce`] (kind as a value) | [`Tensor::reduce_into`] |
//! | argmax / argmin (`_keepdim`) | [`Tensor::argmax`], [`Tensor::argmin`] over static, non-empty dims | [`Tensor::try_argmax`], [`Tensor::try_argmin`], [`Tensor::try_arg_reduce`] | [`Tensor::arg_reduce_into`] |
//! | softmax / log_softmax | [`Tensor::softmax`], [`Tensor::log_softmax`] over any shape | [`Tensor::try_softmax`], [`Tensor::try_log_softmax`] | [`Tensor::softmax_into`] |
//!
//! [`DynTensor`] (every dim at run time) has one method
//! per op, named after it, returning `Result`, and the static path's `try_`
//! names beside them (`try_elementwise_mul`, `try_select`, `try_matmul`,
//! `try_sum`, `try_argmax`, `try_softmax`, ...), which take the static
//! path's markers or run-time values: an axis as `Axis::<A>` or an `isize`
//! ([`ops::elementwise::DynAxis`]), reduction axes as `All`, `Axis::<A>`, a
//! tuple, an `isize` or a `&[isize]` (`DynAxes`), a transpose as
//! `NoTrans` / `Trans` or a `bool` (`DynTranspose`), so one body under
//! one glob import runs on both.
//!
//! ## Generic code
//! A function generic over shapes names the rule as a bound. For numpy
//! broadcasting (axis -1) the alias [`BroadcastWith`] says it all; for any
//! axis, [`ElementwiseShapes`] and the output type
//! [`ElementwiseOutput`]; select's rule
//! is [`SelectShapes`], matmul's [`MatmulShapes`], a reduction's
//! [`Reduce`] (output [`ReduceOutput`]), softmax's [`SoftmaxAxis`]. A dim
//! that an op does not look at (a batch beside a matmul's, a reduction's
//! or a softmax's static axis) needs only `B: DimLike`. Forgetting the
//! bound is a compile error that names it.
//!
//! ```
//! use shapecheck::prelude::*;
//!
//! /// `x * y` with numpy broadcasting, for any element type and shapes that broadcast.
//! fn scale<T: Element, S, Y>(x: &Tensor<T, S>, y: &Tensor<T, Y>) -> Tensor<T, BroadcastOf<S, Y>>
//! where
//!     S: BroadcastWith<Y>,
//!     Y: StaticShape,
//! {
//!     x * y
//! }
//!
//! /// `x + y` with Y placed at axis 1 of X: the rule at that axis is the bound.
//! fn add_at_1<S, Y>(x: &Tensor<f32, S>, y: &Tensor<f32, Y>) -> Tensor<f32, BroadcastOf<S, Y, 1>>
//! where
//!     S: BroadcastWith<Y, 1>,
//!     Y: StaticShape,
//! {
//!     x.elementwise_add(y, Axis::<1>, Identity)
//! }
//!
//! let m = tensor![[1.0f32, 2.0], [3.0, 4.0]];
//! assert_eq!(scale(&m, &tensor![10.0f32, 100.0]).as_slice(), &[10.0, 200.0, 30.0, 400.0]);
//! let x = Tensor::<f32, shape![2, 3, 4]>::full(1.0);
//! let y = Tensor::<f32, shape![3]>::from_array([1.0, 2.0, 3.0]);
//! let z: Tensor<f32, shape![2, 3, 4]> = add_at_1(&x, &y);
//! assert_eq!(z.get(&[1, 2, 3]), Some(&4.0));
//! ```
//!
//! ## The operators
//! | operator | static path | dynamic path |
//! |---|---|---|
//! | Paddle `elementwise_mul` / add / sub / div / max / min with `axis` and `act` | [`Tensor::elementwise_mul`] and siblings, `&x * &y` | [`ops::elementwise::elementwise_slices`], [`DynTensor::elementwise`](dynamic::DynTensor::elementwise) |
//! | OpenVINO `Select-1` (none / numpy / pdpd) | [`select()`] | [`ops::select::select_slices`], [`dynamic::prelude::select()`] ([`DynTensor::select`](dynamic::DynTensor::select)) |
//! | Paddle `multiplex` | [`multiplex()`] ([`Multiplex`]), [`multiplex!`] | [`ops::multiplex::multiplex_slices`], [`dynamic::prelude::multiplex()`] ([`DynTensor::multiplex`](dynamic::DynTensor::multiplex)) |
//! | Paddle `lod_reset` on [LoD tensors](lod) | [`LodTensor::lod_reset`], [`LodTensor::lod_reset_by_data`], [`LodTensor::lod_reset_like`] | [`lod_reset_rule`], [`DynLodTensor::lod_reset`](lod::DynLodTensor::lod_reset) |
//! | Paddle `matmul` (transposes, batch broadcast) | [`Tensor::matmul`], [`Tensor::matmul_t`] | [`ops::matmul::matmul_slices`], [`DynTensor::matmul`](dynamic::DynTensor::matmul) (`tx`, `ty`: `bool`s) |
//! | Paddle `sum` / `mean` / `prod` / `max` / `min`, `argmax` / `argmin` | [`Tensor::sum`] and siblings, [`Tensor::argmax`], [`Tensor::argmin`] | [`ops::reduce::reduce_slices`], [`DynTensor::sum`](dynamic::DynTensor::sum) and siblings |
//! | Paddle `softmax` / `log_softmax` | [`Tensor::softmax`], [`Tensor::log_softmax`] | [`DynTensor::softmax`](dynamic::DynTensor::softmax) |
//! | TensorFlow `dynamic_stitch` / `dynamic_partition` | [`dynamic_stitch()`] ([`Stitch`]), [`dynamic_partition()`] ([`Partition`]) | [`stitch_slices`], [`partition_slices`], [`dynamic::prelude::dynamic_stitch()`], [`dynamic::prelude::dynamic_partition()`] (and `DynTensor`'s methods of those names) |
//!
//! Each module's docs state the rule, cite the framework behaviour it matches
//! and say where the framework's documentation and implementation differ.
//!
//! ## Optional features
//! `std` (default) and `alloc` as described above; every other feature is
//! off by default. Of those, `ndarray` and `matrixmultiply` turn on `alloc`
//! (their arrays and packing buffers allocate) and `rayon` turns on `std`
//! (threads); no other turns on either.
//! Each interop feature lives in `shapecheck::interop::<feature>`, whose
//! module docs say what is copied and what is checked where.
//!
//! | feature | gives |
//! |---|---|
//! | `ndarray` | zero-copy `ArrayView` ↔ tensor views (standard layout), owned conversions, `DynTensor` ↔ `ArrayD` |
//! | `nalgebra` | `SMatrix` / `DMatrix` ↔ 2-D tensors (a transposing copy: nalgebra is column-major) |
//! | `generic-array` | `GenericArray<T, N>` as storage, its length checked; `TDim<N>`, a dim from a typenum |
//! | `serde` | `Serialize` / `Deserialize` for tensors, `DynTensor`, `Dims`, shapes checked |
//! | `defmt` | `defmt::Format` for tensors, dims and the error types |
//! | `half` | `f16` / `bf16` elements in elementwise, select, multiplex and dynamic_stitch |
//! | `rayon` | the elementwise family, dynamic_stitch and fused expressions split across rayon's pool for large outputs (needs `std`) |
//! | `matrixmultiply` | large f32/f64 matmuls through matrixmultiply's blocked kernels (turns on `alloc`: a packing buffer per call) |
//! | `tflite` | `model!` (a `.tflite` file as typed Rust) and `ops::layers` (TFLite's layers on tensors), no_std, no heap |
//!
//! ## Layout of the crate
//! (`ARCHITECTURE.md` in the repository says what may import what.)
//! - [`dim`], [`dims`] and [`mod@shape`]: what a dim and a shape are, static
//!   or dynamic, and [`ShapeError`];
//! - [`algebra`]: the relations between two dims (equal, broadcast both
//!   ways, one way, droppable) that every op's type-level rule is built from;
//! - [`storage`] and [`mod@tensor`]: inline arrays, heap buffers and borrowed
//!   views; a result's storage is chosen by its shape ([`storage::OutputStorage`]);
//! - [`ops`]: one folder per operator, each with the same files: `mod.rs`
//!   (docs), `api.rs` (the static path), `bounds.rs` (the rule as traits: the
//!   compile errors), `rule.rs` (the one run-time shape rule), `kernel.rs`,
//!   `error.rs`, `dynamic.rs` (its [`DynTensor`] methods); the shared loops
//!   are in the private `kernel` module;
//! - [`dynamic`]: [`dynamic::DynTensor`], the run-time escape hatch (feature `alloc`),
//!   and [`dynamic::prelude`], which spells its functions as the static ones.
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

pub mod algebra;
mod any_error;
mod broadcast;
mod buffer;
pub mod dim;
pub mod dims;
pub mod element;
pub mod error;
pub mod expr;
mod kernel;
pub mod lod;
pub mod ops;
mod rows;
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

// One export list: the prelude is what users need, and the crate root
// re-exports the prelude and the rest (tests/exports.rs checks both).
pub use prelude::*;

// `multiplex` names a function and a macro (`#[macro_export]`, so at the
// root): the root states the function itself, so that the prelude's
// `crate::multiplex` finds both without going round through the glob above.
pub use ops::multiplex::multiplex;

pub use ops::multiplex::{
    multiplex_backward_slices, multiplex_output_dims, multiplex_slices, CandidateCount,
};
pub use ops::partition::{partition_backward_slices, partition_slices};
pub use ops::select::{select_output_dims, select_slices, SelectInput, SelectMode};
pub use ops::stitch::{stitch_backward_slices, stitch_slices, IndexSlice, Stitch, StitchPair};
pub use shape::MAX_RANK;
pub use tensor::{BrandedRows, WithRows};

/// Feature `rayon`: outputs of at least this many elements are split across
/// rayon's pool (elementwise, dynamic_stitch, fused expressions); smaller
/// ones, and any output when the pool has one thread, run the serial loops.
#[cfg(feature = "rayon")]
pub use kernel::par::PAR_MIN_ELEMS;

// LoD tensors and lod_reset (Paddle), beyond the prelude's
pub use lod::{
    check_lengths, check_lod, BoundedLod, Levels, ResetLevels, RowShape, Sequence, Sequences,
};
#[cfg(feature = "alloc")]
pub use lod::{DynSequence, DynSequences, LengthsBuf, OffsetsBuf, OwnedLod};
pub use ops::lod_reset::{lod_reset_rule, LevelSource, ResetPlan};

/// Feature `tflite`: `shapecheck-tflite`, the `.tflite` reader and TFLite's
/// kernels on slices that [`ops::layers`] and [`model!`] build on.
#[cfg(feature = "tflite")]
pub use shapecheck_tflite as tflite;

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

/// Feature `tflite`: a `.tflite` model as typed Rust, written when the
/// macro expands. `model!(pub Sine = "models/sine.tflite")` reads the file
/// (its path relative to the calling crate's `CARGO_MANIFEST_DIR`, or, if
/// it starts with `./` or `../`, to the calling file's directory, as
/// `include_bytes!`; cargo rebuilds when the file changes) and writes:
///
/// - `pub struct Sine;` with `Sine::RAM_BYTES` and `Sine::predict`, a
///   plain sequence of calls to the `_into` forms of [`ops::layers`] with
///   TFLite Micro's arithmetic (its double rounding): `fn predict(input:
///   &Tensor<i8, S, B>) -> sine::Output` for a tensor of the file's input
///   shape `S` in any storage, borrowed (another shape is one error,
///   `model/input`, naming both). It returns the output for every model:
///   every size is the types', and each layer's parameters (its clamp,
///   a mean's count, an `ADD`'s zero points and multipliers, ...) are
///   checked in the `static` that holds them, a constant, so a parameter
///   TFLite's kernels would refuse fails the build, naming the operator.
///   Each layer writes its output in
///   place, into a typed view of one arena (an [`ops::layers::Arena`], a
///   local) at the offset `model!` planned when it expanded: two tensors
///   live at the same operator never overlap, a RESHAPE is a view, and a
///   graph need not be a chain (a residual `ADD` reads a tensor written
///   several operators before). The output is copied out and returned;
///   `Sine::predict_in(&input, &mut arena)` takes the arena from the caller
///   (a `static`);
/// - `Sine::RAM_BYTES` (also `sine::RAM_BYTES`): the arena's bytes, the
///   largest sum of activations live at one operator where the planner
///   reaches it (every model the project tests on); not the input or the
///   output, which are the caller's, nor the kernels' own locals, nor the
///   weights and multipliers, which are `static`;
/// - `pub mod sine` (the struct's name in snake case) with `type Input` and
///   `type Output` (tensors whose shapes are the file's), `type Arena`
///   (`sine::Arena::new()`, the zeros, a `const fn`, for a `static`),
///   `RAM_BYTES`, `const fn assert_ram_fits(budget, beside)` (a RAM
///   budget checked in a `const`: `size_of::<Arena>()` and the `beside`
///   bytes the firmware holds with it, its input; its failure names the
///   bytes), each quantized (int8 or int16, per-tensor) input's and
///   output's scale and zero point (`INPUT_SCALE`, `INPUT_ZERO_POINT`,
///   `OUTPUT_SCALE`, `OUTPUT_ZERO_POINT`, and `Sine::quantize` /
///   `Sine::dequantize` between f32 values and the model's tensors; for
///   several inputs or outputs `INPUT0_SCALE`, ..., `quantize_input0`,
///   `OUTPUT1_ZERO_POINT`, ..., `dequantize_output1`), and each layer's
///   constants as `static` items (weights, biases, multipliers).
///
/// That is a model whose every op has a typed layer, with one input and
/// one output of int8 or f32. **Any other model** (any op of
/// [`tflite::OPS`], several inputs or outputs, int16 or int32 tensors) is
/// written from the interpreter's own preparation,
/// `tflite::Plan::new(model, Arithmetic::Micro, Layout::Packed)`, made
/// when the macro expands: each prepared operator as a `static` constant,
/// and a `predict` that copies the inputs into the arena, runs the
/// operators in order with the interpreter's kernels, and copies the
/// outputs out. `pub mod sine` then has a type per input and output,
/// typed by its element (`i8`, `i16`, `i32`, `f32`): `Input` (`Input0`,
/// `Input1`, ... for several inputs, which are `predict`'s parameters in
/// the model's order), `Output0`, `Output1`, ..., and `Output`, what
/// `predict` returns: the one output, or a tuple of the outputs in the
/// model's order; its `Arena` holds one array per element type
/// (`Arena::new()`, a `const fn`, as for every model), and `RAM_BYTES`
/// counts the activations' bytes across element types, the inputs not
/// counted: the arena also holds a copy of the inputs, which
/// `size_of::<Arena>()` and `assert_ram_fits` count. The quantization
/// constants and functions are the same as above.
///
/// A file the reader rejects, or an op, data type or option the
/// interpreter does not run, is a `compile_error!` naming the operator,
/// the op (its builtin name) and its output tensor, with the interpreter's
/// text.
///
/// ```
/// use shapecheck::prelude::*;
///
/// shapecheck::model!(pub Sine = "tflite/tests/models/sine.tflite");
///
/// // x = 0, quantized with the input's zero point
/// let x: sine::Input = Tensor::from_array([[-128]]);
/// let y: Tensor<i8, shape![1, 1]> = Sine::predict(&x);
/// assert_eq!(y.as_slice(), &[11]); // TFLite's output: (11 − 7) · 0.00827 = 0.033
///
/// // a firmware's RAM budget, checked when it builds: predict's arena
/// // (the two 16-wide hidden layers) and the input the firmware holds
/// // (a failure names the numbers: "ram/budget: sine needs 33 bytes
/// // (RAM_BYTES 32 + 1 beside it), above its budget of 16 bytes")
/// const _: () = sine::assert_ram_fits(64, core::mem::size_of::<sine::Input>());
/// assert_eq!(Sine::RAM_BYTES, 32);
///
/// // real values in and out, with the file's quantization
/// let y = Sine::dequantize(&Sine::predict(&Sine::quantize(&tensor![[1.5708f32]])));
/// assert!((y.as_slice()[0] - 1.0).abs() < 0.1); // sin(π/2)
///
/// // SPLIT into three (no typed layer): three outputs, a tuple
/// shapecheck::model!(pub Split3 = "tflite/tests/ops/split_3.tflite");
/// let x: split3::Input = Tensor::full(5);
/// let (a, b, c): (split3::Output0, split3::Output1, split3::Output2) = Split3::predict(&x);
/// assert_eq!((a.as_slice()[0], b.as_slice()[0], c.as_slice()[0]), (5, 5, 5));
/// // one scale and zero point per output, and a function each
/// let real = Split3::dequantize_output2(&c).as_slice()[0];
/// assert_eq!(real, split3::OUTPUT2_SCALE * (5 - split3::OUTPUT2_ZERO_POINT) as f32);
/// ```
#[cfg(feature = "tflite")]
#[macro_export]
macro_rules! model {
    ($($model:tt)*) => { $crate::__private::model! { $crate; $($model)* } };
}

/// What the exported macros expand to (not API): the procedural macros,
/// which take the path to this crate first (`$crate`), so that they work
/// when a user renames the library in their Cargo.toml.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "tflite")]
    pub use shapecheck_macros::model;
    pub use shapecheck_macros::{shape, tensor};
}

/// What most programs need, in one import: `use shapecheck::prelude::*;`
/// (40 names at most, none of them a name of Rust's own preludes).
///
/// - the tensor types and macros: [`Tensor`], [`DynTensor`] (feature
///   `alloc`), [`LodTensor`], [`shape!`], [`tensor!`], [`multiplex!`];
/// - the dims: [`Dim`], [`One`], [`Dyn`], [`Bounded`], [`Branded`] (and
///   [`brand`], which makes one);
/// - the free-function ops (`elementwise_*` and the other ops are methods
///   of [`Tensor`]): [`select`], and the three data-dependent ops, each a
///   builder whose `.run()`, `.run_into(buf)`, `.run_bounded::<CAP>()` and
///   `.run_bounded_into(out)` take the output: [`multiplex()`],
///   [`dynamic_stitch`], [`dynamic_partition`];
/// - the markers: [`Axis`], the activations ([`Identity`], [`Relu`],
///   [`Sigmoid`], [`Tanh`], and [`ActivationKind`] to pick one at run time),
///   select's modes ([`NoBroadcast`], [`Numpy`], [`Pdpd`]), [`Partitions`];
/// - the bounds generic code writes: [`DimLike`], [`StaticDim`],
///   [`Shape`], [`StaticShape`], [`Element`], [`BroadcastWith`] /
///   [`BroadcastOf`], [`SelectWith`] / [`SelectOutput`];
/// - what generic code names: [`Owned`] (a result's type), [`Room`] (the
///   no-heap storage of `Bounded` dims), [`try_select`] (select with
///   run-time dims);
/// - the errors a `?` most often meets: [`Error`] (every op's error converts
///   into it), [`ShapeError`], [`MultiplexError`], [`StitchError`].
///
/// Everything else (the other `try_` and `_into` free functions, the backward
/// forms, the other error types, storages) is at the crate root:
/// `use shapecheck::{select_into, SelectError};`.
///
/// ```
/// use shapecheck::prelude::*;
/// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
/// let c = tensor![[true, false], [false, true]];
/// let y = select(&c, &x, &Tensor::<f32, shape![2, 2]>::full(0.0), Numpy);
/// assert_eq!(y.as_slice(), &[1.0, 0.0, 0.0, 4.0]);
/// ```
pub mod prelude {
    // dims, shapes, elements
    pub use crate::dim::{brand, Bounded, Branded, Dim, DimLike, Dyn, One, StaticDim};
    pub use crate::element::Element;
    pub use crate::ops::StaticShape;
    pub use crate::shape::{FixedShape, Shape};

    // tensors and their macros
    #[cfg(feature = "alloc")]
    pub use crate::dynamic::DynTensor;
    pub use crate::multiplex;
    pub use crate::shape;
    pub use crate::tensor;
    #[cfg(feature = "alloc")]
    pub use crate::tensor::HeapConstructors;
    pub use crate::tensor::Tensor;

    // elementwise (methods of `Tensor`; the op markers `Mul`, `Add`, ... are
    // `shapecheck::ops::Mul`, ...: their names are `core::ops`' traits)
    pub use crate::ops::elementwise::{
        ActivationKind, Axis, BroadcastOf, BroadcastWith, Identity, Relu, Sigmoid, Tanh,
    };
    // the named elementwise forms on two tensors of one generic shape (a
    // trait's methods, imported without a name)
    pub use crate::ops::elementwise::SameShapeForms as _;

    // matmul's transpose markers (`x.try_matmul(&w, NoTrans, Trans)` on both paths)
    pub use crate::ops::matmul::{NoTrans, Trans};

    // select
    pub use crate::ops::select::{select, NoBroadcast, Numpy, Pdpd, SelectOutput, SelectWith};

    // multiplex (the function and the macro `multiplex!` are both `crate::multiplex`, above),
    // dynamic_stitch and dynamic_partition
    pub use crate::ops::multiplex::MultiplexError;
    pub use crate::ops::partition::{dynamic_partition, Partitions};
    pub use crate::ops::stitch::{dynamic_stitch, StitchError};

    // LoD tensors
    pub use crate::lod::{LodTensor, Offsets};

    // the shape errors every constructor returns, and the one error every
    // op's error converts into (`?` across ops)
    pub use crate::any_error::Error;
    pub use crate::error::ShapeError;

    // what generic code and the fallible forms name: a result's type, the
    // no-heap storage of bounded dims, select with run-time dims
    pub use crate::ops::select::try_select;
    pub use crate::storage::Room;
    pub use crate::tensor::Owned;
}

/// The names the prelude leaves out, at the root with it.
pub use rest::*;
mod rest {
    pub use crate::element::SameElement;
    pub use crate::expr::{Expr, ExprError};
    #[cfg(feature = "alloc")]
    pub use crate::lod::DynLodTensor;
    pub use crate::lod::{Lengths, LodError};
    pub use crate::ops::elementwise::{
        Activation, BinaryOp, BinaryOpKind, BroadcastResult, ElementwiseError, ElementwiseOutput,
        ElementwiseShapes, FloatElement,
    };
    #[cfg(feature = "alloc")]
    pub use crate::ops::lod_reset::DynY;
    pub use crate::ops::lod_reset::{LodResetError, NewLevel, YInput};
    pub use crate::ops::matmul::{
        DynTranspose, MatmulElements, MatmulError, MatmulOutput, MatmulShapes, Transpose,
    };
    pub use crate::ops::multiplex::{
        multiplex_backward, multiplex_backward_into, IndexElement, Multiplex, MultiplexShapes,
    };
    pub use crate::ops::partition::{
        dynamic_partition_backward, dynamic_partition_backward_into, Partition,
    };
    // the free-function spellings of the builders' output forms, before
    // `Multiplex` and `Partition` (not in the docs; kept for existing callers)
    #[doc(hidden)]
    pub use crate::ops::multiplex::{multiplex_bounded, multiplex_bounded_into, multiplex_into};
    #[doc(hidden)]
    pub use crate::ops::partition::{
        dynamic_partition_bounded, dynamic_partition_bounded_into, dynamic_partition_into,
    };
    pub use crate::ops::reduce::{
        All, ArgKeepOutput, DynArgAxis, DynAxes, OneAxis, Reduce, ReduceElement, ReduceError,
        ReduceKeepOutput, ReduceOutput,
    };
    pub use crate::ops::reshape::ReshapeError;
    pub use crate::ops::select::{
        select_into, try_select_into, AutoBroadcast, CondElement, ElseElement, SelectError,
        SelectShapes,
    };
    pub use crate::ops::softmax::{SoftmaxAxis, SoftmaxElement, SoftmaxError, SoftmaxOutput};
    pub use crate::ops::stitch::{StitchGrad, StitchIndex};
    #[doc(hidden)]
    pub use crate::shape::SameOutput;
    pub use crate::shape::{Dims, SameOrScalar};
    pub use crate::storage::{Inline, ResultStorage, Storage, StorageMut};
}

/// The examples of README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
