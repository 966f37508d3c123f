//! Multiplex's shape rule, once: [`rule`] (run time, every path) and
//! [`RowsFit`] (compile time, the one rule the type system cannot state), plus
//! the error type.

use super::bounds::MultiplexShapes;
use crate::dim::StaticDims;
use crate::{Dims, ShapeError, MAX_RANK};
use core::marker::PhantomData;

crate::error::rule_errors! {
    /// Why multiplex rejected its inputs. Each variant is one rule.
    ///
    /// ```
    /// use shapecheck::{multiplex_output_dims, MultiplexError};
    /// let err = multiplex_output_dims(&[&[4, 3]], &[2, 1]).unwrap_err();
    /// assert_eq!(err, MultiplexError::TooFewCandidates { count: 1 });
    /// assert_eq!(err.rule(), "multiplex/candidate-count");
    /// assert_eq!(err.to_string(), "multiplex: needs at least 2 candidate tensors, but 1 were given");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum MultiplexError {
        /// Fewer than 2 candidates.
        TooFewCandidates {
            /// The number of candidates given.
            count: usize,
        } => "multiplex/candidate-count",
            ("multiplex: needs at least 2 candidate tensors, but {count} were given"),
        /// A candidate's shape differs from the first one's.
        CandidateShapes {
            /// The first candidate's dims.
            first: Dims,
            /// The differing candidate's dims.
            other: Dims,
            /// The differing candidate's position in the list.
            position: usize,
        } => "multiplex/candidate-shapes",
            ("multiplex: all candidate tensors must have the same shape, but candidate 0 is {first} and candidate {position} is {other}"),
        /// The candidates have rank < 2.
        CandidateRank {
            /// The candidates' dims.
            dims: Dims,
        } => "multiplex/candidate-rank",
            ("multiplex: the rank of candidate tensors must be at least 2, but the candidates are {dims} (rank {})",
                dims.rank()),
        /// The index does not have shape `[rows, 1]` (rank 2, one column).
        IndexShape {
            /// The index's dims.
            index: Dims,
        } => "multiplex/index-shape",
            ("multiplex: the index must have shape [rows, 1], but it is {index}"),
        /// The index has more rows than the candidates.
        IndexRows {
            /// The index's dims.
            index: Dims,
            /// The candidates' dims.
            candidates: Dims,
        } => "multiplex/index-rows",
            ("multiplex: index rows must not exceed candidate rows, but the index {index} has {} rows and the candidates {candidates} have {}",
                rows_of(index),
                rows_of(candidates)),
        /// An index value is negative.
        NegativeIndex {
            /// The row of the index.
            row: usize,
            /// Its value.
            value: i64,
        } => "multiplex/index-value",
            ("multiplex: index must be nonnegative, but index[{row}] is {value}"),
        /// An index value is not below the number of candidates.
        IndexOutOfRange {
            /// The row of the index.
            row: usize,
            /// Its value.
            value: i64,
            /// The number of candidates.
            candidates: usize,
        } => "multiplex/index-value",
            ("multiplex: index exceeds the number of candidate tensors: index[{row}] is {value}, but there are {candidates} candidates"),
    }
    /// The stable identifier of the rule this error reports, as the first
    /// words of the compile error for the same shapes:
    /// `multiplex/candidate-count`, `multiplex/candidate-shapes`,
    /// `multiplex/candidate-rank`, `multiplex/index-shape`,
    /// `multiplex/index-rows`, `multiplex/index-value` (an index value,
    /// negative or not below the count: run time only), or the
    /// [`ShapeError::rule`] of a `Shape` error.
    ///
    /// ```
    /// use shapecheck::ops::multiplex::multiplex_output_dims;
    /// let err = multiplex_output_dims(&[&[2, 2], &[2, 2]], &[3, 1]).unwrap_err();
    /// assert_eq!(err.rule(), "multiplex/index-rows");
    /// ```
    fn rule;
    /// A shape problem not specific to this op (data length, rank, element
    /// count overflow, output buffer).
    Shape(ShapeError) => |e| e.rule(), ("multiplex: {e}");
}

/// The first dim of `dims` (0 for a scalar; only used in messages).
fn rows_of(dims: &Dims) -> usize {
    dims.first().copied().unwrap_or(0)
}

/// What [`rule`] establishes: the output dims and the length of one row
/// (the product of the candidates' dims after the first).
///
/// ```
/// use shapecheck::ops::multiplex::{rule, MultiplexPlan};
/// use shapecheck::Dims;
/// let candidates = [Dims::new(&[4, 2, 3]), Dims::new(&[4, 2, 3])];
/// let plan = rule(candidates.into_iter(), Dims::new(&[3, 1]).unwrap()).unwrap();
/// assert_eq!(plan, MultiplexPlan { dims: Dims::new(&[3, 2, 3]).unwrap(), row_len: 6 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiplexPlan {
    /// The output dims: `[index rows] + candidate dims[1..]`.
    pub dims: Dims,
    /// The number of elements in one row of a candidate and of the output.
    pub row_len: usize,
}

/// **The** shape rule of multiplex, for every run-time path: candidates of
/// dims `candidates`, an index of dims `index` -> the output dims, or the
/// first rule broken, in this order:
/// 1. at least 2 candidates;
/// 2. the first candidate has rank >= 2, and every other one its shape;
/// 3. the index has shape `[rows, 1]`;
/// 4. the index's rows do not exceed the candidates' rows;
/// 5. a row's element count (and the output's) fits in `usize`.
///
/// The output is `[index rows] + candidates[1..]`. Zero-size shapes are valid.
/// The index values are data, checked by the kernel before anything is written.
///
/// ```
/// use shapecheck::ops::multiplex::rule;
/// use shapecheck::Dims;
/// let two = |d: &[usize]| [Dims::new(d), Dims::new(d)].into_iter();
/// let plan = rule(two(&[4, 3]), Dims::new(&[2, 1]).unwrap()).unwrap();
/// assert_eq!((plan.dims.as_slice(), plan.row_len), (&[2, 3][..], 3));
/// assert_eq!(rule(two(&[4]), Dims::new(&[2, 1]).unwrap()).unwrap_err().rule(), "multiplex/candidate-rank");
/// assert_eq!(rule(two(&[4, 3]), Dims::new(&[2]).unwrap()).unwrap_err().rule(), "multiplex/index-shape");
/// assert_eq!(rule(two(&[4, 3]), Dims::new(&[5, 1]).unwrap()).unwrap_err().rule(), "multiplex/index-rows");
/// ```
pub fn rule(
    candidates: impl ExactSizeIterator<Item = Result<Dims, ShapeError>>,
    index: Dims,
) -> Result<MultiplexPlan, MultiplexError> {
    let count = candidates.len();
    if count < 2 {
        return Err(MultiplexError::TooFewCandidates { count });
    }
    let mut first: Option<Dims> = None;
    for (position, dims) in candidates.enumerate() {
        let dims = dims?;
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
    let cand = first.ok_or(MultiplexError::TooFewCandidates { count })?;
    let (&cand_rows, rest) = cand
        .as_slice()
        .split_first()
        .ok_or(MultiplexError::CandidateRank { dims: cand })?;
    let &[index_rows, 1] = index.as_slice() else {
        return Err(MultiplexError::IndexShape { index });
    };
    if index_rows > cand_rows {
        return Err(MultiplexError::IndexRows {
            index,
            candidates: cand,
        });
    }
    let row_len = Dims::new(rest)?.try_numel()?;
    let mut buf = [0usize; MAX_RANK];
    let out = buf
        .get_mut(..cand.rank())
        .ok_or(ShapeError::RankTooLarge { rank: cand.rank() })?;
    out.copy_from_slice(&cand);
    if let Some(r) = out.first_mut() {
        *r = index_rows;
    }
    let dims = Dims::new(out)?;
    dims.try_numel()?;
    Ok(MultiplexPlan { dims, row_len })
}

// ---------------------------------------------------------------- compile time

/// The product of `dims`, `None` if one is [`Dyn`](crate::Dyn) or it overflows.
#[doc(hidden)]
#[must_use]
pub const fn static_product(dims: StaticDims) -> Option<usize> {
    let mut acc = 1usize;
    let mut rest = dims;
    while let Some((d, tail)) = rest.split_first() {
        acc = match *d {
            Some(d) => match acc.checked_mul(d) {
                Some(p) => p,
                None => return None,
            },
            None => return None,
        };
        rest = tail;
    }
    Some(acc)
}

/// A message built at compile time (const evaluation cannot format). Only
/// ever evaluated in constants: every index is guarded by its loop condition,
/// and even a wrong one would be a compile error, never a run-time panic.
struct Msg {
    buf: [u8; 320],
    len: usize,
}

#[allow(clippy::indexing_slicing)]
impl Msg {
    const fn push(mut self, s: &str) -> Msg {
        let s = s.as_bytes();
        let mut i = 0;
        while i < s.len() && self.len < self.buf.len() {
            self.buf[self.len] = s[i];
            self.len += 1;
            i += 1;
        }
        self
    }
    const fn push_num(mut self, n: usize) -> Msg {
        let mut digits = [0u8; 20];
        let mut k = 0;
        let mut n = n;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
        self
    }
    const fn push_dims(self, dims: StaticDims) -> Msg {
        let mut m = self.push("[");
        let mut i = 0;
        while i < dims.len() {
            if i > 0 {
                m = m.push(", ");
            }
            m = match dims[i] {
                Some(d) => m.push_num(d),
                None => m.push("Dyn"),
            };
            i += 1;
        }
        m.push("]")
    }
}

/// The compile-time half of rule 4 ("index rows must not exceed candidate
/// rows") for an index of static dims `I` and candidates of static dims `S`.
///
/// Stable Rust cannot bound one const generic by another (`R_i <= R_c` needs
/// `generic_const_exprs`), so this rule is not a trait bound but an assertion
/// evaluated when [`multiplex()`](crate::multiplex()) (or `multiplex_into`,
/// `multiplex!`) is instantiated: `cargo build`, `cargo test` and `cargo run`
/// report it as `error[E0080]: evaluation panicked: multiplex/index-rows: index rows
/// must not exceed candidate rows: index [3, 1] has 3 rows but the candidates
/// [2, 2] have 2`; `cargo check` does not (it stops before instantiation).
/// A [`Dyn`](crate::Dyn) row count on either side is checked at run time by
/// [`rule()`].
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::multiplex::rule::RowsFit;
/// // candidates [2, 3] and an index [2, 1]: the rows fit, a row holds 3 elements
/// assert_eq!(RowsFit::<shape![2, 3], shape![2, 1]>::ROW_LEN, Some(3));
/// let () = RowsFit::<shape![2, 3], shape![2, 1]>::CHECK;
/// ```
///
/// An index with more rows than the candidates fails when the call is
/// instantiated (`cargo build`, not `cargo check`):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::full(1.0);
/// let index = Tensor::<i32, shape![3, 1]>::from_array([[0], [1], [0]]);
/// let _ = shapecheck::multiplex(&[a, a], &index);
/// ```
pub struct RowsFit<S, I>(PhantomData<(S, I)>);

impl<S: MultiplexShapes<I>, I: crate::Shape> RowsFit<S, I> {
    const ROWS: (Option<usize>, Option<usize>) = (first(S::INDEX_DIMS), first(S::CANDIDATE_DIMS));
    const MESSAGE: Msg = Msg {
        buf: [0; 320],
        len: 0,
    }
    .push("multiplex/index-rows: index rows must not exceed candidate rows: index ")
    .push_dims(S::INDEX_DIMS)
    .push(" has ")
    .push_num(or_zero(Self::ROWS.0))
    .push(" rows but the candidates ")
    .push_dims(S::CANDIDATE_DIMS)
    .push(" have ")
    .push_num(or_zero(Self::ROWS.1));
    const TEXT: &'static str =
        match core::str::from_utf8(Self::MESSAGE.buf.split_at(Self::MESSAGE.len).0) {
            Ok(s) => s,
            Err(_) => "multiplex/index-rows: index rows must not exceed candidate rows",
        };
    /// The number of elements in one row when the candidates' dims after the
    /// first are all static (and their product fits in `usize`).
    pub const ROW_LEN: Option<usize> = match S::CANDIDATE_DIMS.split_first() {
        Some((_, rest)) => static_product(rest),
        None => None,
    };
    /// Fails const evaluation when both row counts are static and the index's
    /// exceeds the candidates'.
    pub const CHECK: () = if let (Some(i), Some(c)) = Self::ROWS {
        // `shapecheck_mutant = "index-rows"`: the compile-time form of the
        // rule dropped, a planted bug for the conformance tool's self-test
        // (conformance/tests/mutants.rs), never set in a normal build
        if i > c && !cfg!(shapecheck_mutant = "index-rows") {
            crate::ops::const_fail(Self::TEXT)
        }
    };
}

/// The first entry of `dims`, `None` if there is none or it is a run-time dim.
const fn first(dims: StaticDims) -> Option<usize> {
    match dims.first() {
        Some(d) => *d,
        None => None,
    }
}

/// A row count for the message (0 where it is not known at compile time,
/// which never reaches the message: a `Dyn` row count is checked at run time).
const fn or_zero(rows: Option<usize>) -> usize {
    match rows {
        Some(r) => r,
        None => 0,
    }
}
