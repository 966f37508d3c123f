//! TFLite's `DEPTH_TO_SPACE` and `SPACE_TO_DEPTH` on slices, NHWC, as
//! TFLite Micro's `depth_to_space.cc`, `space_to_depth.cc` and their
//! reference kernels move the values: one rule read both ways. A block
//! of `b × b` pixels of `C` channels is one pixel of `b · b · C`
//! channels, the block's row first, then its column, then the channel.
//! Any element type; the values are copied unchanged.

use crate::arith::dims::check_length;
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::types::BuiltinOp;
use crate::kernel::checker::Checker;
use crate::kernel::shape::{need_rank, operand, OpShape};
use crate::kernel::step::Buffers;
use crate::shared::moves::{op_shape, options_mismatch, strided_copy, wide};
use crate::shared::moves::{prepare_one, run_one, MoveOne, Places};

/// The `BuiltinOptions` type of `SpaceToDepthOptions`.
const SPACE_TO_DEPTH_OPTIONS: u8 = 19;
/// The `BuiltinOptions` type of `DepthToSpaceOptions`.
const DEPTH_TO_SPACE_OPTIONS: u8 = 94;

/// `DepthToSpaceOptions` and `SpaceToDepthOptions`: the block's side.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/depth_to_space_2.tflite")))?;
/// let Options::DepthToSpace(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.block_size, 2);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockSizeOptions {
    /// `block_size`
    pub block_size: i32,
}

/// The block size in options table `t`.
fn block_size(r: &OptionsReader<'_>, ty: u8, name: &'static str) -> Result<i32, TfliteError> {
    match r.table(ty, name)? {
        Some(t) => t.i32(0, 0).map_err(r.fault("block_size")),
        None => Ok(0),
    }
}

/// Reads `DEPTH_TO_SPACE`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_depth_to_space_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<BlockSizeOptions, TfliteError> {
    let block_size = block_size(r, DEPTH_TO_SPACE_OPTIONS, "DepthToSpaceOptions")?;
    Ok(BlockSizeOptions { block_size })
}

/// Reads `SPACE_TO_DEPTH`'s options (its row's `read_options`).
pub(crate) fn read_space_to_depth_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<BlockSizeOptions, TfliteError> {
    let block_size = block_size(r, SPACE_TO_DEPTH_OPTIONS, "SpaceToDepthOptions")?;
    Ok(BlockSizeOptions { block_size })
}

/// A `DEPTH_TO_SPACE`'s or `SPACE_TO_DEPTH`'s parameters
/// ([`depth_space_params`]).
///
/// ```
/// use shapecheck_tflite::DepthSpaceParams;
///
/// const BLOCK_2: DepthSpaceParams = DepthSpaceParams { block_size: 2 };
/// assert_eq!(BLOCK_2.block_size, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthSpaceParams {
    /// the block's side, at least 1
    pub block_size: usize,
}

impl crate::base::write_rust::WriteRust for DepthSpaceParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "DepthSpaceParams",
            &[("block_size", &self.block_size)],
        )
    }
}

/// The parameters of a `DEPTH_TO_SPACE` or `SPACE_TO_DEPTH` of
/// `block_size` (TFLite Micro: above 0).
///
/// Fails with [`TfliteError::KernelParam`] for a block size below 1.
///
/// ```
/// use shapecheck_tflite::depth_space_params;
///
/// assert_eq!(depth_space_params(2)?.block_size, 2);
/// assert!(depth_space_params(0).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depth_space_params(block_size: i32) -> Result<DepthSpaceParams, TfliteError> {
    usize::try_from(block_size)
        .ok()
        .filter(|&b| b >= 1)
        .map(|block_size| DepthSpaceParams { block_size })
        .ok_or(TfliteError::KernelParam {
            what: "the block size",
            value: i64::from(block_size),
            rule: "a block size is at least 1",
        })
}

/// An NHWC shape as its 4 dims.
fn nhwc(what: &'static str, shape: &[usize]) -> Result<[usize; 4], TfliteError> {
    <[usize; 4]>::try_from(shape).map_err(|_| TfliteError::KernelParam {
        what,
        value: wide(shape.len()),
        rule: "the input is NHWC: 4 dims",
    })
}

/// The output shape of a `DEPTH_TO_SPACE` of `params` on an NHWC input
/// `[B, H, W, C]`: `[B, H·b, W·b, C / b²]`.
///
/// Fails with [`TfliteError::KernelParam`] for an input of another rank
/// or channels that `b²` does not divide.
///
/// ```
/// use shapecheck_tflite::{depth_to_space_output_shape, depth_space_params};
///
/// // depth_to_space_2.tflite
/// let p = depth_space_params(2)?;
/// assert_eq!(depth_to_space_output_shape(&[1, 3, 5, 8], &p)?.dims(), &[1, 6, 10, 2]);
/// assert!(depth_to_space_output_shape(&[1, 3, 5, 6], &p).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depth_to_space_output_shape(
    input_shape: &[usize],
    params: &DepthSpaceParams,
) -> Result<OpShape, TfliteError> {
    let [b, h, w, c] = nhwc("DEPTH_TO_SPACE's input rank", input_shape)?;
    let side = params.block_size;
    let area = side.saturating_mul(side);
    let too_big = TfliteError::KernelParam {
        what: "DEPTH_TO_SPACE's output",
        value: i64::MAX,
        rule: "its dims overflow",
    };
    if area == 0 || !c.is_multiple_of(area) {
        return Err(TfliteError::KernelParam {
            what: "DEPTH_TO_SPACE's input channels",
            value: wide(c),
            rule: "the block's area must divide them",
        });
    }
    let h = h.checked_mul(side).ok_or(too_big)?;
    let w = w.checked_mul(side).ok_or(too_big)?;
    op_shape("DEPTH_TO_SPACE's output", &[b, h, w, c / area])
}

/// The output shape of a `SPACE_TO_DEPTH` of `params` on an NHWC input
/// `[B, H, W, C]`: `[B, H / b, W / b, C·b²]`.
///
/// Fails with [`TfliteError::KernelParam`] for an input of another rank
/// or a height or width that `b` does not divide.
///
/// ```
/// use shapecheck_tflite::{space_to_depth_output_shape, depth_space_params};
///
/// // space_to_depth_2.tflite
/// let p = depth_space_params(2)?;
/// assert_eq!(space_to_depth_output_shape(&[1, 6, 4, 3], &p)?.dims(), &[1, 3, 2, 12]);
/// assert!(space_to_depth_output_shape(&[1, 5, 4, 3], &p).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn space_to_depth_output_shape(
    input_shape: &[usize],
    params: &DepthSpaceParams,
) -> Result<OpShape, TfliteError> {
    let [b, h, w, c] = nhwc("SPACE_TO_DEPTH's input rank", input_shape)?;
    let side = params.block_size;
    for (what, d) in [
        ("SPACE_TO_DEPTH's input height", h),
        ("SPACE_TO_DEPTH's input width", w),
    ] {
        if side == 0 || !d.is_multiple_of(side) {
            return Err(TfliteError::KernelParam {
                what,
                value: wide(d),
                rule: "the block size must divide it",
            });
        }
    }
    let depth = c
        .checked_mul(side)
        .and_then(|d| d.checked_mul(side))
        .ok_or(TfliteError::KernelParam {
            what: "SPACE_TO_DEPTH's output channels",
            value: i64::MAX,
            rule: "they overflow",
        })?;
    op_shape("SPACE_TO_DEPTH's output", &[b, h / side, w / side, depth])
}

/// The steps in the depth side `[B, H, W, b·b·C]` (row-major) of the
/// walk over the image side `[B, H·b, W·b, C]` as `[B, H, b, W, b, C]`.
fn block_steps(h: usize, w: usize, c: usize, side: usize) -> [isize; 6] {
    let depth = side.saturating_mul(side).saturating_mul(c);
    let row = w.saturating_mul(depth);
    let at = |v: usize| isize::try_from(v).unwrap_or(isize::MAX);
    [
        at(h.saturating_mul(row)),
        at(row),
        at(side.saturating_mul(c)),
        at(depth),
        at(c),
        1,
    ]
}

/// TFLite's `DEPTH_TO_SPACE`: output pixel `(h, w)`'s channels are input
/// pixel `(h / b, w / b)`'s channels from `((h mod b)·b + w mod b)·C'` on,
/// `C'` the output's channels. `input` is NHWC of `input_shape`; `output`
/// of [`depth_to_space_output_shape`].
///
/// Fails, with `output` untouched, as [`depth_to_space_output_shape`]
/// does, or when `input` or `output` is not as long as its shape's
/// element count.
///
/// ```
/// use shapecheck_tflite::{depth_space_params, depth_to_space};
///
/// let mut out = [0i8; 4];
/// // one pixel of 4 channels to a 2 × 2 image of 1
/// depth_to_space(&[1, 2, 3, 4], &[1, 1, 1, 4], &depth_space_params(2)?, &mut out)?;
/// assert_eq!(out, [1, 2, 3, 4]);
/// assert!(depth_to_space(&[1, 2, 3], &[1, 1, 1, 4], &depth_space_params(2)?, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depth_to_space<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &DepthSpaceParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let out_shape = depth_to_space_output_shape(input_shape, params)?;
    check_length("DEPTH_TO_SPACE's input", input_shape, input.len())?;
    check_length("output", out_shape.dims(), output.len())?;
    let [b, h, w, c] = nhwc("DEPTH_TO_SPACE's input rank", input_shape)?;
    let side = params.block_size;
    let depth = c / side.saturating_mul(side).max(1);
    // the output [B, H·b, W·b, C'] walked as [B, H, b, W, b, C'], read
    // from the input [B, H, W, b·b·C']
    let counts = [b, h, side, w, side, depth];
    strided_copy(
        "DEPTH_TO_SPACE's output",
        input,
        0,
        &counts,
        &block_steps(h, w, depth, side),
        output,
    )
}

/// TFLite's `SPACE_TO_DEPTH`, the inverse of [`depth_to_space`]: output
/// pixel `(h, w)`'s channels are the input's `b × b` block at
/// `(h·b, w·b)`, row by row. `input` is NHWC of `input_shape`; `output`
/// of [`space_to_depth_output_shape`].
///
/// Fails, with `output` untouched, as [`space_to_depth_output_shape`]
/// does, or when `input` or `output` is not as long as its shape's
/// element count.
///
/// ```
/// use shapecheck_tflite::{depth_space_params, space_to_depth};
///
/// let mut out = [0i8; 4];
/// // a 2 × 2 image of 1 channel to one pixel of 4
/// space_to_depth(&[1, 2, 3, 4], &[1, 2, 2, 1], &depth_space_params(2)?, &mut out)?;
/// assert_eq!(out, [1, 2, 3, 4]);
/// assert!(space_to_depth(&[1, 2, 3, 4], &[1, 2, 1, 2], &depth_space_params(2)?, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn space_to_depth<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &DepthSpaceParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let out_shape = space_to_depth_output_shape(input_shape, params)?;
    check_length("SPACE_TO_DEPTH's input", input_shape, input.len())?;
    check_length("output", out_shape.dims(), output.len())?;
    let [b, h, w, c] = nhwc("SPACE_TO_DEPTH's input rank", input_shape)?;
    let side = params.block_size.max(1);
    let (oh, ow) = (h / side, w / side);
    // the output [B, H/b, W/b, b·b·C] walked as [B, H/b, W/b, b, b, C],
    // read from the input [B, H, W, C] = [B, H/b, b, W/b, b, C]
    let at = |v: usize| isize::try_from(v).unwrap_or(isize::MAX);
    let row = w.saturating_mul(c);
    let counts = [b, oh, ow, side, side, c];
    let steps = [
        at(h.saturating_mul(row)),
        at(side.saturating_mul(row)),
        at(side.saturating_mul(c)),
        at(row),
        at(c),
        1,
    ];
    strided_copy("SPACE_TO_DEPTH's output", input, 0, &counts, &steps, output)
}

/// The block size of operator `op` (either op's options).
fn params_of(op: &Operator<'_>, expected: &'static str) -> Result<DepthSpaceParams, TfliteError> {
    let read = if op.op() == BuiltinOp::DEPTH_TO_SPACE {
        read_depth_to_space_options
    } else {
        read_space_to_depth_options
    };
    match read(&op.raw_options()) {
        Ok(o) => depth_space_params(o.block_size),
        Err(_) => Err(options_mismatch(op, expected)),
    }
}

/// `DEPTH_TO_SPACE`'s parameters and input shape from its operands.
pub(crate) fn depth_to_space_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(DepthSpaceParams, OpShape), TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let shape = need_rank(op, "input", &input, 4)?;
    Ok((params_of(op, "DepthToSpaceOptions")?, shape))
}

/// `SPACE_TO_DEPTH`'s parameters and input shape from its operands.
pub(crate) fn space_to_depth_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(DepthSpaceParams, OpShape), TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let shape = need_rank(op, "input", &input, 4)?;
    Ok((params_of(op, "SpaceToDepthOptions")?, shape))
}

/// `DEPTH_TO_SPACE`'s row in [`OPS`](crate::OPS).
pub(crate) fn depth_to_space_row(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<OpShape, TfliteError> {
    let (params, shape) = depth_to_space_operands(model, op)?;
    depth_to_space_output_shape(shape.dims(), &params)
}

/// `SPACE_TO_DEPTH`'s row in [`OPS`](crate::OPS).
pub(crate) fn space_to_depth_row(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<OpShape, TfliteError> {
    let (params, shape) = space_to_depth_operands(model, op)?;
    space_to_depth_output_shape(shape.dims(), &params)
}

// The interpreter's step of each op: `prepare` (their rows', in `OPS`)
// checks the operator's operands and derives the parameters once; the
// step's `run` runs the kernel on int8 or f32 activations.

/// `DEPTH_TO_SPACE`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_depth_to_space<'m, S: From<DepthToSpaceStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = depth_to_space_operands(&c.model, &c.op)?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(DepthToSpaceStep {
        places,
        shape,
        params,
    }))
}

/// `DEPTH_TO_SPACE`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct DepthToSpaceStep {
    pub places: Places<1>,
    pub shape: OpShape,
    pub params: DepthSpaceParams,
}

impl crate::base::write_rust::WriteRust for DepthToSpaceStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "DepthToSpaceStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveOne for DepthToSpaceStep {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        depth_to_space(input, self.shape.dims(), &self.params, output)
    }
}

impl DepthToSpaceStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}

/// `SPACE_TO_DEPTH`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_space_to_depth<'m, S: From<SpaceToDepthStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = space_to_depth_operands(&c.model, &c.op)?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(SpaceToDepthStep {
        places,
        shape,
        params,
    }))
}

/// `SPACE_TO_DEPTH`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct SpaceToDepthStep {
    pub places: Places<1>,
    pub shape: OpShape,
    pub params: DepthSpaceParams,
}

impl crate::base::write_rust::WriteRust for SpaceToDepthStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SpaceToDepthStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveOne for SpaceToDepthStep {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        space_to_depth(input, self.shape.dims(), &self.params, output)
    }
}

impl SpaceToDepthStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}
