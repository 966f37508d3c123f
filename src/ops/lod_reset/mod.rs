//! `lod_reset` (PaddlePaddle): the same dense data under a new LoD.
//!
//! `lod_reset(x, y, target_lod, append)` keeps x's dense tensor (not
//! copied: the result takes it by value, or borrows it through
//! [`LodTensor::view`](crate::LodTensor::view)) and replaces its
//! [LoD](crate::lod):
//! - y with a LoD: the output takes all of y's levels, once y's last level
//!   is checked to end at x's row count (`append` and `target_lod` are then
//!   ignored; no other check, as in Paddle);
//! - y without a LoD: y's int32 elements, any shape, flattened, are read as
//!   **offsets** and become the new level;
//! - no y: the `target_lod` offsets become the new level (y wins when both
//!   are given; neither is an error);
//! - the new level has at least 2 offsets, starts at 0, ends at x's row
//!   count and never decreases (checked in that order);
//! - with `append`, the output keeps x's levels and adds the new one as the
//!   last; their nesting is not checked (as in Paddle: see
//!   [`LodTensor::check`](crate::LodTensor::check)).
//!
//! The rule is one function, [`lod_reset_rule`], which every path calls;
//! its errors ([`LodResetError`]) name the rule, the position and the values.
//! Matched against PaddlePaddle 3.3.1's legacy `lod_reset` op (fluid and
//! phi kernels agree): `tests/vectors/lod_reset.json`.
//!
//! ## Static path
//! The dense shape is a type (its static dims checked by the compiler; a
//! scalar is a compile error); the LoD is data, so every form returns a
//! `Result`:
//! - [`LodTensor::lod_reset`](crate::LodTensor::lod_reset)`(target, append)`:
//!   the target offsets, borrowed;
//! - [`LodTensor::lod_reset_by_data`](crate::LodTensor::lod_reset_by_data)`(&y, append, buf)`:
//!   y's int32 data, written as offsets into the caller's `buf` (no heap);
//! - [`LodTensor::lod_reset_like`](crate::LodTensor::lod_reset_like)`(&y)`:
//!   y's LoD, borrowed.
//!
//! The result's levels are a [`ResetLevels`](crate::ResetLevels) (x's levels,
//! kept or not, and the new one) or y's levels: nothing is copied.
//!
//! ## Dynamic path
//! [`DynLodTensor::lod_reset`](crate::DynLodTensor::lod_reset) takes Paddle's
//! arguments as they are (an optional y, optional target offsets, `append`)
//! and returns owned levels (feature `alloc`).
//!
//! ## Backward
//! [`LodTensor::lod_reset_backward`](crate::LodTensor::lod_reset_backward)
//! (and `try_`, `_into`, `DynLodTensor::lod_reset_backward`): the identity
//! on the data, under x's LoD (not the reset one), as Paddle's
//! `lod_reset_grad`.
//!
//! ## Where Paddle's docs and its implementation differ
//! The kernel reads offsets; the docs' examples write lengths:
//! - Example 1 gives `target_lod: [4, 2]` (lengths) for x of 6 rows; the
//!   kernel rejects it ("starts from 4"). The offsets `[0, 4, 6]` give the
//!   documented output, lengths `[[4, 2]]`;
//! - Example 2 gives y `[[2, 4]]` with dims `[1, 3]` (two values for three
//!   elements), read by the kernel as offsets starting at 2: rejected. The
//!   C++ op's own docs have it right, `[[0, 2, 6]]`: lengths `[[2, 4]]`;
//! - Example 3 (y with lengths `[[2, 2], [2, 2, 1, 1]]`) is consistent;
//! - the Chinese docs say `TypeError` when y and target are both missing;
//!   Paddle raises `ValueError`. Here it is [`LodResetError::NoSource`].
//!
//! Example 3: the output takes y's two levels.
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{LodTensor, Offsets};
//! let x_levels = [Offsets::new(&[0, 2, 5, 6])]; // lengths [[2, 3, 1]]
//! let x = LodTensor::new(
//!     Tensor::<f32, shape![Dyn, 1], Vec<f32>>::with_dims(&[6, 1], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap(),
//!     &x_levels[..],
//! )
//! .unwrap();
//! let y_levels = [Offsets::new(&[0, 2, 4]), Offsets::new(&[0, 2, 4, 5, 6])]; // [[2, 2], [2, 2, 1, 1]]
//! let y = LodTensor::new(
//!     Tensor::<f32, shape![6, 1]>::from_array([[1.1], [2.1], [3.1], [4.1], [5.1], [6.1]]),
//!     &y_levels[..],
//! )
//! .unwrap();
//! let out = x.lod_reset_like(&y).unwrap();
//! assert_eq!(out.levels(), 2);
//! assert_eq!(out.level(0).unwrap().as_slice(), &[0, 2, 4]);
//! assert_eq!(out.level(1).unwrap().as_slice(), &[0, 2, 4, 5, 6]);
//! assert_eq!(out.as_slice(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]); // x's data
//! assert_eq!(out.lengths()[1].as_lengths().as_slice(), &[2, 2, 1, 1]);
//! ```
//! Example 1, corrected: target offsets `[0, 4, 6]` (the docs' `[4, 2]` are
//! lengths, and the kernel rejects them).
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{LodResetError, LevelSource, LodTensor, Offsets};
//! let levels = [Offsets::new(&[0, 2, 5, 6])];
//! let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let dense = Tensor::<f32, shape![6, 1], &[f32]>::from_storage(&data[..]).unwrap();
//! let x = LodTensor::new(dense, &levels[..]).unwrap();
//!
//! // borrowed: x stays usable, nothing is copied
//! let out = x.view().lod_reset(Offsets::new(&[0, 4, 6]), false).unwrap();
//! assert_eq!(out.level(0).unwrap().as_slice(), &[0, 4, 6]);
//! assert_eq!(out.level(0).unwrap().lengths().collect::<Vec<_>>(), [4, 2]);
//! assert_eq!(out.as_slice().as_ptr(), data.as_ptr());
//!
//! // the docs as written
//! let err = x.view().lod_reset(Offsets::new(&[4, 2]), false).unwrap_err();
//! assert_eq!(err, LodResetError::BadStart { source: LevelSource::Target, value: 4 });
//! assert_eq!(
//!     err.to_string(),
//!     "lod_reset: the new LoD level (from target) must start at offset 0, but starts at 4"
//! );
//!
//! // with append, x's level stays and the new one comes last
//! let out = x.lod_reset(Offsets::new(&[0, 4, 6]), true).unwrap();
//! assert_eq!(out.levels(), 2);
//! assert_eq!(out.level(0).unwrap().as_slice(), &[0, 2, 5, 6]);
//! ```
//! Example 2, corrected: y's data `[[0, 2, 6]]` (dims `[1, 3]`) read as
//! offsets, into a caller's buffer (no heap).
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{LodResetError, LevelSource, LodTensor, Offsets};
//! let levels = [Offsets::new(&[0, 2, 5, 6])];
//! let x = LodTensor::new(
//!     Tensor::<f32, shape![6, 1]>::from_array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]]),
//!     &levels[..],
//! )
//! .unwrap();
//! let y = Tensor::<i32, shape![1, 3]>::from_array([[0, 2, 6]]);
//! let mut buf = [0usize; 3];
//! let out = x.view().lod_reset_by_data(&y, false, &mut buf).unwrap();
//! assert_eq!(out.level(0).unwrap().as_slice(), &[0, 2, 6]); // lengths [2, 4]
//!
//! // the docs as written: [[2, 4]] are read as offsets starting at 2
//! let y = Tensor::<i32, shape![1, 2]>::from_array([[2, 4]]);
//! let mut buf = [0usize; 2];
//! let err = x.view().lod_reset_by_data(&y, false, &mut buf).unwrap_err();
//! assert_eq!(err, LodResetError::BadStart { source: LevelSource::YData, value: 2 });
//! ```
//! Every check, with its error:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{LodResetError, LevelSource::Target, LodTensor, Offsets};
//! let x = LodTensor::new(Tensor::<i64, shape![7, 2]>::full(0), &[][..]).unwrap();
//! let reset = |t: &[usize]| x.view().lod_reset(Offsets::new(t), false).map(|_| ());
//! assert_eq!(reset(&[0]), Err(LodResetError::TooShort { source: Target, len: 1 }));
//! assert_eq!(reset(&[1, 7]), Err(LodResetError::BadStart { source: Target, value: 1 }));
//! assert_eq!(
//!     reset(&[0, 2, 8]),
//!     Err(LodResetError::BadEnd { source: Target, position: 2, last: 8, rows: 7 })
//! );
//! assert_eq!(
//!     reset(&[0, 7, 6, 7]),
//!     Err(LodResetError::Decreasing { source: Target, position: 2, previous: 7, value: 6 })
//! );
//! assert_eq!(reset(&[0, 3, 3, 7]), Ok(())); // an empty sequence is fine
//! ```

mod api;
mod backward;
#[cfg(feature = "alloc")]
mod dynamic;
mod error;
mod kernel;
mod rule;

#[cfg(feature = "alloc")]
pub use dynamic::DynY;
pub use error::{LevelSource, LodResetError};
pub use rule::{lod_reset_rule, NewLevel, ResetPlan, YInput};
