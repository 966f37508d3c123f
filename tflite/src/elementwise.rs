//! The interpreter steps the element-wise ops share: a binary step (two
//! int8 operands, each an activation or a constant read in place,
//! broadcast as `ADD` broadcasts) for `MUL`, `SUB`, `DIV`, `MAXIMUM`,
//! `MINIMUM`, `SQUARED_DIFFERENCE` and `PRELU`, and a unary step (one int8
//! activation in, one out) for `RELU`, `RELU6`, `LEAKY_RELU`,
//! `HARD_SWISH`, `TANH`, `RSQRT` and the int8 → int8 `QUANTIZE`. Each op's
//! module checks its own operator (its `prepare`, over the operand checks
//! here) and derives its constants with its `_params`; the step holds
//! them as its kernel.

use core::ops::Range;

use crate::div::{div_int8, DivParams};
use crate::error::{OperandProblem, TfliteError};
use crate::hard_swish::{hard_swish_int8, HardSwishParams};
use crate::interpreter::{split, split2, Buffers, Checker, Source, Step};
use crate::leaky_relu::{leaky_relu_int8, LeakyReluParams};
use crate::maximum_minimum::{maximum, minimum};
use crate::mul::{mul_int8, MulParams};
use crate::ops::{shape_of, OpShape};
use crate::prelu::{prelu_int8, PreluParams};
use crate::relu::{relu6_int8, relu_int8, Relu6Params, ReluParams};
use crate::requantize::{requantize_int8, RequantizeParams};
use crate::rsqrt::{rsqrt_int8, RsqrtParams};
use crate::squared_difference::{squared_difference_int8, SquaredDifferenceParams};
use crate::sub::{sub_int8, SubParams};
use crate::tanh::{tanh_int8, TanhParams};
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

impl BinaryKernel {
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

/// A binary op's interpreter step: its operands' places (or constants)
/// and shapes, and its kernel.
#[derive(Clone)]
#[doc(hidden)]
pub struct BinaryStep<'m> {
    pub a: Source<'m>,
    pub b: Source<'m>,
    pub output: Range<usize>,
    pub a_shape: OpShape,
    pub b_shape: OpShape,
    pub kernel: BinaryKernel,
}

impl crate::compiled::WriteRust for BinaryStep<'_> {
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

impl BinaryStep<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = buffers.overlap;
        let int8 = &mut *buffers.int8;
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
                let (x1, x2, y) = split2(int8, &ra, &rb, &output).ok_or(overlap)?;
                kernel.apply(x1, a_dims, x2, b_dims, y)
            }
            (Source::Activation(ra), Source::Constant(c)) => {
                let (x1, y) = split(int8, &ra, &output).ok_or(overlap)?;
                kernel.apply(x1, a_dims, &c, b_dims, y)
            }
            (Source::Constant(c), Source::Activation(rb)) => {
                let (x2, y) = split(int8, &rb, &output).ok_or(overlap)?;
                kernel.apply(&c, a_dims, x2, b_dims, y)
            }
            (Source::Constant(c1), Source::Constant(c2)) => {
                let y = int8.get_mut(output).ok_or(overlap)?;
                kernel.apply(&c1, a_dims, &c2, b_dims, y)
            }
        }
    }
}

/// A binary operator's operands, checked: both inputs and the output
/// int8 with one scale and zero point each, the output as many elements
/// as the broadcast `shape`.
pub(crate) struct BinaryOperands<'m> {
    /// the scale and zero point of the first input, the second, the output
    pub(crate) quant: [(f32, i32); 3],
    a: Source<'m>,
    b: Source<'m>,
    output: Range<usize>,
    a_shape: OpShape,
    b_shape: OpShape,
}

impl<'m> BinaryOperands<'m> {
    /// The step running `kernel` on these operands.
    pub(crate) fn step(self, kernel: BinaryKernel) -> Step<'m> {
        Step::Binary(BinaryStep {
            a: self.a,
            b: self.b,
            output: self.output,
            a_shape: self.a_shape,
            b_shape: self.b_shape,
            kernel,
        })
    }
}

/// Checks a binary int8 operator (`shape`: its output's, the broadcast).
pub(crate) fn check_binary<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
) -> Result<BinaryOperands<'m>, TfliteError> {
    let output = &c.output;
    let a = c.input(0, "input1")?;
    let b = c.input(1, "input2")?;
    c.dtype("input1", &a, TensorType::Int8)?;
    c.dtype("input2", &b, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
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

/// A one-input op's interpreter step: its activations' places and its
/// kernel.
#[derive(Clone)]
#[doc(hidden)]
pub struct UnaryStep {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub kernel: UnaryKernel,
}

impl crate::compiled::WriteRust for UnaryStep {
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

impl UnaryStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
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

/// A one-input operator's operands, checked: an int8 activation in and
/// out, one scale and zero point each.
pub(crate) struct UnaryOperands {
    /// the scale and zero point of the input, then the output
    pub(crate) quant: [(f32, i32); 2],
    input: Range<usize>,
    output: Range<usize>,
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

/// Checks a one-input int8 operator (its output's shape, the input's, is
/// checked by the row's rule).
pub(crate) fn check_unary(c: &Checker<'_>) -> Result<UnaryOperands, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    Ok(UnaryOperands {
        quant: [
            c.per_tensor("input", &input)?,
            c.per_tensor("output", output)?,
        ],
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
    })
}
