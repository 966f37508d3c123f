//! `multiplex` (PaddlePaddle 3.3.1): row `i` of the output is row `i` of
//! candidate `index[i]`, i.e. `out[i] = inputs[index[i]][i]`.
//!
//! ## The rule
//! One run-time function, [`rule()`], states it for every path; the static
//! path's trait bounds ([`MultiplexShapes`], in `bounds.rs`) and its row
//! assertion ([`RowsFit`]) exist for the compile errors.
//! - at least 2 candidate tensors (Paddle: "multiplex operator should have
//!   more than one candidate input tensors");
//! - every candidate has the same shape (Paddle: "All the candidate tensors
//!   must have the same size"), of rank at least 2 ("The rank of candidate
//!   tensors must be not less than 2");
//! - the index has shape `[index_rows, 1]` ("The index tensor must be a
//!   vector with batchSize x 1");
//! - **index rows must not exceed candidate rows** (Paddle: "The 2nd-dim of
//!   input cannot be smaller than batchSize of the index tensor"). Fewer is
//!   valid: the candidates' remaining rows are not read;
//! - the output has shape `[index_rows] + candidate.shape[1..]` and the
//!   candidates' element type. Zero-size shapes are valid (`[0, 3]`
//!   candidates with a `[0, 1]` index give `[0, 3]`, `[3, 0]` candidates give
//!   `[3, 0]`);
//! - every index value `k` satisfies `0 <= k < number of candidates`
//!   (Paddle: "index must be nonnegative", "index exceeds the number of
//!   candidate tensors"). All values are checked before any output is written.
//!
//! This is what PaddlePaddle 3.3.1 computes, measured on it (its docs say
//! the index and the candidates have the same rows, its kernel takes fewer
//! index rows): the `multiplex_rows_*` cases of `tests/vectors/multiplex.json`.
//!
//! ## Where we differ from Paddle, and Paddle's docs from its implementation
//! - **Deliberate difference:** when the output holds no element (0 index
//!   rows, or a 0 among the candidates' trailing dims) Paddle reads no index
//!   value, so an out-of-range value there goes unnoticed. We check every
//!   index value whatever the output's size: a wrong index is a bug in the
//!   caller's program either way.
//! - The docs say the index has shape `[M, 1]` "where M is the number of input
//!   Tensors". The kernel reads one index per **row** (M is the batch size),
//!   as its own test and the seed's fluid example (two `[2, 2]` inputs, index
//!   `[[1], [0]]`, see [`multiplex!`](crate::multiplex!)) do.
//! - A reading of Paddle's source found no check of the index's row count
//!   (more rows would read out of bounds, fewer would leave output rows
//!   uninitialised). Measured, 3.3.1 rejects more rows and returns
//!   `[index_rows, ...]` for fewer; we follow the measurement.
//! - The docs accept an `int64` index, but Paddle's kernel reads the index as
//!   `int32` and fails on `int64`. Both `i32` and `i64` work here
//!   ([`IndexElement`]).
//!
//! ## Static path
//! Candidates are an array `[Tensor<T, S, B>; K]` (one type, hence one
//! shape). The output type is computed from the index's rows and the
//! candidates' trailing dims; index values are data, so [`multiplex`] always
//! returns a `Result`. The seed's 4x4 example:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::multiplex;
//! type S = shape![4, 4];
//! let inputs = [
//!     Tensor::<f32, S>::from_array([[0., 0., 3., 4.], [0., 1., 3., 4.], [0., 2., 4., 4.], [0., 3., 3., 4.]]),
//!     Tensor::<f32, S>::from_array([[1., 0., 3., 4.], [1., 1., 7., 8.], [1., 2., 4., 2.], [1., 3., 3., 4.]]),
//!     Tensor::<f32, S>::from_array([[2., 0., 3., 4.], [2., 1., 7., 8.], [2., 2., 4., 2.], [2., 3., 3., 4.]]),
//!     Tensor::<f32, S>::from_array([[3., 0., 3., 4.], [3., 1., 7., 8.], [3., 2., 4., 2.], [3., 3., 3., 4.]]),
//! ];
//! let index = Tensor::<i32, shape![4, 1]>::from_array([[3], [0], [1], [2]]);
//! let out: Tensor<f32, S> = multiplex(&inputs, &index).run().unwrap();
//! assert_eq!(
//!     out,
//!     Tensor::<f32, S>::from_array([[3., 0., 3., 4.], [0., 1., 3., 4.], [1., 2., 4., 2.], [2., 3., 3., 4.]])
//! );
//! ```
//! Fewer index rows than candidate rows: the output has the index's rows
//! (here 2 of 3, as Paddle's `[3, 2]` candidates with index `[[1], [1]]`);
//! an empty index gives an empty output, and its values would still be checked:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{multiplex, MultiplexError};
//! let a = Tensor::<i32, shape![3, 2]>::from_array([[1, 2], [3, 4], [5, 6]]);
//! let b = Tensor::<i32, shape![3, 2]>::from_array([[10, 20], [30, 40], [50, 60]]);
//! let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [1]]);
//! let out: Tensor<i32, shape![2, 2]> = multiplex(&[a, b], &index).run().unwrap();
//! assert_eq!(out.as_slice(), &[10, 20, 30, 40]);
//!
//! let none = Tensor::<i32, shape![0, 1]>::from_array([]);
//! let empty: Tensor<i32, shape![0, 2]> = multiplex(&[a, b], &none).run().unwrap();
//! assert!(empty.as_slice().is_empty());
//!
//! let bad = Tensor::<i32, shape![2, 1]>::from_array([[1], [2]]);
//! let err = multiplex(&[a, b], &bad).run().unwrap_err();
//! assert_eq!(err, MultiplexError::IndexOutOfRange { row: 1, value: 2, candidates: 2 });
//! ```
//! More index rows than candidate rows does not build
//! (`ui-tests/multiplex/fail/index_rows.rs`). Stable Rust cannot bound one
//! const generic by another, so this rule is an assertion evaluated when the
//! function is instantiated ([`RowsFit`]): `cargo build`,
//! `cargo test` and `cargo run` report `error[E0080]: evaluation panicked:
//! multiplex: index rows must not exceed candidate rows: index [3, 1] has 3
//! rows but the candidates [2, 2] have 2`; `cargo check` does **not**. The
//! same holds for "at least 2 candidates" ([`CandidateCount`]). With a
//! [`Dyn`](crate::Dyn) row count on either side, the rule is checked at run
//! time ([`MultiplexError::IndexRows`]).
//! ```compile_fail,E0080
//! use shapecheck::prelude::*;
//! use shapecheck::multiplex;
//! let a = Tensor::<f32, shape![2, 2]>::full(1.0);
//! let index = Tensor::<i32, shape![3, 1]>::from_array([[1], [0], [1]]);
//! let _ = multiplex(&[a, a], &index).run(); // index [3, 1] has 3 rows, the candidates 2
//! ```
//!
//! ## Backward
//! [`multiplex_backward`] (and `_into`, [`multiplex_backward_slices`],
//! `DynTensor::multiplex_backward`): from the candidates, the index and a
//! `dout` of the output's type, each candidate's gradient typed as the
//! candidate: the rows of `dout` that chose it, zeros elsewhere (also past
//! the index's rows, where Paddle's gradient is output-shaped). See
//! [`backward`].
//!
//! ## Dynamic path
//! No heap: candidates as `(dims, data)` pairs, every rule checked at run
//! time by [`rule()`].
//! ```
//! use shapecheck::ops::multiplex::{multiplex_slices, MultiplexError};
//! let a = [1, 2, 3, 4, 5, 6];
//! let b = [10, 20, 30, 40, 50, 60];
//! let cands = [(&[3, 2][..], &a[..]), (&[3, 2][..], &b[..])];
//! let mut out = [0; 6];
//! let dims = multiplex_slices(&cands, &[3, 1], &[1i32, 0, 1], &mut out).unwrap();
//! assert_eq!(dims.as_slice(), &[3, 2]);
//! assert_eq!(out, [10, 20, 3, 4, 50, 60]);
//! // a negative index value: an error naming the row and the value, nothing written
//! let mut out2 = [0; 6];
//! let err = multiplex_slices(&cands, &[3, 1], &[1i32, -1, 0], &mut out2).unwrap_err();
//! assert_eq!(err, MultiplexError::NegativeIndex { row: 1, value: -1 });
//! assert_eq!(err.to_string(), "multiplex: index must be nonnegative, but index[1] is -1");
//! assert_eq!(out2, [0; 6]);
//! // more index rows than candidate rows: an error naming both shapes
//! let err = multiplex_slices(&cands, &[4, 1], &[0i32; 4], &mut [0; 8]).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "multiplex: index rows must not exceed candidate rows, but the index [4, 1] has 4 rows and the candidates [3, 2] have 3"
//! );
//! ```

mod api;
pub mod backward;
mod bounds;
#[cfg(feature = "alloc")]
pub(crate) mod dynamic;
mod error;
mod kernel;
mod rule;

pub use api::{multiplex, multiplex_bounded, multiplex_bounded_into, multiplex_into, Multiplex};
pub use backward::{multiplex_backward, multiplex_backward_into, multiplex_backward_slices};
pub use bounds::*;
#[cfg(feature = "alloc")]
pub use dynamic::DynMultiplex;
pub use error::MultiplexError;
pub use kernel::multiplex_slices;

pub use rule::{multiplex_output_dims, rule, MultiplexPlan};

use crate::shape::Shape;
use crate::storage::{ResultStorage, Storage};
use crate::tensor::Tensor;
use api::new_output;

// ------------------------------------------------ the `multiplex!` macro

/// Used by [`multiplex!`](crate::multiplex!): [`Multiplex::run`] over views of the
/// candidates, the result stored like `first` (on the heap for `Vec`
/// candidates, inline for inline ones).
#[doc(hidden)]
pub fn multiplex_views<T, S, B, I, IS, BI, const K: usize>(
    _first: &Tensor<T, S, B>,
    views: [Tensor<T, S, &[T]>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, IS, B>, MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IS>,
    B: ResultStorage<T, MultiplexOut<S, IS>>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IS>::CHECK;
    let view = index.view();
    let Some(first) = views.first() else {
        return Err(MultiplexError::TooFewCandidates { count: 0 });
    };
    let shape = S::output(first.shape(), view.shape());
    let row_len = match (S::IS_STATIC, IS::IS_STATIC) {
        (true, true) => RowsFit::<S, IS>::ROW_LEN,
        _ => None,
    };
    new_output(&views, &view, shape, row_len)
}

/// Used by [`multiplex!`](crate::multiplex!): a view of `candidate`, checked
/// to have the shape of `first`. Views share one storage type whatever the
/// shape, so a candidate of another shape is reported by the rule's own
/// message and not as a type mismatch of the array.
#[doc(hidden)]
#[inline(always)]
pub fn same_candidate_shape<'a, T, S0, S2, B0, B2>(
    _first: &Tensor<T, S0, B0>,
    candidate: &'a Tensor<T, S2, B2>,
) -> Tensor<T, <S2 as CandidateOf<S0>>::Shape, &'a [T]>
where
    T: Copy,
    S0: Shape,
    S2: CandidateOf<S0>,
    B0: Storage<T>,
    B2: Storage<T>,
{
    S2::view_as(candidate)
}

/// `multiplex!(index; a, b, c, ...)`: Paddle's multiplex with the candidates
/// listed, under the rules of [`multiplex`] (the output has the index's rows):
/// - fewer than two candidates: `multiplex!: needs at least 2 candidate
///   tensors`, under `cargo check` too;
/// - candidates of different shapes: `multiplex: all candidates must have one
///   shape, but the first is ... and this one is ...`, under `cargo check` too;
/// - the rank and index-shape rules of [`multiplex`] (bounds), and its
///   index-rows rule ([`RowsFit`], reported by `cargo build`).
///
/// It returns what [`multiplex`]`(..).`[`run()`](Multiplex::run) returns (a
/// `Result`: index values are data).
///
/// ```
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
/// let b = Tensor::<f32, shape![2, 2]>::from_array([[5.0, 6.0], [7.0, 8.0]]);
/// let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
/// let out = shapecheck::multiplex!(index; a, b).unwrap();
/// assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);
/// // one index row: the output has one row
/// let first = Tensor::<i32, shape![1, 1]>::from_array([[1]]);
/// let out: Tensor<f32, shape![1, 2]> = shapecheck::multiplex!(first; a, b).unwrap();
/// assert_eq!(out.as_slice(), &[5.0, 6.0]);
/// ```
/// Candidates of two shapes do not compile (`ui-tests/multiplex/fail/macro_candidate_shapes.rs`):
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::full(1.0);
/// let b = Tensor::<f32, shape![2, 3]>::full(2.0);
/// let index = Tensor::<i32, shape![2, 1]>::full(0);
/// let _ = shapecheck::multiplex!(index; a, b);
/// ```
#[macro_export]
macro_rules! multiplex {
    ($index:expr ; $first:expr, $($rest:expr),+ $(,)?) => {{
        let first = &$first;
        $crate::ops::multiplex::multiplex_views(
            first,
            [first.view(), $($crate::ops::multiplex::same_candidate_shape(first, &$rest)),+],
            &$index,
        )
    }};
    ($index:expr ; $($few:expr),* $(,)?) => {
        ::core::compile_error!(
            "multiplex/candidate-count: multiplex! needs at least 2 candidate tensors (Paddle: \"multiplex operator should have more than one candidate input tensors\")"
        )
    };
}
