//! TensorFlow's `dynamic_stitch` (TF 2.21). Its inverse, `dynamic_partition`,
//! is [`ops::partition`](crate::ops::partition) (with the round trip as an
//! example); it shares this op's index types ([`StitchIndex`],
//! [`IndexSlice`]), error enum ([`StitchError`]) and output shape
//! ([`PrependDyn`]).
//!
//! ## dynamic_stitch: the rule
//! Inputs are pairs `(indices[m], data[m])`, `m = 0..N`, `N >= 1`:
//! - `indices[m]` holds `i32` or `i64` values, of any rank (a scalar too);
//! - `data[m].shape` starts with `indices[m].shape` (the **prefix rule**);
//!   what follows, the *slice*, is the same for every m (the **slice rule**);
//! - `merged[indices[m][j], ...] = data[m][j, ...]` (j a flat position);
//!   the output is `[rows] + slice`, `rows = max index + 1` (0 when every
//!   indices tensor is empty);
//! - rows no index names are zero (`T::default()`), as TensorFlow's kernel
//!   does today (before TF 2.4 they were uninitialised, issue #43491);
//! - of two equal indices, the later `(m, j)` wins (TensorFlow's CPU kernel
//!   runs in order);
//! - a negative index is an error naming the pair and the position
//!   (TensorFlow: `"indices[j] is out of range"`); so is an index so large that
//!   the output's element count overflows `usize` (TensorFlow overflows its
//!   `int32` row count on 2^31 - 1), or that does not fit a caller's buffer.
//!
//! Taking *pairs* makes a different number of index and data tensors
//! impossible to write (CVE-2022-41883 was that mismatch).
//!
//! ## What is static, what is `Dyn`
//! The output's first dim, `rows`, depends on the index *values*: it is
//! [`Dyn`](crate::Dyn). The slice dims come from the data's type and stay
//! static: stitching `shape![2, 4]` data gives a `Tensor<T, (Dyn, Dim<4>), _>`.
//! The index-element, prefix and slice rules are compile errors on the
//! static path (`bounds.rs`); the values (negative or huge indices, `Dyn`
//! dims) are checked at run time by the op's one rule
//! ([`stitch_output_dims`]), which the static and dynamic paths share. One
//! exception: a [`Stitch`] whose pairs and slice have only static dims skips
//! the shape part of that rule (the types proved it) and only scans the
//! index values, in the rule's order and with its errors (`NegativeIndex`,
//! `TooManyRows`); its loops are generated per pair, with the slice length a
//! constant.
//!
//! ## Static path: why a builder
//! [`Stitch`] starts from one pair and takes more with `.pair(&indices,
//! &data)`, each checked at compile time against the slice of the first pair
//! (carried in the builder's type). Pairs may have different ranks and index
//! types in one call. A builder scales to any N with one generic method, no
//! impl or macro arm per N, and no heap: the pairs are borrowed and kept in a
//! list nested in the builder's type (`(((), pair0), pair1)`), so there is no
//! capacity to choose either. (A `stitch!` macro would work too, but its
//! errors would point into an expansion; a fixed-capacity array would cap
//! N.) Then `.run()` (feature `alloc`) returns an owned tensor and
//! `.run_into(&mut buf)` writes into a caller's buffer and returns a view of
//! its prefix. `.run()` reserves the rows the largest index asks for
//! (fallibly): with untrusted indices, `.run_into` bounds the memory.
//!
//! TensorFlow's own example (`ui-tests/stitch/pass/seed_example.rs`):
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::dynamic_stitch;
//! let i0 = Tensor::<i32, shape![]>::from_array(6);
//! let i1 = Tensor::<i32, shape![2]>::from_array([4, 1]);
//! let i2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 2], [0, 3]]);
//! let d0 = Tensor::<i32, shape![2]>::from_array([61, 62]);
//! let d1 = Tensor::<i32, shape![2, 2]>::from_array([[41, 42], [11, 12]]);
//! let d2 = Tensor::<i32, shape![2, 2, 2]>::from_array([[[51, 52], [21, 22]], [[1, 2], [31, 32]]]);
//! let stitch = dynamic_stitch(&i0, &d0).pair(&i1, &d1).pair(&i2, &d2);
//!
//! // with a heap: an owned (Dyn, Dim<2>) tensor
//! let merged: Tensor<i32, (Dyn, Dim<2>), Vec<i32>> = stitch.run().unwrap();
//! assert_eq!(merged.dims().as_slice(), &[7, 2]);
//! assert_eq!(merged.as_slice(), &[1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62]);
//!
//! // without: a view over the front of a caller's buffer
//! let mut buf = [0; 16];
//! let view = stitch.run_into(&mut buf).unwrap();
//! assert_eq!(view.dims().as_slice(), &[7, 2]);
//! let mut small = [-1; 8];
//! let err = stitch.run_into(&mut small).unwrap_err();
//! assert_eq!(err.to_string(), "the output [7, 2] needs 14 elements, but the buffer holds 8");
//! assert_eq!(small, [-1; 8]);
//! ```
//! A pair whose data does not start with its indices does not compile
//! (`ui-tests/stitch/fail/prefix.rs`: "dynamic_stitch: data (Dim<2>, Dim<4>)
//! does not start with indices (Dim<3>,)"):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let i = Tensor::<i32, shape![3]>::from_array([0, 1, 2]);
//! let d = Tensor::<f32, shape![2, 4]>::full(1.0);
//! let _ = shapecheck::dynamic_stitch(&i, &d);
//! ```
//! nor one whose slice differs from the first pair's
//! (`ui-tests/stitch/fail/slice.rs`: slice `[3, 4]` after `[4]`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let i0 = Tensor::<i32, shape![2]>::from_array([0, 1]);
//! let d0 = Tensor::<f32, shape![2, 4]>::full(1.0);
//! let i1 = Tensor::<i32, shape![2]>::from_array([2, 3]);
//! let d1 = Tensor::<f32, shape![2, 3, 4]>::full(2.0);
//! let _ = shapecheck::dynamic_stitch(&i0, &d0).pair(&i1, &d1);
//! ```
//! nor indices of another element type, as one error however the builder
//! is used after (`ui-tests/stitch/fail/float_indices.rs`:
//! "dynamic_stitch/index-element: indices must hold i32 or i64, not `f32`"):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let i = Tensor::<f32, shape![2]>::from_array([0.0, 1.0]);
//! let d = Tensor::<f32, shape![2, 4]>::full(1.0);
//! let _ = shapecheck::dynamic_stitch(&i, &d).run();
//! ```
//!
//! ## Dynamic path
//! [`stitch_slices`] takes run-time dims over slices and writes into a
//! caller's buffer (no heap); with `alloc`,
//! [`DynTensor::dynamic_stitch`](crate::DynTensor::dynamic_stitch).
//!
//! ## Backward
//! [`Stitch::backward`] gives each pair's data gradient, typed as that
//! data, from a `dout` of the output's shape (any run-time rows): the
//! derivative by default (an overwritten duplicate index gets zero), or
//! TensorFlow's gather as the explicit [`StitchGrad::TfGather`] (TF issue
//! #7397). Also `backward_with`, `backward_into`, [`stitch_backward_slices`]
//! and `DynTensor::dynamic_stitch_backward`; see [`backward`].
//!
//! ## Where TensorFlow's docs and implementation differ
//! - Older docs give `merged.shape = [max(indices)] + constant`, one row
//!   short; the kernel allocates `max + 1` rows, as here.
//! - The docs say indices are `int32`; `i64` indices are accepted here too.
//! - The docs do not say what fills rows no index names: the kernel zeroes
//!   them (since TF 2.4), as here.
//!
//! ## Where things are
//! - `rule.rs`: the rule ([`stitch_output_dims`]) and its input values
//!   ([`StitchPair`], [`IndexSlice`]); every path calls it;
//! - `bounds.rs`: the same rules at the type level, for the compile errors;
//! - `api.rs`: the static path ([`dynamic_stitch`], [`Stitch`]);
//! - `kernel.rs`: the loops, and the dynamic path over slices
//!   ([`stitch_slices`]); `dynamic.rs`: `DynTensor::dynamic_stitch`;
//! - [`StitchError`] (dynamic_partition's errors too) is in `ops/indexed.rs`,
//!   with what else the two ops share.

mod api;
pub mod backward;
pub(crate) mod bounds;
pub(crate) mod dynamic;
mod kernel;
pub mod rule;

pub use crate::ops::indexed::{
    IndexSlice, PrependDyn, SameRows, StaticSlice, StitchError, StitchIndex,
};
pub use api::{dynamic_stitch, FirstSlice, FirstStitch, NextSlice, Stitch, StitchPairs};
pub use backward::{
    stitch_backward_slices, GradSlices, GradsOfPairs, StitchGrad, StitchGrads, StitchGradsInto,
    WINDOW_ROWS,
};
pub use bounds::*;
#[cfg(feature = "alloc")]
pub use dynamic::DynStitch;
pub use kernel::stitch_slices;
pub use rule::{stitch_output_dims, StitchPair};
