//! TFLite's `RESHAPE`: no change to the data, a checked change of shape.

use crate::arith::quant::QuantizedMultiplier;
use crate::format::array::Array;
use crate::format::error::OperandProblem;
use crate::format::error::TfliteError;
use crate::format::model::array;
use crate::format::model::Model;
use crate::format::model::Operator;
use crate::format::model::OptionsReader;
use crate::format::types::TensorType;
use crate::kernel::checker::split;
use crate::kernel::checker::Checker;
use crate::kernel::checker::Slot;
use crate::kernel::shape::operand;
use crate::kernel::shape::operand_problem;
use crate::kernel::shape::shape_of;
use crate::kernel::shape::OpShape;
use crate::kernel::shape::MAX_DIMS;
use crate::kernel::step::Buffers;

/// Checks a `RESHAPE` of a tensor of `input_elements` elements to
/// `new_shape` (TFLite's `new_shape`, with at most one −1 for the dim to
/// infer), as TFLite's reshape kernel sizes its output: the −1 stands for
/// `input_elements` over the product of the other dims, which must divide
/// it; without a −1 the product must be `input_elements`. Returns the
/// output's element count and the dim the −1 stands for (`None` without
/// one).
///
/// Fails with [`TfliteError::KernelParam`] naming the rule: a dim below −1,
/// two −1s, a −1 among dims whose product is 0 or does not divide the
/// input, or a product unequal to the input's.
///
/// ```
/// use shapecheck_tflite::reshape_dims;
///
/// // speech.tflite: [1, 1960] to [−1, 49, 40, 1]
/// assert_eq!(reshape_dims(1960, [-1, 49, 40, 1])?, (1960, Some(1)));
/// assert_eq!(reshape_dims(6, [2, 3])?, (6, None));
/// assert!(reshape_dims(6, [4, -1]).is_err()); // 4 does not divide 6
/// assert!(reshape_dims(6, [-1, -1]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn reshape_dims(
    input_elements: usize,
    new_shape: impl IntoIterator<Item = i32>,
) -> Result<(usize, Option<usize>), TfliteError> {
    let mut product: usize = 1;
    let mut inferred = false;
    for dim in new_shape {
        match dim {
            -1 if inferred => {
                return Err(TfliteError::KernelParam {
                    what: "reshape's second −1 dim",
                    value: -1,
                    rule: "at most one dim may be inferred",
                })
            }
            -1 => inferred = true,
            d => {
                let d = usize::try_from(d).map_err(|_| TfliteError::KernelParam {
                    what: "reshape's new dim",
                    value: i64::from(d),
                    rule: "a dim must be −1 (inferred) or at least 0",
                })?;
                product = product.checked_mul(d).ok_or(TfliteError::KernelParam {
                    what: "reshape's new shape's element count",
                    value: i64::MAX,
                    rule: "it overflows",
                })?;
            }
        }
    }
    let wide = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
    if inferred {
        if product == 0 || !input_elements.is_multiple_of(product) {
            return Err(TfliteError::KernelParam {
                what: "reshape's product of the known new dims",
                value: wide(product),
                rule: "it must be above 0 and divide the input's element count",
            });
        }
        return Ok((input_elements, Some(input_elements / product)));
    }
    if product != input_elements {
        return Err(TfliteError::KernelParam {
            what: "reshape's new element count",
            value: wide(product),
            rule: "it must equal the input's element count",
        });
    }
    Ok((product, None))
}

/// `RESHAPE`'s data: the input's elements, unchanged, into `output`.
/// Fails, with `output` untouched, when the lengths differ.
///
/// ```
/// use shapecheck_tflite::reshape;
///
/// let mut out = [0i8; 3];
/// reshape(&[1i8, 2, 3], &mut out)?;
/// assert_eq!(out, [1, 2, 3]);
/// assert!(reshape(&[1i8, 2], &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn reshape<T: Copy>(input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
    if input.len() != output.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    output.copy_from_slice(input);
    Ok(())
}

/// `RESHAPE`'s options table in the schema's `BuiltinOptions` union.
const RESHAPE_OPTIONS: u8 = 17;

/// Reads `RESHAPE`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<ReshapeOptions<'a>, TfliteError> {
    let t = r.table(RESHAPE_OPTIONS, "ReshapeOptions")?;
    let new_shape = match t {
        Some(t) => Some(array(t.vector(0, 4).map_err(r.fault("new_shape"))?)),
        None => None,
    };
    Ok(ReshapeOptions { new_shape })
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

/// `RESHAPE`: the new shape (the constant second input, else the
/// options'), one `-1` inferred; without either, the file's output shape.
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let from_tensor = op
        .input(1)
        .and_then(|i| model.tensor(i))
        .filter(|s| !s.data().is_empty())
        .and_then(|s| s.data_as::<i32>());
    let from_options = match read_options(&op.raw_options()) {
        Ok(r) => r.new_shape.filter(|s| !s.is_empty()),
        Err(_) => None,
    };
    let Some(new_shape) = from_tensor.or(from_options) else {
        let output =
            op.output(0)
                .and_then(|i| model.tensor(i))
                .ok_or(TfliteError::MissingOperand {
                    operator: op.index(),
                    op: op.op(),
                    operand: "output",
                })?;
        return shape_of(op, "output", &output);
    };
    let (_, inferred) = crate::ops::reshape::reshape_dims(input.elements(), new_shape)?;
    if new_shape.len() > MAX_DIMS {
        return Err(operand_problem(
            op,
            "input",
            &input,
            OperandProblem::Rank {
                expected: MAX_DIMS,
                found: new_shape.len(),
            },
        ));
    }
    let mut dims = [0usize; MAX_DIMS];
    for (slot, d) in dims.iter_mut().zip(new_shape.iter()) {
        *slot = usize::try_from(d).ok().or(inferred).unwrap_or(0);
    }
    Ok(OpShape {
        dims,
        rank: new_shape.len(),
    })
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `RESHAPE`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<ReshapeStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if read_options(&c.op.raw_options()).is_err() {
        return Err(c.unsupported());
    }
    check_reshape(c).map(S::from)
}

/// `reshape`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct ReshapeStep {
    pub input: Slot,
    pub output: Slot,
}

impl crate::base::write_rust::WriteRust for ReshapeStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ReshapeStep",
            &[("input", &self.input), ("output", &self.output)],
        )
    }
}

impl ReshapeStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let ReshapeStep { input, output } = self;
        let (from, to) = (&input.range, &output.range);
        if from == to {
            // a plan's packed layout: the output is its input's elements
            return Ok(());
        }
        match input.dtype {
            TensorType::Int8 => {
                let (x, y) = split(b.int8, from, to).ok_or(overlap)?;
                reshape(x, y)
            }
            TensorType::Int16 => {
                let (x, y) = split(b.int16, from, to).ok_or(overlap)?;
                reshape(x, y)
            }
            TensorType::Int32 => {
                let (x, y) = split(b.int32, from, to).ok_or(overlap)?;
                reshape(x, y)
            }
            _ => {
                let (x, y) = split(b.float32, from, to).ok_or(overlap)?;
                reshape(x, y)
            }
        }
    }
}

/// `RESHAPE`: the output's shape checked against the new shape (the
/// second input when it is a constant, else the options', as TFLite
/// reads them), the data copied.
fn check_reshape<'m>(c: &Checker<'m>) -> Result<ReshapeStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("output", output, input.dtype())?;
    c.elements("output", output, input.elements())?;
    let from_tensor = c
        .optional(1)
        .filter(|s| !s.data().is_empty())
        .and_then(|s| s.data_as::<i32>());
    let from_options = match read_options(&c.op.raw_options()) {
        Ok(r) => r.new_shape.filter(|s| !s.is_empty()),
        Err(_) => None,
    };
    if let Some(new_shape) = from_tensor.or(from_options) {
        let (_, inferred) = reshape_dims(input.elements(), new_shape)?;
        c.rank("output", output, new_shape.len())?;
        for (axis, d) in new_shape.iter().enumerate() {
            let expected = usize::try_from(d).ok().or(inferred).unwrap_or(0);
            c.dim("output", output, axis, expected)?;
        }
    }
    Ok(ReshapeStep {
        input: c.activation("input", &input)?,
        output: c.activation("output", output)?,
    })
}

// expand_dims is of reshape's family
pub(crate) mod expand_dims;

/// `ReshapeOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let Options::Reshape(r) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(r.new_shape.map(|s| s.len()), Some(4));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct ReshapeOptions<'a> {
    /// `new_shape` (-1 for the dim to infer), `None` when the options are
    /// absent (the shape then comes from the op's second input)
    pub new_shape: Option<Array<'a, i32>>,
}
