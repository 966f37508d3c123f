//! Multiplex's shape rule, once: [`rule`], which every run-time path calls
//! (the compile-time form is [`bounds`](super::bounds)). The ranks it
//! accepts are `shapecheck_rules::multiplex`'s, which the macro crate
//! tabulates for the compile-time form.

use super::MultiplexError;
use crate::dims::{Dims, ShapeError, MAX_RANK};
use shapecheck_rules::multiplex::{candidate_rank_ok, index_rank_ok};

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
            None if !candidate_rank_ok(dims.rank()) => {
                return Err(MultiplexError::CandidateRank { dims })
            }
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
    // the index: rank 2, its second dim 1
    let (true, &[index_rows, 1]) = (index_rank_ok(index.rank()), index.as_slice()) else {
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

/// The output dims of multiplex for candidates of dims `candidates` and an
/// index of dims `index_dims`: [`rule()`] (every shape rule, not the index
/// values, which are data).
///
/// ```
/// use shapecheck::multiplex_output_dims;
/// assert_eq!(multiplex_output_dims(&[&[4, 3], &[4, 3]], &[2, 1]).unwrap().as_slice(), &[2, 3]);
/// let err = multiplex_output_dims(&[&[4, 3], &[4, 2]], &[2, 1]).unwrap_err();
/// assert_eq!(err.rule(), "multiplex/candidate-shapes");
/// let err = multiplex_output_dims(&[&[4, 3], &[4, 3]], &[5, 1]).unwrap_err();
/// assert_eq!(err.rule(), "multiplex/index-rows");
/// ```
pub fn multiplex_output_dims(
    candidates: &[&[usize]],
    index_dims: &[usize],
) -> Result<Dims, MultiplexError> {
    let index = Dims::new(index_dims)?;
    Ok(rule(candidates.iter().map(|c| Dims::new(c)), index)?.dims)
}

// ---------------------------------------------------------------- compile time
