//! TFLite's `RESIZE_NEAREST_NEIGHBOR` and `RESIZE_BILINEAR` of an NHWC
//! tensor to a new height and width (the op's constant int32 input 1), as
//! TFLite Micro computes them: the nearest neighbour from TFLite's float
//! source coordinate (`reference_ops::ResizeNearestNeighbor`, any element
//! type), and the integer bilinear interpolation in 1/1024 steps
//! (`reference_ops::ResizeBilinearInteger`, int8), or in f32 for a float
//! tensor (`reference_ops::ResizeBilinear`, [`resize_bilinear_f32`]).
//! Both move data: one scale and zero point in and out.

use crate::arith::quant::QuantizedMultiplier;
use crate::arith::window::{length, product};
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::types::{BuiltinOp, TensorType};
use crate::kernel::checker::{dim, split, Checker};
use crate::kernel::shape::{need_rank, operand, operand_problem, OpShape};
use crate::kernel::step::Buffers;
use core::ops::Range;

/// `ResizeBilinearOptions` and `ResizeNearestNeighborOptions` (the
/// bilinear's deprecated `new_height` / `new_width` are not read: the
/// size is the op's input 1).
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/resize_bilinear_x2_align_corners.tflite")))?;
/// let Options::Resize(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.align_corners, o.half_pixel_centers), (true, false));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResizeOptions {
    /// `align_corners`: the corners' pixels map to each other
    pub align_corners: bool,
    /// `half_pixel_centers`: pixels are sampled at their centres
    pub half_pixel_centers: bool,
}

/// `ResizeBilinearOptions`' and `ResizeNearestNeighborOptions`' type
/// values in the schema's `BuiltinOptions` union.
const RESIZE_BILINEAR_OPTIONS: u8 = 15;
const RESIZE_NEAREST_NEIGHBOR_OPTIONS: u8 = 74;

/// Reads `RESIZE_BILINEAR`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator): its flags
/// follow the deprecated `new_height` and `new_width`.
pub(crate) fn read_bilinear_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<ResizeOptions, TfliteError> {
    let t = r.table(RESIZE_BILINEAR_OPTIONS, "ResizeBilinearOptions")?;
    read_flags(r, t, 2)
}

/// Reads `RESIZE_NEAREST_NEIGHBOR`'s options, as [`read_bilinear_options`].
pub(crate) fn read_nearest_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<ResizeOptions, TfliteError> {
    let t = r.table(
        RESIZE_NEAREST_NEIGHBOR_OPTIONS,
        "ResizeNearestNeighborOptions",
    )?;
    read_flags(r, t, 0)
}

/// `align_corners` and `half_pixel_centers`, fields `first` and the next
/// of table `t` (both false without one).
fn read_flags<'a>(
    r: &OptionsReader<'a>,
    t: Option<crate::format::flatbuffer::Table<'a>>,
    first: usize,
) -> Result<ResizeOptions, TfliteError> {
    let (align_corners, half_pixel_centers) = match t {
        Some(t) => (
            t.bool(first).map_err(r.fault("align_corners"))?,
            t.bool(first + 1).map_err(r.fault("half_pixel_centers"))?,
        ),
        None => (false, false),
    };
    Ok(ResizeOptions {
        align_corners,
        half_pixel_centers,
    })
}

/// The sizes of a resize: an NHWC input `[batches, input_height,
/// input_width, depth]` to `[batches, output_height, output_width,
/// depth]`.
///
/// ```
/// use shapecheck_tflite::ResizeDims;
///
/// let dims = ResizeDims {
///     batches: 1, input_height: 5, input_width: 4, depth: 3,
///     output_height: 10, output_width: 8,
/// };
/// assert_eq!(dims.output_height, 2 * dims.input_height);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResizeDims {
    /// images
    pub batches: usize,
    /// the input's rows
    pub input_height: usize,
    /// the input's columns
    pub input_width: usize,
    /// channels, in and out
    pub depth: usize,
    /// the output's rows
    pub output_height: usize,
    /// the output's columns
    pub output_width: usize,
}

impl crate::base::write_rust::WriteRust for ResizeDims {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ResizeDims",
            &[
                ("batches", &self.batches),
                ("input_height", &self.input_height),
                ("input_width", &self.input_width),
                ("depth", &self.depth),
                ("output_height", &self.output_height),
                ("output_width", &self.output_width),
            ],
        )
    }
}

/// A resize's sampling, from its options ([`resize_params`]).
///
/// ```
/// use shapecheck_tflite::{resize_params, ResizeParams};
///
/// const LEGACY: ResizeParams = ResizeParams { align_corners: false, half_pixel_centers: false };
/// assert_eq!(resize_params(false, false)?, LEGACY);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResizeParams {
    /// the corners' pixels map to each other: the scale is
    /// `(in − 1) / (out − 1)` (for an output of more than one pixel)
    pub align_corners: bool,
    /// pixels are sampled at their centres: a source coordinate is
    /// `(y + 1/2) · scale − 1/2` (bilinear; nearest neighbour rounds
    /// `(y + 1/2) · scale` down)
    pub half_pixel_centers: bool,
}

impl crate::base::write_rust::WriteRust for ResizeParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ResizeParams",
            &[
                ("align_corners", &self.align_corners),
                ("half_pixel_centers", &self.half_pixel_centers),
            ],
        )
    }
}

/// A resize's parameters from its options' flags. Both flags set is
/// refused ([`TfliteError::KernelParam`]), as TFLite Micro's bilinear
/// resize refuses it: the two samplings contradict each other.
///
/// ```
/// use shapecheck_tflite::{resize_params, TfliteError};
///
/// assert!(resize_params(false, true)?.half_pixel_centers);
/// assert!(matches!(resize_params(true, true), Err(TfliteError::KernelParam { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub const fn resize_params(
    align_corners: bool,
    half_pixel_centers: bool,
) -> Result<ResizeParams, TfliteError> {
    if align_corners && half_pixel_centers {
        return Err(TfliteError::KernelParam {
            what: "resize's half_pixel_centers",
            value: 1,
            rule: "it must be false when align_corners is true",
        });
    }
    Ok(ResizeParams {
        align_corners,
        half_pixel_centers,
    })
}

/// The output shape of a resize of an NHWC input of `input_dims` to
/// `size` (`[new_height, new_width]`, each at least 1).
///
/// ```
/// use shapecheck_tflite::resize_output_shape;
///
/// assert_eq!(resize_output_shape(&[1, 5, 4, 3], [7, 9])?.dims(), &[1, 7, 9, 3]);
/// assert!(resize_output_shape(&[1, 5, 4, 3], [0, 9]).is_err());
/// assert!(resize_output_shape(&[5, 4, 3], [7, 9]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn resize_output_shape(input_dims: &[usize], size: [i32; 2]) -> Result<OpShape, TfliteError> {
    let [b, _, _, c] = input_dims else {
        return Err(TfliteError::KernelParam {
            what: "resize's input rank",
            value: i64::try_from(input_dims.len()).unwrap_or(i64::MAX),
            rule: "it must be 4 (NHWC)",
        });
    };
    let positive = |v: i32| {
        usize::try_from(v)
            .ok()
            .filter(|&s| s >= 1)
            .ok_or(TfliteError::KernelParam {
                what: "resize's output size",
                value: i64::from(v),
                rule: "it must be at least 1",
            })
    };
    let (h, w) = (positive(size[0])?, positive(size[1])?);
    OpShape::new(&[*b, h, w, *c]).ok_or(TfliteError::KernelParam {
        what: "resize's input rank",
        value: 4,
        rule: "it must be 4 (NHWC)",
    })
}

/// The shape rule of both resizes (their rows' `output_shape`): the NHWC
/// input and the constant int32 size `[new_height, new_width]` (input 1),
/// through [`resize_output_shape`].
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let x = need_rank(op, "input", &input, 4)?;
    resize_output_shape(x.dims(), constant_size(model, op)?)
}

/// A resize's constant int32 size, input 1.
pub(crate) fn constant_size(model: &Model<'_>, op: &Operator<'_>) -> Result<[i32; 2], TfliteError> {
    let t = operand(model, op, 1, "size")?;
    let values = t
        .data_as::<i32>()
        .filter(|v| v.len() == 2)
        .ok_or(operand_problem(
            op,
            "size",
            &t,
            crate::format::error::OperandProblem::Constant { expected: true },
        ))?;
    Ok([values.get(0).unwrap_or(0), values.get(1).unwrap_or(0)])
}

/// The heights and widths a resize takes are below this, 2^20 (TFLite's
/// integer bilinear sampling computes in 1/1024 steps in `i32`), the
/// input's and the output's: the one limit [`resize_nearest_neighbor`]
/// and [`resize_bilinear_int8`] check and `shapecheck`'s typed layers
/// check at compile time.
///
/// ```
/// use shapecheck_tflite::RESIZE_SIZE_LIMIT;
/// assert_eq!(RESIZE_SIZE_LIMIT, 1 << 20);
/// ```
pub const RESIZE_SIZE_LIMIT: usize = 1 << 20;

/// Whether `dims` are within what the kernels' arithmetic takes: every
/// height and width below [`RESIZE_SIZE_LIMIT`] and above 0 (the
/// `_prechecked` forms' guard against a panic, which the checked forms'
/// errors rule out first: an output pixel needs an input one, and an
/// output of no rows or columns has nothing to write, whatever length
/// its buffer has; the bilinear scale divides by the output's size).
fn sizes_fit(dims: &ResizeDims) -> bool {
    let sizes = [
        dims.input_height,
        dims.input_width,
        dims.output_height,
        dims.output_width,
    ];
    sizes.iter().all(|&v| v > 0 && v < RESIZE_SIZE_LIMIT)
}

/// The lengths of a resize's input and output, checked.
fn check(dims: &ResizeDims, input: usize, output: usize) -> Result<(), TfliteError> {
    let ResizeDims {
        batches,
        input_height,
        input_width,
        depth,
        output_height,
        output_width,
    } = *dims;
    let in_len = product("input", &[batches, input_height, input_width, depth])?;
    let out_len = product("output", &[batches, output_height, output_width, depth])?;
    length("input", in_len, input)?;
    length("output", out_len, output)?;
    let fits = |v: usize| v < RESIZE_SIZE_LIMIT;
    if out_len > 0 && (input_height == 0 || input_width == 0) {
        return Err(TfliteError::KernelParam {
            what: "resize's input size",
            value: 0,
            rule: "an output needs an input pixel",
        });
    }
    for v in [input_height, input_width, output_height, output_width] {
        if !fits(v) {
            return Err(TfliteError::KernelParam {
                what: "resize's height or width",
                value: i64::try_from(v).unwrap_or(i64::MAX),
                rule: "it must be below 2^20",
            });
        }
    }
    Ok(())
}

/// TFLite's `GetNearestNeighbor`: the source index of output index `y`,
/// in `f32` as TFLite computes it. The scale is `in / out`, or with
/// `align_corners` (and more than one output) `(in − 1) / (out − 1)`;
/// the source `(y + offset) · scale` (offset ½ with half-pixel centres)
/// is rounded (half away from zero) with `align_corners`, else rounded
/// down, then capped at `in − 1`. Sizes are below 2^20 and `in ≥ 1`.
fn nearest(y: usize, input_size: usize, output_size: usize, params: ResizeParams) -> usize {
    let scale = if params.align_corners && output_size > 1 {
        (input_size - 1) as f32 / (output_size - 1) as f32
    } else {
        input_size as f32 / output_size as f32
    };
    let offset = if params.half_pixel_centers { 0.5 } else { 0.0 };
    // never negative: the truncation is the floor, and rounding half away
    // from zero is one more where the fraction is at least ½
    let source = (y as f32 + offset) * scale;
    let whole = source as usize;
    let index = if params.align_corners && source - whole as f32 >= 0.5 {
        whole + 1
    } else {
        whole
    };
    index.min(input_size - 1)
}

/// TFLite's `RESIZE_NEAREST_NEIGHBOR` (TFLite Micro's reference kernel):
/// each output pixel `(y, x)` copies the input pixel at the nearest
/// source row and column, each found in `f32` as TFLite does (see
/// [`ResizeParams`]). Any element type.
///
/// Fails, with `output` untouched, when a length does not match `dims`,
/// the input is empty while the output is not, or a height or width is
/// 2^20 or more.
///
/// ```
/// use shapecheck_tflite::{resize_nearest_neighbor, resize_params, ResizeDims};
///
/// // one row of 2 pixels to 4, half-pixel centres: each pixel twice
/// let dims = ResizeDims {
///     batches: 1, input_height: 1, input_width: 2, depth: 1,
///     output_height: 1, output_width: 4,
/// };
/// let mut out = [0i8; 4];
/// resize_nearest_neighbor(&[3, 7], dims, resize_params(false, true)?, &mut out)?;
/// assert_eq!(out, [3, 3, 7, 7]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn resize_nearest_neighbor<T: Copy>(
    input: &[T],
    dims: ResizeDims,
    params: ResizeParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    check(&dims, input.len(), output.len())?;
    resize_nearest_neighbor_prechecked(input, dims, params, output);
    Ok(())
}

/// [`resize_nearest_neighbor`] without its checks, for a caller that has
/// made them hold already (the typed layer of `shapecheck`, whose sizes
/// are types checked when it is built): the lengths are `dims`', every
/// height and width is 1 to [`RESIZE_SIZE_LIMIT`] − 1. On operands that
/// break this, what it writes is unspecified, but it never panics and
/// never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{resize_nearest_neighbor_prechecked, ResizeDims, ResizeParams};
///
/// let dims = ResizeDims {
///     batches: 1, input_height: 1, input_width: 2, depth: 1,
///     output_height: 1, output_width: 4,
/// };
/// let mut out = [0i8; 4];
/// let params = ResizeParams { align_corners: false, half_pixel_centers: false };
/// resize_nearest_neighbor_prechecked(&[3, 7], dims, params, &mut out);
/// assert_eq!(out, [3, 3, 7, 7]);
/// ```
pub fn resize_nearest_neighbor_prechecked<T: Copy>(
    input: &[T],
    dims: ResizeDims,
    params: ResizeParams,
    output: &mut [T],
) {
    let (h, w, c) = (dims.input_height, dims.input_width, dims.depth);
    if output.is_empty() || c == 0 || !sizes_fit(&dims) {
        return;
    }
    let mut pixels = output.chunks_exact_mut(c);
    for b in 0..dims.batches {
        for y in 0..dims.output_height {
            let in_y = nearest(y, h, dims.output_height, params);
            for x in 0..dims.output_width {
                let in_x = nearest(x, w, dims.output_width, params);
                // in range: b, in_y and in_x are below their sizes
                let start = b
                    .wrapping_mul(h)
                    .wrapping_add(in_y)
                    .wrapping_mul(w)
                    .wrapping_add(in_x)
                    .wrapping_mul(c);
                let pixel = input.get(start..start.wrapping_add(c));
                if let (Some(out), Some(pixel)) = (pixels.next(), pixel) {
                    out.copy_from_slice(pixel);
                }
            }
        }
    }
}

/// One axis of TFLite's integer bilinear sampling
/// (`ComputeInterpolationValuesInteger`): the source position of output
/// index `y` in 1/1024 steps, and the rows (columns) below and above it,
/// clamped to the input.
fn interpolation(
    y: i32,
    scale_10: i32,
    half_pixel_centers: bool,
    input_size: i32,
) -> (i32, i32, i32) {
    let scaled = if half_pixel_centers {
        y * scale_10 + scale_10 / 2 - (1 << 9)
    } else {
        y * scale_10
    };
    // C's division, toward zero, as TFLite's
    let lower = (scaled / (1 << 10)).max(0);
    let upper = ((scaled + (1 << 10) - 1) / (1 << 10)).min(input_size - 1);
    (scaled, lower, upper)
}

/// TFLite's scale of one axis in 1/1024 steps, rounded to nearest:
/// `in / out`, or with `align_corners` (and more than one output)
/// `(in − 1) / (out − 1)`.
fn scale_10(input_size: i32, output_size: i32, align_corners: bool) -> i32 {
    if align_corners && output_size > 1 {
        ((1 << 10) * (input_size - 1) + (output_size - 1) / 2) / (output_size - 1)
    } else {
        ((1 << 10) * input_size + output_size / 2) / output_size
    }
}

/// TFLite's int8 `RESIZE_BILINEAR` (TFLite Micro's
/// `ResizeBilinearInteger`): each output pixel is the four input pixels
/// around its source position weighted in 1/1024 steps per axis (the
/// scale and the source as [`ResizeParams`] says, in integers), the sum
/// of the products (in 1/2^20) rounded half away from zero.
///
/// Fails, with `output` untouched, when a length does not match `dims`,
/// the input is empty while the output is not, a height or width is 2^20
/// or more, or both flags are set.
///
/// ```
/// use shapecheck_tflite::{resize_bilinear_int8, resize_params, ResizeDims};
///
/// // one row of 2 pixels to 3, corners aligned: the middle is the mean
/// let dims = ResizeDims {
///     batches: 1, input_height: 1, input_width: 2, depth: 1,
///     output_height: 1, output_width: 3,
/// };
/// let mut out = [0i8; 3];
/// resize_bilinear_int8(&[-10, 21], dims, resize_params(true, false)?, &mut out)?;
/// assert_eq!(out, [-10, 6, 21]); // 5.5 → 6
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn resize_bilinear_int8(
    input: &[i8],
    dims: ResizeDims,
    params: ResizeParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check(&dims, input.len(), output.len())?;
    resize_params(params.align_corners, params.half_pixel_centers)?;
    resize_bilinear_int8_prechecked(input, dims, params, output);
    Ok(())
}

/// [`resize_bilinear_int8`] without its checks, for a caller that has
/// made them hold already (the typed layer of `shapecheck`): the lengths
/// are `dims`', every height and width is 1 to [`RESIZE_SIZE_LIMIT`] − 1,
/// and not both flags are set. On operands that break this, what it
/// writes is unspecified, but it never panics and never writes outside
/// `output`.
///
/// ```
/// use shapecheck_tflite::{resize_bilinear_int8_prechecked, ResizeDims, ResizeParams};
///
/// let dims = ResizeDims {
///     batches: 1, input_height: 1, input_width: 2, depth: 1,
///     output_height: 1, output_width: 3,
/// };
/// let mut out = [0i8; 3];
/// let params = ResizeParams { align_corners: true, half_pixel_centers: false };
/// resize_bilinear_int8_prechecked(&[-10, 21], dims, params, &mut out);
/// assert_eq!(out, [-10, 6, 21]);
/// ```
pub fn resize_bilinear_int8_prechecked(
    input: &[i8],
    dims: ResizeDims,
    params: ResizeParams,
    output: &mut [i8],
) {
    if output.is_empty() || dims.depth == 0 || !sizes_fit(&dims) {
        return;
    }
    // below 2^20: checked
    let (in_h, in_w) = (dims.input_height as i32, dims.input_width as i32);
    let (out_h, out_w) = (dims.output_height as i32, dims.output_width as i32);
    let height_scale = scale_10(in_h, out_h, params.align_corners);
    let width_scale = scale_10(in_w, out_w, params.align_corners);
    let (w, c) = (dims.input_width, dims.depth);
    let one = 1i64 << 10;
    let mut pixels = output.chunks_exact_mut(c);
    for b in 0..dims.batches {
        let image = b.wrapping_mul(dims.input_height);
        for y in 0..out_h {
            let (source_y, y0, y1) =
                interpolation(y, height_scale, params.half_pixel_centers, in_h);
            let dy = i64::from(source_y - (1 << 10) * y0);
            for x in 0..out_w {
                let (source_x, x0, x1) =
                    interpolation(x, width_scale, params.half_pixel_centers, in_w);
                let dx = i64::from(source_x - (1 << 10) * x0);
                let Some(out) = pixels.next() else {
                    return;
                };
                // each in [0, size): the interpolation clamps them
                let at = |row: i32, column: i32| {
                    (image.wrapping_add(row as usize))
                        .wrapping_mul(w)
                        .wrapping_add(column as usize)
                        .wrapping_mul(c)
                };
                let corners = [
                    (at(y0, x0), (one - dy) * (one - dx)),
                    (at(y1, x0), dy * (one - dx)),
                    (at(y0, x1), (one - dy) * dx),
                    (at(y1, x1), dy * dx),
                ];
                for (k, o) in out.iter_mut().enumerate() {
                    let sum: i64 = corners
                        .iter()
                        .map(|&(start, weight)| {
                            i64::from(input.get(start.wrapping_add(k)).copied().unwrap_or(0))
                                * weight
                        })
                        .sum();
                    // TFLite's double rounding build: half away from zero
                    let round = if sum > 0 { 1 << 19 } else { -(1 << 19) };
                    *o = ((sum + round) / (1 << 20)) as i8;
                }
            }
        }
    }
}

/// One axis of TFLite's float bilinear sampling
/// (`ComputeInterpolationValues`), in f32 as TFLite computes it: the
/// source position of output index `y` (`y · scale`, or with half-pixel
/// centres `(y + ½) · scale − ½`), its floor (at least 0) and its ceiling
/// (at most `input_size − 1`). Sizes are below 2^20, so the position's
/// magnitude is too, and truncating it to `i32` is exact.
fn interpolation_f32(
    y: usize,
    scale: f32,
    half_pixel_centers: bool,
    input_size: usize,
) -> (f32, usize, usize) {
    let value = y as f32;
    let scaled = if half_pixel_centers {
        (value + 0.5) * scale - 0.5
    } else {
        value * scale
    };
    let whole = scaled as i32;
    let floor = if whole as f32 > scaled {
        whole - 1
    } else {
        whole
    };
    let ceil = if (whole as f32) < scaled {
        whole + 1
    } else {
        whole
    };
    let lower = usize::try_from(floor.max(0)).unwrap_or(0);
    let upper = usize::try_from(ceil.max(0))
        .unwrap_or(0)
        .min(input_size.saturating_sub(1));
    (scaled, lower, upper)
}

/// TFLite's float scale of one axis: `in / out` in f32, or with
/// `align_corners` (and more than one output) `(in − 1) / (out − 1)`.
fn scale_f32(input_size: usize, output_size: usize, align_corners: bool) -> f32 {
    if align_corners && output_size > 1 {
        (input_size - 1) as f32 / (output_size - 1) as f32
    } else {
        input_size as f32 / output_size as f32
    }
}

/// TFLite's f32 `RESIZE_BILINEAR` (TFLite Micro's
/// `reference_ops::ResizeBilinear` on floats): each output pixel is the
/// four input pixels around its source position `(sy, sx)` (the scale and
/// the source as [`ResizeParams`] says, in f32), with `dy = sy − y0` and
/// `dx = sx − x0`, summed in TFLite's order, one f32 rounding per step:
/// `v00·(1−dy)·(1−dx) + v10·dy·(1−dx) + v01·(1−dy)·dx + v11·dy·dx + 0`
/// (the trailing `+ 0`, TFLite's rounding offset for floats, makes a −0
/// sum +0).
///
/// Fails, with `output` untouched, when a length does not match `dims`,
/// the input is empty while the output is not, a height or width is 2^20
/// or more, or both flags are set.
///
/// ```
/// use shapecheck_tflite::{resize_bilinear_f32, resize_params, ResizeDims};
///
/// // one row of 2 pixels to 4, half-pixel centres (Keras' UpSampling2D)
/// let dims = ResizeDims {
///     batches: 1, input_height: 1, input_width: 2, depth: 1,
///     output_height: 1, output_width: 4,
/// };
/// let mut out = [0f32; 4];
/// resize_bilinear_f32(&[1.0, 3.0], dims, resize_params(false, true)?, &mut out)?;
/// assert_eq!(out, [1.0, 1.5, 2.5, 3.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn resize_bilinear_f32(
    input: &[f32],
    dims: ResizeDims,
    params: ResizeParams,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    check(&dims, input.len(), output.len())?;
    resize_params(params.align_corners, params.half_pixel_centers)?;
    if output.is_empty() || dims.depth == 0 || !sizes_fit(&dims) {
        return Ok(());
    }
    let height_scale = scale_f32(dims.input_height, dims.output_height, params.align_corners);
    let width_scale = scale_f32(dims.input_width, dims.output_width, params.align_corners);
    let (h, w, c) = (dims.input_height, dims.input_width, dims.depth);
    let mut pixels = output.chunks_exact_mut(c);
    for b in 0..dims.batches {
        for y in 0..dims.output_height {
            let (source_y, y0, y1) =
                interpolation_f32(y, height_scale, params.half_pixel_centers, h);
            let dy = source_y - y0 as f32;
            for x in 0..dims.output_width {
                let (source_x, x0, x1) =
                    interpolation_f32(x, width_scale, params.half_pixel_centers, w);
                let dx = source_x - x0 as f32;
                let Some(out) = pixels.next() else {
                    return Ok(());
                };
                // in range: b, the rows and the columns are below their
                // sizes, and the lengths were checked
                let at = |row: usize, column: usize| {
                    b.wrapping_mul(h)
                        .wrapping_add(row)
                        .wrapping_mul(w)
                        .wrapping_add(column)
                        .wrapping_mul(c)
                };
                let (p00, p10, p01, p11) = (at(y0, x0), at(y1, x0), at(y0, x1), at(y1, x1));
                for (k, o) in out.iter_mut().enumerate() {
                    let v = |start: usize| input.get(start.wrapping_add(k)).copied().unwrap_or(0.0);
                    *o = v(p00) * (1.0 - dy) * (1.0 - dx)
                        + v(p10) * dy * (1.0 - dx)
                        + v(p01) * (1.0 - dy) * dx
                        + v(p11) * dy * dx
                        + 0.0;
                }
            }
        }
    }
    Ok(())
}

// The interpreter's step of the ops: `prepare` (their rows', in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// A resize's interpreter step: its operands' places in the int8 arena
/// (the f32 one when `float32`), its sizes and sampling, checked once by
/// [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct ResizeStep {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub dims: ResizeDims,
    pub params: ResizeParams,
    pub bilinear: bool,
    /// the operands are f32
    pub float32: bool,
}

impl crate::base::write_rust::WriteRust for ResizeStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ResizeStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("dims", &self.dims),
                ("params", &self.params),
                ("bilinear", &self.bilinear),
                ("float32", &self.float32),
            ],
        )
    }
}

impl ResizeStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        if self.float32 {
            let (x, y) = split(b.float32, &self.input, &self.output).ok_or(overlap)?;
            return if self.bilinear {
                resize_bilinear_f32(x, self.dims, self.params, y)
            } else {
                resize_nearest_neighbor(x, self.dims, self.params, y)
            };
        }
        let (x, y) = split(b.int8, &self.input, &self.output).ok_or(overlap)?;
        if self.bilinear {
            resize_bilinear_int8(x, self.dims, self.params, y)
        } else {
            resize_nearest_neighbor(x, self.dims, self.params, y)
        }
    }
}

/// The row's `prepare` of `RESIZE_NEAREST_NEIGHBOR` and
/// `RESIZE_BILINEAR`: int8 or f32 NHWC in and out (the output's shape checked by
/// the op's rule before), the data moved as TFLite Micro moves it
/// (without requantizing), the flags through [`resize_params`].
pub(crate) fn prepare<'m, S: From<ResizeStep>>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let read = if c.op.op() == BuiltinOp::RESIZE_BILINEAR {
        read_bilinear_options
    } else {
        read_nearest_options
    };
    let Ok(options) = read(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    let output = &c.output;
    let input = c.input(0, "input")?;
    let float32 = input.dtype() == TensorType::Float32;
    let dtype = if float32 {
        TensorType::Float32
    } else {
        TensorType::Int8
    };
    c.dtype("input", &input, dtype)?;
    c.dtype("output", output, dtype)?;
    let out = shape.dims();
    let dims = ResizeDims {
        batches: dim(&input, 0),
        input_height: dim(&input, 1),
        input_width: dim(&input, 2),
        depth: dim(&input, 3),
        output_height: out.get(1).copied().unwrap_or(0),
        output_width: out.get(2).copied().unwrap_or(0),
    };
    let params = resize_params(options.align_corners, options.half_pixel_centers)?;
    Ok(S::from(ResizeStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        dims,
        params,
        bilinear: c.op.op() == BuiltinOp::RESIZE_BILINEAR,
        float32,
    }))
}
