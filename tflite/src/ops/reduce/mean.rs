//! TFLite's int8 `MEAN` over the spatial axes of an NHWC tensor (what
//! Keras's `GlobalAveragePooling2D` converts to), as TFLite Micro's reduce
//! kernel computes it (`reference_ops::QuantizedMeanOrSum`): the sum, less
//! the input's zero point per element, requantized by `input_scale /
//! output_scale / count` folded into one multiplier. Its parameters serve
//! the mean over any axes too ([`mean_or_sum_int8`](crate::mean_or_sum_int8)
//! in `reduce.rs`, where the op's options, shape rule and interpreter step
//! are), which runs this kernel for axes 1 and 2 of a rank-4 input.

use crate::arith::quant::{quantize_multiplier, OutputStage, QuantizedMultiplier, Rounding, Scale};
use crate::arith::window::{length, product};
use crate::format::error::TfliteError;

/// An int8 mean's parameters, as TFLite Micro derives them from the input's
/// and output's quantization and the number of elements averaged
/// ([`mean_params`]).
///
/// ```
/// use shapecheck_tflite::mean_params;
///
/// // the same quantization in and out, 4 elements: the multiplier is 1/4
/// let p = mean_params(0.5, 3, 0.5, 3, 4)?;
/// assert_eq!((p.multiplier.multiplier(), p.multiplier.shift()), (1 << 30, -1));
/// assert_eq!((p.input_zero_point, p.output_zero_point, p.count), (3, 3, 4));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeanParams {
    /// `input_scale / output_scale / count` as TFLite Micro forms it: the
    /// scales' ratio quantized, then its multiplier divided by `count`
    /// (not normalized)
    pub multiplier: QuantizedMultiplier,
    /// the input's zero point (subtracted once per element summed)
    pub input_zero_point: i32,
    /// the output's zero point (added after requantization)
    pub output_zero_point: i32,
    /// the elements averaged per output: `height · width`
    pub count: usize,
}

impl crate::base::write_rust::WriteRust for MeanParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "MeanParams",
            &[
                ("multiplier", &self.multiplier),
                ("input_zero_point", &self.input_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("count", &self.count),
            ],
        )
    }
}

/// The parameters of an int8 mean of `count` elements per output, as
/// TFLite Micro's reduce kernel computes them: the real multiplier
/// `input_scale / output_scale` (each widened to `f64`) by
/// [`quantize_multiplier`] as `(q, shift)`; then, with `s = ⌊log2 count⌋`
/// capped at 32 and at `31 + shift`, the multiplier
/// `⌊q · 2^s / count⌋` with the shift `shift − s`. The same whether the
/// scales and zero points differ or are equal (TFLite Micro has one int8
/// path). A `count` of 0 keeps `(q, shift)`: such a mean has nothing to
/// divide, and [`mean_int8`] writes zeros.
///
/// Fails with [`TfliteError::BadMultiplier`] when the ratio is negative,
/// NaN or infinite (an output scale of 0).
///
/// ```
/// use shapecheck_tflite::{mean_params, quantize_multiplier, TfliteError};
///
/// // a 6×5 mean: s = 4, so q · 16 / 30
/// let q = quantize_multiplier(0.02963334508240223_f32 as f64 / 0.00460073770955205_f32 as f64)?;
/// let p = mean_params(0.02963334508240223, -3, 0.00460073770955205, -10, 30)?;
/// assert_eq!(p.multiplier.multiplier() as i64, ((q.multiplier() as i64) << 4) / 30);
/// assert_eq!(p.multiplier.shift(), q.shift() - 4);
/// assert!(matches!(mean_params(0.5, 0, 0.0, 0, 4), Err(TfliteError::BadMultiplier { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn mean_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    count: usize,
) -> Result<MeanParams, TfliteError> {
    let ratio = quantize_multiplier(f64::from(input_scale) / f64::from(output_scale))?;
    let multiplier = if count == 0 {
        ratio
    } else {
        // the shift is in [−31, 30]: s ≥ 0, and shift − s ≥ −31
        let s = count
            .ilog2()
            .min(32)
            .min((31 + ratio.shift()).max(0) as u32);
        // q < 2^31 and 2^s ≤ count: the quotient is at most q
        let q = (u128::from(ratio.multiplier().unsigned_abs()) << s) / count as u128;
        QuantizedMultiplier::from_parts(
            i32::try_from(q).unwrap_or(i32::MAX),
            ratio.shift() - s as i32,
        )
    };
    Ok(MeanParams {
        multiplier,
        input_zero_point,
        output_zero_point,
        count,
    })
}

/// TFLite's int8 `MEAN` over axes 1 and 2 (height and width) of an NHWC
/// input `[batches, height, width, depth]`, as TFLite Micro computes it:
/// for each image and channel, `sum = Σ x` over the `count = height ·
/// width` pixels in `i32`, then
/// `y = multiply_by_quantized_multiplier(sum − x_zp · count, M) + out_zp`
/// with `M` from [`mean_params`] and TFLite Micro's double rounding,
/// clamped to int8. The output is `[batches, depth]` (`keep_dims` makes it
/// `[batches, 1, 1, depth]`, the same data). An input with no pixels
/// (`count` 0) gives zeros, as TFLite Micro's kernel writes.
///
/// The sums wrap on overflow (TFLite's are defined to). Fails, with `output`
/// untouched, when a length does not match the sizes or `params.count` is
/// not `height · width`.
///
/// ```
/// use shapecheck_tflite::{mean_int8, mean_params};
///
/// // a 2×2 image of 2 channels, the same quantization in and out
/// let params = mean_params(0.1, -1, 0.1, -1, 4)?;
/// let input = [1, -4, 2, -5, 3, -5, 4, -5];
/// let mut out = [0i8; 2];
/// mean_int8(&input, 1, 2, 2, 2, &params, &mut out)?;
/// // (10 + 4)/4 = 3.5 → 4, then −1; (−19 + 4)/4 = −3.75 → −4, then −1
/// assert_eq!(out, [3, -5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mean_int8(
    input: &[i8],
    batches: usize,
    height: usize,
    width: usize,
    depth: usize,
    params: &MeanParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    let count = product("input", &[height, width])?;
    let in_len = product("input", &[batches, count, depth])?;
    let out_len = product("output", &[batches, depth])?;
    length("input", in_len, input.len())?;
    length("output", out_len, output.len())?;
    if params.count != count {
        return Err(TfliteError::KernelParam {
            what: "mean's count of elements",
            value: i64::try_from(params.count).unwrap_or(i64::MAX),
            rule: "it must be the input's height · width",
        });
    }
    mean_int8_prechecked(input, depth, params, output);
    Ok(())
}

/// [`mean_int8`] without its checks, for a caller that has made them hold
/// already (the typed layers of `shapecheck`, whose sizes are types and
/// whose count was checked when the layer was built): `input` holds whole
/// images of `params.count` pixels of `depth` channels, `output` one value
/// per image and channel. On operands that break this, what it writes is
/// unspecified, but it never panics and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{mean_int8_prechecked, mean_params};
///
/// let params = mean_params(0.1, -1, 0.1, -1, 4)?;
/// let mut out = [0i8; 2];
/// mean_int8_prechecked(&[1, -4, 2, -5, 3, -5, 4, -5], 2, &params, &mut out);
/// assert_eq!(out, [3, -5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mean_int8_prechecked(input: &[i8], depth: usize, params: &MeanParams, output: &mut [i8]) {
    let count = params.count;
    if output.is_empty() || depth == 0 {
        return;
    }
    if count == 0 {
        output.fill(0);
        return;
    }
    let stage = OutputStage::new(Rounding::Double, params.output_zero_point, -128, 127);
    let scale = Scale::new(params.multiplier);
    // the zero point's part of the sum, in i32 as TFLite's int64 product
    // truncated to the sum's 32 bits is
    let offset = params.input_zero_point.wrapping_mul(count as i32);
    // depth ≥ 1 and count ≥ 1 (above); the images are whole where the
    // checks hold
    let image_len = count.saturating_mul(depth);
    for (image, outs) in input
        .chunks_exact(image_len)
        .zip(output.chunks_exact_mut(depth))
    {
        for (c, out) in outs.iter_mut().enumerate() {
            let sum = image
                .iter()
                .skip(c)
                .step_by(depth)
                .fold(0i32, |sum, &x| sum.wrapping_add(i32::from(x)));
            *out = stage.apply(sum.wrapping_sub(offset), scale);
        }
    }
}
