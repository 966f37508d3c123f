//! TFLite's `TRANSPOSE` on slices: the dims of a tensor of up to 6 dims
//! permuted, as TFLite Micro's `transpose.cc` and
//! `reference_ops::Transpose` copy them. Any element type; the values are
//! copied unchanged.

use crate::arith::dims::check_length;
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator};
use crate::kernel::checker::Checker;
use crate::kernel::shape::{operand, shape_of, OpShape};
use crate::kernel::step::Buffers;
use crate::shared::moves::{constant_i32, op_shape, strided_copy, wide, MAX_WALK};
use crate::shared::moves::{prepare_one, run_one, MoveOne, Places};

/// A `TRANSPOSE`'s parameters: the permutation ([`transpose_params`]).
///
/// ```
/// use shapecheck_tflite::TransposeParams;
///
/// const SWAP_LAST_TWO: TransposeParams = TransposeParams { rank: 3, perm: [0, 2, 1, 0, 0, 0] };
/// assert_eq!(SWAP_LAST_TWO.perm(), &[0, 2, 1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransposeParams {
    /// the dims, 1 to 6
    pub rank: usize,
    /// the first `rank`: output dim `i` is input dim `perm[i]`
    pub perm: [usize; 6],
}

impl crate::base::write_rust::WriteRust for TransposeParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "TransposeParams",
            &[("rank", &self.rank), ("perm", &self.perm)],
        )
    }
}

impl TransposeParams {
    /// The permutation.
    ///
    /// ```
    /// use shapecheck_tflite::transpose_params;
    ///
    /// assert_eq!(transpose_params(4, &[0, 3, 1, 2])?.perm(), &[0, 3, 1, 2]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn perm(&self) -> &[usize] {
        self.perm.get(..self.rank).unwrap_or(&[])
    }
}

/// A `TRANSPOSE`'s parameters from the constant permutation `perm` of an
/// input of `rank` dims, as TFLite checks them: 1 to 6 dims, and `perm`
/// holds each of `0..rank` once.
///
/// Fails with [`TfliteError::KernelParam`] for a rank outside 1 to 6,
/// [`TfliteError::Length`] for a permutation of another length, and
/// [`TfliteError::KernelParam`] for a value out of range or repeated.
///
/// ```
/// use shapecheck_tflite::transpose_params;
///
/// // transpose_0312.tflite
/// assert_eq!(transpose_params(4, &[0, 3, 1, 2])?.perm(), &[0, 3, 1, 2]);
/// assert!(transpose_params(3, &[0, 1, 1]).is_err());
/// assert!(transpose_params(3, &[0, 1, 3]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose_params(rank: usize, perm: &[i32]) -> Result<TransposeParams, TfliteError> {
    if !(1..=MAX_WALK).contains(&rank) {
        return Err(TfliteError::KernelParam {
            what: "TRANSPOSE's input rank",
            value: wide(rank),
            rule: "TFLite Micro transposes 1 to 6 dims",
        });
    }
    if perm.len() != rank {
        return Err(TfliteError::Length {
            what: "TRANSPOSE's permutation",
            expected: rank,
            actual: perm.len(),
        });
    }
    let mut out = [0usize; 6];
    let mut seen = [false; 6];
    for (slot, &p) in out.iter_mut().zip(perm) {
        let axis = usize::try_from(p).ok().filter(|&a| a < rank);
        let first = axis.and_then(|a| seen.get_mut(a)).filter(|s| !**s);
        match (axis, first) {
            (Some(a), Some(s)) => {
                *s = true;
                *slot = a;
            }
            _ => {
                return Err(TfliteError::KernelParam {
                    what: "TRANSPOSE's permutation value",
                    value: i64::from(p),
                    rule: "the permutation holds each of 0 to rank − 1 once",
                })
            }
        }
    }
    Ok(TransposeParams { rank, perm: out })
}

/// The output shape of a `TRANSPOSE` of `params` on an input of
/// `input_shape`: output dim `i` is input dim `perm[i]`.
///
/// Fails with [`TfliteError::Length`] when the input's rank is not the
/// permutation's, and [`TfliteError::KernelParam`] when `params` (built
/// by hand) is not a permutation.
///
/// ```
/// use shapecheck_tflite::{transpose_output_shape, transpose_params};
///
/// let p = transpose_params(4, &[0, 3, 1, 2])?;
/// assert_eq!(transpose_output_shape(&[1, 5, 6, 3], &p)?.dims(), &[1, 3, 5, 6]);
/// assert!(transpose_output_shape(&[5, 6, 3], &p).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose_output_shape(
    input_shape: &[usize],
    params: &TransposeParams,
) -> Result<OpShape, TfliteError> {
    if input_shape.len() != params.rank {
        return Err(TfliteError::Length {
            what: "TRANSPOSE's input shape",
            expected: params.rank,
            actual: input_shape.len(),
        });
    }
    // params built by hand: the permutation must still be one
    let mut seen = [false; 6];
    for &p in params.perm() {
        match seen.get_mut(p) {
            Some(s) if !*s && p < params.rank => *s = true,
            _ => {
                return Err(TfliteError::KernelParam {
                    what: "TRANSPOSE's permutation value",
                    value: wide(p),
                    rule: "the permutation holds each of 0 to rank − 1 once",
                })
            }
        }
    }
    let mut dims = [0usize; 6];
    for (d, &p) in dims.iter_mut().zip(params.perm()) {
        *d = input_shape.get(p).copied().unwrap_or(0);
    }
    op_shape(
        "TRANSPOSE's output rank",
        dims.get(..params.rank).unwrap_or(&[]),
    )
}

/// TFLite's `TRANSPOSE`: `input` (of `input_shape`, row-major) with its
/// dims permuted by `params` into `output` (row-major, of
/// [`transpose_output_shape`]).
///
/// Fails, with `output` untouched, as [`transpose_output_shape`] does,
/// or when `input` or `output` is not as long as its shape's element
/// count ([`TfliteError::Length`]).
///
/// ```
/// use shapecheck_tflite::{transpose, transpose_params};
///
/// let mut out = [0i8; 6];
/// // a [2, 3] matrix transposed
/// transpose(&[1, 2, 3, 4, 5, 6], &[2, 3], &transpose_params(2, &[1, 0])?, &mut out)?;
/// assert_eq!(out, [1, 4, 2, 5, 3, 6]);
/// assert!(transpose(&[1, 2, 3], &[2, 3], &transpose_params(2, &[1, 0])?, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &TransposeParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let out_shape = transpose_output_shape(input_shape, params)?;
    check_length("TRANSPOSE's input", input_shape, input.len())?;
    check_length("output", out_shape.dims(), output.len())?;
    // the input's row-major strides, read in the output's order
    let mut strides = [0isize; 6];
    let mut stride = 1usize;
    for (s, &d) in strides.iter_mut().zip(input_shape).rev() {
        *s = isize::try_from(stride).unwrap_or(isize::MAX);
        stride = stride.saturating_mul(d);
    }
    let mut steps = [0isize; 6];
    for (step, &p) in steps.iter_mut().zip(params.perm()) {
        *step = strides.get(p).copied().unwrap_or(0);
    }
    strided_copy(
        "TRANSPOSE's output",
        input,
        0,
        out_shape.dims(),
        steps.get(..params.rank).unwrap_or(&[]),
        output,
    )
}

/// `TRANSPOSE`'s parameters and input shape from its operands: the input
/// (input 0) and the constant permutation (input 1).
pub(crate) fn transpose_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(TransposeParams, OpShape), TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let shape = shape_of(op, "input", &input)?;
    let perm = constant_i32(model, op, 1, "perm")?;
    let (values, n) = crate::shared::moves::small_i32("TRANSPOSE's permutation", &perm)?;
    let params = transpose_params(shape.dims().len(), values.get(..n).unwrap_or(&[]))?;
    Ok((params, shape))
}

/// `TRANSPOSE`'s row in [`OPS`](crate::OPS).
pub(crate) fn transpose_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let (params, shape) = transpose_operands(model, op)?;
    transpose_output_shape(shape.dims(), &params)
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives the parameters once; the
// step's `run` runs the kernel on int8 or f32 activations.

/// `TRANSPOSE`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<TransposeStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = transpose_operands(&c.model, &c.op)?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(TransposeStep {
        places,
        shape,
        params,
    }))
}

/// `TRANSPOSE`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct TransposeStep {
    pub places: Places<1>,
    pub shape: OpShape,
    pub params: TransposeParams,
}

impl crate::base::write_rust::WriteRust for TransposeStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "TransposeStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveOne for TransposeStep {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        transpose(input, self.shape.dims(), &self.params, output)
    }
}

impl TransposeStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}
