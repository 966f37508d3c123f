//! LoD tensors: Paddle's ragged batches, a dense tensor whose rows are split
//! into sequences by levels of offsets.
//!
//! A LoD ("level of detail") is a list of levels. The last level holds
//! offsets into the dense tensor's rows: `[0, 2, 4, 5, 6]` makes 4
//! sequences of rows `0..2`, `2..4`, `4..5`, `5..6`. Each level above holds
//! offsets into the sequences of the level below: `[0, 2, 4]` on top of it
//! makes 2 sequences of 2 sequences each. Offsets are the storage, as in
//! Paddle's C++ ([`Offsets`]); Paddle's Python API speaks lengths
//! (`recursive_sequence_lengths`, `[[2, 2], [2, 2, 1, 1]]` for the LoD
//! above), which are a type of their own ([`Lengths`]) accepted only by
//! [`LodTensor::from_lengths`] / [`LodTensor::from_lengths_in`] and returned
//! only by [`LodTensor::lengths`] / [`LodTensor::lengths_into`].
//!
//! ## The rule: Paddle's `CheckLoD`
//! Checked by every constructor ([`check_lod`], [`LodError`] names the level,
//! the position and the values):
//! - every level has at least 2 offsets, the first is 0, and they never
//!   decrease (an empty sequence, two equal offsets, is allowed);
//! - the last level's last offset is the dense tensor's row count;
//! - each upper level's last offset is the number of sequences of the level
//!   below (its offset count minus 1).
//!
//! Paddle skips the row count check for a tensor of height 0; here it always
//! applies, so a LoD never claims rows that do not exist. Converting lengths
//! to offsets (prefix sums) reports an overflow of `usize` as
//! [`LodError::LengthOverflow`]; nothing panics.
//!
//! ## Storage
//! [`LodTensor<T, S, B, L>`](LodTensor) composes, without copying, a dense
//! [`Tensor<T, S, B>`](crate::Tensor) of rank at least 1 (a scalar shape is
//! a compile error, [`RowShape`]) and levels `L` ([`Levels`]): borrowed
//! `&[Offsets]` (no heap, the embedded form) or [`OwnedLod`] (feature
//! `alloc`). The number of levels is a run-time value. [`DynLodTensor`] is
//! the dynamic path, over a [`DynTensor`](crate::DynTensor).
//!
//! ## Sequences
//! What a LoD is for: [`LodTensor::sequences`] walks the sequences of any
//! level, each a view of the dense rows it spans; above the last level, each
//! also walks the sequences it holds. Example 3 of Paddle's `lod_reset` docs:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{LodTensor, Offsets};
//! let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let dense = Tensor::<f32, shape![Dyn, 1], &[f32]>::with_dims(&[6, 1], &data[..]).unwrap();
//! // lengths [[2, 2], [2, 2, 1, 1]], stored as offsets; borrowed, no heap
//! let levels = [Offsets::new(&[0, 2, 4]), Offsets::new(&[0, 2, 4, 5, 6])];
//! let x = LodTensor::new(dense, &levels[..]).unwrap();
//!
//! let mut rows = vec![];
//! for s in x.sequences(1).unwrap() {
//!     rows.push(s.tensor().as_slice().to_vec());
//! }
//! assert_eq!(rows, [vec![1.0, 2.0], vec![3.0, 4.0], vec![5.0], vec![6.0]]);
//!
//! // the top level: a sequence of sequences
//! let top: Vec<Vec<Vec<f32>>> = x
//!     .sequences(0)
//!     .unwrap()
//!     .map(|s| s.sequences().map(|inner| inner.tensor().as_slice().to_vec()).collect())
//!     .collect();
//! assert_eq!(top, [vec![vec![1.0, 2.0], vec![3.0, 4.0]], vec![vec![5.0], vec![6.0]]]);
//! let first = x.sequences(0).unwrap().next().unwrap();
//! assert_eq!(first.rows(), 0..4);
//! assert_eq!(first.tensor().dims().as_slice(), &[4, 1]);
//! ```
//! A LoD that breaks a rule is an error naming it:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{LodError, LodTensor, Offsets};
//! let dense = Tensor::<f32, shape![6, 1]>::full(0.0);
//! let levels = [Offsets::new(&[0, 2, 4]), Offsets::new(&[0, 2, 5, 4, 6])];
//! let err = LodTensor::new(dense, &levels[..]).unwrap_err();
//! assert_eq!(err, LodError::Decreasing { level: 1, position: 3, previous: 5, value: 4 });
//! assert_eq!(
//!     err.to_string(),
//!     "LoD level 1 decreases at position 3: offset 4 follows 5; offsets never decrease \
//!      (empty sequences, equal neighbours, are allowed)"
//! );
//! ```
//! A scalar has no rows to split (`ui-tests/lod/fail/scalar_dense.rs`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! use shapecheck::{LodTensor, Offsets};
//! let levels = [Offsets::new(&[0, 1])];
//! let _ = LodTensor::new(Tensor::<f32, shape![]>::full(1.0), &levels[..]);
//! ```

mod check;
#[cfg(feature = "alloc")]
mod dynamic;
mod error;
mod levels;
mod offsets;
mod seq;
mod tensor;

pub use crate::rows::RowShape;
pub use check::{check_lengths, check_lod};
#[cfg(feature = "alloc")]
pub use dynamic::{DynLodTensor, DynSequence, DynSequences};
pub use error::LodError;
#[cfg(feature = "alloc")]
pub use levels::OwnedLod;
pub use levels::{BoundedLod, Levels, ResetLevels};
pub use offsets::{Lengths, Offsets};
#[cfg(feature = "alloc")]
pub use offsets::{LengthsBuf, OffsetsBuf};
pub use seq::{Sequence, Sequences};
pub use tensor::{LodParts, LodPartsLink, LodTensor, LodTensorOf};
