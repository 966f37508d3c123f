//! TFLite's int8 `TRANSPOSE_CONV` (a strided "deconvolution", what Keras's
//! `Conv2DTranspose` converts to), as TFLite Micro's
//! `reference_integer_ops::TransposeConv` computes it: every input pixel
//! scattered through the filter onto the output, summed in `i32`, then
//! requantized per output channel. Its operands: input 0 the output's
//! shape (a constant int32 `[4]`), input 1 the filter `[O, KH, KW, C]`
//! (per-channel along axis 0, zero point 0), input 2 the activation, and an
//! optional int32 bias (input 3). Its f32 kernel is TFLite Micro's
//! `reference_ops::TransposeConv` to the bit ([`transpose_conv_f32`]).

use crate::arith::quant::{OutputStage, QuantizedMultiplier, Rounding, Scale};
use crate::arith::window::conv_axis;
use crate::arith::window::{at_least_1, length, product, Window};
use crate::format::array::Array;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::types::{Activation, Padding, TensorType};
use crate::format::values::Values;
use crate::kernel::checker::{dim, split, Checker, Quantized};
use crate::kernel::shape::{need_rank, operand, operand_problem, size, OpShape};
use crate::kernel::step::Buffers;
use core::ops::Range;

/// `TransposeConvOptions`; strides checked to be at least 1.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options, Padding};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/transpose_conv_2x2_s2_same.tflite")))?;
/// let Options::TransposeConv(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.padding, o.stride_h, o.stride_w), (Padding::Same, 2, 2));
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TransposeConvOptions {
    /// `padding`
    pub padding: Padding,
    /// `stride_w`
    pub stride_w: i32,
    /// `stride_h`
    pub stride_h: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
}

/// `TransposeConvOptions`' type value in the schema's `BuiltinOptions`
/// union.
const TRANSPOSE_CONV_OPTIONS: u8 = 49;

/// Reads `TRANSPOSE_CONV`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<TransposeConvOptions, TfliteError> {
    let t = r.table(TRANSPOSE_CONV_OPTIONS, "TransposeConvOptions")?;
    let (pad, sw, sh, act) = match t {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("padding"))?,
            t.i32(1, 0).map_err(r.fault("stride_w"))?,
            t.i32(2, 0).map_err(r.fault("stride_h"))?,
            t.i8(3, 0).map_err(r.fault("fused_activation_function"))?,
        ),
        None => (0, 0, 0, 0),
    };
    Ok(TransposeConvOptions {
        padding: Padding::from_schema(pad).ok_or(r.enum_value(pad, "padding"))?,
        stride_w: r.at_least_1(sw, "stride_w")?,
        stride_h: r.at_least_1(sh, "stride_h")?,
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
    })
}

/// The sizes of a transposed convolution: an NHWC input `[batches,
/// input_height, input_width, input_depth]`, a filter `[output_depth,
/// filter_height, filter_width, input_depth]`, an output `[batches,
/// output_height, output_width, output_depth]`.
///
/// ```
/// use shapecheck_tflite::TransposeConvDims;
///
/// let dims = TransposeConvDims {
///     batches: 1, input_height: 5, input_width: 6, input_depth: 3,
///     filter_height: 2, filter_width: 2,
///     output_height: 10, output_width: 12, output_depth: 4,
/// };
/// assert_eq!(dims.output_width, 2 * dims.input_width);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransposeConvDims {
    /// images
    pub batches: usize,
    /// the input's rows
    pub input_height: usize,
    /// the input's columns
    pub input_width: usize,
    /// the input's channels
    pub input_depth: usize,
    /// the filter's rows
    pub filter_height: usize,
    /// the filter's columns
    pub filter_width: usize,
    /// the output's rows
    pub output_height: usize,
    /// the output's columns
    pub output_width: usize,
    /// the output's channels
    pub output_depth: usize,
}

impl crate::base::write_rust::WriteRust for TransposeConvDims {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "TransposeConvDims",
            &[
                ("batches", &self.batches),
                ("input_height", &self.input_height),
                ("input_width", &self.input_width),
                ("input_depth", &self.input_depth),
                ("filter_height", &self.filter_height),
                ("filter_width", &self.filter_width),
                ("output_height", &self.output_height),
                ("output_width", &self.output_width),
                ("output_depth", &self.output_depth),
            ],
        )
    }
}

/// A transposed convolution's requantization and geometry
/// ([`transpose_conv_params`]).
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, TransposeConvParams};
///
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = TransposeConvParams {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
/// };
/// assert_eq!(params.multipliers.len(), 1);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransposeConvParams<'m> {
    /// output rows stepped per input row (at least 1)
    pub stride_height: usize,
    /// output columns stepped per input column (at least 1)
    pub stride_width: usize,
    /// the output rows cut above: input row `y` lands on output row
    /// `y · stride_height − pad_top` and below
    pub pad_top: usize,
    /// the output columns cut on the left
    pub pad_left: usize,
    /// the input's zero point
    pub input_zero_point: i32,
    /// the output's zero point
    pub output_zero_point: i32,
    /// one multiplier (per-tensor) or one per output channel
    /// ([`fully_connected_multiplier`](crate::fully_connected_multiplier)
    /// of the input's, the filter channel's and the output's scales)
    pub multipliers: &'m [QuantizedMultiplier],
    /// the clamp's lower end, from the fused activation
    pub output_min: i32,
    /// the clamp's upper end
    pub output_max: i32,
}

/// A transposed convolution's parameters as TFLite Micro derives them:
/// the padding is the one a convolution of the same filter and strides
/// from the output back to the input would have
/// ([`conv_axis`] with dilation 1 on the output's size), the rest as
/// given. Fails with [`TfliteError::KernelParam`] for a stride of 0 or an
/// empty clamp.
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, transpose_conv_params, Padding, TransposeConvDims};
///
/// let dims = TransposeConvDims {
///     batches: 1, input_height: 4, input_width: 5, input_depth: 3,
///     filter_height: 3, filter_width: 3,
///     output_height: 8, output_width: 10, output_depth: 5,
/// };
/// let multipliers = [quantize_multiplier(0.01)?];
/// let p = transpose_conv_params(Padding::Same, (2, 2), &dims, -1, -7, &multipliers, (-128, 127))?;
/// // a 3×3 conv of stride 2 from 8×10 to 4×5 pads (3·2 + 3 − 8) / 2 = 0 above
/// // and (4·2 + 3 − 10) / 2 = 0 on the left
/// assert_eq!((p.pad_top, p.pad_left), (0, 0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose_conv_params<'m>(
    padding: Padding,
    (stride_height, stride_width): (usize, usize),
    dims: &TransposeConvDims,
    input_zero_point: i32,
    output_zero_point: i32,
    multipliers: &'m [QuantizedMultiplier],
    (output_min, output_max): (i32, i32),
) -> Result<TransposeConvParams<'m>, TfliteError> {
    at_least_1("transposed convolution's stride", stride_height)?;
    at_least_1("transposed convolution's stride", stride_width)?;
    if output_min > output_max {
        return Err(TfliteError::KernelParam {
            what: "transposed convolution's output_min",
            value: i64::from(output_min),
            rule: "it must be at most output_max",
        });
    }
    let rows = conv_axis(
        padding,
        dims.output_height,
        dims.filter_height,
        stride_height,
        1,
    )?;
    let columns = conv_axis(
        padding,
        dims.output_width,
        dims.filter_width,
        stride_width,
        1,
    )?;
    Ok(TransposeConvParams {
        stride_height,
        stride_width,
        pad_top: rows.pad_before,
        pad_left: columns.pad_before,
        input_zero_point,
        output_zero_point,
        multipliers,
        output_min,
        output_max,
    })
}

/// The output shape of a transposed convolution: `output_shape` (its
/// constant input 0, four values, each at least 0), checked against the
/// input `[B, H, W, C]` and the filter `[O, KH, KW, C]`: the batches, the
/// input channels and the output channels must agree.
///
/// ```
/// use shapecheck_tflite::transpose_conv_output_shape;
///
/// let s = transpose_conv_output_shape(&[1, 10, 12, 4], &[1, 5, 6, 3], &[4, 2, 2, 3])?;
/// assert_eq!(s.dims(), &[1, 10, 12, 4]);
/// assert!(transpose_conv_output_shape(&[1, 10, 12, 5], &[1, 5, 6, 3], &[4, 2, 2, 3]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose_conv_output_shape(
    output_shape: &[i32],
    input_dims: &[usize],
    filter_dims: &[usize],
) -> Result<OpShape, TfliteError> {
    let bad = |what, value: i64, rule| TfliteError::KernelParam { what, value, rule };
    let rank = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let [b, _, _, c] = input_dims else {
        return Err(bad(
            "transposed convolution's input rank",
            rank(input_dims.len()),
            "it must be 4 (NHWC)",
        ));
    };
    let [o, _, _, fc] = filter_dims else {
        return Err(bad(
            "transposed convolution's filter rank",
            rank(filter_dims.len()),
            "it must be 4 ([O, KH, KW, C])",
        ));
    };
    let &[ob, oh, ow, oc] = output_shape else {
        return Err(bad(
            "transposed convolution's output shape",
            rank(output_shape.len()),
            "it must hold 4 values",
        ));
    };
    let size = |v: i32| {
        usize::try_from(v).map_err(|_| {
            bad(
                "transposed convolution's output dim",
                i64::from(v),
                "it must be at least 0",
            )
        })
    };
    let dims = [size(ob)?, size(oh)?, size(ow)?, size(oc)?];
    if fc != c {
        return Err(bad(
            "transposed convolution's filter channels",
            rank(*fc),
            "they must be the input's channels",
        ));
    }
    if dims[0] != *b || dims[3] != *o {
        return Err(bad(
            "transposed convolution's output shape",
            rank(dims[3]),
            "its batches must be the input's and its channels the filter's outputs",
        ));
    }
    OpShape::new(&dims).ok_or(bad(
        "transposed convolution's output rank",
        4,
        "it must be 4",
    ))
}

/// `TRANSPOSE_CONV`'s shape rule (its row's `output_shape`): its constant
/// output shape (input 0), the filter (input 1) and the activation (input
/// 2), through [`transpose_conv_output_shape`].
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let shape = operand(model, op, 0, "output shape")?;
    let filter = operand(model, op, 1, "filter")?;
    let input = operand(model, op, 2, "input")?;
    let f = need_rank(op, "filter", &filter, 4)?;
    let x = need_rank(op, "input", &input, 4)?;
    let values = shape
        .data_as::<i32>()
        .filter(|v| v.len() == 4)
        .ok_or(operand_problem(
            op,
            "output shape",
            &shape,
            crate::format::error::OperandProblem::Constant { expected: true },
        ))?;
    let mut out = [0i32; 4];
    for (slot, v) in out.iter_mut().zip(values.iter()) {
        *slot = v;
    }
    transpose_conv_output_shape(&out, x.dims(), f.dims())
}

/// TFLite's int8 `TRANSPOSE_CONV` with per-channel quantization (TFLite
/// Micro's `reference_integer_ops::TransposeConv`): input pixel `(y, x)`
/// adds `(x[y, x, ic] − x_zp) · f[oc, ky, kx, ic]` to output pixel
/// `(y · stride_h − pad_top + ky, x · stride_w − pad_left + kx)` where
/// that is inside the output; each output's `i32` sum plus `bias[oc]` is
/// then `multiply_by_quantized_multiplier(acc, M_oc) + out_zp` (TFLite
/// Micro's double rounding), clamped to `[output_min, output_max]` and
/// to int8. Each output is gathered from the input pixels that reach it
/// (the same integers TFLite's scatter sums). The filter and bias are
/// read from slices or in place from a model ([`Values`]).
///
/// The sums wrap on overflow. Fails, with `output` untouched, when a
/// length does not match `dims` (the filter's `output_depth ·
/// filter_height · filter_width · input_depth`, the bias's
/// `output_depth`), there is neither one multiplier nor one per output
/// channel, a stride is 0 or the clamp is empty.
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, transpose_conv_int8, TransposeConvDims, TransposeConvParams};
///
/// // one row of 2 pixels, a 1×2 filter [1, 2], stride 2: each pixel
/// // becomes two (x, 2x), VALID
/// let dims = TransposeConvDims {
///     batches: 1, input_height: 1, input_width: 2, input_depth: 1,
///     filter_height: 1, filter_width: 2,
///     output_height: 1, output_width: 4, output_depth: 1,
/// };
/// let multipliers = [quantize_multiplier(1.0)?];
/// let params = TransposeConvParams {
///     stride_height: 1, stride_width: 2, pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
/// };
/// let mut out = [0i8; 4];
/// transpose_conv_int8(&[3, -5], &[1, 2], None::<&[i32]>, dims, &params, &mut out)?;
/// assert_eq!(out, [3, 6, -5, -10]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose_conv_int8<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    dims: TransposeConvDims,
    params: &TransposeConvParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    let TransposeConvDims {
        batches,
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        output_depth,
    } = dims;
    at_least_1("transposed convolution's stride", params.stride_height)?;
    at_least_1("transposed convolution's stride", params.stride_width)?;
    let in_len = product("input", &[batches, input_height, input_width, input_depth])?;
    let f_len = product(
        "filter",
        &[output_depth, filter_height, filter_width, input_depth],
    )?;
    let out_len = product(
        "output",
        &[batches, output_height, output_width, output_depth],
    )?;
    length("input", in_len, input.len())?;
    length("filter", f_len, filter.count())?;
    length("output", out_len, output.len())?;
    if let Some(b) = bias {
        length("bias", output_depth, b.count())?;
    }
    let m = params.multipliers.len();
    if m != 1 && m != output_depth {
        return Err(TfliteError::Length {
            what: "multipliers",
            expected: output_depth,
            actual: m,
        });
    }
    if params.output_min > params.output_max {
        return Err(TfliteError::KernelParam {
            what: "transposed convolution's output_min",
            value: i64::from(params.output_min),
            rule: "it must be at most output_max",
        });
    }
    transpose_conv_int8_prechecked(input, filter, bias, dims, params, output);
    Ok(())
}

/// [`transpose_conv_int8`] without its checks, for a caller that has made
/// them hold already (the typed layer of `shapecheck`, whose sizes are
/// types and whose multipliers and clamp were checked when the layer was
/// built): the lengths are `dims`', the strides at least 1, one
/// multiplier or one per output channel, the clamp not empty. On operands
/// that break this, what it writes is unspecified, but it never panics
/// and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, transpose_conv_int8_prechecked, TransposeConvDims, TransposeConvParams};
///
/// let dims = TransposeConvDims {
///     batches: 1, input_height: 1, input_width: 2, input_depth: 1,
///     filter_height: 1, filter_width: 2,
///     output_height: 1, output_width: 4, output_depth: 1,
/// };
/// let multipliers = [quantize_multiplier(1.0)?];
/// let params = TransposeConvParams {
///     stride_height: 1, stride_width: 2, pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
/// };
/// let mut out = [0i8; 4];
/// transpose_conv_int8_prechecked(&[3, -5], &[1, 2], None::<&[i32]>, dims, &params, &mut out);
/// assert_eq!(out, [3, 6, -5, -10]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose_conv_int8_prechecked<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    dims: TransposeConvDims,
    params: &TransposeConvParams<'_>,
    output: &mut [i8],
) {
    let TransposeConvDims {
        batches,
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        output_depth,
    } = dims;
    let m = params.multipliers.len();
    if output.is_empty()
        || output_depth == 0
        || params.stride_height == 0
        || params.stride_width == 0
        || params.output_min > params.output_max
    {
        return;
    }
    let stage = OutputStage::new(
        Rounding::Double,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    let (sh, sw) = (params.stride_height, params.stride_width);
    // the input pixel and filter tap that land on output position `o`
    // along one axis: o + pad = i · stride + k, with i and k in range
    let taps = |o: usize, pad: usize, stride: usize, size: usize, kernel: usize| {
        (0..kernel).filter_map(move |k| {
            let shifted = (o + pad).checked_sub(k)?;
            (shifted % stride == 0 && shifted / stride < size).then_some((shifted / stride, k))
        })
    };
    let mut pixels = output.chunks_exact_mut(output_depth);
    for b in 0..batches {
        for oy in 0..output_height {
            for ox in 0..output_width {
                let Some(pixel) = pixels.next() else {
                    return;
                };
                for (oc, out) in pixel.iter_mut().enumerate() {
                    let mut acc = 0i32;
                    for (iy, ky) in taps(oy, params.pad_top, sh, input_height, filter_height) {
                        for (ix, kx) in taps(ox, params.pad_left, sw, input_width, filter_width) {
                            // in range: every index is below its size
                            let x_start =
                                ((b * input_height + iy) * input_width + ix) * input_depth;
                            let f_start =
                                ((oc * filter_height + ky) * filter_width + kx) * input_depth;
                            let xs = input.get(x_start..x_start + input_depth).unwrap_or(&[]);
                            for (&x, f) in xs.iter().zip(filter.run(f_start, f_start + input_depth))
                            {
                                let x = i32::from(x).wrapping_sub(params.input_zero_point);
                                acc = acc.wrapping_add(x.wrapping_mul(i32::from(f)));
                            }
                        }
                    }
                    if let Some(b) = bias {
                        acc = acc.wrapping_add(b.at(oc).unwrap_or(0));
                    }
                    // checked: one multiplier, or one per output channel
                    let multiplier = if m == 1 {
                        params.multipliers.first()
                    } else {
                        params.multipliers.get(oc)
                    };
                    if let Some(&multiplier) = multiplier {
                        *out = stage.apply(acc, Scale::new(multiplier));
                    }
                }
            }
        }
    }
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// Its row's `multipliers`: one per output channel, the filter's dim 0.
pub(crate) fn multipliers(model: &Model<'_>, op: &Operator<'_>) -> usize {
    crate::kernel::shape::weight_channels(model, op, 0)
}

/// `TRANSPOSE_CONV`'s interpreter step: its operands' places in the
/// arena, its filter and bias read in place, its geometry and
/// requantization, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct TransposeConvStep<'m> {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub filter: Array<'m, i8>,
    pub bias: Option<Array<'m, i32>>,
    pub dims: TransposeConvDims,
    pub strides: (usize, usize),
    pub pads: (usize, usize),
    pub quantization: Quantized,
}

impl crate::base::write_rust::WriteRust for TransposeConvStep<'_> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "TransposeConvStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("filter", &self.filter),
                ("bias", &self.bias),
                ("dims", &self.dims),
                ("strides", &self.strides),
                ("pads", &self.pads),
                ("quantization", &self.quantization),
            ],
        )
    }
}

impl TransposeConvStep<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let multipliers: &[QuantizedMultiplier] = b.multipliers;
        let q = &self.quantization;
        let (x, y) = split(b.int8, &self.input, &self.output).ok_or(overlap)?;
        let params = TransposeConvParams {
            stride_height: self.strides.0,
            stride_width: self.strides.1,
            pad_top: self.pads.0,
            pad_left: self.pads.1,
            input_zero_point: q.input_zero_point,
            output_zero_point: q.output_zero_point,
            multipliers: multipliers.get(..q.channels).unwrap_or(&[]),
            output_min: q.output_min,
            output_max: q.output_max,
        };
        transpose_conv_int8(x, &self.filter, self.bias.as_ref(), self.dims, &params, y)
    }
}

/// `TRANSPOSE_CONV`'s row's `prepare`, int8: the activation (input 2)
/// NHWC, the filter (input 1) `[O, KH, KW, C]` with zero point 0,
/// per-tensor or per-channel (axis 0), an optional int32 bias (input 3);
/// the output's shape checked by the op's rule before; the padding by
/// [`transpose_conv_params`].
pub(crate) fn prepare<'m, S: From<TransposeConvStep<'m>> + From<TransposeConvF32Step<'m>>>(
    c: &Checker<'m>,
    shape: &OpShape,
    scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(2, "input")?.dtype() == TensorType::Float32 {
        return check_transpose_conv_f32(c, shape, options).map(S::from);
    }
    let output = &c.output;
    let filter = c.input(1, "filter")?;
    let input = c.input(2, "input")?;
    let bias = c.optional(3);
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("filter", &filter, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    c.constant("filter", &filter)?;
    let out = shape.dims();
    let output_depth = dim(&filter, 0);
    let dims = TransposeConvDims {
        batches: dim(&input, 0),
        input_height: dim(&input, 1),
        input_width: dim(&input, 2),
        input_depth: dim(&input, 3),
        filter_height: dim(&filter, 1),
        filter_width: dim(&filter, 2),
        output_height: out.get(1).copied().unwrap_or(0),
        output_width: out.get(2).copied().unwrap_or(0),
        output_depth,
    };
    let quantization = c.filter_quantization(
        (&input, &filter, bias.as_ref()),
        0,
        output_depth,
        options.fused_activation,
        scratch,
    )?;
    let strides = (size(options.stride_h), size(options.stride_w));
    let params = transpose_conv_params(
        options.padding,
        strides,
        &dims,
        quantization.input_zero_point,
        quantization.output_zero_point,
        scratch.get(..quantization.channels).unwrap_or(&[]),
        (quantization.output_min, quantization.output_max),
    )?;
    Ok(S::from(TransposeConvStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        filter: filter.data_as().unwrap_or_else(Array::empty),
        bias: bias.and_then(|b| b.data_as()),
        dims,
        strides,
        pads: (params.pad_top, params.pad_left),
        quantization,
    }))
}

// The f32 kernel: TFLite Micro's float `TRANSPOSE_CONV`
// (`reference_ops::TransposeConv`).

/// How an f32 transposed convolution steps, pads and clamps: the padding
/// as [`transpose_conv_params`] derives it, the clamp from
/// [`activation_range_f32`](crate::activation_range_f32).
///
/// ```
/// use shapecheck_tflite::TransposeConvF32Params;
///
/// let params = TransposeConvF32Params {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: f32::MIN, output_max: f32::MAX,
/// };
/// assert_eq!(params.stride_height, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransposeConvF32Params {
    /// output rows stepped per input row (at least 1)
    pub stride_height: usize,
    /// output columns stepped per input column (at least 1)
    pub stride_width: usize,
    /// the output rows cut above: input row `y` lands on output row
    /// `y · stride_height − pad_top` and below
    pub pad_top: usize,
    /// the output columns cut on the left
    pub pad_left: usize,
    /// the clamp's lower end, from the fused activation
    pub output_min: f32,
    /// the clamp's upper end (not below `output_min`)
    pub output_max: f32,
}

impl crate::base::write_rust::WriteRust for TransposeConvF32Params {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "TransposeConvF32Params",
            &[
                ("stride_height", &self.stride_height),
                ("stride_width", &self.stride_width),
                ("pad_top", &self.pad_top),
                ("pad_left", &self.pad_left),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
}

/// TFLite's f32 `TRANSPOSE_CONV` (TFLite Micro's
/// `reference_ops::TransposeConv`), computed as it computes it: the output
/// set to `+0.0`, then every input value scattered through the filter,
/// input-major (by image, input row, column, channel, then filter row,
/// column and output channel): `y[oy, ox, oc] += x[iy, ix, ic] ·
/// f[oc, ky, kx, ic]` where `oy = iy · stride_h − pad_top + ky` (and `ox`
/// likewise) falls inside the output; then, output by output, the bias
/// added (where there is one) and the clamp TFLite's
/// `ActivationFunctionWithMinMax` applies (C++'s `std::max`, then
/// `std::min`: a NaN stays NaN, `−0.0` stays `−0.0` against `+0.0`). Each
/// output's sum is TFLite Micro's to the bit, the sign of zero included.
///
/// Fails, with `output` untouched, when a length does not match `dims`
/// (the filter's is `output_depth · filter_height · filter_width ·
/// input_depth`, the bias's `output_depth`), a stride is 0, or the clamp
/// is empty or NaN.
///
/// ```
/// use shapecheck_tflite::{transpose_conv_f32, TransposeConvDims, TransposeConvF32Params};
///
/// // a 1×2 image of one channel, a 1×2 filter, stride 2: each pixel spread over two columns
/// let dims = TransposeConvDims {
///     batches: 1, input_height: 1, input_width: 2, input_depth: 1,
///     filter_height: 1, filter_width: 2,
///     output_height: 1, output_width: 4, output_depth: 1,
/// };
/// let params = TransposeConvF32Params {
///     stride_height: 1, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: f32::MIN, output_max: f32::MAX,
/// };
/// let mut out = [0.0f32; 4];
/// transpose_conv_f32(&[1.0, 2.0], &[0.5, -1.0], Some(&[0.25]), dims, &params, &mut out)?;
/// assert_eq!(out, [0.75, -0.75, 1.25, -1.75]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn transpose_conv_f32<F, B>(
    input: &[f32],
    filter: &F,
    bias: Option<&B>,
    dims: TransposeConvDims,
    params: &TransposeConvF32Params,
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    F: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    at_least_1("transposed convolution's stride", params.stride_height)?;
    at_least_1("transposed convolution's stride", params.stride_width)?;
    crate::shared::float_ops::check_clamp_f32(params.output_min, params.output_max)?;
    let filter_len = product(
        "filter",
        &[
            dims.output_depth,
            dims.filter_height,
            dims.filter_width,
            dims.input_depth,
        ],
    )?;
    length("filter", filter_len, filter.count())?;
    if let Some(bias) = bias {
        length("bias", dims.output_depth, bias.count())?;
    }
    let in_len = product(
        "input",
        &[
            dims.batches,
            dims.input_height,
            dims.input_width,
            dims.input_depth,
        ],
    )?;
    let out_len = product(
        "output",
        &[
            dims.batches,
            dims.output_height,
            dims.output_width,
            dims.output_depth,
        ],
    )?;
    length("input", in_len, input.len())?;
    length("output", out_len, output.len())?;
    match filter.contiguous() {
        Some(f) => transpose_conv_f32_loop(input, f, bias, dims, params, output),
        None => transpose_conv_f32_loop(input, filter, bias, dims, params, output),
    }
    Ok(())
}

/// The loop of [`transpose_conv_f32`] (checked by the caller).
fn transpose_conv_f32_loop<F: Values<f32> + ?Sized, B: Values<f32> + ?Sized>(
    input: &[f32],
    filter: &F,
    bias: Option<&B>,
    dims: TransposeConvDims,
    p: &TransposeConvF32Params,
    output: &mut [f32],
) {
    let TransposeConvDims {
        batches,
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        output_depth,
    } = dims;
    output.fill(0.0);
    let mut pixels = input.chunks_exact(input_depth.max(1));
    for b in 0..batches {
        let image = b * output_height * output_width * output_depth;
        for iy in 0..input_height {
            for ix in 0..input_width {
                let Some(pixel) = pixels.next() else {
                    return;
                };
                // the output rows and columns this pixel reaches
                let rows = Window::new(
                    iy,
                    p.stride_height,
                    p.pad_top,
                    1,
                    filter_height,
                    output_height,
                );
                let columns = Window::new(
                    ix,
                    p.stride_width,
                    p.pad_left,
                    1,
                    filter_width,
                    output_width,
                );
                for (ic, &x) in pixel.iter().enumerate() {
                    for (ky, oy) in rows.taps() {
                        for (kx, ox) in columns.taps() {
                            let at = image + (oy * output_width + ox) * output_depth;
                            let Some(out) = output.get_mut(at..at + output_depth) else {
                                continue;
                            };
                            // f[oc, ky, kx, ic], one filter block per oc
                            let mut f_at = (ky * filter_width + kx) * input_depth + ic;
                            let block = filter_height * filter_width * input_depth;
                            for y in out.iter_mut() {
                                if let Some(w) = filter.at(f_at) {
                                    *y += x * w;
                                }
                                f_at += block;
                            }
                        }
                    }
                }
            }
        }
    }
    let clamp = |y: f32| crate::shared::float_ops::clamp_f32(y, p.output_min, p.output_max);
    for pixel in output.chunks_exact_mut(output_depth.max(1)) {
        for (oc, y) in pixel.iter_mut().enumerate() {
            let mut acc = *y;
            if let Some(bias) = bias.and_then(|b| b.at(oc)) {
                acc += bias;
            }
            *y = clamp(acc);
        }
    }
}

/// `TRANSPOSE_CONV`'s f32 interpreter step: its operands' places in the
/// arena, its filter and bias read in place, its geometry and clamp,
/// checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct TransposeConvF32Step<'m> {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub filter: Array<'m, f32>,
    pub bias: Option<Array<'m, f32>>,
    pub dims: TransposeConvDims,
    pub params: TransposeConvF32Params,
}

impl crate::base::write_rust::WriteRust for TransposeConvF32Step<'_> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "TransposeConvF32Step",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("filter", &self.filter),
                ("bias", &self.bias),
                ("dims", &self.dims),
                ("params", &self.params),
            ],
        )
    }
}

impl TransposeConvF32Step<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        transpose_conv_f32(
            x,
            &self.filter,
            self.bias.as_ref(),
            self.dims,
            &self.params,
            y,
        )
    }
}

/// `TRANSPOSE_CONV`'s f32 check (its input f32): the filter, output and
/// optional bias f32 (a filter of another type, as a hybrid model's int8
/// weights, is refused), the filter and bias constant, the padding by
/// [`transpose_conv_params`], the clamp by
/// [`activation_range_f32`](crate::activation_range_f32).
fn check_transpose_conv_f32<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
    options: TransposeConvOptions,
) -> Result<TransposeConvF32Step<'m>, TfliteError> {
    let output = &c.output;
    let filter = c.input(1, "filter")?;
    let input = c.input(2, "input")?;
    let bias = c.optional(3);
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("filter", &filter, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.constant("filter", &filter)?;
    let out = shape.dims();
    let output_depth = dim(&filter, 0);
    if let Some(bias) = &bias {
        c.dtype("bias", bias, TensorType::Float32)?;
        c.constant("bias", bias)?;
        c.elements("bias", bias, output_depth)?;
    }
    let dims = TransposeConvDims {
        batches: dim(&input, 0),
        input_height: dim(&input, 1),
        input_width: dim(&input, 2),
        input_depth: dim(&input, 3),
        filter_height: dim(&filter, 1),
        filter_width: dim(&filter, 2),
        output_height: out.get(1).copied().unwrap_or(0),
        output_width: out.get(2).copied().unwrap_or(0),
        output_depth,
    };
    let (output_min, output_max) =
        crate::arith::activation::activation_range_f32(options.fused_activation).map_err(|_| {
            c.unsupported_option("fused activation", options.fused_activation.name())
        })?;
    let strides = (size(options.stride_h), size(options.stride_w));
    let geometry = transpose_conv_params(options.padding, strides, &dims, 0, 0, &[], (0, 0))?;
    Ok(TransposeConvF32Step {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        filter: filter.data_as().unwrap_or_else(Array::empty),
        bias: bias.and_then(|b| b.data_as()),
        dims,
        params: TransposeConvF32Params {
            stride_height: strides.0,
            stride_width: strides.1,
            pad_top: geometry.pad_top,
            pad_left: geometry.pad_left,
            output_min,
            output_max,
        },
    })
}
