//! `multiplex` (PaddlePaddle): row `i` of the output is row `i` of candidate
//! `index[i]`, i.e. `out[i] = inputs[index[i]][i]`.
//!
//! ## The rule
//! - at least 2 candidate tensors (Paddle: "multiplex operator should have
//!   more than one candidate input tensors");
//! - every candidate has the same shape (Paddle: "All the candidate tensors
//!   must have the same size"), of rank at least 2 ("The rank of candidate
//!   tensors must be not less than 2");
//! - the index has shape `[rows, 1]` ("The index tensor must be a vector with
//!   batchSize x 1"), where `rows` is the candidates' first dim;
//! - every index value `k` satisfies `0 <= k < number of candidates`
//!   (Paddle: "index must be nonnegative", "index exceeds the number of
//!   candidate tensors"). All values are checked before any output is written;
//! - no candidate may be empty (a dim of 0): Paddle's kernel rejects that
//!   ("indexing will be out of bounds with size 0 for the %d-th input"), and so
//!   do we, with [`MultiplexError::ZeroSize`], on every path;
//! - the output has the candidates' shape and element type.
//!
//! ## Where Paddle's docs and its implementation differ
//! - The docs say the index has shape `[M, 1]` "where M is the number of input
//!   Tensors". The kernel reads one index per **row** of the candidates (M is
//!   the batch size), as its own test and the fluid example below do. We use
//!   the row count.
//! - Paddle never checks the index's row count: with more rows than the
//!   candidates the CPU kernel reads and writes out of bounds, with fewer the
//!   remaining output rows stay uninitialised. Here a static row mismatch is a
//!   compile error ([`MultiplexRowsDim`](crate::rules::MultiplexRowsDim)), and
//!   a run-time one (a [`Dyn`](crate::Dyn) dim, or the dynamic path) is
//!   [`MultiplexError::IndexShape`].
//! - The docs accept an `int64` index, but Paddle's kernel reads the index as
//!   `int32` and fails on `int64`. Both `i32` and `i64` work here
//!   ([`IndexElement`]).
//!
//! ## Static path
//! Candidates are an array `[Tensor<T, S, B>; K]` (one type, hence one shape:
//! any number of candidates, no tuple). Shape rules are trait bounds
//! ([`MultiplexShapes`](crate::rules::MultiplexShapes)); the index values are
//! data, so [`multiplex`] always returns a `Result`. The seed's 4x4 example:
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
//! let out: Tensor<f32, S> = multiplex(&inputs, &index).unwrap();
//! assert_eq!(
//!     out,
//!     Tensor::<f32, S>::from_array([[3., 0., 3., 4.], [0., 1., 3., 4.], [1., 2., 4., 2.], [2., 3., 3., 4.]])
//! );
//! ```
//! The fluid example (two `[2, 2]` candidates, index `[[1], [0]]`), with an
//! `i64` index, and an out-of-range index value:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{multiplex, MultiplexError};
//! let img1 = Tensor::<f32, shape![2, 2]>::from_array([[1., 2.], [3., 4.]]);
//! let img2 = Tensor::<f32, shape![2, 2]>::from_array([[5., 6.], [7., 8.]]);
//! let index = Tensor::<i64, shape![2, 1]>::from_array([[1], [0]]);
//! let res = multiplex(&[img1, img2], &index).unwrap();
//! assert_eq!(res.as_slice(), &[5., 6., 3., 4.]);
//!
//! let bad = Tensor::<i64, shape![2, 1]>::from_array([[1], [2]]);
//! let err = multiplex(&[img1, img2], &bad).unwrap_err();
//! assert_eq!(err, MultiplexError::IndexOutOfRange { row: 1, value: 2, candidates: 2 });
//! ```
//! An index whose row count is not the candidates' does not compile
//! (`ui-tests/multiplex/fail/index_rows.rs`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! use shapecheck::multiplex;
//! let a = Tensor::<f32, shape![2, 2]>::full(1.0);
//! let index = Tensor::<i32, shape![3, 1]>::from_array([[1], [0], [1]]);
//! let _ = multiplex(&[a, a], &index);
//! ```
//! Neither does a single candidate (`ui-tests/multiplex/fail/one_candidate.rs`),
//! but with a caveat: stable Rust cannot bound a const generic by `K >= 2`
//! without one impl per count, so that rule is a constant evaluated when the
//! function is instantiated. `cargo build` (and `cargo test`, `cargo run`)
//! reports it as `error[E0080]: evaluation panicked: multiplex: needs at least
//! 2 candidate tensors ...`; `cargo check` does **not** (it stops before
//! instantiation).
//!
//! ## Dynamic path
//! No heap: candidates as `(dims, data)` pairs, every rule checked at run time.
//! ```
//! use shapecheck::ops::multiplex::{multiplex_slices, MultiplexError};
//! let a = [1, 2, 3, 4, 5, 6];
//! let b = [10, 20, 30, 40, 50, 60];
//! let mut out = [0; 6];
//! let dims = multiplex_slices(&[(&[3, 2][..], &a[..]), (&[3, 2][..], &b[..])],
//!     &[3, 1], &[1i32, 0, 1], &mut out).unwrap();
//! assert_eq!(dims.as_slice(), &[3, 2]);
//! assert_eq!(out, [10, 20, 3, 4, 50, 60]);
//! // a negative index value: an error naming the row and the value, nothing written
//! let mut out2 = [0; 6];
//! let err = multiplex_slices(&[(&[3, 2][..], &a[..]), (&[3, 2][..], &b[..])],
//!     &[3, 1], &[1i32, -1, 0], &mut out2).unwrap_err();
//! assert_eq!(err, MultiplexError::NegativeIndex { row: 1, value: -1 });
//! assert_eq!(err.to_string(), "multiplex: index must be nonnegative, but index[1] is -1");
//! assert_eq!(out2, [0; 6]);
//! ```

// The errors carry the offending dims inline (`Dims`, no heap, so they work
// without alloc): `ShapeError` is already 152 bytes, and boxing is not an
// option on no_std. Errors are cold; the size is accepted on purpose.
#![allow(clippy::result_large_err)]

use crate::error::ShapeError;
use crate::shape::{Dims, Shape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;
use core::fmt;

/// An index element type: `i32` or `i64` (Paddle's docs name both).
#[diagnostic::on_unimplemented(
    message = "multiplex: the index element type must be i32 or i64, not `{Self}`",
    label = "the index must be an integer tensor of i32 or i64",
    note = "Paddle: the index dtype must be int32 or int64"
)]
pub trait IndexElement: Copy + 'static {
    /// The value as `i64`.
    fn to_i64(self) -> i64;
    /// `0 <= self < count`: a valid index into `count` candidates. Written
    /// branch-free, so that checking a whole index vectorizes.
    #[inline(always)]
    fn is_below(self, count: usize) -> bool {
        let v = self.to_i64();
        (v >= 0) & (v < i64::try_from(count).unwrap_or(i64::MAX))
    }
}
impl IndexElement for i32 {
    #[inline(always)]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    #[inline(always)]
    fn is_below(self, count: usize) -> bool {
        // a negative value reinterprets as at least 2^31, and the limit is at
        // most 2^31: one unsigned compare (a 32-bit lane when vectorized)
        #[allow(clippy::cast_sign_loss)]
        let v = self as u32;
        v < u32::try_from(count).unwrap_or(u32::MAX).min(1 << 31)
    }
}
impl IndexElement for i64 {
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self
    }
    #[inline(always)]
    fn is_below(self, count: usize) -> bool {
        // a negative value reinterprets as at least 2^63, and the limit is at
        // most 2^63
        #[allow(clippy::cast_sign_loss)]
        let v = self as u64;
        v < u64::try_from(count).unwrap_or(u64::MAX).min(1 << 63)
    }
}

/// The "at least 2 candidates" rule for a static candidate count `K`.
///
/// Stable Rust has no `where K >= 2` bound, and enumerating one impl per count
/// is what this API avoids; [`AT_LEAST_TWO`](Self::AT_LEAST_TWO) is an
/// assertion evaluated when [`multiplex`] or [`multiplex_into`] is
/// instantiated with `K`, so `K < 2` fails `cargo build` with
/// `error[E0080]: evaluation panicked: multiplex: needs at least 2 candidate
/// tensors ...` (but passes `cargo check`, which does not instantiate).
pub struct CandidateCount<const K: usize>;

impl<const K: usize> CandidateCount<K> {
    /// Fails const evaluation unless `K >= 2`.
    pub const AT_LEAST_TWO: () = assert!(
        K >= 2,
        "multiplex: needs at least 2 candidate tensors (Paddle: \"multiplex operator should have more than one candidate input tensors\")"
    );
}

/// Why multiplex rejected its inputs. Each variant is one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiplexError {
    /// Fewer than 2 candidates.
    TooFewCandidates {
        /// The number of candidates given.
        count: usize,
    },
    /// A candidate's shape differs from the first one's.
    CandidateShapes {
        /// The first candidate's dims.
        first: Dims,
        /// The differing candidate's dims.
        other: Dims,
        /// The differing candidate's position in the list.
        position: usize,
    },
    /// The candidates have rank < 2.
    CandidateRank {
        /// The candidates' dims.
        dims: Dims,
    },
    /// The index does not have shape `[rows, 1]`.
    IndexShape {
        /// The index's dims.
        index: Dims,
        /// The candidates' row count (their first dim).
        rows: usize,
    },
    /// The candidates hold no element (a dim is 0).
    ZeroSize {
        /// The candidates' dims.
        dims: Dims,
    },
    /// An index value is negative.
    NegativeIndex {
        /// The row of the index.
        row: usize,
        /// Its value.
        value: i64,
    },
    /// An index value is not below the number of candidates.
    IndexOutOfRange {
        /// The row of the index.
        row: usize,
        /// Its value.
        value: i64,
        /// The number of candidates.
        candidates: usize,
    },
    /// A shape problem not specific to this op (data length, rank, output buffer).
    Shape(ShapeError),
}

impl From<ShapeError> for MultiplexError {
    fn from(e: ShapeError) -> Self {
        MultiplexError::Shape(e)
    }
}

impl fmt::Display for MultiplexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MultiplexError::TooFewCandidates { count } => write!(
                f,
                "multiplex: needs at least 2 candidate tensors, but {count} were given"
            ),
            MultiplexError::CandidateShapes {
                first,
                other,
                position,
            } => write!(
                f,
                "multiplex: all candidate tensors must have the same shape, but candidate 0 is {first} and candidate {position} is {other}"
            ),
            MultiplexError::CandidateRank { dims } => write!(
                f,
                "multiplex: the rank of candidate tensors must be at least 2, but the candidates are {dims} (rank {})",
                dims.rank()
            ),
            MultiplexError::IndexShape { index, rows } => write!(
                f,
                "multiplex: the index must have shape [{rows}, 1] ([rows, 1], rows being the candidates' first dim), but it is {index}"
            ),
            MultiplexError::ZeroSize { dims } => write!(
                f,
                "multiplex: the candidates {dims} hold no element; indexing would be out of bounds with size 0"
            ),
            MultiplexError::NegativeIndex { row, value } => write!(
                f,
                "multiplex: index must be nonnegative, but index[{row}] is {value}"
            ),
            MultiplexError::IndexOutOfRange {
                row,
                value,
                candidates,
            } => write!(
                f,
                "multiplex: index exceeds the number of candidate tensors: index[{row}] is {value}, but there are {candidates} candidates"
            ),
            MultiplexError::Shape(e) => write!(f, "multiplex: {e}"),
        }
    }
}

impl core::error::Error for MultiplexError {}

/// Checks that `data` holds `dims`' element count.
fn check_len<T>(dims: Dims, data: &[T]) -> Result<(), ShapeError> {
    let numel = dims.try_numel()?;
    if numel != data.len() {
        return Err(ShapeError::DataLength {
            shape: dims,
            numel,
            len: data.len(),
        });
    }
    Ok(())
}

/// What the checks established: the output dims and the length of one row.
#[derive(Clone, Copy, Debug)]
struct Plan {
    dims: Dims,
    row_len: usize,
}

/// Every shape rule, in Paddle's order (count, then candidate rank and
/// shapes, then the index shape), then the data lengths and the zero-size
/// rule. `candidates` yields each candidate's dims and data.
fn plan<'a, T: 'a, I>(
    candidates: impl ExactSizeIterator<Item = Result<(Dims, &'a [T]), ShapeError>>,
    index_dims: Dims,
    index: &[I],
) -> Result<Plan, MultiplexError> {
    let count = candidates.len();
    if count < 2 {
        return Err(MultiplexError::TooFewCandidates { count });
    }
    let mut first: Option<Dims> = None;
    for (position, c) in candidates.enumerate() {
        let (dims, data) = c?;
        match first {
            None => {
                if dims.rank() < 2 {
                    return Err(MultiplexError::CandidateRank { dims });
                }
                first = Some(dims);
            }
            Some(f) if f != dims => {
                return Err(MultiplexError::CandidateShapes {
                    first: f,
                    other: dims,
                    position,
                });
            }
            Some(_) => {}
        }
        check_len(dims, data)?;
    }
    let dims = first.ok_or(MultiplexError::TooFewCandidates { count })?;
    let (&rows, rest) = dims
        .as_slice()
        .split_first()
        .ok_or(MultiplexError::CandidateRank { dims })?;
    if index_dims.as_slice() != [rows, 1] {
        return Err(MultiplexError::IndexShape {
            index: index_dims,
            rows,
        });
    }
    check_len(index_dims, index)?;
    let row_len = Dims::new(rest)?.try_numel()?;
    if rows == 0 || row_len == 0 {
        return Err(MultiplexError::ZeroSize { dims });
    }
    Ok(Plan { dims, row_len })
}

/// Checks every index value against the number of candidates.
///
/// One branch-free pass over the whole index first (it vectorizes); only when
/// it finds a bad value does a second pass look for the first one, to name its
/// row in the error.
#[inline(always)]
fn check_index_values<I: IndexElement>(index: &[I], count: usize) -> Result<(), MultiplexError> {
    if index.iter().fold(true, |ok, &k| ok & k.is_below(count)) {
        return Ok(());
    }
    for (row, &k) in index.iter().enumerate() {
        let value = k.to_i64();
        if value < 0 {
            return Err(MultiplexError::NegativeIndex { row, value });
        }
        if usize::try_from(value).map_or(true, |v| v >= count) {
            return Err(MultiplexError::IndexOutOfRange {
                row,
                value,
                candidates: count,
            });
        }
    }
    Ok(())
}

/// Checks every index value, then copies row `i` of candidate `index[i]` into
/// row `i` of `out`, one `copy_from_slice` per row. `data(k)` is candidate
/// `k`'s data, `count` the number of candidates, `row_len` the length of one
/// row. Nothing is written unless every index value is valid.
#[inline(always)]
fn copy_rows<'a, T: Copy + 'a, I: IndexElement>(
    count: usize,
    data: impl Fn(usize) -> Option<&'a [T]>,
    row_len: usize,
    index: &[I],
    out: &mut [T],
) -> Result<(), MultiplexError> {
    check_index_values(index, count)?;
    let mut start = 0usize;
    for (row, (dst, &k)) in out.chunks_exact_mut(row_len).zip(index).enumerate() {
        // every value was checked above; a failure here would be a bug, and
        // is still an error rather than an out-of-bounds read
        let value = k.to_i64();
        let end = start.saturating_add(row_len);
        let src = usize::try_from(value)
            .ok()
            .and_then(&data)
            .and_then(|c| c.get(start..end))
            .ok_or(MultiplexError::IndexOutOfRange {
                row,
                value,
                candidates: count,
            })?;
        dst.copy_from_slice(src);
        start = end;
    }
    Ok(())
}

/// Checks everything, then copies the rows (see [`copy_rows`]).
fn run<'a, T: Copy + 'a, I: IndexElement>(
    candidates: impl ExactSizeIterator<Item = Result<(Dims, &'a [T]), ShapeError>>,
    data: impl Fn(usize) -> Option<&'a [T]>,
    index_dims: Dims,
    index: &[I],
    out: &mut [T],
) -> Result<Dims, MultiplexError> {
    let count = candidates.len();
    let plan = plan(candidates, index_dims, index)?;
    let numel = plan.dims.try_numel()?;
    if out.len() != numel {
        return Err(ShapeError::DataLength {
            shape: plan.dims,
            numel,
            len: out.len(),
        }
        .into());
    }
    copy_rows(count, data, plan.row_len, index, out)?;
    Ok(plan.dims)
}

/// The output dims of multiplex for candidates of dims `candidates` and an
/// index of dims `index_dims`, checking every shape rule (not the index
/// values, which are data).
pub fn multiplex_output_dims(
    candidates: &[&[usize]],
    index_dims: &[usize],
) -> Result<Dims, MultiplexError> {
    let index_dims = Dims::new(index_dims)?;
    let count = candidates.len();
    if count < 2 {
        return Err(MultiplexError::TooFewCandidates { count });
    }
    let mut first: Option<Dims> = None;
    for (position, &c) in candidates.iter().enumerate() {
        let dims = Dims::new(c)?;
        match first {
            None if dims.rank() < 2 => return Err(MultiplexError::CandidateRank { dims }),
            None => first = Some(dims),
            Some(f) if f != dims => {
                return Err(MultiplexError::CandidateShapes {
                    first: f,
                    other: dims,
                    position,
                })
            }
            Some(_) => {}
        }
    }
    let dims = first.ok_or(MultiplexError::TooFewCandidates { count })?;
    let rows = dims.first().copied().unwrap_or(0);
    if index_dims.as_slice() != [rows, 1] {
        return Err(MultiplexError::IndexShape {
            index: index_dims,
            rows,
        });
    }
    dims.try_numel()?;
    if dims.contains(&0) {
        return Err(MultiplexError::ZeroSize { dims });
    }
    Ok(dims)
}

/// The dynamic path without a heap: `out[i] = inputs[index[i]][i]`, each
/// candidate given as `(dims, data)`.
///
/// Checks, in order: at least 2 candidates, candidate rank >= 2, one shape for
/// all, index shape `[rows, 1]`, every data length, no zero-size candidate,
/// `out`'s length (the candidates' element count), then every index value;
/// only then is anything written. Returns the output dims (the candidates').
pub fn multiplex_slices<T: Copy, I: IndexElement>(
    inputs: &[(&[usize], &[T])],
    index_dims: &[usize],
    index: &[I],
    out: &mut [T],
) -> Result<Dims, MultiplexError> {
    let index_dims = Dims::new(index_dims)?;
    run(
        inputs.iter().map(|&(d, data)| Ok((Dims::new(d)?, data))),
        |k| inputs.get(k).map(|&(_, data)| data),
        index_dims,
        index,
        out,
    )
}

/// The tensor [`multiplex`] returns for candidates `Tensor<T, S, B>`: shape
/// `S`, stored like the candidates.
pub type MultiplexOutput<T, S, B> = Tensor<T, S, <B as ResultStorage<T, S>>::Out>;

/// Paddle's `multiplex` on the static path: `out[i] = inputs[index[i]][i]`.
///
/// The shape rules are bounds: `K >= 2` (an assertion at instantiation, see
/// [`CandidateCount`]), one shape `S` of rank >= 2 for all candidates (one
/// type), an index of shape `[rows, 1]` with `rows` the candidates' first dim
/// ([`MultiplexShapes`](crate::rules::MultiplexShapes)). [`Dyn`](crate::Dyn)
/// dims are checked at run time (candidates with different run-time dims, an
/// index with another row count), as are the index values. The result is
/// stored like the candidates (inline for inline or view candidates, on the
/// heap for heap ones).
pub fn multiplex<T, S, B, I, IS, BI, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, B>, MultiplexError>
where
    T: Copy + Default,
    S: crate::rules::MultiplexShapes<IS>,
    B: ResultStorage<T, S>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let first = inputs
        .first()
        .ok_or(MultiplexError::TooFewCandidates { count: K })?;
    new_output::<T, S, B, _, _, _, _>(first.shape(), inputs, index)
}

/// A result tensor in `B`'s result storage, filled by [`static_run`].
fn new_output<T, S, B, C, I, IS, BI>(
    shape: &S,
    inputs: &[Tensor<T, S, C>],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, B>, MultiplexError>
where
    T: Copy + Default,
    S: Shape,
    B: ResultStorage<T, S>,
    C: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let mut out = Tensor::from_parts_unchecked(
        *shape,
        <B as ResultStorage<T, S>>::Out::try_filled(shape, T::default())?,
    );
    static_run(inputs, index, out.as_mut_slice())?;
    Ok(out)
}

/// [`multiplex`] writing into `out` (any storage: a caller's `&mut [T]` buffer
/// works without a heap), whose dims must be the candidates'.
pub fn multiplex_into<T, S, B, I, IS, BI, BO, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
    out: &mut Tensor<T, S, BO>,
) -> Result<(), MultiplexError>
where
    T: Copy,
    S: crate::rules::MultiplexShapes<IS>,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
    BO: StorageMut<T>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    if let Some(first) = inputs.first() {
        if first.dims() != out.dims() {
            return Err(ShapeError::OutputShape {
                expected: first.dims(),
                found: out.dims(),
            }
            .into());
        }
    }
    static_run(inputs, index, out.as_mut_slice())
}

/// Used by [`multiplex!`](crate::multiplex!): [`multiplex`] over views of the
/// candidates, the result stored like `first` (on the heap for `Vec`
/// candidates, inline for inline ones).
#[doc(hidden)]
pub fn multiplex_views<T, S, B, I, IS, BI, const K: usize>(
    first: &Tensor<T, S, B>,
    views: [Tensor<T, S, &[T]>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, B>, MultiplexError>
where
    T: Copy + Default,
    S: crate::rules::MultiplexShapes<IS>,
    B: ResultStorage<T, S>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    new_output::<T, S, B, _, _, _, _>(first.shape(), &views, index)
}

/// Multiplex, candidate rule: a candidate (`Self`) has the first candidate's
/// shape `S0`. Implemented only for `S0` itself.
#[diagnostic::on_unimplemented(
    message = "multiplex: all candidates must have one shape, but the first is {S0} and this one is {Self}",
    label = "a candidate of shape {Self}",
    note = "Paddle: \"All the candidate tensors must have the same size\""
)]
pub trait SameCandidateShape<S0: Shape>: Shape {
    /// A view of the candidate, typed with the first candidate's shape.
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, Self, B>) -> Tensor<T, S0, &[T]>;
}

impl<S: Shape> SameCandidateShape<S> for S {
    #[inline(always)]
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, S, B>) -> Tensor<T, S, &[T]> {
        t.view()
    }
}

/// Used by [`multiplex!`](crate::multiplex!): a view of `candidate`, checked
/// to have the shape of `first`. Views share one storage type whatever the
/// shape, so a candidate of another shape is reported by this function's
/// bound (the rule's own message) and not as a type mismatch of the array.
#[doc(hidden)]
#[inline(always)]
pub fn same_candidate_shape<'a, T, S0, S2, B0, B2>(
    _first: &Tensor<T, S0, B0>,
    candidate: &'a Tensor<T, S2, B2>,
) -> Tensor<T, S0, &'a [T]>
where
    T: Copy,
    S0: Shape,
    S2: SameCandidateShape<S0>,
    B0: Storage<T>,
    B2: Storage<T>,
{
    S2::view_as(candidate)
}

/// `multiplex!(index; a, b, c, ...)`: Paddle's multiplex with the candidates
/// listed, every shape rule a compile error reported by `cargo check` as well
/// as `cargo build`:
/// - fewer than two candidates: `multiplex!: needs at least 2 candidate tensors`;
/// - candidates of different shapes: `multiplex: all candidates must have one
///   shape, but the first is ... and this one is ...`;
/// - the rank and index rules of [`multiplex`].
///
/// It returns what [`multiplex`] returns (a `Result`: index values are data).
///
/// ```
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
/// let b = Tensor::<f32, shape![2, 2]>::from_array([[5.0, 6.0], [7.0, 8.0]]);
/// let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
/// let out = shapecheck::multiplex!(index; a, b).unwrap();
/// assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);
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
            "multiplex!: needs at least 2 candidate tensors (Paddle: \"multiplex operator should have more than one candidate input tensors\")"
        )
    };
}

/// The static path's core. When every dim of the candidates and of the index
/// is static, the compiler has checked every shape rule (one type for all
/// candidates, rank >= 2, index `[rows, 1]`), so only what is data remains:
/// the zero-size rule (a static dim may be 0), the lengths (which a tensor
/// guarantees, checked anyway because it costs nothing) and the index values.
/// Otherwise every rule is checked at run time, as on the dynamic path.
#[inline(always)]
fn static_run<T: Copy, S: Shape, B: Storage<T>, I: IndexElement, IS: Shape, BI: Storage<I>>(
    inputs: &[Tensor<T, S, B>],
    index: &Tensor<I, IS, BI>,
    out: &mut [T],
) -> Result<(), MultiplexError> {
    let data = |k: usize| inputs.get(k).map(|t| t.as_slice());
    if S::IS_STATIC && IS::IS_STATIC {
        // the index has one value per row (a rule the compiler checked), so the
        // lengths give the plan without building any dims
        let index = index.as_slice();
        let rows = index.len();
        if let Some(first) = inputs.first() {
            let numel = first.as_slice().len();
            if numel == 0 {
                return Err(MultiplexError::ZeroSize { dims: first.dims() });
            }
            if let Some(row_len) = numel.checked_div(rows) {
                if out.len() == numel && row_len.checked_mul(rows) == Some(numel) {
                    return copy_rows(inputs.len(), data, row_len, index, out);
                }
            }
        }
    }
    run(
        inputs.iter().map(|t| Ok((t.dims(), t.as_slice()))),
        data,
        index.dims(),
        index.as_slice(),
        out,
    )
    .map(|_| ())
}

#[cfg(feature = "alloc")]
impl<T: Copy + Default> crate::dynamic::DynTensor<T> {
    /// Paddle's `multiplex` on run-time shapes: `out[i] = inputs[index[i]][i]`,
    /// every rule checked here (see [`multiplex_slices`]).
    ///
    /// ```
    /// use shapecheck::{DynTensor, MultiplexError};
    /// let a = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    /// let b = DynTensor::new(&[2, 2], vec![5.0, 6.0, 7.0, 8.0]).unwrap();
    /// let index = DynTensor::new(&[2, 1], vec![1i32, 0]).unwrap();
    /// let out = DynTensor::multiplex(&[a.clone(), b], &index).unwrap();
    /// assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);
    /// let err = DynTensor::multiplex(&[a], &index).unwrap_err();
    /// assert_eq!(err, MultiplexError::TooFewCandidates { count: 1 });
    /// ```
    pub fn multiplex<I: IndexElement>(
        inputs: &[crate::dynamic::DynTensor<T>],
        index: &crate::dynamic::DynTensor<I>,
    ) -> Result<crate::dynamic::DynTensor<T>, MultiplexError> {
        let dims: alloc::vec::Vec<Dims> = inputs.iter().map(|t| t.dims()).collect();
        let dim_slices: alloc::vec::Vec<&[usize]> = dims.iter().map(|d| d.as_slice()).collect();
        let out_dims = multiplex_output_dims(&dim_slices, &index.dims())?;
        let mut out = crate::dynamic::DynTensor::full(&out_dims, T::default())?;
        run(
            inputs.iter().map(|t| Ok((t.dims(), t.as_slice()))),
            |k| inputs.get(k).map(|t| t.as_slice()),
            index.dims(),
            index.as_slice(),
            out.as_mut_slice(),
        )?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape;

    /// A static shape with a 0 dim compiles, and the static fast path still
    /// reports the zero-size rule, with the candidates' dims.
    #[test]
    fn static_zero_size() {
        let a = Tensor::<f32, shape![2, 0]>::full(1.0);
        let idx = Tensor::<i32, shape![2, 1]>::from_array([[0], [1]]);
        assert!(matches!(
            multiplex(&[a, a], &idx),
            Err(MultiplexError::ZeroSize { dims }) if dims.as_slice() == [2, 0]
        ));
        let b = Tensor::<f32, shape![0, 3]>::full(1.0);
        let idx0 = Tensor::<i32, shape![0, 1]>::full(0);
        assert!(matches!(
            multiplex(&[b, b, b], &idx0),
            Err(MultiplexError::ZeroSize { dims }) if dims.as_slice() == [0, 3]
        ));
    }

    #[test]
    fn is_below_matches_the_rule() {
        for count in [0usize, 1, 2, 4, 1 << 31, (1 << 31) + 5, usize::MAX] {
            for v in [i32::MIN, -2, -1, 0, 1, 3, 4, i32::MAX] {
                let want = v >= 0 && usize::try_from(v).is_ok_and(|u| u < count);
                assert_eq!(v.is_below(count), want, "{v} below {count}");
                assert_eq!(i64::from(v).is_below(count), want, "{v} below {count}");
            }
            for v in [i64::MIN, -1, i64::MAX, 1 << 40] {
                let want = v >= 0 && usize::try_from(v).is_ok_and(|u| u < count);
                assert_eq!(v.is_below(count), want, "{v} below {count}");
            }
        }
    }

    /// The static fast path checks every index value before writing: a bad
    /// value in the last row leaves the output untouched.
    #[test]
    fn static_validates_before_writing() {
        let a = Tensor::<i64, shape![3, 2]>::from_array([[1, 2], [3, 4], [5, 6]]);
        let b = Tensor::<i64, shape![3, 2]>::from_array([[7, 8], [9, 10], [11, 12]]);
        let mut out = Tensor::<i64, shape![3, 2]>::full(-1);
        let bad = Tensor::<i64, shape![3, 1]>::from_array([[1], [0], [2]]);
        assert_eq!(
            multiplex_into(&[a, b], &bad, &mut out),
            Err(MultiplexError::IndexOutOfRange {
                row: 2,
                value: 2,
                candidates: 2
            })
        );
        assert_eq!(out.as_slice(), &[-1; 6]);
        let neg = Tensor::<i32, shape![3, 1]>::from_array([[1], [0], [i32::MIN]]);
        assert_eq!(
            multiplex_into(&[a, b], &neg, &mut out),
            Err(MultiplexError::NegativeIndex {
                row: 2,
                value: i64::from(i32::MIN)
            })
        );
        let huge = Tensor::<i64, shape![3, 1]>::from_array([[i64::MAX], [0], [1]]);
        assert_eq!(
            multiplex_into(&[a, b], &huge, &mut out),
            Err(MultiplexError::IndexOutOfRange {
                row: 0,
                value: i64::MAX,
                candidates: 2
            })
        );
        assert_eq!(out.as_slice(), &[-1; 6]);
        let good = Tensor::<i32, shape![3, 1]>::from_array([[1], [0], [1]]);
        multiplex_into(&[a, b], &good, &mut out).unwrap();
        assert_eq!(out.as_slice(), &[7, 8, 3, 4, 11, 12]);
    }
}
