//! TFLite's int8 `ADD` on slices: two int8 tensors with their own scales
//! and zero points, broadcast as numpy (and TFLite Micro) broadcast, as
//! TFLite Micro's `add.cc` and `reference_integer_ops::Add` compute it.

use crate::dims::{aligned, check_length, MAX_RANK};
use crate::error::TfliteError;
use crate::interpreter::split;
use crate::interpreter::split2;
use crate::interpreter::Buffers;
use crate::interpreter::Checker;
use crate::interpreter::Source;
use crate::interpreter::Step;
use crate::model::Model;
use crate::model::Operator;
use crate::model::OptionsReader;
use crate::ops::operand;
use crate::ops::shape_of;
use crate::ops::OpShape;
use crate::options::AddOptions;
use crate::options::Options;
use crate::quant::{quantize_multiplier_smaller_than_one, QuantizedMultiplier, Rounding, Scale};
use crate::types::Activation;
use crate::types::TensorType;
use crate::values::Values;
use core::ops::Range;

/// The bits each input is shifted left by before its rescaling (TFLite's
/// `left_shift` for int8; 15 for int16).
const LEFT_SHIFT: u32 = 20;

/// An int8 `ADD`'s parameters, as TFLite Micro's `CalculateOpDataAdd`
/// derives them from the three tensors' scales and zero points
/// ([`add_params`]). Each input, less its zero point, is shifted left by
/// 20 bits and scaled by its multiplier onto a common scale (twice the
/// larger input scale, over 2^20); the sum is scaled by the output
/// multiplier, moved to the output's zero point and clamped.
///
/// ```
/// use shapecheck_tflite::add_params;
///
/// let p = add_params(0.5, 0, 0.25, 0, 1.0, 0, -128, 127)?;
/// assert_eq!((p.input1_multiplier.multiplier(), p.input1_multiplier.shift()), (1 << 30, 0)); // 0.5
/// assert_eq!((p.input2_multiplier.multiplier(), p.input2_multiplier.shift()), (1 << 30, -1)); // 0.25
/// assert_eq!(p.output_multiplier.shift(), -19); // 1 / 2^20
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddParams {
    /// the first input's zero point, in [−128, 127]
    pub input1_zero_point: i32,
    /// `input1_scale / (2 · max(input1_scale, input2_scale))`, shift ≤ 0
    pub input1_multiplier: QuantizedMultiplier,
    /// the second input's zero point, in [−128, 127]
    pub input2_zero_point: i32,
    /// `input2_scale / (2 · max(input1_scale, input2_scale))`, shift ≤ 0
    pub input2_multiplier: QuantizedMultiplier,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `2 · max(input1_scale, input2_scale) / (2^20 · output_scale)`,
    /// shift ≤ 0
    pub output_multiplier: QuantizedMultiplier,
    /// the clamp's lower end, from the fused activation
    /// ([`activation_range_int8`](crate::activation_range_int8))
    pub output_min: i32,
    /// the clamp's upper end, at least `output_min`, at most 127
    pub output_max: i32,
}

/// TFLite Micro's `CalculateOpDataAdd` for int8: with
/// `twice_max = 2 · max(input1_scale, input2_scale)` (the larger scale in
/// `f32`, then in `f64`), the input multipliers
/// `input_scale / twice_max` and the output multiplier
/// `twice_max / (2^20 · output_scale)`, each in `f64`, quantized as
/// `QuantizeMultiplierSmallerThanOneExp` does (TFLite's
/// [`quantize_multiplier`](crate::quantize_multiplier), which must give a
/// shift of at most 0). `output_min` and `output_max` are the fused
/// activation's clamp ([`activation_range_int8`](crate::activation_range_int8)
/// of the output's scale and zero point).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, or an output multiplier not below 1 (an output
/// scale under `2 · max input scale / 2^20`: TFLite's check fails), and
/// with [`TfliteError::KernelParam`] for a zero point outside
/// [−128, 127] or a clamp that is empty or not within [−128, 127].
///
/// ```
/// use shapecheck_tflite::{add_params, TfliteError};
///
/// // add_broadcast_channel.tflite: x (0.0289, −1) + y (0.0073, −128) → (0.0344, −32)
/// let p = add_params(0.028890358, -1, 0.007299263, -128, 0.034407027, -32, -128, 127)?;
/// assert_eq!(p.input1_multiplier.multiplier(), 1 << 30); // the larger scale: 0.5
/// assert!(p.input2_multiplier.shift() < 0);
/// assert!(matches!(
///     add_params(0.5, 0, 0.5, 0, 1e-9, 0, -128, 127),
///     Err(TfliteError::KernelScale { .. })
/// ));
/// assert!(add_params(0.5, 0, 0.5, 200, 1.0, 0, -128, 127).is_err());
/// # Ok::<(), TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn add_params(
    input1_scale: f32,
    input1_zero_point: i32,
    input2_scale: f32,
    input2_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    output_min: i32,
    output_max: i32,
) -> Result<AddParams, TfliteError> {
    for (what, scale) in [
        ("ADD's first input scale", input1_scale),
        ("ADD's second input scale", input2_scale),
        ("ADD's output scale", output_scale),
    ] {
        if !scale.is_finite() || scale <= 0.0 {
            return Err(TfliteError::KernelScale {
                what,
                value: f64::from(scale),
                rule: "a scale must be a finite number above 0",
            });
        }
    }
    check_int8_params(
        input1_zero_point,
        input2_zero_point,
        output_zero_point,
        output_min,
        output_max,
    )?;
    let twice_max_input_scale = 2.0 * f64::from(input1_scale.max(input2_scale));
    let input1 = quantize_multiplier_smaller_than_one(
        "ADD's first input multiplier",
        f64::from(input1_scale) / twice_max_input_scale,
    )?;
    let input2 = quantize_multiplier_smaller_than_one(
        "ADD's second input multiplier",
        f64::from(input2_scale) / twice_max_input_scale,
    )?;
    let output = quantize_multiplier_smaller_than_one(
        "ADD's output multiplier 2 · max input scale / (2^20 · output scale)",
        twice_max_input_scale / (f64::from(1u32 << LEFT_SHIFT) * f64::from(output_scale)),
    )?;
    Ok(AddParams {
        input1_zero_point,
        input1_multiplier: input1,
        input2_zero_point,
        input2_multiplier: input2,
        output_zero_point,
        output_multiplier: output,
        output_min,
        output_max,
    })
}

/// The zero points and clamp of an int8 `ADD`: each zero point in
/// [−128, 127] (TFLite's `CheckArithmeticParams`), the clamp not empty and
/// within [−128, 127].
fn check_int8_params(
    input1_zero_point: i32,
    input2_zero_point: i32,
    output_zero_point: i32,
    output_min: i32,
    output_max: i32,
) -> Result<(), TfliteError> {
    for (what, v) in [
        ("ADD's first input zero point", input1_zero_point),
        ("ADD's second input zero point", input2_zero_point),
        ("ADD's output zero point", output_zero_point),
        ("ADD's output_min", output_min),
        ("ADD's output_max", output_max),
    ] {
        if !(-128..=127).contains(&v) {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(v),
                rule: "an int8 zero point or clamp end is in [−128, 127]",
            });
        }
    }
    if output_min > output_max {
        return Err(TfliteError::KernelParam {
            what: "ADD's output_min",
            value: i64::from(output_min),
            rule: "the clamp must not be empty: output_min ≤ output_max",
        });
    }
    Ok(())
}

/// The shape two operands broadcast to, as numpy and TFLite Micro
/// broadcast (`BroadcastBinaryOpSimple`, up to 6 dims here): the shapes
/// right-aligned (a shorter one has leading dims of 1), each output dim is
/// the inputs' dims where they are equal, or the other where one is 1 (so
/// 1 against 0 gives 0). Returns the output's dims and rank: the first
/// `rank` entries are the shape (`rank` is the longer input's rank), the
/// rest are 1. This is the one shape rule of [`add_int8`].
///
/// Fails with [`TfliteError::KernelParam`] for a rank above 6, and with
/// [`TfliteError::Broadcast`] where two dims differ and neither is 1.
///
/// ```
/// use shapecheck_tflite::{broadcast_shape, TfliteError};
///
/// let (dims, rank) = broadcast_shape(&[1, 5, 4, 6], &[6])?;
/// assert_eq!(&dims[..rank], &[1, 5, 4, 6]);
/// let (dims, rank) = broadcast_shape(&[3, 1], &[1, 4])?;
/// assert_eq!(&dims[..rank], &[3, 4]);
/// assert_eq!(broadcast_shape(&[], &[])?.1, 0); // two scalars
/// assert!(matches!(
///     broadcast_shape(&[2, 3], &[4]),
///     Err(TfliteError::Broadcast { axis: 1, first: 3, second: 4 })
/// ));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn broadcast_shape(a: &[usize], b: &[usize]) -> Result<([usize; 6], usize), TfliteError> {
    let rank = a.len().max(b.len());
    if rank > MAX_RANK {
        return Err(TfliteError::KernelParam {
            what: "ADD's input rank",
            value: i64::try_from(rank).unwrap_or(i64::MAX),
            rule: "TFLite Micro broadcasts up to 6 dims",
        });
    }
    let mut dims = [1usize; MAX_RANK];
    for (axis, d) in dims.iter_mut().take(rank).enumerate() {
        let (first, second) = (aligned(a, rank, axis), aligned(b, rank, axis));
        *d = if first == second || second == 1 {
            first
        } else if first == 1 {
            second
        } else {
            return Err(TfliteError::Broadcast {
                axis,
                first,
                second,
            });
        };
    }
    Ok((dims, rank))
}

/// TFLite's int8 `ADD` (TFLite Micro's `reference_integer_ops::Add` and
/// `BroadcastAdd4DSlow`, which broadcasts up to 6 dims): for each output
/// element and its two inputs `x1`, `x2` (broadcast as
/// [`broadcast_shape`] says, all row-major),
/// `s_i = multiply(((x_i − zp_i) · 2^20), M_i)`, then
/// `y = multiply(s_1 + s_2, M_out) + zp_out` clamped to
/// `[output_min, output_max]`, every multiply TFLite Micro's double
/// rounding ([`Rounding::Double`](crate::Rounding::Double)). Either input
/// may be a slice or a constant read in place from a model ([`Values`]).
/// Shapes equal once right-aligned take a path without index arithmetic.
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, an input's length is not its shape's element
/// count, `output` is not as long as the broadcast shape's count, or
/// `params` break [`add_params`]'s rules (a zero point or clamp end
/// outside [−128, 127], an empty clamp, a multiplier's shift above 0).
///
/// ```
/// use shapecheck_tflite::{add_int8, add_params};
///
/// let params = add_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127)?;
/// let mut out = [0i8; 6];
/// // [2, 3] + [3]: the row broadcast over both rows
/// add_int8(&[2, 4, 6, 8, 10, 12], &[2, 3], &[0, 2, -4], &[3], &params, &mut out)?;
/// assert_eq!(out, [1, 3, 1, 4, 6, 4]); // (x + y) · 0.5
/// assert!(add_int8(&[2, 4], &[2], &[1, 2, 3], &[3], &params, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_int8<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &AddParams,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    A: Values<i8> + ?Sized,
    B: Values<i8> + ?Sized,
{
    let kernel = Kernel::new(params)?;
    broadcast_binary(a, a_shape, b, b_shape, output, |x1, x2| {
        kernel.apply(x1, x2)
    })
}

/// TFLite's f32 `ADD` (TFLite Micro's `reference_ops::Add` and its 6-dim
/// broadcast): for each output element and its two inputs (broadcast as
/// [`broadcast_shape`] says), `x1 + x2` in f32, then clamped as TFLite's
/// `ActivationFunctionWithMinMax`: `max(·, output_min)`, then
/// `min(·, output_max)` ([`activation_range_f32`](crate::activation_range_f32)
/// gives the bounds of a fused activation). Either input may be a slice or
/// a constant read in place from a model ([`Values`]).
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, an input's length is not its shape's element
/// count, or `output` is not as long as the broadcast shape's count.
///
/// ```
/// use shapecheck_tflite::{activation_range_f32, add_f32, Activation};
///
/// let (lo, hi) = activation_range_f32(Activation::Relu)?;
/// let mut out = [0f32; 4];
/// // [2, 2] + [2]: the row added to both rows, then ReLU
/// add_f32(&[1.0, 2.0, 3.0, 4.0], &[2, 2], &[0.5, -3.0], &[2], lo, hi, &mut out)?;
/// assert_eq!(out, [1.5, 0.0, 3.5, 1.0]);
/// assert!(add_f32(&[1.0], &[2], &[1.0], &[1], lo, hi, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_f32<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output_min: f32,
    output_max: f32,
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    A: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    crate::float_ops::binary_f32(
        crate::float_ops::BinaryF32::Add,
        (a, a_shape),
        (b, b_shape),
        (output_min, output_max),
        output,
    )
}

/// The one broadcasting loop of the binary element-wise kernels (`ADD`,
/// `SUB`, `MUL`, `DIV`, `SQUARED_DIFFERENCE`, `MAXIMUM`, `MINIMUM`,
/// `PRELU` in int8, and `float_ops`' f32 `ADD`, `SUB`, `MUL` and
/// `SQUARED_DIFFERENCE`): `output[i] = f(a[i'], b[i''])`, the inputs broadcast as
/// [`broadcast_shape`] says, all row-major. Checks the shapes and every
/// length before writing: fails, with `output` untouched, when the shapes
/// do not broadcast or have more than 6 dims, an input's length is not its
/// shape's element count, or `output` is not as long as the broadcast
/// shape's count. Shapes equal once right-aligned take a path without
/// index arithmetic.
pub(crate) fn broadcast_binary<T, U, O, A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output: &mut [O],
    f: impl Fn(T, U) -> O,
) -> Result<(), TfliteError>
where
    T: Copy,
    U: Copy,
    O: Copy,
    A: Values<T> + ?Sized,
    B: Values<U> + ?Sized,
{
    let (out_dims, rank) = broadcast_shape(a_shape, b_shape)?;
    let out_dims = out_dims.get(..rank).unwrap_or(&[]);
    let a_count = check_length("first input", a_shape, a.count())?;
    let b_count = check_length("second input", b_shape, b.count())?;
    let count = check_length("output", out_dims, output.len())?;
    if count == 0 {
        return Ok(());
    }
    if a_count == count && b_count == count {
        // the same shape once right-aligned (no dim of either is broadcast
        // when both counts are the output's, none being 0)
        for (y, (x1, x2)) in output.iter_mut().zip(a.run(0, count).zip(b.run(0, count))) {
            *y = f(x1, x2);
        }
        return Ok(());
    }
    let plan = Plan::new(a_shape, b_shape, out_dims, rank);
    plan.run(a, b, &f, output);
    Ok(())
}

/// An `ADD`'s parameters checked, its multipliers split once per call.
struct Kernel {
    input1_zero_point: i32,
    input2_zero_point: i32,
    output_zero_point: i32,
    input1: Scale,
    input2: Scale,
    output: Scale,
    lo: i32,
    hi: i32,
}

impl Kernel {
    fn new(p: &AddParams) -> Result<Self, TfliteError> {
        check_int8_params(
            p.input1_zero_point,
            p.input2_zero_point,
            p.output_zero_point,
            p.output_min,
            p.output_max,
        )?;
        for (what, m) in [
            ("ADD's first input multiplier's shift", p.input1_multiplier),
            ("ADD's second input multiplier's shift", p.input2_multiplier),
            ("ADD's output multiplier's shift", p.output_multiplier),
        ] {
            if m.shift() > 0 {
                return Err(TfliteError::KernelParam {
                    what,
                    value: i64::from(m.shift()),
                    rule: "ADD's multipliers are below 1: their shifts are at most 0",
                });
            }
        }
        Ok(Kernel {
            input1_zero_point: p.input1_zero_point,
            input2_zero_point: p.input2_zero_point,
            output_zero_point: p.output_zero_point,
            input1: Scale::new(p.input1_multiplier),
            input2: Scale::new(p.input2_multiplier),
            output: Scale::new(p.output_multiplier),
            lo: p.output_min,
            hi: p.output_max,
        })
    }

    /// TFLite's `AddFunc` for int8. With the zero points in int8, each
    /// shifted input is below 2^28 in magnitude and each scaled one at
    /// most half of that: no step overflows.
    #[inline(always)]
    fn apply(&self, x1: i8, x2: i8) -> i8 {
        let shifted1 = (i32::from(x1) - self.input1_zero_point) << LEFT_SHIFT;
        let shifted2 = (i32::from(x2) - self.input2_zero_point) << LEFT_SHIFT;
        let scaled1 = self.input1.apply(shifted1, Rounding::Double);
        let scaled2 = self.input2.apply(shifted2, Rounding::Double);
        let raw = self.output.apply(scaled1 + scaled2, Rounding::Double) + self.output_zero_point;
        // lo ≤ hi, both in int8
        raw.max(self.lo).min(self.hi) as i8
    }
}

/// A broadcast as loops: the output's dims of more than 1, adjacent ones
/// merged where each input is broadcast along both or along neither (so
/// that a run of them is one contiguous block in every tensor); the last
/// is the inner loop.
struct Plan {
    /// merged dims, outermost first: the dim, and whether the first and
    /// the second input are broadcast along it (their dim is 1)
    dims: [(usize, bool, bool); MAX_RANK],
    /// how many (at least 1)
    len: usize,
}

impl Plan {
    fn new(a_shape: &[usize], b_shape: &[usize], out_dims: &[usize], rank: usize) -> Self {
        let mut dims = [(1usize, false, false); MAX_RANK];
        let mut len = 0usize;
        for (axis, &d) in out_dims.iter().enumerate() {
            if d == 1 {
                continue;
            }
            let a_broadcast = aligned(a_shape, rank, axis) == 1;
            let b_broadcast = aligned(b_shape, rank, axis) == 1;
            let previous = len
                .checked_sub(1)
                .and_then(|l| dims.get_mut(l))
                .filter(|p| p.1 == a_broadcast && p.2 == b_broadcast);
            if let Some(p) = previous {
                // the output's count fits: so does any product of its dims
                p.0 *= d;
            } else if let Some(slot) = dims.get_mut(len) {
                *slot = (d, a_broadcast, b_broadcast);
                len += 1;
            }
        }
        Plan {
            dims,
            len: len.max(1),
        }
    }

    /// An input's stride along each merged dim (0 where it is broadcast;
    /// `first` picks the first input).
    fn strides(&self, first: bool) -> [usize; MAX_RANK] {
        let mut strides = [0usize; MAX_RANK];
        let mut block = 1usize;
        for (s, &(d, a_broadcast, b_broadcast)) in
            strides.iter_mut().zip(&self.dims).take(self.len).rev()
        {
            if !(if first { a_broadcast } else { b_broadcast }) {
                *s = block;
                // at most the input's count
                block *= d;
            }
        }
        strides
    }

    fn run<T, U, O, A, B>(&self, a: &A, b: &B, f: &impl Fn(T, U) -> O, output: &mut [O])
    where
        T: Copy,
        U: Copy,
        O: Copy,
        A: Values<T> + ?Sized,
        B: Values<U> + ?Sized,
    {
        let a_strides = self.strides(true);
        let b_strides = self.strides(false);
        let last = self.len - 1;
        let (inner, a_broadcast, b_broadcast) =
            self.dims.get(last).copied().unwrap_or((1, false, false));
        let outer = self.dims.get(..last).unwrap_or(&[]);
        // the output is not empty: inner ≥ 1
        for (r, row) in output.chunks_exact_mut(inner.max(1)).enumerate() {
            // the row's start in each input, from its index along each
            // outer dim (innermost first)
            let mut rest = r;
            let (mut a_start, mut b_start) = (0usize, 0usize);
            for ((&(d, _, _), &sa), &sb) in outer.iter().zip(&a_strides).zip(&b_strides).rev() {
                let i = rest % d;
                rest /= d;
                a_start += i * sa;
                b_start += i * sb;
            }
            let (a_end, b_end) = (a_start + inner, b_start + inner);
            match (a_broadcast, b_broadcast) {
                (false, false) => binary_row(a.run(a_start, a_end), b.run(b_start, b_end), row, f),
                (false, true) => {
                    let Some(x2) = b.at(b_start) else { continue };
                    binary_row(a.run(a_start, a_end), core::iter::repeat(x2), row, f)
                }
                (true, false) => {
                    let Some(x1) = a.at(a_start) else { continue };
                    binary_row(core::iter::repeat(x1), b.run(b_start, b_end), row, f)
                }
                // not for a dim above 1: both inputs would have it
                (true, true) => {
                    let (Some(x1), Some(x2)) = (a.at(a_start), b.at(b_start)) else {
                        continue;
                    };
                    row.fill(f(x1, x2));
                }
            }
        }
    }
}

#[inline(always)]
fn binary_row<T, U, O>(
    xs1: impl Iterator<Item = T>,
    xs2: impl Iterator<Item = U>,
    row: &mut [O],
    f: &impl Fn(T, U) -> O,
) {
    for (y, (x1, x2)) in row.iter_mut().zip(xs1.zip(xs2)) {
        *y = f(x1, x2);
    }
}

/// `ADD`'s options table in the schema's `BuiltinOptions` union.
const ADD_OPTIONS: u8 = 11;

/// Reads `ADD`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<Options<'a>, TfliteError> {
    let t = r.table(ADD_OPTIONS, "AddOptions")?;
    let (act, pot) = match t {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("fused_activation_function"))?,
            t.bool(1).map_err(r.fault("pot_scale_int16"))?,
        ),
        None => (0, false),
    };
    Ok(Options::Add(AddOptions {
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
        pot_scale_int16: pot,
    }))
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

/// `ADD`, and the other binary element-wise ops' rows (`MUL`, `SUB`,
/// `DIV`, `MAXIMUM`, `MINIMUM`, `SQUARED_DIFFERENCE`, `PRELU`): numpy
/// broadcasting of the two inputs ([`broadcast_shape`](crate::broadcast_shape)).
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let a = operand(model, op, 0, "input1")?;
    let b = operand(model, op, 1, "input2")?;
    let (sa, sb) = (shape_of(op, "input1", &a)?, shape_of(op, "input2", &b)?);
    let (dims, rank) = crate::add::broadcast_shape(sa.dims(), sb.dims())?;
    Ok(OpShape { dims, rank })
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `ADD`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    let Options::Add(options) = c.op.options() else {
        return Err(c.unsupported());
    };
    let a = c.input(0, "input1")?;
    if a.dtype() == TensorType::Float32 {
        return crate::float_ops::prepare_binary_f32(
            c,
            shape,
            crate::float_ops::BinaryF32::Add,
            options.fused_activation,
        );
    }
    check_add(c, options, shape).map(Step::Add)
}

/// `add`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
pub(crate) struct AddStep<'m> {
    a: Source<'m>,
    b: Source<'m>,
    output: Range<usize>,
    a_shape: OpShape,
    b_shape: OpShape,
    params: AddParams,
}

impl AddStep<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let int8 = &mut *b.int8;
        let AddStep {
            a,
            b,
            output,
            a_shape,
            b_shape,
            params,
        } = self;
        let (a_dims, b_dims) = (a_shape.dims(), b_shape.dims());
        match (a, b) {
            (Source::Activation(ra), Source::Activation(rb)) => {
                let (x1, x2, y) = split2(int8, &ra, &rb, &output).ok_or(overlap)?;
                add_int8(x1, a_dims, x2, b_dims, &params, y)
            }
            (Source::Activation(ra), Source::Constant(c)) => {
                let (x1, y) = split(int8, &ra, &output).ok_or(overlap)?;
                add_int8(x1, a_dims, &c, b_dims, &params, y)
            }
            (Source::Constant(c), Source::Activation(rb)) => {
                let (x2, y) = split(int8, &rb, &output).ok_or(overlap)?;
                add_int8(&c, a_dims, x2, b_dims, &params, y)
            }
            (Source::Constant(c1), Source::Constant(c2)) => {
                let y = int8.get_mut(output).ok_or(overlap)?;
                add_int8(&c1, a_dims, &c2, b_dims, &params, y)
            }
        }
    }
}

/// `ADD`, int8, each input with its own scale and zero point, numpy
/// broadcasting (`shape`, the op's rule's).
fn check_add<'m>(
    c: &Checker<'m>,
    options: AddOptions,
    shape: &OpShape,
) -> Result<AddStep<'m>, TfliteError> {
    let output = &c.output;
    let a = c.input(0, "input1")?;
    let b = c.input(1, "input2")?;
    c.dtype("input1", &a, TensorType::Int8)?;
    c.dtype("input2", &b, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    c.elements("output", output, shape.elements().unwrap_or(usize::MAX))?;
    let (a_scale, a_zero_point) = c.per_tensor("input1", &a)?;
    let (b_scale, b_zero_point) = c.per_tensor("input2", &b)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    let (output_min, output_max) =
        c.clamp(options.fused_activation, output_scale, output_zero_point)?;
    let params = add_params(
        a_scale,
        a_zero_point,
        b_scale,
        b_zero_point,
        output_scale,
        output_zero_point,
        output_min,
        output_max,
    )?;
    Ok(AddStep {
        a: c.source("input1", &a)?,
        b: c.source("input2", &b)?,
        output: c.activation("output", output)?.range,
        a_shape: crate::ops::shape_of(&c.op, "input1", &a)?,
        b_shape: crate::ops::shape_of(&c.op, "input2", &b)?,
        params,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_merges_dims_broadcast_alike() {
        // [2, 3, 4, 5] + [1, 1, 4, 5]: one outer dim of 6, one inner of 20
        let plan = Plan::new(&[2, 3, 4, 5], &[4, 5], &[2, 3, 4, 5], 4);
        assert_eq!(
            &plan.dims[..plan.len],
            &[(6, false, true), (20, false, false)]
        );
        assert_eq!(&plan.strides(false)[..2], &[0, 1]);
        assert_eq!(&plan.strides(true)[..2], &[20, 1]);
        // dims of 1 drop out: [1, 5, 1, 6] + [1, 1, 1, 6]
        let plan = Plan::new(&[1, 5, 1, 6], &[1, 1, 1, 6], &[1, 5, 1, 6], 4);
        assert_eq!(
            &plan.dims[..plan.len],
            &[(5, false, true), (6, false, false)]
        );
        assert_eq!(&plan.strides(true)[..2], &[6, 1]);
        assert_eq!(&plan.strides(false)[..2], &[0, 1]);
        // all dims 1: one dim of 1
        let plan = Plan::new(&[1, 1], &[1], &[1, 1], 2);
        assert_eq!(&plan.dims[..plan.len], &[(1, false, false)]);
    }
}
