//! TFLite's `FULLY_CONNECTED` kernels on slices: int8 (int32 accumulation,
//! bias, requantization per-tensor or per-channel in either rounding, the
//! output zero point and the fused activation's clamp) and f32 (bias and
//! the fused activation's clamp).

use crate::arith::activation::activation_range_f32;
use crate::arith::quant::{OutputStage, OutputStage16, QuantizedMultiplier, Rounding, Scale};
use crate::format::array::Array;
use crate::format::error::OperandProblem;
use crate::format::error::TfliteError;
use crate::format::model::Model;
use crate::format::model::Operator;
use crate::format::model::OptionsReader;
use crate::format::types::Activation;
use crate::format::types::TensorType;
use crate::format::types::WeightsFormat;
use crate::format::values::Values;
use crate::kernel::checker::dim;
use crate::kernel::checker::split;
use crate::kernel::checker::Checker;
use crate::kernel::checker::Quantized;
use crate::kernel::shape::need_rank;
use crate::kernel::shape::operand;
use crate::kernel::shape::operand_problem;
use crate::kernel::shape::shape_of;
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use core::ops::Range;

// The kernel's DSP loops (`cfg(shapecheck_dsp)`, set by build.rs), each
// `asm!` block beside its plain-Rust twin, which the host's unit tests run
// (built as lib.rs's `mod dsp` is).
#[cfg_attr(not(any(shapecheck_dsp, test)), allow(dead_code))]
#[allow(unsafe_code)]
pub(crate) mod dsp;

/// The sizes of one fully connected layer: `batches` rows of `input_dim`
/// inputs, `units` outputs each; the weights are `[units, input_dim]`.
///
/// ```
/// use shapecheck_tflite::FullyConnectedDims;
///
/// let dims = FullyConnectedDims { batches: 1, input_dim: 16, units: 16 };
/// assert_eq!(dims.units, 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullyConnectedDims {
    /// rows of the input and of the output
    pub batches: usize,
    /// inputs per row (the weights' second dim)
    pub input_dim: usize,
    /// outputs per row (the weights' first dim)
    pub units: usize,
}

impl crate::base::write_rust::WriteRust for FullyConnectedDims {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "FullyConnectedDims",
            &[
                ("batches", &self.batches),
                ("input_dim", &self.input_dim),
                ("units", &self.units),
            ],
        )
    }
}

/// The quantization of one int8 fully connected layer, as TFLite derives it
/// from the layer's tensors (see [`fully_connected_multiplier`](crate::fully_connected_multiplier) and
/// [`activation_range_int8`](crate::activation_range_int8)).
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, FullyConnectedParams, Rounding};
///
/// let multipliers = [quantize_multiplier(0.01)?];
/// let params = FullyConnectedParams {
///     input_zero_point: -128,
///     weights_zero_point: 0,
///     output_zero_point: -128,
///     multipliers: &multipliers,
///     output_min: -128,
///     output_max: 127,
///     rounding: Rounding::Single,
/// };
/// assert_eq!(params.multipliers.len(), 1); // per-tensor
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullyConnectedParams<'m> {
    /// the input's zero point (subtracted from every input)
    pub input_zero_point: i32,
    /// the weights' zero point (0 for TFLite's symmetric int8 weights)
    pub weights_zero_point: i32,
    /// the output's zero point (added after requantization)
    pub output_zero_point: i32,
    /// one multiplier (per-tensor) or one per unit (per-channel)
    pub multipliers: &'m [QuantizedMultiplier],
    /// the clamp's lower end, from the fused activation
    pub output_min: i32,
    /// the clamp's upper end
    pub output_max: i32,
    /// the interpreter's single rounding or TFLite Micro's double
    pub rounding: Rounding,
}

/// TFLite's int8 `FULLY_CONNECTED`: for each row `b` and unit `c`,
/// `acc = Σ_d (x[b,d] − x_zp) · (w[c,d] − w_zp) + bias[c]` in `i32`, then
/// `y = multiply_by_quantized_multiplier(acc, M_c) + out_zp` clamped to
/// `[output_min, output_max]`. `input` is `[batches, input_dim]`, `weights`
/// `[units, input_dim]`, `bias` `[units]` (or none), `output`
/// `[batches, units]`, all row-major. The weights and bias are read from
/// slices or in place from a model ([`Values`]).
///
/// The accumulator wraps on overflow (TFLite leaves it undefined; it needs
/// more than 65,000 inputs of extreme values). Fails, with `output`
/// untouched, when a length does not match `dims` or there is neither one
/// multiplier nor one per unit.
///
/// ```
/// use shapecheck_tflite::{
///     fully_connected_int8, quantize_multiplier, FullyConnectedDims, FullyConnectedParams, Rounding,
/// };
///
/// // 2 inputs, 2 units, multiplier 0.5, ReLU at zero point 0
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = FullyConnectedParams {
///     input_zero_point: 1,
///     weights_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: &multipliers,
///     output_min: 0,
///     output_max: 127,
///     rounding: Rounding::Single,
/// };
/// let dims = FullyConnectedDims { batches: 1, input_dim: 2, units: 2 };
/// let mut out = [0i8; 2];
/// fully_connected_int8(&[3, 5], &[1, 2, -1, -2], Some(&[4, 0]), dims, &params, &mut out)?;
/// // (2·1 + 4·2 + 4) · 0.5 = 7; (−2 − 8 + 0) · 0.5 = −5, clamped to 0
/// assert_eq!(out, [7, 0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[inline(always)]
pub fn fully_connected_int8<W, B>(
    input: &[i8],
    weights: &W,
    bias: Option<&B>,
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    W: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    check_lengths(
        dims,
        input.len(),
        weights.count(),
        bias.map(|b| b.count()),
        output.len(),
    )?;
    if params.multipliers.len() != 1 && params.multipliers.len() != dims.units {
        return Err(TfliteError::Length {
            what: "multipliers",
            expected: dims.units,
            actual: params.multipliers.len(),
        });
    }
    fully_connected_int8_prechecked(input, weights, bias, dims, params, output);
    Ok(())
}

/// [`fully_connected_int8`] without its checks, for a caller that has
/// made them hold already (the typed layers of `shapecheck`, whose sizes
/// are types): the lengths are the ones `dims` gives, the multipliers one
/// or one per unit. On operands that break this, what it writes is
/// unspecified, but it never panics and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{fully_connected_int8_prechecked, quantize_multiplier, FullyConnectedDims, FullyConnectedParams, Rounding};
///
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = FullyConnectedParams {
///     input_zero_point: 0, weights_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let dims = FullyConnectedDims { batches: 1, input_dim: 2, units: 1 };
/// let mut out = [0i8; 1];
/// fully_connected_int8_prechecked(&[3, 5], &[2, 2], None::<&[i32]>, dims, &params, &mut out);
/// assert_eq!(out, [8]); // (6 + 10) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[inline(always)]
pub fn fully_connected_int8_prechecked<W, B>(
    input: &[i8],
    weights: &W,
    bias: Option<&B>,
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
    output: &mut [i8],
) where
    W: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    // the SMLAD loops for a layer large enough to gain from them; a small
    // one keeps the portable loop, and a firmware whose layers are all
    // small (their sizes constants where `model!` calls this) links no
    // DSP code for them
    #[cfg(shapecheck_dsp)]
    if dims.input_dim >= DSP_MIN_INPUTS && dims.input_dim.saturating_mul(dims.units) >= DSP_MIN_MACS
    {
        return fully_connected_int8_with::<W, B, true>(input, weights, bias, dims, params, output);
    }
    fully_connected_int8_with::<W, B, false>(input, weights, bias, dims, params, output)
}

/// The fewest inputs per row, and multiply-accumulates per row, of a
/// layer [`fully_connected_int8`] runs on the DSP extension (SMLAD): below
/// either, the portable loop (sine's layers of 1 and 16 inputs, 16 units:
/// the DSP loops' setup costs more than their products save, and their
/// code, about 5 KB, more than the model).
#[cfg(shapecheck_dsp)]
const DSP_MIN_INPUTS: usize = 32;
#[cfg(shapecheck_dsp)]
const DSP_MIN_MACS: usize = 256;

/// [`fully_connected_int8`], on the DSP loops (where the target has them)
/// if `DSP`, else the portable loop alone.
fn fully_connected_int8_with<W, B, const DSP: bool>(
    input: &[i8],
    weights: &W,
    bias: Option<&B>,
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
    output: &mut [i8],
) where
    W: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    let FullyConnectedDims {
        batches,
        input_dim,
        units,
    } = dims;
    let per_channel = params.multipliers.len() != 1;
    if units == 0 {
        // no output, however many rows (a row count alone bounds nothing)
        return;
    }
    // the one multiplier of a per-tensor layer, split once
    let per_tensor = Scale::new(
        params
            .multipliers
            .first()
            .copied()
            .unwrap_or(QuantizedMultiplier::ZERO),
    );
    let x_zp = params.input_zero_point;
    let w_zp = params.weights_zero_point;
    let stage = OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    // the SMLAD loops where the target has them (symmetric weights)
    #[cfg(shapecheck_dsp)]
    if let (true, 0, Some(w)) = (DSP, w_zp, weights.contiguous()) {
        let done = if batches == 1 {
            dsp::vec_mat(input, w, bias, x_zp, params.multipliers, &stage, output)
        } else {
            crate::ops::conv::dsp::matmul(
                input,
                w,
                bias,
                input_dim,
                x_zp,
                params.multipliers,
                &stage,
                None,
                output,
            )
        };
        if done.is_some() {
            return;
        }
    }
    // every product below is at most one of the lengths checked above, and
    // the rows are at most the output's length
    for b in 0..batches {
        let row = input.get(b * input_dim..(b + 1) * input_dim).unwrap_or(&[]);
        let out_row = output
            .get_mut(b * units..(b + 1) * units)
            .unwrap_or(&mut []);
        // Σ (x − x_zp)(w − w_zp) = Σ (x − x_zp) · w − w_zp · Σ (x − x_zp),
        // in wrapping i32 as well: the weights' zero point once per row
        let correction = if w_zp == 0 {
            0
        } else {
            let x_sum = row.iter().fold(0i32, |s, &x| {
                s.wrapping_add(i32::from(x).wrapping_sub(x_zp))
            });
            w_zp.wrapping_mul(x_sum)
        };
        // where the weights are a slice, two units at a time (each input
        // read once for both; an odd last unit paired with itself, its
        // second sum unused), else one
        let mut rows = weights
            .contiguous()
            .map(|w| w.chunks_exact(input_dim.max(1)));
        let mut pending: Option<i32> = None;
        for (c, out) in out_row.iter_mut().enumerate() {
            let mut acc = match (pending.take(), rows.as_mut()) {
                (Some(acc), _) => acc,
                (None, Some(rows)) => {
                    // no width of 0 here: no weights, no rows, no inputs
                    let w0 = rows.next().unwrap_or(&[]);
                    let w1 = rows.clone().next().unwrap_or(w0);
                    let mut sums = [0i32; 2];
                    for ((&x, &w0), &w1) in row.iter().zip(w0).zip(w1) {
                        let x = i32::from(x).wrapping_sub(x_zp);
                        let mac = |a: i32, w: i8| a.wrapping_add(x.wrapping_mul(i32::from(w)));
                        sums = [mac(sums[0], w0), mac(sums[1], w1)];
                    }
                    if rows.next().is_some() {
                        pending = Some(sums[1]);
                    }
                    sums[0]
                }
                (None, None) => row
                    .iter()
                    .zip(weights.run(c * input_dim, (c + 1) * input_dim))
                    .fold(0i32, |acc, (&x, w)| {
                        let x = i32::from(x).wrapping_sub(x_zp);
                        acc.wrapping_add(x.wrapping_mul(i32::from(w)))
                    }),
            };
            acc = acc.wrapping_sub(correction);
            if let Some(b) = bias.and_then(|b| b.at(c)) {
                acc = acc.wrapping_add(b);
            }
            let m = if per_channel {
                Scale::new(
                    params
                        .multipliers
                        .get(c)
                        .copied()
                        .unwrap_or(QuantizedMultiplier::ZERO),
                )
            } else {
                per_tensor
            };
            *out = stage.apply(acc, m);
        }
    }
}

/// Partial sums of TFLite's int8 `FULLY_CONNECTED` ([`fully_connected_int8`])
/// over a range of its input depth, for an input that arrives in bands:
/// `acc[b · units + c] += Σ_{i ∈ depth} (x[b, i] − x_zp) · (w[c, i] − w_zp)`
/// in wrapping `i32`, where `input` holds inputs `depth` of each of the
/// `batches` rows (`batches · depth.len()` values) and `weights` is the
/// whole layer's (`units · input_dim`). Once every input has been added
/// (the ranges covering `0..input_dim` once, in any order, from an `acc`
/// of zeros), [`fully_connected_int8_finish`] writes the layer's output,
/// bit for bit [`fully_connected_int8`]'s (the sums wrap modulo 2^32 as
/// its do). Only `params`' zero points are read.
///
/// Fails, with `acc` untouched, when `depth` is not inside
/// `0..input_dim`, or `input`, `weights` or `acc` is not the length
/// `dims` gives.
///
/// ```
/// use shapecheck_tflite::{fully_connected_int8_accumulate, fully_connected_int8_finish, quantize_multiplier, FullyConnectedDims, FullyConnectedParams, Rounding};
///
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = FullyConnectedParams {
///     input_zero_point: 1, weights_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// // one unit over 4 inputs [3, 5, 7, 9], in two bands of 2
/// let dims = FullyConnectedDims { batches: 1, input_dim: 4, units: 1 };
/// let weights = [1, 2, 3, 4];
/// let mut acc = [0i32; 1];
/// fully_connected_int8_accumulate(&[7, 9], 2..4, &weights, dims, &params, &mut acc)?;
/// fully_connected_int8_accumulate(&[3, 5], 0..2, &weights, dims, &params, &mut acc)?;
/// assert_eq!(acc, [2 + 8 + 18 + 32]);
/// let mut out = [0i8; 1];
/// fully_connected_int8_finish(&acc, Some(&[4]), dims, &params, &mut out)?;
/// assert_eq!(out, [32]); // (60 + 4) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn fully_connected_int8_accumulate<W: Values<i8> + ?Sized>(
    input: &[i8],
    depth: Range<usize>,
    weights: &W,
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
    acc: &mut [i32],
) -> Result<(), TfliteError> {
    let FullyConnectedDims {
        batches,
        input_dim,
        units,
    } = dims;
    if depth.start > depth.end || depth.end > input_dim {
        return Err(TfliteError::KernelParam {
            what: "input range's end",
            value: i64::try_from(depth.end).unwrap_or(i64::MAX),
            rule: "the range must be ascending and inside the layer's inputs",
        });
    }
    let width = depth.end - depth.start;
    let length = |what: &'static str, a: usize, b: usize, actual: usize| match a.checked_mul(b) {
        Some(expected) if expected == actual => Ok(()),
        Some(expected) => Err(TfliteError::Length {
            what,
            expected,
            actual,
        }),
        None => Err(TfliteError::Length {
            what,
            expected: usize::MAX,
            actual: 0,
        }),
    };
    length("input", batches, width, input.len())?;
    length("weights", units, input_dim, weights.count())?;
    length("accumulators", batches, units, acc.len())?;
    let (x_zp, w_zp) = (params.input_zero_point, params.weights_zero_point);
    // checked: every index below is inside a length
    for (row, sums) in input
        .chunks_exact(width.max(1))
        .zip(acc.chunks_exact_mut(units.max(1)))
    {
        for (c, sum) in sums.iter_mut().enumerate() {
            let from = c * input_dim + depth.start;
            *sum = row
                .iter()
                .zip(weights.run(from, from + width))
                .fold(*sum, |s, (&x, w)| {
                    let x = i32::from(x).wrapping_sub(x_zp);
                    s.wrapping_add(x.wrapping_mul(i32::from(w).wrapping_sub(w_zp)))
                });
        }
    }
    Ok(())
}

/// The output of an int8 `FULLY_CONNECTED` layer from its sums
/// ([`fully_connected_int8_accumulate`] over all its inputs): each
/// `acc[b · units + c]` plus `bias[c]`, requantized by its multiplier,
/// plus the output zero point, clamped, as [`fully_connected_int8`]
/// finishes each output.
///
/// Fails, with `output` untouched, when `acc` or `output` is not
/// `batches · units` long, the bias not `units`, or there is neither one
/// multiplier nor one per unit.
///
/// ```
/// use shapecheck_tflite::{fully_connected_int8_finish, quantize_multiplier, FullyConnectedDims, FullyConnectedParams, Rounding};
///
/// let multipliers = [quantize_multiplier(0.25)?];
/// let params = FullyConnectedParams {
///     input_zero_point: 0, weights_zero_point: 0, output_zero_point: -3,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let dims = FullyConnectedDims { batches: 1, input_dim: 8, units: 2 };
/// let mut out = [0i8; 2];
/// fully_connected_int8_finish(&[40, -1000], None::<&[i32]>, dims, &params, &mut out)?;
/// assert_eq!(out, [7, -128]); // 10 − 3; −250 − 3, clamped
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn fully_connected_int8_finish<B: Values<i32> + ?Sized>(
    acc: &[i32],
    bias: Option<&B>,
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    let n = dims.batches.checked_mul(dims.units);
    for (what, actual) in [("accumulators", acc.len()), ("output", output.len())] {
        if n != Some(actual) {
            return Err(TfliteError::Length {
                what,
                expected: n.unwrap_or(usize::MAX),
                actual,
            });
        }
    }
    if let Some(b) = bias {
        if b.count() != dims.units {
            return Err(TfliteError::Length {
                what: "bias",
                expected: dims.units,
                actual: b.count(),
            });
        }
    }
    if params.multipliers.len() != 1 && params.multipliers.len() != dims.units {
        return Err(TfliteError::Length {
            what: "multipliers",
            expected: dims.units,
            actual: params.multipliers.len(),
        });
    }
    let stage = OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    let per_channel = params.multipliers.len() != 1;
    for (i, (out, &a)) in output.iter_mut().zip(acc).enumerate() {
        let c = i % dims.units.max(1);
        let a = match bias.and_then(|b| b.at(c)) {
            Some(b) => a.wrapping_add(b),
            None => a,
        };
        let m = params
            .multipliers
            .get(if per_channel { c } else { 0 })
            .copied()
            .unwrap_or(QuantizedMultiplier::ZERO);
        *out = stage.apply(a, Scale::new(m));
    }
    Ok(())
}

/// TFLite's `FULLY_CONNECTED` in 16x8 mode (TFLite Micro's
/// `reference_integer_ops::FullyConnected` and `FullyConnectedPerChannel`
/// for int16 input, int8 weights and int64 bias): for each row `b` and
/// unit `c`, `acc = Σ_d (x[b,d] − x_zp) · (w[c,d] − w_zp) + bias[c]` in
/// `i64`, then `y = multiply_by_quantized_multiplier_int64(acc, M_c) +
/// out_zp` ([`multiply_by_quantized_multiplier_int64`](crate::multiply_by_quantized_multiplier_int64):
/// one rounding, so `params.rounding` is not read) clamped to
/// `[output_min, output_max]` and to int16 (an empty clamp gives
/// `output_max` everywhere).
///
/// The interpreter runs this under either [`Arithmetic`](crate::Arithmetic):
/// TensorFlow 2.21's own int16 kernel rounds a few values differently (by
/// 1, on 5 of int16_fc.tflite's 72 recorded outputs), and is not
/// reproduced.
///
/// Fails, with `output` untouched, when a length does not match `dims` or
/// there is neither one multiplier nor one per unit.
///
/// ```
/// use shapecheck_tflite::{fully_connected_int16, quantize_multiplier, FullyConnectedDims, FullyConnectedParams, Rounding};
///
/// let dims = FullyConnectedDims { batches: 1, input_dim: 2, units: 2 };
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = FullyConnectedParams {
///     input_zero_point: 0, weights_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -32768, output_max: 32767,
///     rounding: Rounding::Double,
/// };
/// let mut out = [0i16; 2];
/// fully_connected_int16(&[30000, -1000], &[2, 1, -2, 0], Some(&[0i64, 3]), dims, &params, &mut out)?;
/// assert_eq!(out, [29500, -29998]); // 59000 · 0.5; (−60000 + 3) · 0.5 = −29998.5 → −29998
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn fully_connected_int16<W, B>(
    input: &[i16],
    weights: &W,
    bias: Option<&B>,
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
    output: &mut [i16],
) -> Result<(), TfliteError>
where
    W: Values<i8> + ?Sized,
    B: Values<i64> + ?Sized,
{
    let FullyConnectedDims {
        batches: _,
        input_dim,
        units,
    } = dims;
    check_lengths(
        dims,
        input.len(),
        weights.count(),
        bias.map(|b| b.count()),
        output.len(),
    )?;
    if params.multipliers.len() != 1 && params.multipliers.len() != units {
        return Err(TfliteError::Length {
            what: "multipliers",
            expected: units,
            actual: params.multipliers.len(),
        });
    }
    if units == 0 {
        return Ok(());
    }
    let stage = OutputStage16::new(
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    let multiplier = |c: usize| match params.multipliers {
        [m] => *m,
        ms => ms.get(c).copied().unwrap_or(QuantizedMultiplier::ZERO),
    };
    let (x_zp, w_zp) = (
        i64::from(params.input_zero_point),
        i64::from(params.weights_zero_point),
    );
    // checked: input is batches · input_dim long, output batches · units
    for (b, row) in output.chunks_exact_mut(units).enumerate() {
        let xs = input.get(b * input_dim..(b + 1) * input_dim).unwrap_or(&[]);
        for (c, out) in row.iter_mut().enumerate() {
            let ws = weights.run(c * input_dim, (c + 1) * input_dim);
            let mut acc = xs.iter().zip(ws).fold(0i64, |acc, (&x, w)| {
                acc + (i64::from(x) - x_zp) * (i64::from(w) - w_zp)
            });
            if let Some(bias) = bias.and_then(|bias| bias.at(c)) {
                acc = acc.wrapping_add(bias);
            }
            *out = stage.apply(acc, multiplier(c));
        }
    }
    Ok(())
}

/// Checks the lengths of a fully connected layer's operands against `dims`
/// (`bias` is `None` when there is no bias).
fn check_lengths(
    dims: FullyConnectedDims,
    input: usize,
    weights: usize,
    bias: Option<usize>,
    output: usize,
) -> Result<(), TfliteError> {
    let FullyConnectedDims {
        batches,
        input_dim,
        units,
    } = dims;
    let size = |what: &'static str, a: usize, b: usize| {
        a.checked_mul(b).ok_or(TfliteError::Length {
            what,
            expected: usize::MAX,
            actual: 0,
        })
    };
    let check = |what: &'static str, expected: usize, actual: usize| {
        if expected == actual {
            Ok(())
        } else {
            Err(TfliteError::Length {
                what,
                expected,
                actual,
            })
        }
    };
    check("input", size("input", batches, input_dim)?, input)?;
    check("weights", size("weights", units, input_dim)?, weights)?;
    check("output", size("output", batches, units)?, output)?;
    if let Some(bias) = bias {
        check("bias", units, bias)?;
    }
    Ok(())
}

/// TFLite's f32 `FULLY_CONNECTED` (the reference kernel): for each row `b`
/// and unit `c`, `y = Σ_d x[b,d] · w[c,d]`, summed in `f32` in order of
/// `d` from 0, then `y + bias[c]` clamped to `[output_min, output_max]`
/// ([`activation_range_f32`]). Shapes as [`fully_connected_int8`]'s; fails
/// the same way, with `output` untouched, when a length does not match
/// `dims`.
///
/// ```
/// use shapecheck_tflite::{activation_range_f32, fully_connected_f32, Activation, FullyConnectedDims};
///
/// let dims = FullyConnectedDims { batches: 1, input_dim: 2, units: 2 };
/// let (lo, hi) = activation_range_f32(Activation::Relu)?;
/// let mut out = [0.0f32; 2];
/// fully_connected_f32(&[1.0, 2.0], &[0.5, 0.25, -1.0, 0.0], Some(&[0.5, 0.0]), dims, lo, hi, &mut out)?;
/// assert_eq!(out, [1.5, 0.0]); // 0.5 + 0.5 + 0.5; −1 clamped to 0
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn fully_connected_f32<W, B>(
    input: &[f32],
    weights: &W,
    bias: Option<&B>,
    dims: FullyConnectedDims,
    output_min: f32,
    output_max: f32,
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    W: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    check_lengths(
        dims,
        input.len(),
        weights.count(),
        bias.map(|b| b.count()),
        output.len(),
    )?;
    fully_connected_f32_prechecked(input, weights, bias, dims, output_min, output_max, output);
    Ok(())
}

/// [`fully_connected_f32`] without its checks, for a caller that has made
/// them hold already (the typed layers of `shapecheck`, whose sizes are
/// types): the lengths are the ones `dims` gives. On operands that break
/// this, what it writes is unspecified, but it never panics and never
/// writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{fully_connected_f32_prechecked, FullyConnectedDims};
///
/// let dims = FullyConnectedDims { batches: 1, input_dim: 2, units: 1 };
/// let mut out = [0.0f32; 1];
/// fully_connected_f32_prechecked(&[1.0, 2.0], &[0.5, 0.25], Some(&[1.0]), dims, f32::MIN, f32::MAX, &mut out);
/// assert_eq!(out, [2.0]);
/// ```
pub fn fully_connected_f32_prechecked<W, B>(
    input: &[f32],
    weights: &W,
    bias: Option<&B>,
    dims: FullyConnectedDims,
    output_min: f32,
    output_max: f32,
    output: &mut [f32],
) where
    W: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    let FullyConnectedDims {
        batches,
        input_dim,
        units,
    } = dims;
    if units == 0 {
        return;
    }
    for b in 0..batches {
        let row = input.get(b * input_dim..(b + 1) * input_dim).unwrap_or(&[]);
        let mut start = 0;
        for c in 0..units {
            let mut total = 0.0f32;
            for (&x, w) in row.iter().zip(weights.run(start, start + input_dim)) {
                total += x * w;
            }
            start += input_dim;
            let bias = bias.and_then(|b| b.at(c)).unwrap_or(0.0);
            // TFLite's ActivationFunctionWithMinMax: max first, then min
            let y = (total + bias).max(output_min).min(output_max);
            if let Some(out) = output.get_mut(b * units + c) {
                *out = y;
            }
        }
    }
}

/// `FULLY_CONNECTED`'s options table in the schema's `BuiltinOptions` union.
const FULLY_CONNECTED_OPTIONS: u8 = 8;

/// Reads `FULLY_CONNECTED`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<FullyConnectedOptions, TfliteError> {
    let t = r.table(FULLY_CONNECTED_OPTIONS, "FullyConnectedOptions")?;
    let (act, format, keep, asym) = match t {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("fused_activation_function"))?,
            t.i8(1, 0).map_err(r.fault("weights_format"))?,
            t.bool(2).map_err(r.fault("keep_num_dims"))?,
            t.bool(3).map_err(r.fault("asymmetric_quantize_inputs"))?,
        ),
        None => (0, 0, false, false),
    };
    Ok(FullyConnectedOptions {
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
        weights_format: WeightsFormat::from_schema(format)
            .ok_or(r.enum_value(format, "weights_format"))?,
        keep_num_dims: keep,
        asymmetric_quantize_inputs: asym,
    })
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

/// `FULLY_CONNECTED`: weights `[units, depth]`; the input read as rows of
/// `depth` gives `[rows, units]` (keep_num_dims: the input's leading dims
/// and `units`).
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let weights = operand(model, op, 1, "weights")?;
    let w = need_rank(op, "weights", &weights, 2)?;
    let (units, depth) = (w.dims[0], w.dims[1]);
    let x = shape_of(op, "input", &input)?;
    let elements = x.elements().unwrap_or(usize::MAX);
    if depth == 0 || !elements.is_multiple_of(depth) {
        return Err(operand_problem(
            op,
            "input",
            &input,
            OperandProblem::Elements {
                expected: depth,
                found: elements,
            },
        ));
    }
    let keep = matches!(read_options(&op.raw_options()), Ok(o) if o.keep_num_dims);
    let last = x.rank.checked_sub(1);
    match last {
        Some(last) if keep && x.dims.get(last) == Some(&depth) => {
            let mut out = x;
            if let Some(d) = out.dims.get_mut(last) {
                *d = units;
            }
            Ok(out)
        }
        _ => Ok(OpShape {
            dims: [elements / depth, units, 0, 0, 0, 0],
            rank: 2,
        }),
    }
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// Its row's `multipliers`: one per output channel, the weights' dim 0.
pub(crate) fn multipliers(model: &Model<'_>, op: &Operator<'_>) -> usize {
    crate::kernel::shape::weight_channels(model, op, 0)
}

/// `FULLY_CONNECTED`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<FullyConnectedStep<'m>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    check_fully_connected(c, options, scratch).map(S::from)
}

/// `fully_connected`'s interpreter steps: operands' places in the arena and
/// constants, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub enum FullyConnectedStep<'m> {
    Int8 {
        input: Range<usize>,
        output: Range<usize>,
        weights: Array<'m, i8>,
        bias: Option<Array<'m, i32>>,
        dims: FullyConnectedDims,
        quantization: Quantized,
    },
    Int16 {
        input: Range<usize>,
        output: Range<usize>,
        weights: Array<'m, i8>,
        bias: Option<Array<'m, i64>>,
        dims: FullyConnectedDims,
        quantization: Quantized,
    },
    F32 {
        input: Range<usize>,
        output: Range<usize>,
        weights: Array<'m, f32>,
        bias: Option<Array<'m, f32>>,
        dims: FullyConnectedDims,
        range: (f32, f32),
    },
}

impl crate::base::write_rust::WriteRust for FullyConnectedStep<'_> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            FullyConnectedStep::Int8 {
                input,
                output,
                weights,
                bias,
                dims,
                quantization,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "FullyConnectedStep::Int8",
                &[
                    ("input", input),
                    ("output", output),
                    ("weights", weights),
                    ("bias", bias),
                    ("dims", dims),
                    ("quantization", quantization),
                ],
            ),
            FullyConnectedStep::Int16 {
                input,
                output,
                weights,
                bias,
                dims,
                quantization,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "FullyConnectedStep::Int16",
                &[
                    ("input", input),
                    ("output", output),
                    ("weights", weights),
                    ("bias", bias),
                    ("dims", dims),
                    ("quantization", quantization),
                ],
            ),
            FullyConnectedStep::F32 {
                input,
                output,
                weights,
                bias,
                dims,
                range,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "FullyConnectedStep::F32",
                &[
                    ("input", input),
                    ("output", output),
                    ("weights", weights),
                    ("bias", bias),
                    ("dims", dims),
                    ("range", range),
                ],
            ),
        }
    }
}

impl FullyConnectedStep<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let int8 = &mut *b.int8;
        let float32 = &mut *b.float32;
        let multipliers: &[QuantizedMultiplier] = b.multipliers;
        let fc_rounding = b.fc_rounding;
        // the int8 and int16 steps' parameters, one rule from their quantization
        let params_of = |q: &Quantized| FullyConnectedParams {
            input_zero_point: q.input_zero_point,
            weights_zero_point: q.weights_zero_point,
            output_zero_point: q.output_zero_point,
            multipliers: multipliers.get(..q.channels).unwrap_or(&[]),
            output_min: q.output_min,
            output_max: q.output_max,
            rounding: fc_rounding,
        };
        match self {
            FullyConnectedStep::Int8 {
                input,
                output,
                weights,
                bias,
                dims,
                quantization: q,
            } => {
                let (x, y) = split(int8, input, output).ok_or(overlap)?;
                let params = params_of(q);
                fully_connected_int8(x, weights, bias.as_ref(), *dims, &params, y)
            }
            FullyConnectedStep::Int16 {
                input,
                output,
                weights,
                bias,
                dims,
                quantization: q,
            } => {
                let (x, y) = split(b.int16, input, output).ok_or(overlap)?;
                let params = params_of(q);
                fully_connected_int16(x, weights, bias.as_ref(), *dims, &params, y)
            }
            FullyConnectedStep::F32 {
                input,
                output,
                weights,
                bias,
                dims,
                range: (lo, hi),
            } => {
                let (x, y) = split(float32, input, output).ok_or(overlap)?;
                fully_connected_f32(x, weights, bias.as_ref(), *dims, *lo, *hi, y)
            }
        }
    }
}

/// `FULLY_CONNECTED`: int8 (per-tensor or per-channel weights) or f32;
/// weights `[units, input_dim]`, the input read as rows of `input_dim`.
fn check_fully_connected<'m>(
    c: &Checker<'m>,
    options: FullyConnectedOptions,
    scratch: &mut [QuantizedMultiplier],
) -> Result<FullyConnectedStep<'m>, TfliteError> {
    if options.weights_format != WeightsFormat::Default {
        return Err(c.unsupported_option("weights format", options.weights_format.name()));
    }
    let output = &c.output;
    let input = c.input(0, "input")?;
    let weights = c.input(1, "weights")?;
    let bias = c.optional(2);
    c.rank("weights", &weights, 2)?;
    c.constant("weights", &weights)?;
    let (units, input_dim) = (dim(&weights, 0), dim(&weights, 1));
    if input_dim == 0 || !input.elements().is_multiple_of(input_dim) {
        return Err(c.fail(
            "input",
            &input,
            OperandProblem::Elements {
                expected: input_dim,
                found: input.elements(),
            },
        ));
    }
    let dims = FullyConnectedDims {
        batches: input.elements() / input_dim,
        input_dim,
        units,
    };
    c.elements("output", output, dims.batches.saturating_mul(units))?;
    if let Some(bias) = &bias {
        c.elements("bias", bias, units)?;
        c.constant("bias", bias)?;
    }
    let input_slot = c.activation("input", &input)?;
    let output_slot = c.activation("output", output)?;
    match input.dtype() {
        TensorType::Float32 => {
            c.dtype("weights", &weights, TensorType::Float32)?;
            c.dtype("output", output, TensorType::Float32)?;
            if let Some(bias) = &bias {
                c.dtype("bias", bias, TensorType::Float32)?;
            }
            Ok(FullyConnectedStep::F32 {
                input: input_slot.range,
                output: output_slot.range,
                weights: weights.data_as().unwrap_or_else(Array::empty),
                bias: bias.and_then(|b| b.data_as()),
                dims,
                range: activation_range_f32(options.fused_activation)?,
            })
        }
        TensorType::Int8 | TensorType::Int16 => {
            // int8, or 16x8: int16 input and output, int64 bias
            let wide = input.dtype() == TensorType::Int16;
            c.dtype("weights", &weights, TensorType::Int8)?;
            c.dtype("output", output, input.dtype())?;
            if let Some(bias) = &bias {
                let bias_type = if wide {
                    TensorType::Int64
                } else {
                    TensorType::Int32
                };
                c.dtype("bias", bias, bias_type)?;
            }
            let (input_scale, input_zero_point) = c.per_tensor("input", &input)?;
            let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
            let (scales, weights_zero_point) = c.channel_scales("weights", &weights, 0, units)?;
            let channels = c.write_multipliers(
                "weights",
                &weights,
                scales,
                (input_scale, output_scale),
                scratch,
            )?;
            let (output_min, output_max) =
                c.clamp(options.fused_activation, output_scale, output_zero_point)?;
            let quantization = Quantized {
                input_zero_point,
                weights_zero_point,
                output_zero_point,
                output_min,
                output_max,
                channels,
            };
            let (input, output) = (input_slot.range, output_slot.range);
            let weights = weights.data_as().unwrap_or_else(Array::empty);
            Ok(if wide {
                FullyConnectedStep::Int16 {
                    input,
                    output,
                    weights,
                    bias: bias.and_then(|b| b.data_as()),
                    dims,
                    quantization,
                }
            } else {
                FullyConnectedStep::Int8 {
                    input,
                    output,
                    weights,
                    bias: bias.and_then(|b| b.data_as()),
                    dims,
                    quantization,
                }
            })
        }
        found => Err(c.fail(
            "input",
            &input,
            OperandProblem::Dtype {
                expected: TensorType::Int8,
                found,
            },
        )),
    }
}

/// `FullyConnectedOptions`: `y = act(x · Wᵀ + b)` with weights `[out, in]`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options, WeightsFormat};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// let Options::FullyConnected(fc) = model.operator(2).unwrap().options() else { panic!() };
/// assert_eq!(fc.fused_activation, Activation::None);
/// assert_eq!((fc.weights_format, fc.keep_num_dims), (WeightsFormat::Default, false));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FullyConnectedOptions {
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `weights_format`
    pub weights_format: WeightsFormat,
    /// `keep_num_dims`: the output keeps the input's rank
    pub keep_num_dims: bool,
    /// `asymmetric_quantize_inputs` (weights-only quantization)
    pub asymmetric_quantize_inputs: bool,
}
