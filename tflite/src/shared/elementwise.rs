//! The interpreter steps the element-wise ops share: a binary step (two
//! operands, each an activation or a constant read in place, broadcast as
//! `ADD` broadcasts) and a unary step (one activation in, one out), each
//! generic over its element type and its kernel. The kernel is the op's
//! constants, which implement [`BinaryApply`] or [`UnaryApply`] in the
//! op's own module. Each op's module checks its own operator (its
//! `prepare`, over the operand checks here) and derives its constants
//! with its `_params`; the step holds them as its kernel.

use core::marker::PhantomData;
use core::ops::Range;

use crate::format::array::LeNumber;
use crate::format::error::{OperandProblem, TfliteError};
use crate::format::types::TensorType;
use crate::format::values::Values;
use crate::kernel::checker::{split, split2, Checker, Source};
use crate::kernel::shape::{shape_of, OpShape};
use crate::kernel::step::{ArenaElement, Buffers};

/// A binary op's kernel over elements of type `T`: the op's constants
/// (its `_params`), implemented in the op's module by calling its kernel.
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

/// A binary op's interpreter step: its operands' places (or constants)
/// and shapes, and its kernel; int8 unless named.
#[derive(Clone)]
#[doc(hidden)]
pub struct BinaryStep<'m, T: LeNumber, K> {
    pub a: Source<'m, T>,
    pub b: Source<'m, T>,
    pub output: Range<usize>,
    pub a_shape: OpShape,
    pub b_shape: OpShape,
    pub kernel: K,
}

impl<T: LeNumber, K: crate::base::write_rust::WriteRust> crate::base::write_rust::WriteRust
    for BinaryStep<'_, T, K>
{
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
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

impl<T: LeNumber + ArenaElement, K: BinaryApply<T>> BinaryStep<'_, T, K> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = buffers.overlap;
        self.run_in(T::buffer(buffers), overlap)
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
pub(crate) struct BinaryOperands<'m, T: LeNumber> {
    /// the scale and zero point of the first input, the second, the output
    pub(crate) quant: [(f32, i32); 3],
    a: Source<'m, T>,
    b: Source<'m, T>,
    output: Range<usize>,
    a_shape: OpShape,
    b_shape: OpShape,
}

impl<'m, T: LeNumber> BinaryOperands<'m, T> {
    /// The step running `kernel` on these operands.
    pub(crate) fn step<K: BinaryApply<T>>(self, kernel: K) -> BinaryStep<'m, T, K> {
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

/// Checks a binary int8 operator (`shape`: its output's, the broadcast).
pub(crate) fn check_binary<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
) -> Result<BinaryOperands<'m, i8>, TfliteError> {
    check_binary_of(c, shape, TensorType::Int8)
}

/// Checks a binary int16 operator (`shape`: its output's, the broadcast).
pub(crate) fn check_binary_int16<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
) -> Result<BinaryOperands<'m, i16>, TfliteError> {
    check_binary_of(c, shape, TensorType::Int16)
}

/// Checks a binary operator whose operands are all `dtype` (`T`'s).
fn check_binary_of<'m, T: LeNumber>(
    c: &Checker<'m>,
    shape: &OpShape,
    dtype: TensorType,
) -> Result<BinaryOperands<'m, T>, TfliteError> {
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
    })
}

/// Checks that the inputs of an op that compares raw values (`MAXIMUM`,
/// `MINIMUM`) share the output's scale and zero point, as the converter
/// gives them: otherwise the larger raw value is not the larger real.
pub(crate) fn check_same_quantization(
    c: &Checker<'_>,
    operands: &BinaryOperands<'_, i8>,
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

/// A one-input op's kernel over elements of type `T`: the op's constants
/// (its `_params`), implemented in the op's module by calling its kernel.
#[doc(hidden)]
pub trait UnaryApply<T: Copy> {
    /// Writes the op of `x` into `y` (of `x`'s length).
    fn apply(&self, x: &[T], y: &mut [T]) -> Result<(), TfliteError>;
}

/// A one-input op's interpreter step: its activations' places and its
/// kernel, over elements of type `T`.
#[derive(Clone)]
#[doc(hidden)]
pub struct UnaryStep<T, K> {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub kernel: K,
    pub element: PhantomData<T>,
}

impl<T, K: crate::base::write_rust::WriteRust> crate::base::write_rust::WriteRust
    for UnaryStep<T, K>
{
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "UnaryStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("kernel", &self.kernel),
                ("element", &self.element),
            ],
        )
    }
}

impl<T: Copy + ArenaElement, K: UnaryApply<T>> UnaryStep<T, K> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, buffers: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = buffers.overlap;
        let (x, y) = split(T::buffer(buffers), &self.input, &self.output).ok_or(overlap)?;
        self.kernel.apply(x, y)
    }
}

/// A one-input operator's operands, checked: an activation in and out of
/// one type (`T`), one scale and zero point each.
pub(crate) struct UnaryOperands<T> {
    /// the scale and zero point of the input, then the output
    pub(crate) quant: [(f32, i32); 2],
    input: Range<usize>,
    output: Range<usize>,
    element: PhantomData<T>,
}

impl<T: Copy> UnaryOperands<T> {
    /// The step running `kernel` on these operands.
    pub(crate) fn step<K: UnaryApply<T>>(self, kernel: K) -> UnaryStep<T, K> {
        UnaryStep {
            input: self.input,
            output: self.output,
            kernel,
            element: PhantomData,
        }
    }
}

/// Checks a one-input int8 operator (its output's shape, the input's, is
/// checked by the row's rule).
pub(crate) fn check_unary(c: &Checker<'_>) -> Result<UnaryOperands<i8>, TfliteError> {
    check_unary_of(c, TensorType::Int8)
}

/// Checks a one-input int16 operator (its output's shape, the input's, is
/// checked by the row's rule).
pub(crate) fn check_unary_int16(c: &Checker<'_>) -> Result<UnaryOperands<i16>, TfliteError> {
    check_unary_of(c, TensorType::Int16)
}

/// Checks a one-input operator whose operands are `dtype`.
fn check_unary_of<T>(c: &Checker<'_>, dtype: TensorType) -> Result<UnaryOperands<T>, TfliteError> {
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
        element: PhantomData,
    })
}

/// The length check of the one-input element-wise kernels: the output is
/// as long as the input.
pub(crate) fn check_same_length(input: usize, output: usize) -> Result<(), TfliteError> {
    if output == input {
        Ok(())
    } else {
        Err(TfliteError::Length {
            what: "output",
            expected: input,
            actual: output,
        })
    }
}
