//! dynamic_stitch's one run-time rule: the pairs' dims (and the index
//! values, which decide the output's row count) to the output dims, or the
//! typed error. Every path calls it: the static builder, the caller-buffer
//! form, `DynTensor` (the static builder over static shapes only scans the
//! index values, with the same errors: see the [module docs](super)).
//! What it shares with dynamic_partition (the index types, `with_rows`,
//! `prefix_of`) is in [`ops::indexed`](crate::ops::indexed).

use super::StitchError;
pub(crate) use crate::ops::indexed::{prefix_of, with_rows, IndexSlice, Sealed, StitchIndex};
use crate::shape::Dims;
use shapecheck_rules::indexed::slice_rank;

// The planted bugs of dynamic_stitch (`--cfg shapecheck_mutant="..."`, for
// the agreement test) build in debug mode only.
#[cfg(all(
    not(debug_assertions),
    any(
        shapecheck_mutant = "stitch-slice-first",
        shapecheck_mutant = "stitch-slice-static"
    )
))]
compile_error!("shapecheck_mutant plants bugs for the conformance tests: never in a release build");

/// One `(indices, data)` pair of dynamic_stitch as run-time values: dims and
/// borrowed data (no heap). The rule checks that each holds as many values
/// as its dims say.
///
/// ```
/// use shapecheck::{stitch_slices, StitchPair};
/// // indices [2] over data [2, 2], and a scalar index over data [2]: slice [2]
/// let p0 = StitchPair::new(&[2], &[1i32, 0], &[2, 2], &[10, 11, 20, 21]).unwrap();
/// let p1 = StitchPair::new(&[], &[2i64], &[2], &[30, 31]).unwrap();
/// let mut out = [0; 8];
/// let dims = stitch_slices(&[p0, p1], &mut out).unwrap();
/// assert_eq!(dims.as_slice(), &[3, 2]);
/// assert_eq!(out[..6], [20, 21, 10, 11, 30, 31]);
/// ```
#[derive(Debug)]
pub struct StitchPair<'a, T> {
    pub(crate) indices_dims: Dims,
    pub(crate) indices: IndexSlice<'a>,
    pub(crate) data_dims: Dims,
    pub(crate) data: &'a [T],
}

impl<T> Clone for StitchPair<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for StitchPair<'_, T> {}

impl<'a, T> StitchPair<'a, T> {
    /// A pair; an error only if a rank exceeds [`MAX_RANK`](crate::MAX_RANK)
    /// (lengths are checked by the op).
    ///
    /// ```
    /// use shapecheck::{stitch_slices, StitchPair};
    /// let err = StitchPair::new(&[1; 9], &[0i32], &[1], &[5]).unwrap_err();
    /// assert_eq!(err.rule(), "dynamic_stitch/rank");
    /// // a length that does not match the dims is found by the op
    /// let short = StitchPair::new(&[3], &[0i32], &[3], &[1, 2, 3]).unwrap();
    /// let err = stitch_slices(&[short], &mut [0; 3]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// ```
    pub fn new<I: StitchIndex>(
        indices_dims: &[usize],
        indices: &'a [I],
        data_dims: &[usize],
        data: &'a [T],
    ) -> Result<Self, StitchError> {
        Ok(StitchPair {
            indices_dims: Dims::new(indices_dims)?,
            indices: I::index_slice(indices),
            data_dims: Dims::new(data_dims)?,
            data,
        })
    }
}

/// dynamic_stitch's rule: the output dims `[rows] + slice`, where `slice` is
/// what follows `indices[m].shape` in `data[m].shape` (the same for every m)
/// and `rows` is the largest index + 1 (0 when every indices tensor is
/// empty). Checked in TensorFlow's order:
/// 1. at least one pair; each tensor holds as many values as its shape;
/// 2. every index value is `>= 0` ([`StitchError::NegativeIndex`], naming
///    the pair `m` and the flat position `j`);
/// 3. `data[m].shape` starts with `indices[m].shape` ([`StitchError::PrefixMismatch`]);
/// 4. every pair's slice equals pair 0's ([`StitchError::SliceMismatch`]);
/// 5. the output's rank is at most 8 and its element count fits `usize`
///    ([`StitchError::TooManyRows`]).
///
/// ```
/// use shapecheck::ops::stitch::stitch_output_dims;
/// use shapecheck::StitchPair;
/// let pairs = [StitchPair::new(&[2], &[3i32, 0], &[2, 4], &[0.0f32; 8]).unwrap()];
/// assert_eq!(stitch_output_dims(pairs.iter().copied()).unwrap().as_slice(), &[4, 4]);
/// let neg = [StitchPair::new(&[1], &[-1i32], &[1], &[0.0f32]).unwrap()];
/// assert_eq!(stitch_output_dims(neg.iter().copied()).unwrap_err().rule(), "dynamic_stitch/negative-index");
/// let bad = [StitchPair::new(&[2], &[0i32, 1], &[3], &[0.0f32; 3]).unwrap()];
/// assert_eq!(stitch_output_dims(bad.iter().copied()).unwrap_err().rule(), "dynamic_stitch/prefix");
/// ```
pub fn stitch_output_dims<'a, T: 'a>(
    pairs: impl Iterator<Item = StitchPair<'a, T>> + Clone,
) -> Result<Dims, StitchError> {
    let mut first: Option<StitchPair<'a, T>> = None;
    for p in pairs.clone() {
        Dims::for_data(&p.indices_dims, p.indices.len())?;
        Dims::for_data(&p.data_dims, p.data.len())?;
        first.get_or_insert(p);
    }
    let first = first.ok_or(StitchError::NoPairs)?;

    // the largest index and where it is (the first of them); negatives are
    // errors: the static builder's scan, over each pair's own index type
    let mut max = MaxIndex {
        value: -1,
        m: 0,
        j: 0,
    };
    for (m, p) in pairs.clone().enumerate() {
        match p.indices {
            IndexSlice::I32(values) => scan_indices(m, values, &mut max)?,
            IndexSlice::I64(values) => scan_indices(m, values, &mut max)?,
        }
    }

    let slice0 = first
        .data_dims
        .get(first.indices_dims.rank()..)
        .unwrap_or(&[]);
    for (m, p) in pairs.enumerate() {
        let r = p.indices_dims.rank();
        let slice_ok = p.data_dims.get(r..) == Some(slice0);
        // `shapecheck_mutant = "stitch-slice-first"`: a planted bug for the
        // agreement test (conformance/tests/agreement.rs): a pair's slice
        // rule checked before its prefix rule
        let slice_first = cfg!(shapecheck_mutant = "stitch-slice-first") && !slice_ok;
        // the prefix: no more dims than the data, then the same dims
        let prefix_ok = slice_rank(p.data_dims.rank(), r).is_some()
            && p.data_dims.get(..r) == Some(p.indices_dims.as_slice());
        if !prefix_ok && !slice_first {
            return Err(StitchError::PrefixMismatch {
                m,
                indices: p.indices_dims,
                data: p.data_dims,
            });
        }
        if !slice_ok {
            return Err(StitchError::SliceMismatch {
                m,
                data0: first.data_dims,
                rank0: first.indices_dims.rank(),
                data: p.data_dims,
                rank: r,
            });
        }
    }

    let MaxIndex { value, m, j } = max;
    if value < 0 {
        return with_rows(0, slice0);
    }
    // a tail of a `Dims` always fits a `Dims`
    let too_many = StitchError::TooManyRows {
        m,
        j,
        value,
        slice: Dims::new(slice0).unwrap_or(Dims::SCALAR),
    };
    // + 1 in usize: an index of i64::MAX asks for 2^63 rows, which a 64-bit
    // usize counts (an output of them with an empty slice holds nothing)
    let rows = usize::try_from(value)
        .ok()
        .and_then(|r| r.checked_add(1))
        .ok_or(too_many)?;
    let out = with_rows(rows, slice0)?;
    if out.numel().is_none() {
        return Err(too_many);
    }
    Ok(out)
}

/// The element count of one row of `dims` (its dims after the first).
pub(crate) fn slice_len(dims: &Dims) -> usize {
    Dims::new(dims.get(1..).unwrap_or(&[]))
        .ok()
        .and_then(|d| d.numel())
        .unwrap_or(0)
}

/// The index scan, the rule's and the static builder's (which, its shapes
/// proved by the types, runs only this part of the rule).
mod scan {
    use super::{StitchError, StitchIndex};
    use crate::kernel::SPEED_OVER_SIZE;

    /// The largest index seen so far by [`scan_indices`] and where (`value`
    /// -1: none yet).
    pub struct MaxIndex {
        /// The value.
        pub value: i64,
        /// The pair holding it.
        pub m: usize,
        /// Its flat position in `indices[m]`.
        pub j: usize,
    }

    /// The index scan of pair `m`, over its own index type: every value in
    /// order; the first negative one is [`StitchError::NegativeIndex`];
    /// `max` gets the first of the largest (later pairs are scanned after,
    /// so over all pairs it is the first in (m, j) order).
    ///
    /// Where the target spends code to save time ([`SPEED_OVER_SIZE`]), by
    /// blocks of [`BLOCK`] values: a block's least and largest values first
    /// (a loop with no early exit, which the compiler vectorizes), and the
    /// block value by value only when it holds a negative or a new largest
    /// value (W5's 2^20 indices: a fifth of the time value by value). On
    /// the Cortex-M cores, value by value (M4F stitch: 468 B against 698 B).
    #[inline(always)]
    pub fn scan_indices<I: StitchIndex>(
        m: usize,
        indices: &[I],
        max: &mut MaxIndex,
    ) -> Result<(), StitchError> {
        let block_len = if SPEED_OVER_SIZE { BLOCK } else { usize::MAX };
        for (b, block) in indices.chunks(block_len).enumerate() {
            let Some(&first) = block.first() else {
                continue;
            };
            if SPEED_OVER_SIZE {
                let (lo, hi) = block
                    .iter()
                    .fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v)));
                if lo.to_i64() >= 0 && hi.to_i64() <= max.value {
                    continue;
                }
            }
            for (k, &v) in block.iter().enumerate() {
                let j = b.wrapping_mul(block_len).wrapping_add(k);
                let value = v.to_i64();
                if value < 0 {
                    return Err(StitchError::NegativeIndex { m, j, value });
                }
                if value > max.value {
                    *max = MaxIndex { value, m, j };
                }
            }
        }
        Ok(())
    }

    /// The values [`scan_indices`] looks at together.
    const BLOCK: usize = 256;
}
pub(crate) use scan::{scan_indices, MaxIndex};
