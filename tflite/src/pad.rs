//! TFLite's `PAD` on slices: a tensor of up to 5 dims with `before` and
//! `after` elements of a given value added along each dim, as TFLite
//! Micro's `pad.cc` and `reference_ops::Pad` write it.

use crate::dims::{check_length, element_count};
use crate::error::TfliteError;

/// The most dims TFLite Micro pads (`PadKernelMaxDimensionCount`).
const MAX_PAD_RANK: usize = 5;

/// The output shape of a `PAD`: each dim of `input` plus its `(before,
/// after)` paddings, as TFLite Micro's `PadPrepare` requires of the
/// output. Returns the dims and the rank (the input's): the first `rank`
/// entries are the shape, the rest are 1 (the form of
/// [`broadcast_shape`](crate::broadcast_shape)).
///
/// Fails with [`TfliteError::KernelParam`] for more than 5 dims (TFLite
/// Micro pads at most 5) or a dim that overflows, and with
/// [`TfliteError::Length`] when there is not one pair of paddings per dim.
///
/// ```
/// use shapecheck_tflite::pad_output_shape;
///
/// // pad_1_2.tflite: [1, 5, 4, 3] with (1, 2) rows and (2, 1) columns
/// let (dims, rank) = pad_output_shape(&[1, 5, 4, 3], &[(0, 0), (1, 2), (2, 1), (0, 0)])?;
/// assert_eq!(&dims[..rank], &[1, 8, 7, 3]);
/// assert!(pad_output_shape(&[1, 5], &[(1, 1)]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn pad_output_shape(
    input: &[usize],
    paddings: &[(usize, usize)],
) -> Result<([usize; 6], usize), TfliteError> {
    let rank = input.len();
    if rank > MAX_PAD_RANK {
        return Err(TfliteError::KernelParam {
            what: "PAD's input rank",
            value: i64::try_from(rank).unwrap_or(i64::MAX),
            rule: "TFLite Micro pads at most 5 dims",
        });
    }
    if paddings.len() != rank {
        return Err(TfliteError::Length {
            what: "paddings",
            expected: rank,
            actual: paddings.len(),
        });
    }
    let mut dims = [1usize; 6];
    for ((d, &i), &(before, after)) in dims.iter_mut().zip(input).zip(paddings) {
        *d = i
            .checked_add(before)
            .and_then(|d| d.checked_add(after))
            .ok_or(TfliteError::KernelParam {
                what: "PAD's output dim",
                value: i64::MAX,
                rule: "a dim plus its paddings overflows",
            })?;
    }
    Ok((dims, rank))
}

/// TFLite's `PAD` (and `PADV2`): the output, of
/// [`pad_output_shape`]`(input_shape, paddings)`, is `value` wherever an
/// index is within a dim's `before` or `after` padding, and the input
/// (row-major, in order) elsewhere. For int8, TFLite Micro's `value` is
/// the output's zero point (`PADV2`: its constant value). Any element type.
///
/// Fails, with `output` untouched, as [`pad_output_shape`] does, or when
/// `input` or `output` is not as long as its shape's element count.
///
/// ```
/// use shapecheck_tflite::pad;
///
/// let mut out = [0i8; 12];
/// // [2, 2] padded by one row before and one column on each side, with −3
/// pad(&[1i8, 2, 3, 4], &[2, 2], &[(1, 0), (1, 1)], -3, &mut out)?;
/// assert_eq!(out, [-3, -3, -3, -3, -3, 1, 2, -3, -3, 3, 4, -3]);
/// assert!(pad(&[1i8, 2, 3], &[2, 2], &[(1, 0), (1, 1)], -3, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn pad<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    paddings: &[(usize, usize)],
    value: T,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let (out_dims, rank) = pad_output_shape(input_shape, paddings)?;
    check_length("input", input_shape, input.len())?;
    let count = check_length("output", out_dims.get(..rank).unwrap_or(&[]), output.len())?;
    if count == 0 {
        return Ok(());
    }
    let mut dims = [(0usize, 0usize, 0usize); MAX_PAD_RANK];
    for (d, (&i, &(before, after))) in dims.iter_mut().zip(input_shape.iter().zip(paddings)) {
        *d = (i, before, after);
    }
    fill(dims.get(..rank).unwrap_or(&[]), input, value, output);
    Ok(())
}

/// Writes the padded `input` into `output`. `dims` are `(input dim,
/// before, after)`, outermost first; the lengths are the checked counts
/// (every block of inner dims fits a `usize`: [`element_count`]).
fn fill<T: Copy>(dims: &[(usize, usize, usize)], input: &[T], value: T, output: &mut [T]) {
    // the `after` padding is what is left of `output` (its length is the count)
    let Some((&(n, before, _), inner)) = dims.split_first() else {
        // rank 0: one element each
        for (y, &x) in output.iter_mut().zip(input) {
            *y = x;
        }
        return;
    };
    let in_block = element_count_of(inner, |&(i, _, _)| i);
    let out_block = element_count_of(inner, |&(i, b, a)| i + b + a);
    let (head, rest) = output.split_at_mut(before.saturating_mul(out_block).min(output.len()));
    head.fill(value);
    let (middle, tail) = rest.split_at_mut(n.saturating_mul(out_block).min(rest.len()));
    tail.fill(value);
    if inner.is_empty() {
        for (y, &x) in middle.iter_mut().zip(input) {
            *y = x;
        }
        return;
    }
    if out_block == 0 {
        return;
    }
    for (k, out) in middle.chunks_exact_mut(out_block).enumerate() {
        let start = k.saturating_mul(in_block);
        let src = input
            .get(start..start.saturating_add(in_block))
            .unwrap_or(&[]);
        fill(inner, src, value, out);
    }
}

/// The product of `f` over `dims` (checked when the shapes were: it fits).
fn element_count_of(
    dims: &[(usize, usize, usize)],
    f: impl Fn(&(usize, usize, usize)) -> usize,
) -> usize {
    let mut shape = [0usize; MAX_PAD_RANK];
    for (s, d) in shape.iter_mut().zip(dims) {
        *s = f(d);
    }
    element_count(shape.get(..dims.len()).unwrap_or(&[])).unwrap_or(0)
}

/// A `PADV2`'s parameters, int8 ([`padv2_params`]); its kernel is
/// [`pad`] with this value, and its output shape [`pad_output_shape`]'s.
///
/// ```
/// use shapecheck_tflite::PadV2Params;
///
/// const THIRTY_FIVE: PadV2Params = PadV2Params { value: 35 };
/// assert_eq!(THIRTY_FIVE.value, 35);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PadV2Params {
    /// the int8 the padding holds
    pub value: i8,
}

/// An int8 `PADV2`'s parameters from its constant pad `value` (an int8
/// scalar) and the `(scale, zero point)` of the input, the value and the
/// output, as TFLite Micro's `pad.cc` checks them: the value's scale and
/// zero point are the output's, and the input's too (the kernel copies
/// the input's int8 values unchanged).
///
/// Fails with [`TfliteError::KernelScale`] or [`TfliteError::KernelParam`]
/// naming the tensor whose scale or zero point is not the output's.
///
/// ```
/// use shapecheck_tflite::padv2_params;
///
/// // padv2_const.tflite: 0.7 as 35 at scale 0.0307 from 12
/// let q = (0.030744212, 12);
/// assert_eq!(padv2_params(35, q, q, q)?.value, 35);
/// assert!(padv2_params(35, q, (0.030744212, 11), q).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn padv2_params(
    value: i8,
    input: (f32, i32),
    value_quantization: (f32, i32),
    output: (f32, i32),
) -> Result<PadV2Params, TfliteError> {
    let same = |what: &'static str, q: (f32, i32)| {
        if q.0 != output.0 {
            Err(TfliteError::KernelScale {
                what,
                value: f64::from(q.0),
                rule: "PADV2 copies int8 values: it must be the output's scale",
            })
        } else if q.1 != output.1 {
            Err(TfliteError::KernelParam {
                what,
                value: i64::from(q.1),
                rule: "PADV2 copies int8 values: it must be the output's zero point",
            })
        } else {
            Ok(())
        }
    };
    same("PADV2's input quantization", input)?;
    same("PADV2's pad value's quantization", value_quantization)?;
    Ok(PadV2Params { value })
}
