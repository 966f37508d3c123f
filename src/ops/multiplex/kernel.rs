//! Multiplex's kernel: validate (shape rule, data lengths, every index value),
//! then copy one row per index entry. Nothing is written before every check
//! has passed.

use super::rule::{rule, MultiplexError, MultiplexPlan};
use crate::{Dims, Shape, ShapeError, Storage, Tensor};

/// An index element type: `i32` or `i64` (Paddle's docs name both).
#[diagnostic::on_unimplemented(
    message = "multiplex/index-element: the index element type must be i32 or i64, not `{Self}`",
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
#[diagnostic::do_not_recommend]
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
#[diagnostic::do_not_recommend]
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

#[cfg(feature = "alloc")]
impl<T: Copy> Candidate<T> for crate::DynTensor<T> {
    fn dims(&self) -> Result<Dims, ShapeError> {
        Ok(crate::DynTensor::dims(self))
    }
    #[inline(always)]
    fn data(&self) -> &[T] {
        self.as_slice()
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
fn check_index_values<I: IndexElement>(index: &[I], count: usize) -> Result<(), MultiplexError> {
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
fn copy_rows<T: Copy, C: Candidate<T>, I: IndexElement>(
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

/// The static path's core. `row_len` is `Some` when the candidates' dims
/// after the first are all static, and `checked` when every dim of the
/// candidates and of the index is static: then the compiler has checked every
/// shape rule (the trait bounds and [`RowsFit`](super::rule::RowsFit)), and
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
        if let Some(row_len) = row_len {
            if idx.len().checked_mul(row_len) == Some(out.len()) {
                return copy_rows(inputs, row_len, idx, out);
            }
        }
    }
    run(inputs, index.dims(), index.as_slice(), out).map(|_| ())
}
