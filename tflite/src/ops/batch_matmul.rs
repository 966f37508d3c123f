//! TFLite's int8 `BATCH_MATMUL`: a matrix product per batch of two
//! activations (`tf.matmul`), each optionally transposed (`adj_x`,
//! `adj_y`), their batch dims broadcast, as TFLite Micro's
//! `reference_ops::BatchMatMul` computes it: `i32` sums of
//! `(a − a_zp) · (b − b_zp)`, requantized by `a_scale · b_scale /
//! out_scale` with TFLite Micro's double rounding. And the f32 product
//! ([`batch_matmul_f32`]): f32 sums from +0 in the inner index's order.

use crate::arith::activation::fully_connected_multiplier;
use crate::arith::quant::{OutputStage, QuantizedMultiplier, Rounding, Scale};
use crate::arith::window::{length, product};
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::types::TensorType;
use crate::kernel::checker::{split2, Checker};
use crate::kernel::shape::{operand, shape_of, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;
use crate::shared::broadcast::broadcast_shape;
use core::ops::Range;

/// `BatchMatMulOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/batch_matmul.tflite")))?;
/// let op = (0..3).map(|k| model.operator(k).unwrap()).find(|op| op.op().name() == "BATCH_MATMUL").unwrap();
/// let Options::BatchMatMul(o) = op.options() else { panic!() };
/// assert_eq!((o.adj_x, o.adj_y), (false, true));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BatchMatMulOptions {
    /// `adj_x`: the first operand's last two dims are swapped
    pub adj_x: bool,
    /// `adj_y`: the second operand's last two dims are swapped
    pub adj_y: bool,
    /// `asymmetric_quantize_inputs` (hybrid models only)
    pub asymmetric_quantize_inputs: bool,
}

/// `BatchMatMulOptions`' type value in the schema's `BuiltinOptions`
/// union.
const BATCH_MATMUL_OPTIONS: u8 = 101;

/// Reads `BATCH_MATMUL`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<BatchMatMulOptions, TfliteError> {
    let t = r.table(BATCH_MATMUL_OPTIONS, "BatchMatMulOptions")?;
    let (adj_x, adj_y, asymmetric_quantize_inputs) = match t {
        Some(t) => (
            t.bool(0).map_err(r.fault("adj_x"))?,
            t.bool(1).map_err(r.fault("adj_y"))?,
            t.bool(2).map_err(r.fault("asymmetric_quantize_inputs"))?,
        ),
        None => (false, false, false),
    };
    Ok(BatchMatMulOptions {
        adj_x,
        adj_y,
        asymmetric_quantize_inputs,
    })
}

/// An int8 batch matrix product's parameters ([`batch_matmul_params`]).
///
/// ```
/// use shapecheck_tflite::{batch_matmul_params, BatchMatMulParams, QuantizedMultiplier};
///
/// const P: BatchMatMulParams = BatchMatMulParams {
///     adj_x: false, adj_y: true,
///     lhs_zero_point: 0, rhs_zero_point: 0, output_zero_point: 0,
///     multiplier: QuantizedMultiplier::from_parts(1 << 30, 1),
/// };
/// assert_eq!(batch_matmul_params(1.0, 0, 1.0, 0, 1.0, 0, false, true)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchMatMulParams {
    /// the first operand is `[.., k, m]` (transposed)
    pub adj_x: bool,
    /// the second operand is `[.., n, k]` (transposed)
    pub adj_y: bool,
    /// the first operand's zero point
    pub lhs_zero_point: i32,
    /// the second operand's zero point
    pub rhs_zero_point: i32,
    /// the output's zero point
    pub output_zero_point: i32,
    /// `lhs_scale · rhs_scale / output_scale`
    pub multiplier: QuantizedMultiplier,
}

impl crate::base::write_rust::WriteRust for BatchMatMulParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "BatchMatMulParams",
            &[
                ("adj_x", &self.adj_x),
                ("adj_y", &self.adj_y),
                ("lhs_zero_point", &self.lhs_zero_point),
                ("rhs_zero_point", &self.rhs_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("multiplier", &self.multiplier),
            ],
        )
    }
}

/// The parameters of an int8 `BATCH_MATMUL` as TFLite Micro derives
/// them: the multiplier `lhs_scale · rhs_scale / output_scale` (each
/// widened to `f64`, as
/// [`fully_connected_multiplier`](crate::fully_connected_multiplier)),
/// the zero points and flags as given.
///
/// Fails with [`TfliteError::BadMultiplier`] when the multiplier is
/// negative, NaN or infinite.
///
/// ```
/// use shapecheck_tflite::{batch_matmul_params, quantize_multiplier};
///
/// let p = batch_matmul_params(0.5, -2, 0.25, 3, 0.5, 45, false, true)?;
/// assert_eq!(p.multiplier, quantize_multiplier(0.25)?);
/// assert!(batch_matmul_params(0.5, 0, 0.25, 0, 0.0, 0, false, false).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn batch_matmul_params(
    lhs_scale: f32,
    lhs_zero_point: i32,
    rhs_scale: f32,
    rhs_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    adj_x: bool,
    adj_y: bool,
) -> Result<BatchMatMulParams, TfliteError> {
    Ok(BatchMatMulParams {
        adj_x,
        adj_y,
        lhs_zero_point,
        rhs_zero_point,
        output_zero_point,
        multiplier: fully_connected_multiplier(lhs_scale, rhs_scale, output_scale)?,
    })
}

/// An operand's matrix sizes `(rows, columns)` as stored (its last two
/// dims) and its batch dims, or the error for a rank below 2 or above 5.
fn split_matrix<'d>(
    what: &'static str,
    dims: &'d [usize],
) -> Result<(&'d [usize], usize, usize), TfliteError> {
    match dims {
        [batch @ .., rows, columns] if batch.len() <= 3 => Ok((batch, *rows, *columns)),
        _ => Err(TfliteError::KernelParam {
            what,
            value: i64::try_from(dims.len()).unwrap_or(i64::MAX),
            rule: "a batch matrix product's operands have 2 to 5 dims",
        }),
    }
}

/// The sizes of a batch matrix product: the broadcast batch dims (the
/// first `batch_rank`), and `[m, k] · [k, n]`.
struct MatmulSizes {
    batch: [usize; MAX_DIMS],
    batch_rank: usize,
    m: usize,
    k: usize,
    n: usize,
}

/// The sizes of a batch matrix product from the operands' dims and
/// flags, checked to agree.
fn matmul_sizes(
    lhs_dims: &[usize],
    rhs_dims: &[usize],
    adj_x: bool,
    adj_y: bool,
) -> Result<MatmulSizes, TfliteError> {
    let (lhs_batch, r, c) = split_matrix("batch matrix product's first operand rank", lhs_dims)?;
    let (m, k) = if adj_x { (c, r) } else { (r, c) };
    let (rhs_batch, r, c) = split_matrix("batch matrix product's second operand rank", rhs_dims)?;
    let (rhs_k, n) = if adj_y { (c, r) } else { (r, c) };
    if k != rhs_k {
        return Err(TfliteError::KernelParam {
            what: "batch matrix product's inner size",
            value: i64::try_from(rhs_k).unwrap_or(i64::MAX),
            rule: "the second operand's must be the first's",
        });
    }
    let (batch, batch_rank) = broadcast_shape(lhs_batch, rhs_batch)?;
    Ok(MatmulSizes {
        batch,
        batch_rank,
        m,
        k,
        n,
    })
}

/// The output shape of `BATCH_MATMUL`: the operands' batch dims
/// broadcast, then `[m, n]`, for a first operand `[.., m, k]` (`[.., k,
/// m]` with `adj_x`) and a second `[.., k, n]` (`[.., n, k]` with
/// `adj_y`), each of 2 to 5 dims.
///
/// ```
/// use shapecheck_tflite::batch_matmul_output_shape;
///
/// assert_eq!(batch_matmul_output_shape(&[1, 5, 4], &[1, 5, 4], false, true)?.dims(), &[1, 5, 5]);
/// assert_eq!(batch_matmul_output_shape(&[3, 2, 4], &[4, 6], false, false)?.dims(), &[3, 2, 6]);
/// assert!(batch_matmul_output_shape(&[2, 4], &[5, 6], false, false).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn batch_matmul_output_shape(
    lhs_dims: &[usize],
    rhs_dims: &[usize],
    adj_x: bool,
    adj_y: bool,
) -> Result<OpShape, TfliteError> {
    let MatmulSizes {
        batch,
        batch_rank,
        m,
        n,
        ..
    } = matmul_sizes(lhs_dims, rhs_dims, adj_x, adj_y)?;
    let mut dims = [0usize; MAX_DIMS];
    for (slot, &d) in dims.iter_mut().zip(batch.iter().take(batch_rank)) {
        *slot = d;
    }
    // the batch has at most 3 dims
    if let Some(last) = dims.get_mut(batch_rank..batch_rank + 2) {
        last.copy_from_slice(&[m, n]);
    }
    OpShape::new(dims.get(..batch_rank + 2).unwrap_or(&[])).ok_or(TfliteError::KernelParam {
        what: "batch matrix product's output rank",
        value: i64::try_from(batch_rank + 2).unwrap_or(i64::MAX),
        rule: "it must be at most 5",
    })
}

/// `BATCH_MATMUL`'s shape rule (its row's `output_shape`): its two
/// operands and the options' `adj_x` / `adj_y`, through
/// [`batch_matmul_output_shape`].
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let lhs = operand(model, op, 0, "lhs")?;
    let rhs = operand(model, op, 1, "rhs")?;
    let (a, b) = (shape_of(op, "lhs", &lhs)?, shape_of(op, "rhs", &rhs)?);
    let (adj_x, adj_y) = match read_options(&op.raw_options()) {
        Ok(o) => (o.adj_x, o.adj_y),
        Err(_) => (false, false),
    };
    batch_matmul_output_shape(a.dims(), b.dims(), adj_x, adj_y)
}

/// The offset of broadcast batch `index` (row-major over `batch`) in an
/// operand of batch dims `dims` (right-aligned; a dim of 1 repeats).
fn batch_offset(index: usize, batch: &[usize], dims: &[usize]) -> usize {
    let mut rest = index;
    let mut offset = 0;
    let mut stride = 1;
    let skip = batch.len().saturating_sub(dims.len());
    for (k, &size) in batch.iter().enumerate().rev() {
        let coordinate = rest.checked_rem(size).unwrap_or(0);
        rest = rest.checked_div(size).unwrap_or(0);
        if let Some(&d) = k.checked_sub(skip).and_then(|j| dims.get(j)) {
            if d != 1 {
                offset += coordinate * stride;
            }
            stride *= d;
        }
    }
    offset
}

/// TFLite's int8 `BATCH_MATMUL` (TFLite Micro's reference kernel): for
/// each broadcast batch, `out[i][j] = Σ_t (a[i][t] − a_zp) · (b[t][j] −
/// b_zp)` in `i32` (`a` read transposed with `adj_x`, `b` with `adj_y`),
/// then `multiply_by_quantized_multiplier(acc, M) + out_zp` with TFLite
/// Micro's double rounding, clamped to int8. The batch dims broadcast as
/// [`broadcast_shape`](crate::broadcast_shape) says.
///
/// The sums wrap on overflow. Fails, with `output` untouched, when the
/// operands' sizes do not agree or a length does not match them.
///
/// ```
/// use shapecheck_tflite::{batch_matmul_int8, batch_matmul_params};
///
/// // [2, 2] · [2, 2]ᵀ, both zero points 0, scale 1
/// let params = batch_matmul_params(1.0, 0, 1.0, 0, 1.0, 0, false, true)?;
/// let mut out = [0i8; 4];
/// batch_matmul_int8(&[1, 2, 3, 4], &[2, 2], &[1, 0, 1, 1], &[2, 2], &params, &mut out)?;
/// assert_eq!(out, [1, 3, 3, 7]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn batch_matmul_int8(
    lhs: &[i8],
    lhs_dims: &[usize],
    rhs: &[i8],
    rhs_dims: &[usize],
    params: &BatchMatMulParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    let MatmulSizes {
        batch,
        batch_rank,
        m,
        k,
        n,
    } = matmul_sizes(lhs_dims, rhs_dims, params.adj_x, params.adj_y)?;
    let batch = batch.get(..batch_rank).unwrap_or(&[]);
    length("lhs", product("lhs", lhs_dims)?, lhs.len())?;
    length("rhs", product("rhs", rhs_dims)?, rhs.len())?;
    let batches = product("output", batch)?;
    length("output", product("output", &[batches, m, n])?, output.len())?;
    let lhs_batch = lhs_dims.get(..lhs_dims.len() - 2).unwrap_or(&[]);
    let rhs_batch = rhs_dims.get(..rhs_dims.len() - 2).unwrap_or(&[]);
    let stage = OutputStage::new(Rounding::Double, params.output_zero_point, -128, 127);
    let scale = Scale::new(params.multiplier);
    // element (i, t) of a and (t, j) of b, as stored
    let a_at = |i: usize, t: usize| if params.adj_x { t * m + i } else { i * k + t };
    let b_at = |t: usize, j: usize| if params.adj_y { j * k + t } else { t * n + j };
    let mut outs = output.iter_mut();
    for p in 0..batches {
        // in range: each offset is a whole matrix within its operand
        let a0 = batch_offset(p, batch, lhs_batch) * m * k;
        let b0 = batch_offset(p, batch, rhs_batch) * k * n;
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0i32;
                for t in 0..k {
                    let a = i32::from(lhs.get(a0 + a_at(i, t)).copied().unwrap_or(0));
                    let b = i32::from(rhs.get(b0 + b_at(t, j)).copied().unwrap_or(0));
                    let product = a
                        .wrapping_sub(params.lhs_zero_point)
                        .wrapping_mul(b.wrapping_sub(params.rhs_zero_point));
                    acc = acc.wrapping_add(product);
                }
                if let Some(out) = outs.next() {
                    *out = stage.apply(acc, scale);
                }
            }
        }
    }
    Ok(())
}

/// TFLite's f32 `BATCH_MATMUL` (TFLite Micro's
/// `reference_ops::BatchMatMul` on floats): for each broadcast batch,
/// `out[i][j] = Σ_t a[i][t] · b[t][j]`, summed in f32 from +0 in the
/// order of `t`, one rounding per product and per sum (`a` read
/// transposed with `adj_x`, `b` with `adj_y`). The batch dims broadcast
/// as [`broadcast_shape`](crate::broadcast_shape) says; the output is
/// `[batch.., m, n]`, row-major.
///
/// Fails, with `output` untouched, when the operands' sizes do not agree
/// or a length does not match them.
///
/// ```
/// use shapecheck_tflite::batch_matmul_f32;
///
/// // [2, 2] · [2, 2]ᵀ (adj_y): each row of a against each row of b
/// let mut out = [0f32; 4];
/// batch_matmul_f32(&[1.0, 2.0, 3.0, 4.0], &[2, 2], &[1.0, 0.0, 0.5, 1.0], &[2, 2], false, true, &mut out)?;
/// assert_eq!(out, [1.0, 2.5, 3.0, 5.5]);
/// assert!(batch_matmul_f32(&[1.0; 6], &[2, 3], &[1.0; 4], &[2, 2], false, true, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn batch_matmul_f32(
    lhs: &[f32],
    lhs_dims: &[usize],
    rhs: &[f32],
    rhs_dims: &[usize],
    adj_x: bool,
    adj_y: bool,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    let MatmulSizes {
        batch,
        batch_rank,
        m,
        k,
        n,
    } = matmul_sizes(lhs_dims, rhs_dims, adj_x, adj_y)?;
    let batch = batch.get(..batch_rank).unwrap_or(&[]);
    length("lhs", product("lhs", lhs_dims)?, lhs.len())?;
    length("rhs", product("rhs", rhs_dims)?, rhs.len())?;
    let batches = product("output", batch)?;
    length("output", product("output", &[batches, m, n])?, output.len())?;
    let lhs_batch = lhs_dims.get(..lhs_dims.len() - 2).unwrap_or(&[]);
    let rhs_batch = rhs_dims.get(..rhs_dims.len() - 2).unwrap_or(&[]);
    // element (i, t) of a and (t, j) of b, as stored
    let a_at = |i: usize, t: usize| if adj_x { t * m + i } else { i * k + t };
    let b_at = |t: usize, j: usize| if adj_y { j * k + t } else { t * n + j };
    let mut outs = output.iter_mut();
    for p in 0..batches {
        // in range: each offset is a whole matrix within its operand
        let a0 = batch_offset(p, batch, lhs_batch) * m * k;
        let b0 = batch_offset(p, batch, rhs_batch) * k * n;
        for i in 0..m {
            for j in 0..n {
                let mut total = 0.0f32;
                for t in 0..k {
                    let a = lhs.get(a0 + a_at(i, t)).copied().unwrap_or(0.0);
                    let b = rhs.get(b0 + b_at(t, j)).copied().unwrap_or(0.0);
                    total += a * b;
                }
                if let Some(out) = outs.next() {
                    *out = total;
                }
            }
        }
    }
    Ok(())
}

// The interpreter's steps of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `BATCH_MATMUL`'s interpreter step: its operands' places in the int8
/// arena, their shapes and its parameters, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct BatchMatMulStep {
    pub lhs: Range<usize>,
    pub rhs: Range<usize>,
    pub output: Range<usize>,
    pub lhs_shape: OpShape,
    pub rhs_shape: OpShape,
    pub params: BatchMatMulParams,
}

impl crate::base::write_rust::WriteRust for BatchMatMulStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "BatchMatMulStep",
            &[
                ("lhs", &self.lhs),
                ("rhs", &self.rhs),
                ("output", &self.output),
                ("lhs_shape", &self.lhs_shape),
                ("rhs_shape", &self.rhs_shape),
                ("params", &self.params),
            ],
        )
    }
}

impl BatchMatMulStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let (a, x, y) = split2(b.int8, &self.lhs, &self.rhs, &self.output).ok_or(overlap)?;
        let (ls, rs) = (self.lhs_shape, self.rhs_shape);
        batch_matmul_int8(a, ls.dims(), x, rs.dims(), &self.params, y)
    }
}

/// `BATCH_MATMUL`'s f32 interpreter step: its operands' places in the
/// f32 arena, their shapes and flags, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct BatchMatMulF32Step {
    pub lhs: Range<usize>,
    pub rhs: Range<usize>,
    pub output: Range<usize>,
    pub lhs_shape: OpShape,
    pub rhs_shape: OpShape,
    pub adj_x: bool,
    pub adj_y: bool,
}

impl crate::base::write_rust::WriteRust for BatchMatMulF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "BatchMatMulF32Step",
            &[
                ("lhs", &self.lhs),
                ("rhs", &self.rhs),
                ("output", &self.output),
                ("lhs_shape", &self.lhs_shape),
                ("rhs_shape", &self.rhs_shape),
                ("adj_x", &self.adj_x),
                ("adj_y", &self.adj_y),
            ],
        )
    }
}

impl BatchMatMulF32Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let (a, x, y) = split2(b.float32, &self.lhs, &self.rhs, &self.output).ok_or(overlap)?;
        let (ls, rs) = (self.lhs_shape, self.rhs_shape);
        batch_matmul_f32(a, ls.dims(), x, rs.dims(), self.adj_x, self.adj_y, y)
    }
}

/// `BATCH_MATMUL`'s row's `prepare`: two activations, int8 (each with
/// one scale and zero point, through [`batch_matmul_params`]) or f32.
pub(crate) fn prepare<'m, S: From<BatchMatMulStep> + From<BatchMatMulF32Step>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    let output = &c.output;
    let lhs = c.input(0, "lhs")?;
    let rhs = c.input(1, "rhs")?;
    if lhs.dtype() == TensorType::Float32 {
        c.dtype("rhs", &rhs, TensorType::Float32)?;
        c.dtype("output", output, TensorType::Float32)?;
        return Ok(S::from(BatchMatMulF32Step {
            lhs: c.activation("lhs", &lhs)?.range,
            rhs: c.activation("rhs", &rhs)?.range,
            output: c.activation("output", output)?.range,
            lhs_shape: shape_of(&c.op, "lhs", &lhs)?,
            rhs_shape: shape_of(&c.op, "rhs", &rhs)?,
            adj_x: options.adj_x,
            adj_y: options.adj_y,
        }));
    }
    c.dtype("lhs", &lhs, TensorType::Int8)?;
    c.dtype("rhs", &rhs, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    let (lhs_scale, lhs_zero_point) = c.per_tensor("lhs", &lhs)?;
    let (rhs_scale, rhs_zero_point) = c.per_tensor("rhs", &rhs)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    let params = batch_matmul_params(
        lhs_scale,
        lhs_zero_point,
        rhs_scale,
        rhs_zero_point,
        output_scale,
        output_zero_point,
        options.adj_x,
        options.adj_y,
    )?;
    Ok(S::from(BatchMatMulStep {
        lhs: c.activation("lhs", &lhs)?.range,
        rhs: c.activation("rhs", &rhs)?.range,
        output: c.activation("output", output)?.range,
        lhs_shape: shape_of(&c.op, "lhs", &lhs)?,
        rhs_shape: shape_of(&c.op, "rhs", &rhs)?,
        params,
    }))
}
