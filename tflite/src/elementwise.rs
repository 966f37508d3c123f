//! The interpreter steps the element-wise ops share: a binary step (two
//! int8 operands, each an activation or a constant read in place,
//! broadcast as `ADD` broadcasts) for `MUL`, `SUB`, `DIV`, `MAXIMUM`,
//! `MINIMUM`, `SQUARED_DIFFERENCE` and `PRELU`, and a unary step (one int8
//! activation in, one out) for `RELU`, `RELU6`, `LEAKY_RELU`,
//! `HARD_SWISH`, `TANH`, `RSQRT` and the int8 → int8 `QUANTIZE`; the same
//! steps on int16 operands (TFLite's 16x8 mode) for `MUL`, `TANH` and the
//! int16 → int16 `QUANTIZE`, each step generic over its kernel, which
//! names its element type. Each op's module checks its own operator (its
//! `prepare`, over the operand checks here) and derives its constants
//! with its `_params`; the step holds them as its kernel.

use core::marker::PhantomData;
use core::ops::Range;

use crate::array::LeNumber;
use crate::div::{div_int8, DivParams};
use crate::error::{OperandProblem, TfliteError};
use crate::hard_swish::{hard_swish_int8, HardSwishParams};
use crate::interpreter::{split, split2, Buffers, Checker, Source, Step};
use crate::leaky_relu::{leaky_relu_int8, LeakyReluParams};
use crate::maximum_minimum::{maximum, minimum};
use crate::mul::{mul_int16, mul_int8, MulParams};
use crate::ops::{shape_of, OpShape};
use crate::prelu::{prelu_int8, PreluParams};
use crate::relu::{relu6_int8, relu_int8, Relu6Params, ReluParams};
use crate::requantize::{requantize_int16, requantize_int8, RequantizeParams};
use crate::rsqrt::{rsqrt_int8, RsqrtParams};
use crate::squared_difference::{squared_difference_int8, SquaredDifferenceParams};
use crate::sub::{sub_int8, SubParams};
use crate::tanh::{tanh_int16, tanh_int8, TanhInt16Params, TanhParams};
use crate::types::TensorType;
use crate::values::Values;

/// A binary op's kernel and its constants.
#[derive(Clone)]
#[doc(hidden)]
pub enum BinaryKernel {
    Mul(MulParams),
    Sub(SubParams),
    Div(DivParams),
    Maximum,
    Minimum,
    SquaredDifference(SquaredDifferenceParams),
    Prelu(PreluParams),
}

impl crate::compiled::WriteRust for BinaryKernel {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            BinaryKernel::Mul(s) => crate::compiled::write_tuple(w, k, "BinaryKernel::Mul", &[s]),
            BinaryKernel::Sub(s) => crate::compiled::write_tuple(w, k, "BinaryKernel::Sub", &[s]),
            BinaryKernel::Div(s) => crate::compiled::write_tuple(w, k, "BinaryKernel::Div", &[s]),
            BinaryKernel::Maximum => crate::compiled::write_path(w, k, "BinaryKernel::Maximum"),
            BinaryKernel::Minimum => crate::compiled::write_path(w, k, "BinaryKernel::Minimum"),
            BinaryKernel::SquaredDifference(s) => {
                crate::compiled::write_tuple(w, k, "BinaryKernel::SquaredDifference", &[s])
            }
            BinaryKernel::Prelu(s) => {
                crate::compiled::write_tuple(w, k, "BinaryKernel::Prelu", &[s])
            }
        }
    }
}

/// An int16 binary op's kernel and its constants (TFLite's 16x8 mode).
#[derive(Clone)]
#[doc(hidden)]
pub enum BinaryKernelInt16 {
    Mul(MulParams),
}

impl crate::compiled::WriteRust for BinaryKernelInt16 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            BinaryKernelInt16::Mul(s) => {
                crate::compiled::write_tuple(w, k, "BinaryKernelInt16::Mul", &[s])
            }
        }
    }
}

/// A binary kernel on elements `T`: its operands broadcast into `y`.
#[doc(hidden)]
pub trait BinaryApply<T: Copy> {
    fn apply<A, B>(
        &self,
        a: &A,
        a_dims: &[usize],
        b: &B,
        b_dims: &[usize],
        y: &mut [T],
    ) -> Result<(), TfliteError>
    where
        A: Values<T> + ?Sized,
        B: Values<T> + ?Sized;
}

impl BinaryApply<i8> for BinaryKernel {
    fn apply<A, B>(
        &self,
        a: &A,
        a_dims: &[usize],
        b: &B,
        b_dims: &[usize],
        y: &mut [i8],
    ) -> Result<(), TfliteError>
    where
        A: Values<i8> + ?Sized,
        B: Values<i8> + ?Sized,
    {
        match self {
            BinaryKernel::Mul(p) => mul_int8(a, a_dims, b, b_dims, p, y),
            BinaryKernel::Sub(p) => sub_int8(a, a_dims, b, b_dims, p, y),
            BinaryKernel::Div(p) => div_int8(a, a_dims, b, b_dims, p, y),
            BinaryKernel::Maximum => maximum(a, a_dims, b, b_dims, y),
            BinaryKernel::Minimum => minimum(a, a_dims, b, b_dims, y),
            BinaryKernel::SquaredDifference(p) => {
                squared_difference_int8(a, a_dims, b, b_dims, p, y)
            }
            BinaryKernel::Prelu(p) => prelu_int8(a, a_dims, b, b_dims, p, y),
        }
    }
}

impl BinaryApply<i16> for BinaryKernelInt16 {
    fn apply<A, B>(
        &self,
        a: &A,
        a_dims: &[usize],
        b: &B,
        b_dims: &[usize],
        y: &mut [i16],
    ) -> Result<(), TfliteError>
    where
        A: Values<i16> + ?Sized,
        B: Values<i16> + ?Sized,
    {
        match self {
            BinaryKernelInt16::Mul(p) => mul_int16(a, a_dims, b, b_dims, p, y),
        }
    }
}

/// A binary op's interpreter step: its operands' places (or constants)
/// and shapes, and its kernel; int8 unless named.
#[derive(Clone)]
#[doc(hidden)]
pub struct BinaryStep<'m, T: LeNumber = i8, K = BinaryKernel> {
    pub a: Source<'m, T>,
    pub b: Source<'m, T>,
    pub output: Range<usize>,
    pub a_shape: OpShape,
    pub b_shape: OpShape,
    pub kernel: K,
}

impl<T: LeNumber, K: crate::compiled::WriteRust> crate::compiled::WriteRust
    for BinaryStep<'_, T, K>
{
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::compiled::write_struct(
            w,
            k,
            "BinaryStep",
            &[
                ("a", &self.a),
                ("b", &self.b),
                ("output", &self.output),
                ("a_shape", &self.a_shape),
                ("b_shape", &self.b_shape),
                ("kernel", &self.kernel),
            ],
        )
    }
}

/// An int16 binary op's interpreter step.
#[doc(hidden)]
pub type BinaryInt16Step<'m> = BinaryStep<'m, i16, BinaryKernelInt16>;

impl BinaryStep<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run_in(buffers.int8, buffers.overlap)
    }
}

impl BinaryInt16Step<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run_in(buffers.int16, buffers.overlap)
    }
}

impl<T: LeNumber, K: BinaryApply<T>> BinaryStep<'_, T, K> {
    /// Runs the step over its type's buffer.
    fn run_in(&self, arena: &mut [T], overlap: TfliteError) -> Result<(), TfliteError> {
        let BinaryStep {
            a,
            b,
            output,
            a_shape,
            b_shape,
            kernel,
        } = self;
        let (a_dims, b_dims) = (a_shape.dims(), b_shape.dims());
        match (a, b) {
            (Source::Activation(ra), Source::Activation(rb)) => {
                let (x1, x2, y) = split2(arena, ra, rb, output).ok_or(overlap)?;
                kernel.apply(x1, a_dims, x2, b_dims, y)
            }
            (Source::Activation(ra), Source::Constant(c)) => {
                let (x1, y) = split(arena, ra, output).ok_or(overlap)?;
                kernel.apply(x1, a_dims, c, b_dims, y)
            }
            (Source::Constant(c), Source::Activation(rb)) => {
                let (x2, y) = split(arena, rb, output).ok_or(overlap)?;
                kernel.apply(c, a_dims, x2, b_dims, y)
            }
            (Source::Constant(c1), Source::Constant(c2)) => {
                let y = arena.get_mut(output.clone()).ok_or(overlap)?;
                kernel.apply(c1, a_dims, c2, b_dims, y)
            }
        }
    }
}

/// A binary operator's operands, checked: both inputs and the output of
/// one type (int8 unless named) with one scale and zero point each, the
/// output as many elements as the broadcast `shape`; `K`, the kernels of
/// that type.
pub(crate) struct BinaryOperands<'m, T: LeNumber = i8, K = BinaryKernel> {
    /// the scale and zero point of the first input, the second, the output
    pub(crate) quant: [(f32, i32); 3],
    a: Source<'m, T>,
    b: Source<'m, T>,
    output: Range<usize>,
    a_shape: OpShape,
    b_shape: OpShape,
    kernel: PhantomData<K>,
}

impl<'m, T: LeNumber, K> BinaryOperands<'m, T, K> {
    /// The step's operands, running `kernel`.
    fn with(self, kernel: K) -> BinaryStep<'m, T, K> {
        BinaryStep {
            a: self.a,
            b: self.b,
            output: self.output,
            a_shape: self.a_shape,
            b_shape: self.b_shape,
            kernel,
        }
    }
}

impl<'m> BinaryOperands<'m> {
    /// The step running `kernel` on these operands.
    pub(crate) fn step(self, kernel: BinaryKernel) -> Step<'m> {
        Step::Binary(self.with(kernel))
    }
}

impl<'m> BinaryOperands<'m, i16, BinaryKernelInt16> {
    /// The step running `kernel` on these operands.
    pub(crate) fn step(self, kernel: BinaryKernelInt16) -> Step<'m> {
        Step::BinaryInt16(self.with(kernel))
    }
}

/// Checks a binary int8 operator (`shape`: its output's, the broadcast).
pub(crate) fn check_binary<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
) -> Result<BinaryOperands<'m>, TfliteError> {
    check_binary_of(c, shape, TensorType::Int8)
}

/// Checks a binary int16 operator (`shape`: its output's, the broadcast).
pub(crate) fn check_binary_int16<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
) -> Result<BinaryOperands<'m, i16, BinaryKernelInt16>, TfliteError> {
    check_binary_of(c, shape, TensorType::Int16)
}

/// Checks a binary operator whose operands are all `dtype` (`T`'s).
fn check_binary_of<'m, T: LeNumber, K>(
    c: &Checker<'m>,
    shape: &OpShape,
    dtype: TensorType,
) -> Result<BinaryOperands<'m, T, K>, TfliteError> {
    let output = &c.output;
    let a = c.input(0, "input1")?;
    let b = c.input(1, "input2")?;
    c.dtype("input1", &a, dtype)?;
    c.dtype("input2", &b, dtype)?;
    c.dtype("output", output, dtype)?;
    c.elements("output", output, shape.elements().unwrap_or(usize::MAX))?;
    Ok(BinaryOperands {
        quant: [
            c.per_tensor("input1", &a)?,
            c.per_tensor("input2", &b)?,
            c.per_tensor("output", output)?,
        ],
        a: c.source("input1", &a)?,
        b: c.source("input2", &b)?,
        output: c.activation("output", output)?.range,
        a_shape: shape_of(&c.op, "input1", &a)?,
        b_shape: shape_of(&c.op, "input2", &b)?,
        kernel: PhantomData,
    })
}

/// Checks that the inputs of an op that compares raw values (`MAXIMUM`,
/// `MINIMUM`) share the output's scale and zero point, as the converter
/// gives them: otherwise the larger raw value is not the larger real.
pub(crate) fn check_same_quantization(
    c: &Checker<'_>,
    operands: &BinaryOperands<'_>,
) -> Result<(), TfliteError> {
    let [a, b, out] = operands.quant;
    for (k, name, q) in [(0, "input1", a), (1, "input2", b)] {
        if q != out {
            let t = c.input(k, name)?;
            return Err(c.fail(
                name,
                &t,
                OperandProblem::Quantization(
                    "differs from the output's (the op compares raw values: one scale and zero point for all)",
                ),
            ));
        }
    }
    Ok(())
}

/// A one-input op's kernel and its constants.
#[derive(Clone)]
#[doc(hidden)]
pub enum UnaryKernel {
    Relu(ReluParams),
    Relu6(Relu6Params),
    LeakyRelu(LeakyReluParams),
    HardSwish(HardSwishParams),
    Tanh(TanhParams),
    Rsqrt(RsqrtParams),
    Requantize(RequantizeParams),
}

impl crate::compiled::WriteRust for UnaryKernel {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            UnaryKernel::Relu(s) => crate::compiled::write_tuple(w, k, "UnaryKernel::Relu", &[s]),
            UnaryKernel::Relu6(s) => crate::compiled::write_tuple(w, k, "UnaryKernel::Relu6", &[s]),
            UnaryKernel::LeakyRelu(s) => {
                crate::compiled::write_tuple(w, k, "UnaryKernel::LeakyRelu", &[s])
            }
            UnaryKernel::HardSwish(s) => {
                crate::compiled::write_tuple(w, k, "UnaryKernel::HardSwish", &[s])
            }
            UnaryKernel::Tanh(s) => crate::compiled::write_tuple(w, k, "UnaryKernel::Tanh", &[s]),
            UnaryKernel::Rsqrt(s) => crate::compiled::write_tuple(w, k, "UnaryKernel::Rsqrt", &[s]),
            UnaryKernel::Requantize(s) => {
                crate::compiled::write_tuple(w, k, "UnaryKernel::Requantize", &[s])
            }
        }
    }
}

/// An int16 one-input op's kernel and its constants (TFLite's 16x8 mode).
#[derive(Clone)]
#[doc(hidden)]
pub enum UnaryKernelInt16 {
    Tanh(TanhInt16Params),
    Requantize(RequantizeParams),
}

impl crate::compiled::WriteRust for UnaryKernelInt16 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            UnaryKernelInt16::Tanh(s) => {
                crate::compiled::write_tuple(w, k, "UnaryKernelInt16::Tanh", &[s])
            }
            UnaryKernelInt16::Requantize(s) => {
                crate::compiled::write_tuple(w, k, "UnaryKernelInt16::Requantize", &[s])
            }
        }
    }
}

/// A one-input op's interpreter step: its activations' places and its
/// kernel (int8 unless named).
#[derive(Clone)]
#[doc(hidden)]
pub struct UnaryStep<K = UnaryKernel> {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub kernel: K,
}

impl<K: crate::compiled::WriteRust> crate::compiled::WriteRust for UnaryStep<K> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::compiled::write_struct(
            w,
            k,
            "UnaryStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("kernel", &self.kernel),
            ],
        )
    }
}

/// An int16 one-input op's interpreter step.
#[doc(hidden)]
pub type UnaryInt16Step = UnaryStep<UnaryKernelInt16>;

impl UnaryStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(buffers.int8, &self.input, &self.output).ok_or(buffers.overlap)?;
        match &self.kernel {
            UnaryKernel::Relu(p) => relu_int8(x, p, y),
            UnaryKernel::Relu6(p) => relu6_int8(x, p, y),
            UnaryKernel::LeakyRelu(p) => leaky_relu_int8(x, p, y),
            UnaryKernel::HardSwish(p) => hard_swish_int8(x, p, y),
            UnaryKernel::Tanh(p) => tanh_int8(x, p, y),
            UnaryKernel::Rsqrt(p) => rsqrt_int8(x, p, y),
            UnaryKernel::Requantize(p) => requantize_int8(x, p, y),
        }
    }
}

impl UnaryInt16Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(buffers.int16, &self.input, &self.output).ok_or(buffers.overlap)?;
        match &self.kernel {
            UnaryKernelInt16::Tanh(p) => tanh_int16(x, p, y),
            UnaryKernelInt16::Requantize(p) => requantize_int16(x, p, y),
        }
    }
}

/// A one-input operator's operands, checked: an activation in and out of
/// one type (int8 unless named), one scale and zero point each; `K`, the
/// kernels of that type.
pub(crate) struct UnaryOperands<K = UnaryKernel> {
    /// the scale and zero point of the input, then the output
    pub(crate) quant: [(f32, i32); 2],
    input: Range<usize>,
    output: Range<usize>,
    kernel: PhantomData<K>,
}

impl UnaryOperands {
    /// The step running `kernel` on these operands.
    pub(crate) fn step<'m>(self, kernel: UnaryKernel) -> Step<'m> {
        Step::Unary(UnaryStep {
            input: self.input,
            output: self.output,
            kernel,
        })
    }
}

impl UnaryOperands<UnaryKernelInt16> {
    /// The step running `kernel` on these operands.
    pub(crate) fn step<'m>(self, kernel: UnaryKernelInt16) -> Step<'m> {
        Step::UnaryInt16(UnaryStep {
            input: self.input,
            output: self.output,
            kernel,
        })
    }
}

/// Checks a one-input int8 operator (its output's shape, the input's, is
/// checked by the row's rule).
pub(crate) fn check_unary(c: &Checker<'_>) -> Result<UnaryOperands, TfliteError> {
    check_unary_of(c, TensorType::Int8)
}

/// Checks a one-input int16 operator (its output's shape, the input's, is
/// checked by the row's rule).
pub(crate) fn check_unary_int16(
    c: &Checker<'_>,
) -> Result<UnaryOperands<UnaryKernelInt16>, TfliteError> {
    check_unary_of(c, TensorType::Int16)
}

/// Checks a one-input operator whose operands are `dtype`.
fn check_unary_of<K>(c: &Checker<'_>, dtype: TensorType) -> Result<UnaryOperands<K>, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, dtype)?;
    c.dtype("output", output, dtype)?;
    Ok(UnaryOperands {
        quant: [
            c.per_tensor("input", &input)?,
            c.per_tensor("output", output)?,
        ],
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        kernel: PhantomData,
    })
}
