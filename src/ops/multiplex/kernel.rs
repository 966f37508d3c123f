//! Multiplex's kernel: validate (shape rule, data lengths, every index value),
//! then copy one row per index entry. Nothing is written before every check
//! has passed. Also the dynamic path without a heap, [`multiplex_slices`].

use super::bounds::IndexElement;
use super::rule::{rule, MultiplexPlan};
use super::MultiplexError;
use crate::dims::{Dims, ShapeError};
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A candidate as the kernel sees it: its dims and its data.
pub(crate) trait Candidate<T> {
    /// The dims.
    fn dims(&self) -> Result<Dims, ShapeError>;
    /// The data, row-major.
    fn data(&self) -> &[T];
}

impl<T> Candidate<T> for (&[usize], &[T]) {
    fn dims(&self) -> Result<Dims, ShapeError> {
        Dims::new(self.0)
    }
    #[inline(always)]
    fn data(&self) -> &[T] {
        self.1
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Candidate<T> for Tensor<T, S, B> {
    fn dims(&self) -> Result<Dims, ShapeError> {
        Ok(Tensor::dims(self))
    }
    #[inline(always)]
    fn data(&self) -> &[T] {
        self.as_slice()
    }
}

/// A `DynTensor`, owned or borrowed (`DynTensor::multiplex` takes both).
#[cfg(feature = "alloc")]
impl<T: Copy, C: core::borrow::Borrow<crate::dynamic::DynTensor<T>>> Candidate<T> for C {
    fn dims(&self) -> Result<Dims, ShapeError> {
        Ok(self.borrow().dims())
    }
    #[inline(always)]
    fn data(&self) -> &[T] {
        self.borrow().as_slice()
    }
}

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

/// Checks every index value against the number of candidates, whatever the
/// output's size (Paddle reads none when the output is empty; see the module
/// docs): the first bad value, in row order, is the error.
///
/// One pass that stops at the first bad value. (It was a branch-free pass
/// over the whole index, which vectorizes, followed by a second pass to find
/// the row when it failed: twice the code on a microcontroller, and on a
/// large output the copy costs far more than either check.)
#[inline(always)]
pub(crate) fn check_index_values<I: IndexElement>(
    index: &[I],
    count: usize,
) -> Result<(), MultiplexError> {
    match index.iter().position(|&k| !k.is_below(count)) {
        None => Ok(()),
        Some(row) => Err(index_error(
            row,
            index.get(row).map_or(0, |k| k.to_i64()),
            count,
        )),
    }
}

/// The error for `value`, a bad index at `row`: negative or out of range.
fn index_error(row: usize, value: i64, candidates: usize) -> MultiplexError {
    if value < 0 {
        MultiplexError::NegativeIndex { row, value }
    } else {
        MultiplexError::IndexOutOfRange {
            row,
            value,
            candidates,
        }
    }
}

/// Checks every index value, then copies row `i` of candidate `index[i]` into
/// row `i` of `out`, one `copy_from_slice` per row of `row_len` elements.
/// Nothing is written unless every index value is valid.
#[inline(always)]
pub(crate) fn copy_rows<T: Copy, C: Candidate<T>, I: IndexElement>(
    inputs: &[C],
    row_len: usize,
    index: &[I],
    out: &mut [T],
) -> Result<(), MultiplexError> {
    let count = inputs.len();
    check_index_values(index, count)?;
    if row_len == 0 {
        return Ok(());
    }
    for (row, &k) in index.iter().enumerate() {
        // every value was checked above, `out` holds `index.len()` rows and
        // every candidate at least as many; a failure here would be a bug,
        // and is still an error rather than an out-of-bounds access or a
        // panic
        let span = row
            .checked_mul(row_len)
            .and_then(|start| Some(start..start.checked_add(row_len)?));
        let src = usize::try_from(k.to_i64())
            .ok()
            .and_then(|k| inputs.get(k))
            .zip(span.clone())
            .and_then(|(c, span)| c.data().get(span));
        let (Some(src), Some(dst)) = (src, span.and_then(|span| out.get_mut(span))) else {
            return Err(index_error(row, k.to_i64(), count));
        };
        // both hold `row_len` elements (`start..start + row_len`): no
        // length check is left
        dst.copy_from_slice(src);
    }
    Ok(())
}

/// Element `i` of the output (row-major) when every row holds `row_len`
/// elements: element `i` of candidate `index[i / row_len]` (output row `r`
/// is row `r` of its candidate, at the same offset). `None` for an index
/// value or an offset out of range, which [`check_index_values`] and the
/// shape rule rule out.
#[inline(always)]
pub(crate) fn row_element<T: Copy, C: Candidate<T>, I: IndexElement>(
    inputs: &[C],
    row_len: usize,
    index: &[I],
    i: usize,
) -> Option<T> {
    let k = index.get(i.checked_div(row_len)?)?.to_i64();
    let candidate = inputs.get(usize::try_from(k).ok()?)?;
    candidate.data().get(i).copied()
}

/// Every check at run time: the shape rule ([`rule()`]), every data length and
/// `out`'s, then the index values; then the copy. Returns the output dims.
pub(crate) fn run<T: Copy, C: Candidate<T>, I: IndexElement>(
    inputs: &[C],
    index_dims: Dims,
    index: &[I],
    out: &mut [T],
) -> Result<Dims, MultiplexError> {
    let plan = rule(inputs.iter().map(Candidate::dims), index_dims)?;
    fill(&plan, inputs, index_dims, index, out)?;
    Ok(plan.dims)
}

/// [`run`] after the shape rule: `plan` is what [`rule()`] returned for these
/// candidates and `index_dims`.
pub(crate) fn fill<T: Copy, C: Candidate<T>, I: IndexElement>(
    plan: &MultiplexPlan,
    inputs: &[C],
    index_dims: Dims,
    index: &[I],
    out: &mut [T],
) -> Result<(), MultiplexError> {
    for c in inputs {
        check_len(c.dims()?, c.data())?;
    }
    check_len(index_dims, index)?;
    check_len(plan.dims, out)?;
    copy_rows(inputs, plan.row_len, index, out)
}

/// What every form of multiplex that allocates its result does when a shape
/// is only known at run time: [`rule()`], then the result from `alloc`
/// (given the output dims, so that nothing is allocated for shapes the rule
/// rejects), then the kernel's checks and copy into `data(&mut result)`.
pub(crate) fn checked_output<T, C, I, O>(
    inputs: &[C],
    index_dims: Dims,
    index: &[I],
    alloc: impl FnOnce(&Dims) -> Result<O, MultiplexError>,
    data: impl FnOnce(&mut O) -> &mut [T],
) -> Result<O, MultiplexError>
where
    T: Copy,
    C: Candidate<T>,
    I: IndexElement,
{
    let plan = rule(inputs.iter().map(Candidate::dims), index_dims)?;
    let mut out = alloc(&plan.dims)?;
    fill(&plan, inputs, index_dims, index, data(&mut out))?;
    Ok(out)
}

/// The static path's core. `row_len` is `Some` when the candidates' dims
/// after the first are all static. When every dim of the candidates and of
/// the index is static, the compiler has checked every shape rule (the trait bounds and [`RowsFit`](super::RowsFit)), and
/// only the index values remain (the lengths, which the tensors guarantee,
/// cost one compare). Otherwise every rule is checked at run time, as on the
/// dynamic path.
#[inline(always)]
pub(crate) fn static_run<
    T: Copy,
    S: Shape,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
>(
    inputs: &[Tensor<T, S, B>],
    index: &Tensor<I, IS, BI>,
    row_len: Option<usize>,
    out: &mut [T],
) -> Result<(), MultiplexError> {
    if S::IS_STATIC && IS::IS_STATIC {
        let idx = index.as_slice();
        if let Some(row_len) = row_len
            && idx.len().checked_mul(row_len) == Some(out.len())
        {
            return copy_rows(inputs, row_len, idx, out);
        }
    }
    run(inputs, index.dims(), index.as_slice(), out).map(|_| ())
}

/// The dynamic path without a heap: `out[i] = inputs[index[i]][i]`, each
/// candidate given as `(dims, data)`.
///
/// Checks, in order: the shape rule ([`rule()`]), every candidate's data
/// length, the index's, `out`'s (the output's element count), then every
/// index value; only then is anything written. Returns the output dims,
/// `[index rows] + candidate dims[1..]`.
///
/// ```
/// use shapecheck::multiplex_slices;
/// let (a, b) = ([1, 2, 3, 4], [5, 6, 7, 8]);
/// let inputs: [(&[usize], &[i32]); 2] = [(&[2, 2], &a), (&[2, 2], &b)];
/// let mut out = [0; 4];
/// let dims = multiplex_slices(&inputs, &[2, 1], &[1i32, 0], &mut out).unwrap();
/// assert_eq!(dims.as_slice(), &[2, 2]);
/// assert_eq!(out, [5, 6, 3, 4]);
/// // an index value names no candidate: nothing is written
/// let err = multiplex_slices(&inputs, &[2, 1], &[2i32, 0], &mut out).unwrap_err();
/// assert_eq!(err.rule(), "multiplex/index-value");
/// assert_eq!(out, [5, 6, 3, 4]);
/// ```
pub fn multiplex_slices<T: Copy, I: IndexElement>(
    inputs: &[(&[usize], &[T])],
    index_dims: &[usize],
    index: &[I],
    out: &mut [T],
) -> Result<Dims, MultiplexError> {
    run(inputs, Dims::new(index_dims)?, index, out)
}
