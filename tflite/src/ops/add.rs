//! TFLite's int8 and int16 `ADD` on slices: two tensors with their own scales
//! and zero points, broadcast as numpy (and TFLite Micro) broadcast, as
//! TFLite Micro's `add.cc` and `reference_integer_ops::Add` compute it.

use crate::arith::dsp::arch::{requant4_shared, scale_halved};
use crate::arith::dsp::Requant4;
use crate::arith::quant::{
    quantize_multiplier_smaller_than_one, OutputStage, QuantizedMultiplier, Rounding, Scale,
};
use crate::arith::window::length;
use crate::format::array::LeNumber;
use crate::format::error::TfliteError;
use crate::format::model::OptionsReader;
use crate::format::types::Activation;
use crate::format::types::TensorType;
use crate::format::values::Values;
use crate::kernel::checker::split;
use crate::kernel::checker::split2;
use crate::kernel::checker::Checker;
use crate::kernel::checker::Source;
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use crate::shared::broadcast::{broadcast_binary, broadcast_binary_prechecked, Lane, Width};
use crate::shared::float_ops::BinaryF32Step;
use core::ops::Range;

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

impl crate::base::write_rust::WriteRust for AddParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "AddParams",
            &[
                ("input1_zero_point", &self.input1_zero_point),
                ("input1_multiplier", &self.input1_multiplier),
                ("input2_zero_point", &self.input2_zero_point),
                ("input2_multiplier", &self.input2_multiplier),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
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
    derive_params(
        Width::Int8,
        (input1_scale, input1_zero_point),
        (input2_scale, input2_zero_point),
        (output_scale, output_zero_point),
        (output_min, output_max),
    )
}

/// TFLite Micro's `CalculateOpDataAdd` for int16 (16x8 mode, the general
/// path with `pot_scale_int16` false): [`add_params`] with every zero
/// point 0 and the inputs shifted left by 15 bits rather than 20, so the
/// output multiplier is `2 · max(input1_scale, input2_scale) /
/// (2^15 · output_scale)`; the clamp inside [−32768, 32767].
///
/// ```
/// use shapecheck_tflite::add_params_int16;
///
/// let p = add_params_int16(0.5, 0.25, 1.0, -32768, 32767)?;
/// assert_eq!((p.input1_multiplier.multiplier(), p.input1_multiplier.shift()), (1 << 30, 0)); // 0.5
/// assert_eq!(p.output_multiplier.shift(), -14); // 1 / 2^15
/// assert!(add_params_int16(0.5, 0.25, 1.0, -40000, 32767).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_params_int16(
    input1_scale: f32,
    input2_scale: f32,
    output_scale: f32,
    output_min: i32,
    output_max: i32,
) -> Result<AddParams, TfliteError> {
    derive_params(
        Width::Int16,
        (input1_scale, 0),
        (input2_scale, 0),
        (output_scale, 0),
        (output_min, output_max),
    )
}

/// `CalculateOpDataAdd` for `width`: each operand's scale and zero point,
/// and the clamp.
fn derive_params(
    width: Width,
    (input1_scale, input1_zero_point): (f32, i32),
    (input2_scale, input2_zero_point): (f32, i32),
    (output_scale, output_zero_point): (f32, i32),
    (output_min, output_max): (i32, i32),
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
    check_params(
        width,
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
        "ADD's output multiplier 2 · max input scale / (2^left_shift · output scale)",
        twice_max_input_scale / (f64::from(1u32 << width.left_shift()) * f64::from(output_scale)),
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

/// The zero points and clamp of an `ADD` of `width`: for int8 each zero
/// point and clamp end in [−128, 127] (TFLite's `CheckArithmeticParams`);
/// for int16 each zero point 0 (TFLite's int16 activations are symmetric,
/// and a shifted input then fits `i32`) and each clamp end in
/// [−32768, 32767]; the clamp not empty. A `const fn`, so that a layer
/// built in a `const` is checked when the program is built.
const fn check_params(
    width: Width,
    input1_zero_point: i32,
    input2_zero_point: i32,
    output_zero_point: i32,
    output_min: i32,
    output_max: i32,
) -> Result<(), TfliteError> {
    let (zero, clamp, zero_rule, clamp_rule) = match width {
        Width::Int8 => (
            (-128, 127),
            (-128, 127),
            "an int8 zero point or clamp end is in [−128, 127]",
            "an int8 zero point or clamp end is in [−128, 127]",
        ),
        Width::Int16 => (
            (0, 0),
            (-32768, 32767),
            "an int16 zero point is 0",
            "an int16 clamp end is in [−32768, 32767]",
        ),
    };
    let values = [
        (
            "ADD's first input zero point",
            input1_zero_point,
            zero,
            zero_rule,
        ),
        (
            "ADD's second input zero point",
            input2_zero_point,
            zero,
            zero_rule,
        ),
        (
            "ADD's output zero point",
            output_zero_point,
            zero,
            zero_rule,
        ),
        ("ADD's output_min", output_min, clamp, clamp_rule),
        ("ADD's output_max", output_max, clamp, clamp_rule),
    ];
    // a `for` loop is not `const`: the slice taken apart, head by head
    let mut rest: &[(&'static str, i32, (i32, i32), &'static str)] = &values;
    while let [(what, v, (lo, hi), rule), tail @ ..] = rest {
        if *v < *lo || *v > *hi {
            return Err(TfliteError::KernelParam {
                what,
                value: *v as i64,
                rule,
            });
        }
        rest = tail;
    }
    if output_min > output_max {
        return Err(TfliteError::KernelParam {
            what: "ADD's output_min",
            value: output_min as i64,
            rule: "the clamp must not be empty: output_min ≤ output_max",
        });
    }
    Ok(())
}

impl AddParams {
    /// Checks the parameters as [`add_int8`] does before it writes: each
    /// zero point and clamp end in [−128, 127], the clamp not empty, each
    /// multiplier's shift at most 0 (every multiplier below 1). A `const
    /// fn`: a layer's parameters written in a `const` or `static` are
    /// checked when the program is built.
    ///
    /// ```
    /// use shapecheck_tflite::{add_params, QuantizedMultiplier};
    ///
    /// let p = add_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127)?;
    /// assert!(p.check().is_ok());
    /// let too_large = shapecheck_tflite::AddParams { output_multiplier: QuantizedMultiplier::from_parts(1 << 30, 1), ..p };
    /// assert!(too_large.check().is_err());
    /// const CHECKED: () = match (shapecheck_tflite::AddParams {
    ///     input1_zero_point: 0, input1_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0),
    ///     input2_zero_point: 0, input2_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0),
    ///     output_zero_point: 0, output_multiplier: QuantizedMultiplier::from_parts(1 << 30, -19),
    ///     output_min: -128, output_max: 127,
    /// }).check() {
    ///     Ok(()) => (),
    ///     Err(_) => panic!("bad ADD parameters"),
    /// };
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub const fn check(&self) -> Result<(), TfliteError> {
        self.check_for(Width::Int8)
    }

    /// [`AddParams::check`] for an `ADD` of `width`: an int16 one's zero
    /// points 0 and clamp inside int16 ([`add_int16`]).
    pub(crate) const fn check_for(&self, width: Width) -> Result<(), TfliteError> {
        if let Err(e) = check_params(
            width,
            self.input1_zero_point,
            self.input2_zero_point,
            self.output_zero_point,
            self.output_min,
            self.output_max,
        ) {
            return Err(e);
        }
        let shifts = [
            (
                "ADD's first input multiplier's shift",
                self.input1_multiplier,
            ),
            (
                "ADD's second input multiplier's shift",
                self.input2_multiplier,
            ),
            ("ADD's output multiplier's shift", self.output_multiplier),
        ];
        let mut rest: &[(&'static str, QuantizedMultiplier)] = &shifts;
        while let [(what, m), tail @ ..] = rest {
            if m.shift() > 0 {
                return Err(TfliteError::KernelParam {
                    what,
                    value: m.shift() as i64,
                    rule: "ADD's multipliers are below 1: their shifts are at most 0",
                });
            }
            rest = tail;
        }
        Ok(())
    }
}

/// TFLite's int8 `ADD` (TFLite Micro's `reference_integer_ops::Add` and
/// `BroadcastAdd4DSlow`, which broadcasts up to 6 dims): for each output
/// element and its two inputs `x1`, `x2` (broadcast as
/// [`broadcast_shape`](crate::broadcast_shape) says, all row-major),
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
    add_with(a, a_shape, b, b_shape, params, output)
}

/// TFLite's int16 `ADD` (TFLite Micro's `reference_ops::Add` with
/// `pot_scale` false, and `BroadcastAdd4DSlow`, for TFLite's 16x8 mode):
/// [`add_int8`]'s arithmetic on int16 values, each input shifted left by
/// 15 bits rather than 20 ([`add_params_int16`]), every zero point 0, the
/// clamp inside int16.
///
/// ```
/// use shapecheck_tflite::{add_int16, add_params_int16};
///
/// let params = add_params_int16(0.5, 0.5, 1.0, -32768, 32767)?;
/// let mut out = [0i16; 6];
/// // [2, 3] + [3]: the row broadcast over both rows
/// add_int16(&[2000, 4000, 6000, 8000, 10000, 12000], &[2, 3], &[0, 2000, -4000], &[3], &params, &mut out)?;
/// assert_eq!(out, [1000, 3000, 1000, 4000, 6000, 4000]); // (x + y) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_int16<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &AddParams,
    output: &mut [i16],
) -> Result<(), TfliteError>
where
    A: Values<i16> + ?Sized,
    B: Values<i16> + ?Sized,
{
    add_with(a, a_shape, b, b_shape, params, output)
}

/// [`add_int8`] and [`add_int16`]: the operands of type `T`, through
/// the one broadcasting loop ([`broadcast_binary`]) with the type's
/// kernel.
fn add_with<T, A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &AddParams,
    output: &mut [T],
) -> Result<(), TfliteError>
where
    T: Lane,
    A: Values<T> + ?Sized,
    B: Values<T> + ?Sized,
{
    params.check_for(T::WIDTH)?;
    let kernel = Kernel::new(params);
    broadcast_binary(a, a_shape, b, b_shape, output, |x1, x2| {
        kernel.apply(x1, x2)
    })
}

/// [`add_int8`] without its checks, for a caller that has made them hold
/// already (the typed layers of `shapecheck`, whose shapes are types and
/// whose parameters passed [`AddParams::check`] when the layer was
/// built): the shapes broadcast, in at most 6 dims, and the lengths are
/// theirs. On operands that break this, what it writes is unspecified,
/// but it never panics and never writes outside `output` (shapes that do
/// not broadcast: nothing).
///
/// ```
/// use shapecheck_tflite::{add_int8_prechecked, add_params};
///
/// let params = add_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127)?;
/// let mut out = [0i8; 2];
/// add_int8_prechecked(&[2, 4], &[2], &[6], &[1], &params, &mut out);
/// assert_eq!(out, [4, 5]); // (x + 6) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_int8_prechecked<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &AddParams,
    output: &mut [i8],
) where
    A: Values<i8> + ?Sized,
    B: Values<i8> + ?Sized,
{
    // one shape (no broadcast, a residual block's `ADD`), both inputs
    // slices: input 1 copied to the output, then input 2 added over it by
    // the in-place loop (four elements a word), bit for bit the same as
    // element by element
    if a_shape == b_shape {
        if let (Some(x1), Some(x2)) = (a.contiguous(), b.contiguous()) {
            if x1.len() == output.len() && x2.len() == output.len() {
                crate::base::bytes::copy_forward(output, x1);
                add_int8_in_place_prechecked(output, x2, AddOver::Input1, params);
                return;
            }
        }
    }
    let kernel = Kernel::new(params);
    broadcast_binary_prechecked(a, a_shape, b, b_shape, output, |x1, x2| {
        kernel.apply(x1, x2)
    });
}

/// Which input of an `ADD` its in-place form ([`add_int8_in_place`])
/// writes its output over.
///
/// ```
/// use shapecheck_tflite::AddOver;
///
/// assert_ne!(AddOver::Input1, AddOver::Input2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AddOver {
    /// the output is written over input 1 (`x1`)
    Input1,
    /// the output is written over input 2 (`x2`)
    Input2,
}

/// [`add_int8`] of two inputs of one shape (no broadcast), its output
/// written over one of them: `target` holds input 1 or input 2, as `over`
/// says, and `other` the other input; each output element is computed
/// from the two elements at its own index only, so writing it over
/// `target`'s element, once both are read, is bit for bit [`add_int8`]
/// into a separate output. The residual `ADD` of a block whose input is
/// not read after it needs no third tensor this way.
///
/// Fails, with `target` untouched, when the lengths differ or the
/// parameters do not pass [`AddParams::check`].
///
/// ```
/// use shapecheck_tflite::{add_int8, add_int8_in_place, add_params, AddOver};
///
/// let params = add_params(0.5, -3, 0.25, 4, 0.5, 2, -128, 127)?;
/// let (x1, x2) = ([10i8, -20, 30, 127], [1i8, 2, -3, 4]);
/// let mut apart = [0i8; 4];
/// add_int8(&x1, &[4], &x2, &[4], &params, &mut apart)?;
/// let mut over = x1;
/// add_int8_in_place(&mut over, &x2, AddOver::Input1, &params)?;
/// assert_eq!(over, apart);
/// let mut over = x2;
/// add_int8_in_place(&mut over, &x1, AddOver::Input2, &params)?;
/// assert_eq!(over, apart);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_int8_in_place(
    target: &mut [i8],
    other: &[i8],
    over: AddOver,
    params: &AddParams,
) -> Result<(), TfliteError> {
    params.check()?;
    length("ADD's other input", target.len(), other.len())?;
    add_int8_in_place_prechecked(target, other, over, params);
    Ok(())
}

/// [`add_int8_in_place`] with its parameters and lengths checked by the
/// caller (a length that differs computes fewer elements, never reads or
/// writes outside a slice): what `model!`'s in-place `ADD` and a
/// streamed run's `ADD` stage call.
///
/// ```
/// use shapecheck_tflite::{add_int8_in_place_prechecked, add_params, AddOver};
///
/// let params = add_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127)?;
/// let mut over = [2i8, 4];
/// add_int8_in_place_prechecked(&mut over, &[6, 8], AddOver::Input2, &params);
/// assert_eq!(over, [4, 6]); // (6 + 2) · 0.5, (8 + 4) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_int8_in_place_prechecked(
    target: &mut [i8],
    other: &[i8],
    over: AddOver,
    params: &AddParams,
) {
    // the elements both slices have
    let n = target.len().min(other.len());
    let (Some(target), Some(other)) = (target.get_mut(..n), other.get(..n)) else {
        return;
    };
    let (input_t, input_o) = match over {
        AddOver::Input1 => (input(params, Which::One), input(params, Which::Two)),
        AddOver::Input2 => (input(params, Which::Two), input(params, Which::One)),
    };
    let words = match (input_t, input_o, output_requant(params)) {
        (Some(Input::Exact(t)), Some(o), Some(q)) => add_words(target, other, t, o.scaled(), &q),
        (Some(t), Some(Input::Exact(o)), Some(q)) => add_words(target, other, t.scaled(), o, &q),
        _ => 0,
    };
    // the elements past the last whole word, or all of them where the
    // multipliers are not the word loop's (parameters built by hand)
    let kernel = Kernel::new(params);
    let (Some(target), Some(other)) = (target.get_mut(words..), other.get(words..)) else {
        return;
    };
    for (t, &o) in target.iter_mut().zip(other) {
        *t = match over {
            AddOver::Input1 => kernel.apply(*t, o),
            AddOver::Input2 => kernel.apply(o, *t),
        };
    }
}

/// The int8 `ADD`'s loop over whole words (issue 80): four elements of
/// each input read as one word, their four sums requantized together by
/// [`Requant4`] (`arch::requant4`, the convolutions' output stage: `SMMLAR`,
/// `SSAT`, `SSUB8` / `SEL` on the DSP extension) and written as one word.
/// Bit for bit [`Kernel::apply`]: each input's term is its
/// [`InputStage`]'s, exactly TFLite's `MultiplyByQuantizedMultiplierSmallerThanOneExp`
/// of `(x − zp) · 2^20`, their sum (at most 2^28 in magnitude, no
/// overflow) is the accumulator of the output stage, whose multiplier,
/// zero point and clamp are the `ADD`'s. Returns how many elements it
/// wrote (a multiple of 4, the slices' common whole words). Not inlined:
/// a streamed run's driver, which every model runs, inlines its caller,
/// and this loop there would change the driver's registers in models
/// with no `ADD`.
#[inline(never)]
fn add_words(
    target: &mut [i8],
    other: &[i8],
    t: impl InputStage,
    o: impl InputStage,
    q: &Requant4,
) -> usize {
    let (target, _) = target.as_chunks_mut::<4>();
    let (other, _) = other.as_chunks::<4>();
    let mut words = 0;
    for (tw, &[o0, o1, o2, o3]) in target.iter_mut().zip(other) {
        let [t0, t1, t2, t3] = *tw;
        let sums = [
            t.term(t0).wrapping_add(o.term(o0)),
            t.term(t1).wrapping_add(o.term(o1)),
            t.term(t2).wrapping_add(o.term(o2)),
            t.term(t3).wrapping_add(o.term(o3)),
        ];
        *tw = requant4_shared(sums, q).to_le_bytes().map(|b| b as i8);
        words += 1;
    }
    words * 4
}

/// One input's term of an int8 `ADD`'s sum: TFLite's
/// `MultiplyByQuantizedMultiplierSmallerThanOneExp((x − zp) · 2^20, M)`,
/// computed by [`add_words`] for each element.
trait InputStage: Copy {
    /// The term of element `x`.
    fn term(self, x: i8) -> i32;
}

/// The input of the larger scale (both, where the scales are equal):
/// its multiplier is exactly one half, `(2^30, 0)` (`add_params`
/// divides its scale by twice itself), so its term is exact:
/// `(x − zp) · 2^20` doubled-high-multiplied by 2^30 is `(x − zp) · 2^19`
/// with nothing to round, and a shift of 0 rounds nothing either.
#[derive(Clone, Copy)]
struct Exact {
    /// `zp · 2^19`
    zero_point: i32,
}

impl InputStage for Exact {
    #[inline(always)]
    fn term(self, x: i8) -> i32 {
        // |x − zp| ≤ 255: within ±2^27
        (i32::from(x) << 19).wrapping_sub(self.zero_point)
    }
}

/// An input of any multiplier [`Requant4`] takes, or the exact one half
/// as [`Requant4`]'s channel `[0, 0]` (a multiplier of 2^31 and a shift of
/// −1, which no conv layer has): [`scale_halved`], then `(· + 1) >> 1`.
/// For the half, `SMMLAR(a, 0, a)` is `a` and the term
/// `(a − [a < 0] + 1) >> 1`, which is `a / 2` because `a = (x − zp) · 2^20`
/// is even: the exact term (for an odd `a` below 0 it would not be).
#[derive(Clone, Copy)]
struct Scaled {
    /// `zp · 2^20`
    zero_point: i32,
    /// `[2m − 2^32, r − 1]`
    channel: [i32; 2],
}

impl InputStage for Scaled {
    #[inline(always)]
    fn term(self, x: i8) -> i32 {
        // |x − zp| · 2^20 < 2^28
        let a = (i32::from(x) << 20).wrapping_sub(self.zero_point);
        (scale_halved(a, self.channel) + 1) >> 1
    }
}

/// An input's stage: [`Exact`] for the multiplier one half, else
/// [`Scaled`].
#[derive(Clone, Copy)]
enum Input {
    Exact(Exact),
    Scaled(Scaled),
}

impl Input {
    /// The stage as a [`Scaled`] one (for the exact half, the channel
    /// `[0, 0]`).
    fn scaled(self) -> Scaled {
        match self {
            Input::Exact(e) => Scaled {
                zero_point: e.zero_point << 1,
                channel: [0, 0],
            },
            Input::Scaled(s) => s,
        }
    }
}

/// Which of an `ADD`'s inputs.
#[derive(Clone, Copy)]
enum Which {
    One,
    Two,
}

/// Input `which`'s stage in [`add_words`]; `None` where its multiplier is
/// neither one half nor one [`Requant4`] takes (only parameters built by
/// hand: [`add_params`] gives the input of the larger scale one half and
/// the other a multiplier in `[2^30, 2^31)` with a shift in `[−31, −1]`,
/// or `(0, 0)` below about 2^-32, whose stage gives 0), or the zero point
/// is not an int8 (checked by the callers).
fn input(p: &AddParams, which: Which) -> Option<Input> {
    let (zero_point, m) = match which {
        Which::One => (p.input1_zero_point, p.input1_multiplier),
        Which::Two => (p.input2_zero_point, p.input2_multiplier),
    };
    if !(-128..=127).contains(&zero_point) {
        return None;
    }
    if (m.multiplier(), m.shift()) == (1 << 30, 0) {
        return Some(Input::Exact(Exact {
            zero_point: zero_point << 19,
        }));
    }
    Some(Input::Scaled(Scaled {
        zero_point: zero_point << 20,
        channel: Requant4::channel(&[m], 0)?,
    }))
}

/// The `ADD`'s output stage as [`Requant4`] (one multiplier for the four
/// lanes), where it takes the output multiplier (every `ADD` of
/// [`add_params`] with an output scale above about `2^-19` times the larger
/// input scale).
fn output_requant(p: &AddParams) -> Option<Requant4> {
    let stage = OutputStage::new(
        Rounding::Double,
        p.output_zero_point,
        p.output_min,
        p.output_max,
    );
    Requant4::new(&[p.output_multiplier], 0, &stage)
}

/// TFLite's f32 `ADD` (TFLite Micro's `reference_ops::Add` and its 6-dim
/// broadcast): for each output element and its two inputs (broadcast as
/// [`broadcast_shape`](crate::broadcast_shape) says), `x1 + x2` in f32, then clamped as TFLite's
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
    crate::shared::float_ops::binary_f32(
        &AddF32,
        (a, a_shape),
        (b, b_shape),
        (output_min, output_max),
        output,
    )
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
    /// The kernel of parameters [`AddParams::check`] has passed (with
    /// others its arithmetic wraps: no panic, no meaning).
    fn new(p: &AddParams) -> Self {
        Kernel {
            input1_zero_point: p.input1_zero_point,
            input2_zero_point: p.input2_zero_point,
            output_zero_point: p.output_zero_point,
            input1: Scale::new(p.input1_multiplier),
            input2: Scale::new(p.input2_multiplier),
            output: Scale::new(p.output_multiplier),
            lo: p.output_min,
            hi: p.output_max,
        }
    }

    /// TFLite's `AddElementwise`. With the zero points in int8 (0 for
    /// int16), each shifted input is at most 2^28 (2^30) in magnitude and
    /// each scaled one at most half of that: no step overflows.
    #[inline(always)]
    fn apply<T: Lane>(&self, x1: T, x2: T) -> T {
        // a constant of the type: 20 for int8, 15 for int16
        let left_shift = const { T::WIDTH.left_shift() };
        // wrapping only where the parameters were not checked: with them
        // checked no step overflows
        let shifted1 = x1.into().wrapping_sub(self.input1_zero_point) << left_shift;
        let shifted2 = x2.into().wrapping_sub(self.input2_zero_point) << left_shift;
        // the multipliers are below 1 (checked): no left shift
        let scaled1 = self.input1.apply_below_one(shifted1);
        let scaled2 = self.input2.apply_below_one(shifted2);
        let raw = self
            .output
            .apply_below_one(scaled1.wrapping_add(scaled2))
            .wrapping_add(self.output_zero_point);
        // lo ≤ hi, both inside T (checked)
        T::narrow(raw.max(self.lo).min(self.hi))
    }
}

/// `ADD`'s options table in the schema's `BuiltinOptions` union.
const ADD_OPTIONS: u8 = 11;

/// Reads `ADD`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<AddOptions, TfliteError> {
    let t = r.table(ADD_OPTIONS, "AddOptions")?;
    let (act, pot) = match t {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("fused_activation_function"))?,
            t.bool(1).map_err(r.fault("pot_scale_int16"))?,
        ),
        None => (0, false),
    };
    Ok(AddOptions {
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
        pot_scale_int16: pot,
    })
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `ADD`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<AddStep<'m>> + From<BinaryF32Step<'m, AddF32>>>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    let a = c.input(0, "input1")?;
    if a.dtype() == TensorType::Float32 {
        return crate::shared::float_ops::prepare_binary_f32(
            c,
            shape,
            AddF32,
            options.fused_activation,
        )
        .map(S::from);
    }
    check_add(c, options, shape).map(S::from)
}

/// `add`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`]; int8, or int16 (16x8).
#[derive(Clone)]
#[doc(hidden)]
pub enum AddStep<'m> {
    Int8(AddLayer<'m, i8>),
    Int16(AddLayer<'m, i16>),
}

impl crate::base::write_rust::WriteRust for AddStep<'_> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            AddStep::Int8(s) => crate::base::write_rust::write_tuple(w, k, "AddStep::Int8", &[s]),
            AddStep::Int16(s) => crate::base::write_rust::write_tuple(w, k, "AddStep::Int16", &[s]),
        }
    }
}

/// One `ADD`'s operands of type `T` and its constants.
#[derive(Clone)]
#[doc(hidden)]
pub struct AddLayer<'m, T: LeNumber> {
    pub a: Source<'m, T>,
    pub b: Source<'m, T>,
    pub output: Range<usize>,
    pub a_shape: OpShape,
    pub b_shape: OpShape,
    pub params: AddParams,
}

impl<T: LeNumber> crate::base::write_rust::WriteRust for AddLayer<'_, T> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "AddLayer",
            &[
                ("a", &self.a),
                ("b", &self.b),
                ("output", &self.output),
                ("a_shape", &self.a_shape),
                ("b_shape", &self.b_shape),
                ("params", &self.params),
            ],
        )
    }
}

impl AddStep<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        match self {
            AddStep::Int8(layer) => layer.run(b.int8, b.overlap),
            AddStep::Int16(layer) => layer.run(b.int16, b.overlap),
        }
    }
}

// `AddLayer` is public (hidden) only for `model!`'s generated code, which
// names it; its `run` stays the crate's, over the crate's `Lane`
#[allow(private_bounds)]
impl<T: LeNumber + Lane> AddLayer<'_, T> {
    /// Runs the layer over its type's buffer.
    fn run(&self, arena: &mut [T], overlap: TfliteError) -> Result<(), TfliteError> {
        let AddLayer {
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
                let (x1, x2, y) = split2(arena, ra, rb, output).ok_or(overlap)?;
                add_with(x1, a_dims, x2, b_dims, params, y)
            }
            (Source::Activation(ra), Source::Constant(c)) => {
                let (x1, y) = split(arena, ra, output).ok_or(overlap)?;
                add_with(x1, a_dims, c, b_dims, params, y)
            }
            (Source::Constant(c), Source::Activation(rb)) => {
                let (x2, y) = split(arena, rb, output).ok_or(overlap)?;
                add_with(c, a_dims, x2, b_dims, params, y)
            }
            (Source::Constant(c1), Source::Constant(c2)) => {
                let y = arena.get_mut(output.clone()).ok_or(overlap)?;
                add_with(c1, a_dims, c2, b_dims, params, y)
            }
        }
    }
}

/// `ADD`, int8 or int16 (16x8, the general path: `pot_scale_int16`
/// false), each input with its own scale and zero point, numpy
/// broadcasting (`shape`, the op's rule's).
fn check_add<'m>(
    c: &Checker<'m>,
    options: AddOptions,
    shape: &OpShape,
) -> Result<AddStep<'m>, TfliteError> {
    let output = &c.output;
    let a = c.input(0, "input1")?;
    let b = c.input(1, "input2")?;
    let wide = a.dtype() == TensorType::Int16;
    let dtype = if wide {
        TensorType::Int16
    } else {
        TensorType::Int8
    };
    c.dtype("input1", &a, dtype)?;
    c.dtype("input2", &b, dtype)?;
    c.dtype("output", output, dtype)?;
    if wide && options.pot_scale_int16 {
        return Err(c.unsupported_option("pot_scale_int16", "true"));
    }
    c.elements("output", output, shape.elements().unwrap_or(usize::MAX))?;
    let (a_scale, a_zero_point) = c.per_tensor("input1", &a)?;
    let (b_scale, b_zero_point) = c.per_tensor("input2", &b)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    let (output_min, output_max) =
        c.clamp(options.fused_activation, output_scale, output_zero_point)?;
    let params = derive_params(
        if wide { Width::Int16 } else { Width::Int8 },
        (a_scale, a_zero_point),
        (b_scale, b_zero_point),
        (output_scale, output_zero_point),
        (output_min, output_max),
    )?;
    let a_shape = crate::kernel::shape::shape_of(&c.op, "input1", &a)?;
    let b_shape = crate::kernel::shape::shape_of(&c.op, "input2", &b)?;
    let output = c.activation("output", output)?.range;
    Ok(if wide {
        AddStep::Int16(AddLayer {
            a: c.source("input1", &a)?,
            b: c.source("input2", &b)?,
            output,
            a_shape,
            b_shape,
            params,
        })
    } else {
        AddStep::Int8(AddLayer {
            a: c.source("input1", &a)?,
            b: c.source("input2", &b)?,
            output,
            a_shape,
            b_shape,
            params,
        })
    })
}

/// `ADD`'s f32 function: `x1 + x2`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct AddF32;

impl crate::shared::float_ops::BinaryF32Apply for AddF32 {
    #[inline(always)]
    fn apply(&self, x1: f32, x2: f32) -> f32 {
        x1 + x2
    }
}

impl crate::base::write_rust::WriteRust for AddF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "AddF32")
    }
}

/// `AddOptions`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/add_residual_relu.tflite")))?;
/// let Options::Add(o) = model.operator(2).unwrap().options() else { panic!() };
/// assert_eq!(o.fused_activation, Activation::Relu);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AddOptions {
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `pot_scale_int16` (int16 models only)
    pub pot_scale_int16: bool,
}

/// The word loop's input stages against TFLite's
/// `MultiplyByQuantizedMultiplierSmallerThanOneExp` of `(x − zp) · 2^20`,
/// for every int8 `x`: the exact half ([`Exact`], and as the [`Scaled`]
/// channel `[0, 0]`) and any multiplier [`Requant4`] takes. A term one off
/// rarely changes an `ADD`'s output (the sum carries 20 more bits than
/// the output), so each term is checked here bit for bit.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::quant::{rounding_divide_by_pot, saturating_rounding_doubling_high_mul};
    use proptest::prelude::*;

    /// TFLite's term of `x`.
    fn tflite_term(x: i8, zero_point: i32, m: QuantizedMultiplier) -> i32 {
        let shifted = (i32::from(x) - zero_point) * (1 << 20);
        rounding_divide_by_pot(
            saturating_rounding_doubling_high_mul(shifted, m.multiplier()),
            u32::try_from(-m.shift()).unwrap(),
        )
    }

    fn params(zero_point: i32, m: QuantizedMultiplier) -> AddParams {
        AddParams {
            input1_zero_point: zero_point,
            input1_multiplier: m,
            input2_zero_point: 0,
            input2_multiplier: m,
            output_zero_point: 0,
            output_multiplier: QuantizedMultiplier::from_parts(1 << 30, -19),
            output_min: -128,
            output_max: 127,
        }
    }

    #[test]
    fn the_exact_half_is_tflite_s_term_both_ways() {
        let half = QuantizedMultiplier::from_parts(1 << 30, 0);
        for zero_point in -128..=127 {
            let Some(Input::Exact(exact)) = input(&params(zero_point, half), Which::One) else {
                panic!("one half is exact");
            };
            let scaled = Input::Exact(exact).scaled();
            for x in i8::MIN..=i8::MAX {
                let want = tflite_term(x, zero_point, half);
                assert_eq!(exact.term(x), want, "x {x}, zp {zero_point}");
                assert_eq!(scaled.term(x), want, "x {x}, zp {zero_point}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn a_scaled_input_is_tflite_s_term(
            zero_point in -128i32..=127,
            (q, shift) in ((1i32 << 30)..=i32::MAX, prop_oneof![-31i32..=-1, -3i32..=-1]),
        ) {
            let m = QuantizedMultiplier::from_parts(q, shift);
            let Some(Input::Scaled(scaled)) = input(&params(zero_point, m), Which::One) else {
                panic!("a multiplier in [2^30, 2^31) of shift in [−31, −1] is scaled");
            };
            for x in i8::MIN..=i8::MAX {
                prop_assert_eq!(scaled.term(x), tflite_term(x, zero_point, m), "x {}", x);
            }
        }
    }

    #[test]
    fn only_what_the_loop_computes_goes_to_it() {
        let half = QuantizedMultiplier::from_parts(1 << 30, 0);
        let p = params(0, half);
        assert!(input(&p, Which::One).is_some());
        // above one half (shift 0): no input multiplier `add_params` gives
        let wide = params(0, QuantizedMultiplier::from_parts((1 << 30) + 1, 0));
        assert!(input(&wide, Which::One).is_none());
        // a zero multiplier (TFLite's for a real one below 2^−31): the
        // stage Requant4 gives it, whose term is TFLite's 0
        for zero_point in [-128, 0, 5, 127] {
            let zero = params(zero_point, QuantizedMultiplier::ZERO);
            let Some(Input::Scaled(scaled)) = input(&zero, Which::One) else {
                panic!("a zero multiplier goes to the word loop");
            };
            for x in i8::MIN..=i8::MAX {
                let want = tflite_term(x, zero_point, QuantizedMultiplier::ZERO);
                assert_eq!(scaled.term(x), want, "x {x}");
            }
        }
        assert!(output_requant(&p).is_some());
        let shift_0 = AddParams {
            output_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0),
            ..p
        };
        assert!(output_requant(&shift_0).is_none());
    }
}
