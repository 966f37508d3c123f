//! [`Interpreter`]: a parsed [`Model`] run op by op over buffers the caller
//! gives (no heap), for the ops of the models this crate is tested on.

use core::ops::Range;

use crate::add::{add_int8, add_params, AddParams};
use crate::array::Array;
use crate::conv::{conv_2d_int8, Conv2dDims, Conv2dParams};
use crate::depthwise_conv::{depthwise_conv_int8, DepthwiseConvDims, DepthwiseConvParams};
use crate::error::{Name, OperandProblem, Place, TfliteError};
use crate::fully_connected::{
    activation_range_f32, activation_range_int8, fully_connected_f32, fully_connected_int8,
    fully_connected_multiplier, FullyConnectedDims, FullyConnectedParams,
};
use crate::logistic::{logistic_int8, logistic_params, LogisticParams};
use crate::mean::{mean_int8, mean_params, MeanParams};
use crate::model::{Model, ModelTensor, Operator};
use crate::ops::{op_row, pad_amounts, spatial, OpShape, MAX_DIMS};
use crate::options::{
    AddOptions, Conv2dOptions, DepthwiseConv2dOptions, FullyConnectedOptions, Options,
    Pool2dOptions, SoftmaxOptions,
};
use crate::pad::pad;
use crate::pool::{average_pool_int8, max_pool_int8, PoolDims, PoolParams};
use crate::quant::{QuantizedMultiplier, Rounding};
use crate::quantize::{dequantize_int8, quantize_int8};
use crate::reshape::{reshape, reshape_dims};
use crate::softmax::{softmax_int8, softmax_params, SoftmaxParams};
use crate::types::{Activation, BuiltinOp, TensorType, WeightsFormat};

/// Whose int8 arithmetic the [`Interpreter`] reproduces: the two differ in
/// the rounding of `FULLY_CONNECTED`'s requantization only.
///
/// ```
/// use shapecheck_tflite::Arithmetic;
///
/// assert_eq!(Arithmetic::default(), Arithmetic::Micro);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Arithmetic {
    /// TFLite Micro's: gemmlowp's double rounding
    /// ([`Rounding::Double`]) for every op.
    #[default]
    Micro,
    /// TensorFlow 2.21's interpreter with its reference kernels: the single
    /// rounding ([`Rounding::Single`]) for `FULLY_CONNECTED`, the double for
    /// `DEPTHWISE_CONV_2D`. Its int8 `SOFTMAX` reference kernel is the same
    /// fixed point (`reference_ops::Softmax`) as TFLite Micro's, and agrees
    /// with it on every recorded input of speech.tflite.
    Reference,
}

/// How many elements of each type a model's activations take: the lengths
/// of the buffers an [`Interpreter`] needs ([`Interpreter::arena_sizes`]).
///
/// ```
/// use shapecheck_tflite::{Interpreter, Model};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let sizes = Interpreter::arena_sizes(&model)?;
/// // the input, the reshaped input, the convolution, the logits, the scores
/// assert_eq!(sizes.int8, 1960 + 1960 + 4000 + 4 + 4);
/// assert_eq!((sizes.float32, sizes.multipliers), (0, 8));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaSizes {
    /// elements of the int8 activations
    pub int8: usize,
    /// elements of the f32 activations
    pub float32: usize,
    /// requantization multipliers of the widest quantized layer (one per
    /// output channel)
    pub multipliers: usize,
}

/// The buffers an [`Interpreter`] runs in: one per activation type, each
/// activation tensor at its own place (none reused, so that every
/// intermediate tensor can be read after a run), and room for one layer's
/// multipliers. At least [`Interpreter::arena_sizes`] long; the rest is
/// not used.
///
/// Three things are called an arena: this one, the run-time interpreter's
/// borrowed slices (`shapecheck::tflite::Arena` from a crate that depends
/// on `shapecheck`); `shapecheck::ops::layers::Arena<T, N>`, the typed
/// buffer of one element type whose views `model!`'s `predict` hands its
/// layers; and each `model!` module's `Arena` (`sine::Arena`), that type
/// with the model's element type and size.
///
/// ```
/// use shapecheck_tflite::{Arena, QuantizedMultiplier};
///
/// let (mut int8, mut float32, mut multipliers) = ([0i8; 64], [0f32; 0], [QuantizedMultiplier::ZERO; 16]);
/// let arena = Arena { int8: &mut int8, float32: &mut float32, multipliers: &mut multipliers };
/// assert_eq!(arena.int8.len(), 64);
/// ```
#[derive(Debug)]
pub struct Arena<'a> {
    /// the int8 activations
    pub int8: &'a mut [i8],
    /// the f32 activations
    pub float32: &'a mut [f32],
    /// scratch for a layer's multipliers
    pub multipliers: &'a mut [QuantizedMultiplier],
}

/// A tensor's data in an [`Interpreter`]: the element types it runs.
///
/// ```
/// use shapecheck_tflite::TensorData;
///
/// let data = TensorData::Int8(&[1, 2, 3]);
/// assert_eq!(data.len(), 3);
/// assert_eq!(data.dtype(), shapecheck_tflite::TensorType::Int8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TensorData<'a> {
    /// int8 elements
    Int8(&'a [i8]),
    /// f32 elements
    Float32(&'a [f32]),
}

impl TensorData<'_> {
    /// The number of elements.
    ///
    /// ```
    /// use shapecheck_tflite::TensorData;
    ///
    /// assert_eq!(TensorData::Float32(&[0.5]).len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        match self {
            TensorData::Int8(d) => d.len(),
            TensorData::Float32(d) => d.len(),
        }
    }

    /// Whether there are no elements.
    ///
    /// ```
    /// use shapecheck_tflite::TensorData;
    ///
    /// assert!(TensorData::Int8(&[]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type.
    ///
    /// ```
    /// use shapecheck_tflite::{TensorData, TensorType};
    ///
    /// assert_eq!(TensorData::Float32(&[]).dtype(), TensorType::Float32);
    /// ```
    pub fn dtype(&self) -> TensorType {
        match self {
            TensorData::Int8(_) => TensorType::Int8,
            TensorData::Float32(_) => TensorType::Float32,
        }
    }
}

/// A parsed [`Model`] run op by op, in the order of its operators, over an
/// [`Arena`] the caller gives: no heap, no `std`. It runs
/// `FULLY_CONNECTED` (int8 and f32), `DEPTHWISE_CONV_2D` (int8, per-channel),
/// `RESHAPE` (int8 and f32) and `SOFTMAX` (int8), with TFLite's semantics
/// bit for bit ([`Arithmetic`] picks TFLite Micro's rounding or the
/// TFLite interpreter's). Constants (weights, biases) are read in place
/// from the model's bytes.
///
/// [`new`](Self::new) checks every operator once: an op it does not run,
/// or operands that do not fit the op (types, shapes, quantization), is an
/// error naming the operator and tensor. [`invoke`](Self::invoke) checks
/// them again before each op writes, and cannot panic.
///
/// ```
/// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, QuantizedMultiplier, TensorData};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// let sizes = Interpreter::arena_sizes(&model)?;
/// let mut int8 = vec![0i8; sizes.int8];
/// let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
/// let arena = Arena { int8: &mut int8, float32: &mut [], multipliers: &mut multipliers };
/// let mut interpreter = Interpreter::new(model, arena, Arithmetic::Micro)?;
/// interpreter.set_input(0, TensorData::Int8(&[-108]))?; // x = 0.5
/// interpreter.invoke()?;
/// assert_eq!(interpreter.output(0), Some(TensorData::Int8(&[57]))); // sin 0.5 ≈ 0.41
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Debug)]
pub struct Interpreter<'m, 'a> {
    model: Model<'m>,
    arena: Arena<'a>,
    arithmetic: Arithmetic,
}

/// Where an activation tensor lives: its type's buffer, and its elements
/// there.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Slot {
    dtype: TensorType,
    range: Range<usize>,
}

/// One operator, checked and ready to run (its multipliers, if any, in the
/// arena's scratch).
enum Step<'m> {
    FullyConnectedInt8 {
        input: Range<usize>,
        output: Range<usize>,
        weights: Array<'m, i8>,
        bias: Option<Array<'m, i32>>,
        dims: FullyConnectedDims,
        quantization: Quantized,
    },
    FullyConnectedF32 {
        input: Range<usize>,
        output: Range<usize>,
        weights: Array<'m, f32>,
        bias: Option<Array<'m, f32>>,
        dims: FullyConnectedDims,
        range: (f32, f32),
    },
    DepthwiseConvInt8 {
        input: Range<usize>,
        output: Range<usize>,
        filter: Array<'m, i8>,
        bias: Option<Array<'m, i32>>,
        dims: DepthwiseConvDims,
        strides: (usize, usize),
        dilations: (usize, usize),
        pads: (usize, usize),
        quantization: Quantized,
    },
    SoftmaxInt8 {
        input: Range<usize>,
        output: Range<usize>,
        depth: usize,
        params: SoftmaxParams,
    },
    Conv2dInt8 {
        input: Range<usize>,
        output: Range<usize>,
        filter: Array<'m, i8>,
        bias: Option<Array<'m, i32>>,
        dims: Conv2dDims,
        strides: (usize, usize),
        dilations: (usize, usize),
        pads: (usize, usize),
        quantization: Quantized,
    },
    PoolInt8 {
        max: bool,
        input: Range<usize>,
        output: Range<usize>,
        dims: PoolDims,
        params: PoolParams,
    },
    MeanInt8 {
        input: Range<usize>,
        output: Range<usize>,
        /// batches, height, width, depth
        sizes: [usize; 4],
        params: MeanParams,
    },
    AddInt8 {
        a: Source<'m>,
        b: Source<'m>,
        output: Range<usize>,
        a_shape: OpShape,
        b_shape: OpShape,
        params: AddParams,
    },
    Pad {
        input: Slot,
        output: Slot,
        shape: OpShape,
        paddings: [(usize, usize); MAX_DIMS],
        value: i8,
    },
    LogisticInt8 {
        input: Range<usize>,
        output: Range<usize>,
        params: LogisticParams,
    },
    Quantize {
        input: Range<usize>,
        output: Range<usize>,
        scale: f32,
        zero_point: i32,
    },
    Dequantize {
        input: Range<usize>,
        output: Range<usize>,
        scale: f32,
        zero_point: i32,
    },
    Reshape {
        input: Slot,
        output: Slot,
    },
}

/// An int8 operand that is an activation or a constant of the model.
enum Source<'m> {
    Activation(Range<usize>),
    Constant(Array<'m, i8>),
}

/// The requantization of a quantized layer: zero points, clamp, and how
/// many multipliers the scratch holds.
struct Quantized {
    input_zero_point: i32,
    weights_zero_point: i32,
    output_zero_point: i32,
    output_min: i32,
    output_max: i32,
    channels: usize,
}

/// The error for `operand` of `op` (`None`: the model's inputs), tensor
/// `t`, and its `problem`.
fn operand_error(
    op: Option<&Operator<'_>>,
    operand: &'static str,
    t: &ModelTensor<'_>,
    problem: OperandProblem,
) -> TfliteError {
    TfliteError::Operand {
        operator: op.map(|o| o.index()),
        op: op.map(|o| o.op()),
        operand,
        tensor: t.index(),
        name: Name::new(t.name()),
        problem,
    }
}

/// Whether a tensor is an activation (no constant data) of a type the
/// interpreter keeps.
fn is_activation(t: &ModelTensor<'_>) -> bool {
    t.data().is_empty() && matches!(t.dtype(), TensorType::Int8 | TensorType::Float32)
}

/// A tensor's shape as sizes (checked non-negative by `Model::parse`).
fn dim(t: &ModelTensor<'_>, axis: usize) -> usize {
    t.shape()
        .get(axis)
        .and_then(|d| usize::try_from(d).ok())
        .unwrap_or(0)
}

/// Where activation tensor `index` of `model` lives, or `None` for a
/// constant, a tensor of a type the interpreter does not keep, or an index
/// past the end: after the activations of the same type before it, in
/// index order.
fn slot(model: &Model<'_>, index: usize) -> Option<Slot> {
    let t = model.tensor(index)?;
    if !is_activation(&t) {
        return None;
    }
    let start = model
        .tensors()
        .take(index)
        .filter(|o| is_activation(o) && o.dtype() == t.dtype())
        .fold(0usize, |sum, o| sum.saturating_add(o.elements()));
    Some(Slot {
        dtype: t.dtype(),
        range: start..start.saturating_add(t.elements()),
    })
}

/// `(&arena[input], &mut arena[output])`, or `None` when they overlap
/// (an operator writing its own input) or lie outside.
fn split<'s, T>(
    arena: &'s mut [T],
    input: &Range<usize>,
    output: &Range<usize>,
) -> Option<(&'s [T], &'s mut [T])> {
    if input.end <= output.start {
        let (before, after) = arena.split_at_mut(output.start.min(arena.len()));
        let out = after.get_mut(..output.len())?;
        Some((before.get(input.clone())?, out))
    } else if output.end <= input.start {
        let (before, after) = arena.split_at_mut(input.start.min(arena.len()));
        let inp = after.get(..input.len())?;
        Some((inp, before.get_mut(output.clone())?))
    } else {
        None
    }
}

/// `(&arena[a], &arena[b], &mut arena[output])` for two inputs that may
/// overlap each other but not the output, or `None` when one does or a
/// range lies outside.
fn split2<'s, T>(
    arena: &'s mut [T],
    a: &Range<usize>,
    b: &Range<usize>,
    output: &Range<usize>,
) -> Option<(&'s [T], &'s [T], &'s mut [T])> {
    let disjoint = |r: &Range<usize>| r.end <= output.start || output.end <= r.start;
    if !disjoint(a) || !disjoint(b) {
        return None;
    }
    let (before, rest) = arena.split_at_mut(output.start.min(arena.len()));
    let (out, after) = rest.split_at_mut(output.len().min(rest.len()));
    if out.len() != output.len() {
        return None;
    }
    let (before, after) = (&*before, &*after);
    let pick = |r: &Range<usize>| {
        if r.end <= output.start {
            before.get(r.clone())
        } else {
            after.get(r.start - output.end..r.end - output.end)
        }
    };
    Some((pick(a)?, pick(b)?, out))
}

impl<'m, 'a> Interpreter<'m, 'a> {
    /// The lengths of the buffers `model` needs: the elements of its int8
    /// and f32 activations (every tensor without constant data), and the
    /// output channels of its widest quantized layer.
    ///
    /// Fails with [`TfliteError::TooManyElements`] when a sum overflows.
    ///
    /// ```
    /// use shapecheck_tflite::{Interpreter, Model};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// let sizes = Interpreter::arena_sizes(&model)?;
    /// assert_eq!((sizes.int8, sizes.float32, sizes.multipliers), (0, 1 + 16 + 16 + 1, 0));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn arena_sizes(model: &Model<'_>) -> Result<ArenaSizes, TfliteError> {
        let mut sizes = ArenaSizes {
            int8: 0,
            float32: 0,
            multipliers: 0,
        };
        for t in model.tensors().filter(is_activation) {
            let total = match t.dtype() {
                TensorType::Int8 => &mut sizes.int8,
                _ => &mut sizes.float32,
            };
            *total = total
                .checked_add(t.elements())
                .ok_or(TfliteError::TooManyElements {
                    place: Place::ModelTensor {
                        index: t.index(),
                        name: Name::new(t.name()),
                    },
                })?;
        }
        for op in model.operators() {
            // the output channels: the weights' and CONV_2D's filter's
            // dim 0, DEPTHWISE_CONV_2D's filter's dim 3
            let axis = match op.op() {
                BuiltinOp::FULLY_CONNECTED | BuiltinOp::CONV_2D => Some(0),
                BuiltinOp::DEPTHWISE_CONV_2D => Some(3),
                _ => None,
            };
            let channels = axis
                .and_then(|axis| {
                    op.input(1)
                        .and_then(|i| model.tensor(i))
                        .filter(|w| w.dtype() == TensorType::Int8)
                        .map(|w| dim(&w, axis))
                })
                .unwrap_or(0);
            sizes.multipliers = sizes.multipliers.max(channels);
        }
        Ok(sizes)
    }

    /// An interpreter of `model` in `arena`, with `arithmetic`'s rounding.
    /// Checks that the arena is large enough ([`TfliteError::Arena`]) and
    /// every operator: an op it does not run is
    /// [`TfliteError::UnsupportedOp`] (naming the operator and the tensor it
    /// writes), an operand that does not fit is [`TfliteError::Operand`],
    /// a parameter outside TFLite's range a [`TfliteError::KernelParam`] or
    /// [`TfliteError::SoftmaxScale`].
    ///
    /// ```
    /// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, TfliteError};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// let mut small = [0i8; 10];
    /// let arena = Arena { int8: &mut small, float32: &mut [], multipliers: &mut [] };
    /// let err = Interpreter::new(model, arena, Arithmetic::Micro).unwrap_err();
    /// assert_eq!(err.to_string(), "the int8 activations need 7928 elements, and their buffer has 10");
    /// # Ok::<(), TfliteError>(())
    /// ```
    pub fn new(
        model: Model<'m>,
        arena: Arena<'a>,
        arithmetic: Arithmetic,
    ) -> Result<Self, TfliteError> {
        let sizes = Self::arena_sizes(&model)?;
        for (what, needed, given) in [
            ("int8 activations", sizes.int8, arena.int8.len()),
            ("f32 activations", sizes.float32, arena.float32.len()),
            ("multipliers", sizes.multipliers, arena.multipliers.len()),
        ] {
            if given < needed {
                return Err(TfliteError::Arena {
                    what,
                    needed,
                    given,
                });
            }
        }
        let mut interpreter = Interpreter {
            model,
            arena,
            arithmetic,
        };
        for op in model.operators() {
            interpreter.prepare(&op)?;
        }
        Ok(interpreter)
    }

    /// The model.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// # let mut f = [0f32; 34];
    /// let interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [] }, Arithmetic::Micro)?;
    /// assert_eq!(interpreter.model().operator_count(), 3);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn model(&self) -> &Model<'m> {
        &self.model
    }

    /// Where activation tensor `index` lives ([`slot`]).
    fn slot(&self, index: usize) -> Option<Slot> {
        slot(&self.model, index)
    }

    /// The data of tensor `index` (an activation: an input, an op's output),
    /// or `None` for a constant or an index past the end. Before a run
    /// every activation but the inputs set is zero (or what the arena held).
    ///
    /// ```
    /// # use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, TensorData};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// # let mut f = [0f32; 34];
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [] }, Arithmetic::Micro)?;
    /// interpreter.set_input(0, TensorData::Float32(&[1.0]))?;
    /// interpreter.invoke()?;
    /// let Some(TensorData::Float32(hidden)) = interpreter.tensor(7) else { panic!() };
    /// assert_eq!(hidden.len(), 16); // the first layer's ReLU'd output
    /// assert!(interpreter.tensor(4).is_none()); // a weight
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn tensor(&self, index: usize) -> Option<TensorData<'_>> {
        let slot = self.slot(index)?;
        Some(match slot.dtype {
            TensorType::Int8 => TensorData::Int8(self.arena.int8.get(slot.range)?),
            _ => TensorData::Float32(self.arena.float32.get(slot.range)?),
        })
    }

    /// The data of the model's output `k`, or `None` past the last output.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, TensorData};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// # let mut f = [0f32; 34];
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [] }, Arithmetic::Micro)?;
    /// interpreter.set_input(0, TensorData::Float32(&[1.5708]))?;
    /// interpreter.invoke()?;
    /// let Some(TensorData::Float32(&[y])) = interpreter.output(0) else { panic!() };
    /// assert!((y - 1.0).abs() < 0.1); // sin(π/2)
    /// assert!(interpreter.output(1).is_none());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn output(&self, k: usize) -> Option<TensorData<'_>> {
        self.tensor(usize::try_from(self.model.outputs().get(k)?).ok()?)
    }

    /// Copies `data` into the model's input `k`. Fails with
    /// [`TfliteError::IndexOutOfRange`] past the last input, and with
    /// [`TfliteError::Operand`] when the input is a constant or of
    /// another type, or `data` is not as long as the input's elements.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, TensorData};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// # let mut f = [0f32; 34];
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [] }, Arithmetic::Micro)?;
    /// let err = interpreter.set_input(0, TensorData::Int8(&[1])).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the model's input, tensor 0 \"serving_default_dense_input:0\": its type is INT8, not FLOAT32"
    /// );
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn set_input(&mut self, k: usize, data: TensorData<'_>) -> Result<(), TfliteError> {
        let count = self.model.inputs().len();
        let input = self.model.input(k).ok_or(TfliteError::IndexOutOfRange {
            place: Place::Subgraph,
            what: "input",
            index: i64::try_from(k).unwrap_or(i64::MAX),
            count,
        })?;
        let fail = |problem| operand_error(None, "input", &input, problem);
        if data.dtype() != input.dtype() {
            return Err(fail(OperandProblem::Dtype {
                expected: input.dtype(),
                found: data.dtype(),
            }));
        }
        let slot = self
            .slot(input.index())
            .ok_or(fail(OperandProblem::Constant { expected: false }))?;
        if data.len() != slot.range.len() {
            return Err(fail(OperandProblem::InputLength {
                expected: slot.range.len(),
                found: data.len(),
            }));
        }
        match data {
            TensorData::Int8(d) => {
                if let Some(dst) = self.arena.int8.get_mut(slot.range) {
                    dst.copy_from_slice(d);
                }
            }
            TensorData::Float32(d) => {
                if let Some(dst) = self.arena.float32.get_mut(slot.range) {
                    dst.copy_from_slice(d);
                }
            }
        }
        Ok(())
    }

    /// Runs every operator in order. Each is checked again before it
    /// writes its output; an error stops the run there (the outputs of the
    /// operators before it are written).
    ///
    /// ```
    /// # use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, QuantizedMultiplier, TensorData};
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// let mut int8 = vec![0i8; 7928];
    /// let mut m = [QuantizedMultiplier::ZERO; 8];
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut int8, float32: &mut [], multipliers: &mut m }, Arithmetic::Micro)?;
    /// interpreter.set_input(0, TensorData::Int8(&[-123; 1960]))?; // every feature 0.5
    /// interpreter.invoke()?;
    /// // the models README's cross-check with microflow
    /// assert_eq!(interpreter.output(0), Some(TensorData::Int8(&[-88, -58, -58, -52])));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn invoke(&mut self) -> Result<(), TfliteError> {
        for op in self.model.operators() {
            let step = self.prepare(&op)?;
            self.run(&op, step)?;
        }
        Ok(())
    }

    /// Checks operator `op` and works out what to run (writing its
    /// multipliers, if any, into the scratch).
    fn prepare(&mut self, op: &Operator<'m>) -> Result<Step<'m>, TfliteError> {
        let checker = Checker::new(self.model, *op)?;
        let scratch = &mut *self.arena.multipliers;
        // the op's row: the ops shapecheck runs, and each one's shape rule
        let row = op_row(op.op()).ok_or_else(|| checker.unsupported())?;
        let shape = (row.output_shape)(&self.model, op)?;
        checker.output_shape(&shape)?;
        match (op.op(), op.options()) {
            (BuiltinOp::FULLY_CONNECTED, Options::FullyConnected(options)) => {
                checker.fully_connected(options, scratch)
            }
            (BuiltinOp::CONV_2D, Options::Conv2d(options)) => checker.conv_2d(options, scratch),
            (BuiltinOp::DEPTHWISE_CONV_2D, Options::DepthwiseConv2d(options)) => {
                checker.depthwise_conv(options, scratch)
            }
            (BuiltinOp::AVERAGE_POOL_2D, Options::Pool2d(options)) => checker.pool(options, false),
            (BuiltinOp::MAX_POOL_2D, Options::Pool2d(options)) => checker.pool(options, true),
            (BuiltinOp::MEAN, _) => checker.mean(),
            (BuiltinOp::ADD, Options::Add(options)) => checker.add(options, &shape),
            (BuiltinOp::PAD, _) => checker.pad(),
            (BuiltinOp::LOGISTIC, _) => checker.logistic(),
            (BuiltinOp::SOFTMAX, Options::Softmax(options)) => checker.softmax(options),
            (BuiltinOp::RESHAPE, Options::Reshape(_) | Options::None) => checker.reshape(),
            (BuiltinOp::QUANTIZE, _) => checker.quantize(),
            (BuiltinOp::DEQUANTIZE, _) => checker.dequantize(),
            _ => Err(checker.unsupported()),
        }
    }

    /// Runs a checked step.
    fn run(&mut self, op: &Operator<'m>, step: Step<'m>) -> Result<(), TfliteError> {
        // `prepare` rejected an output that is the input, and the
        // activations of two tensors never overlap: this error is not met
        let overlap = match op.output(0).and_then(|i| self.model.tensor(i)) {
            Some(output) => operand_error(Some(op), "output", &output, OperandProblem::IsInput),
            None => TfliteError::MissingOperand {
                operator: op.index(),
                op: op.op(),
                operand: "output",
            },
        };
        let fc_rounding = match self.arithmetic {
            Arithmetic::Micro => Rounding::Double,
            Arithmetic::Reference => Rounding::Single,
        };
        let Arena {
            int8,
            float32,
            multipliers,
        } = &mut self.arena;
        let multipliers_of = |q: &Quantized| multipliers.get(..q.channels).unwrap_or(&[]);
        match step {
            Step::FullyConnectedInt8 {
                input,
                output,
                weights,
                bias,
                dims,
                quantization: q,
            } => {
                let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
                let params = FullyConnectedParams {
                    input_zero_point: q.input_zero_point,
                    weights_zero_point: q.weights_zero_point,
                    output_zero_point: q.output_zero_point,
                    multipliers: multipliers_of(&q),
                    output_min: q.output_min,
                    output_max: q.output_max,
                    rounding: fc_rounding,
                };
                fully_connected_int8(x, &weights, bias.as_ref(), dims, &params, y)
            }
            Step::FullyConnectedF32 {
                input,
                output,
                weights,
                bias,
                dims,
                range: (lo, hi),
            } => {
                let (x, y) = split(float32, &input, &output).ok_or(overlap)?;
                fully_connected_f32(x, &weights, bias.as_ref(), dims, lo, hi, y)
            }
            Step::DepthwiseConvInt8 {
                input,
                output,
                filter,
                bias,
                dims,
                strides,
                dilations,
                pads,
                quantization: q,
            } => {
                let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
                let params = DepthwiseConvParams {
                    stride_height: strides.0,
                    stride_width: strides.1,
                    dilation_height: dilations.0,
                    dilation_width: dilations.1,
                    pad_top: pads.0,
                    pad_left: pads.1,
                    input_zero_point: q.input_zero_point,
                    output_zero_point: q.output_zero_point,
                    multipliers: multipliers_of(&q),
                    output_min: q.output_min,
                    output_max: q.output_max,
                    rounding: Rounding::Double,
                };
                depthwise_conv_int8(x, &filter, bias.as_ref(), dims, &params, y)
            }
            Step::SoftmaxInt8 {
                input,
                output,
                depth,
                params,
            } => {
                let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
                softmax_int8(x, depth, &params, y)
            }
            Step::Conv2dInt8 {
                input,
                output,
                filter,
                bias,
                dims,
                strides,
                dilations,
                pads,
                quantization: q,
            } => {
                let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
                let params = Conv2dParams {
                    stride_height: strides.0,
                    stride_width: strides.1,
                    dilation_height: dilations.0,
                    dilation_width: dilations.1,
                    pad_top: pads.0,
                    pad_left: pads.1,
                    input_zero_point: q.input_zero_point,
                    output_zero_point: q.output_zero_point,
                    multipliers: multipliers_of(&q),
                    output_min: q.output_min,
                    output_max: q.output_max,
                    rounding: Rounding::Double,
                };
                conv_2d_int8(x, &filter, bias.as_ref(), dims, &params, y)
            }
            Step::PoolInt8 {
                max,
                input,
                output,
                dims,
                params,
            } => {
                let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
                if max {
                    max_pool_int8(x, dims, &params, y)
                } else {
                    average_pool_int8(x, dims, &params, y)
                }
            }
            Step::MeanInt8 {
                input,
                output,
                sizes: [b, h, w, c],
                params,
            } => {
                let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
                mean_int8(x, b, h, w, c, &params, y)
            }
            Step::AddInt8 {
                a,
                b,
                output,
                a_shape,
                b_shape,
                params,
            } => {
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
            Step::Pad {
                input,
                output,
                shape,
                paddings,
                value,
            } => {
                let paddings = paddings.get(..shape.dims().len()).unwrap_or(&[]);
                match input.dtype {
                    TensorType::Int8 => {
                        let (x, y) = split(int8, &input.range, &output.range).ok_or(overlap)?;
                        pad(x, shape.dims(), paddings, value, y)
                    }
                    _ => {
                        let (x, y) = split(float32, &input.range, &output.range).ok_or(overlap)?;
                        pad(x, shape.dims(), paddings, 0.0, y)
                    }
                }
            }
            Step::LogisticInt8 {
                input,
                output,
                params,
            } => {
                let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
                logistic_int8(x, &params, y)
            }
            Step::Quantize {
                input,
                output,
                scale,
                zero_point,
            } => match (float32.get(input), int8.get_mut(output)) {
                (Some(x), Some(y)) => quantize_int8(x, scale, zero_point, y),
                _ => Err(overlap),
            },
            Step::Dequantize {
                input,
                output,
                scale,
                zero_point,
            } => match (int8.get(input), float32.get_mut(output)) {
                (Some(x), Some(y)) => dequantize_int8(x, scale, zero_point, y),
                _ => Err(overlap),
            },
            Step::Reshape { input, output } => match input.dtype {
                TensorType::Int8 => {
                    let (x, y) = split(int8, &input.range, &output.range).ok_or(overlap)?;
                    reshape(x, y)
                }
                _ => {
                    let (x, y) = split(float32, &input.range, &output.range).ok_or(overlap)?;
                    reshape(x, y)
                }
            },
        }
    }
}

/// One operator being checked against what its op needs: each check
/// returns the error naming the operator, the operand and its tensor.
struct Checker<'m> {
    model: Model<'m>,
    op: Operator<'m>,
    output: ModelTensor<'m>,
}

impl<'m> Checker<'m> {
    /// The checker of `op`; fails when it has no output, or its output is
    /// its input.
    fn new(model: Model<'m>, op: Operator<'m>) -> Result<Self, TfliteError> {
        let output =
            op.output(0)
                .and_then(|i| model.tensor(i))
                .ok_or(TfliteError::MissingOperand {
                    operator: op.index(),
                    op: op.op(),
                    operand: "output",
                })?;
        let checker = Checker { model, op, output };
        if op.input(0) == Some(output.index()) {
            return Err(checker.fail("output", &output, OperandProblem::IsInput));
        }
        Ok(checker)
    }

    /// The error: the interpreter does not run this op.
    fn unsupported(&self) -> TfliteError {
        TfliteError::UnsupportedOp {
            operator: self.op.index(),
            op: self.op.op(),
            output: self.output.index(),
            output_name: Name::new(self.output.name()),
        }
    }

    /// Checks the file's output shape is `shape`, the op's rule's.
    fn output_shape(&self, shape: &OpShape) -> Result<(), TfliteError> {
        let output = &self.output;
        self.rank("output", output, shape.dims().len())?;
        for (axis, &d) in shape.dims().iter().enumerate() {
            self.dim("output", output, axis, d)?;
        }
        Ok(())
    }

    /// The int8 clamp of `activation` at the output's scale and zero
    /// point; a fused activation that is no clamp (`TANH`) is refused,
    /// naming the operator.
    fn clamp(
        &self,
        activation: Activation,
        scale: f32,
        zero_point: i32,
    ) -> Result<(i32, i32), TfliteError> {
        activation_range_int8(activation, scale, zero_point).map_err(|e| match e {
            TfliteError::UnsupportedActivation { activation } => {
                self.unsupported_option("fused activation", activation.name())
            }
            other => other,
        })
    }

    /// The error: this operator's `option` has a `value` the interpreter
    /// does not run.
    fn unsupported_option(&self, option: &'static str, value: &'static str) -> TfliteError {
        TfliteError::UnsupportedOption {
            operator: self.op.index(),
            op: self.op.op(),
            option,
            value,
            output: self.output.index(),
            output_name: Name::new(self.output.name()),
        }
    }

    /// The error: operand `name`, tensor `t`, has `problem`.
    fn fail(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        problem: OperandProblem,
    ) -> TfliteError {
        operand_error(Some(&self.op), name, t, problem)
    }

    /// Input `k`, which the op needs.
    fn input(&self, k: usize, name: &'static str) -> Result<ModelTensor<'m>, TfliteError> {
        self.optional(k).ok_or(TfliteError::MissingOperand {
            operator: self.op.index(),
            op: self.op.op(),
            operand: name,
        })
    }

    /// Input `k`, if the op has it (an absent optional input is -1).
    fn optional(&self, k: usize) -> Option<ModelTensor<'m>> {
        self.op.input(k).and_then(|i| self.model.tensor(i))
    }

    fn dtype(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        expected: TensorType,
    ) -> Result<(), TfliteError> {
        if t.dtype() == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::Dtype {
                    expected,
                    found: t.dtype(),
                },
            ))
        }
    }

    fn elements(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        expected: usize,
    ) -> Result<(), TfliteError> {
        if t.elements() == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::Elements {
                    expected,
                    found: t.elements(),
                },
            ))
        }
    }

    fn rank(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        expected: usize,
    ) -> Result<(), TfliteError> {
        if t.shape().len() == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::Rank {
                    expected,
                    found: t.shape().len(),
                },
            ))
        }
    }

    fn dim(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        axis: usize,
        expected: usize,
    ) -> Result<(), TfliteError> {
        let found = dim(t, axis);
        if found == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::DimSize {
                    axis: u8::try_from(axis).unwrap_or(u8::MAX),
                    expected,
                    found,
                },
            ))
        }
    }

    /// Checks `t` is a constant (or empty).
    fn constant(&self, name: &'static str, t: &ModelTensor<'_>) -> Result<(), TfliteError> {
        if t.data().is_empty() && t.elements() > 0 {
            Err(self.fail(name, t, OperandProblem::Constant { expected: true }))
        } else {
            Ok(())
        }
    }

    /// Where activation `t` lives; fails for a constant.
    fn activation(&self, name: &'static str, t: &ModelTensor<'_>) -> Result<Slot, TfliteError> {
        slot(&self.model, t.index()).ok_or(self.fail(
            name,
            t,
            OperandProblem::Constant { expected: false },
        ))
    }

    /// The one scale and zero point of `t` (an int8 zero point).
    fn per_tensor(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
    ) -> Result<(f32, i32), TfliteError> {
        let fail = |why| self.fail(name, t, OperandProblem::Quantization(why));
        let q = t.quantization().ok_or(fail("is missing"))?;
        if q.is_per_channel() {
            return Err(fail("is per-channel, and the op needs one scale"));
        }
        let zero_point = q
            .zero_point(0)
            .and_then(|z| i32::try_from(z).ok())
            .filter(|z| (-128..=127).contains(z))
            .ok_or(fail("has a zero point outside the int8 range"))?;
        Ok((q.scale(0).unwrap_or(0.0), zero_point))
    }

    /// The scales of quantized weights or filter `t`: one, or one per
    /// channel along `axis` (`channels` of them); and its zero point, the
    /// same for every channel.
    fn channel_scales(
        &self,
        name: &'static str,
        t: &ModelTensor<'m>,
        axis: usize,
        channels: usize,
    ) -> Result<(Array<'m, f32>, i32), TfliteError> {
        let fail = |why| self.fail(name, t, OperandProblem::Quantization(why));
        let q = t.quantization().ok_or(fail("is missing"))?;
        if q.is_per_channel() && (q.quantized_dimension() != axis || q.scales().len() != channels) {
            return Err(fail(
                "is per-channel along another axis than the output channels",
            ));
        }
        let first = q.zero_points().get(0).unwrap_or(0);
        if q.zero_points().iter().any(|z| z != first) {
            return Err(fail("has zero points that differ between channels"));
        }
        let zero_point = i32::try_from(first)
            .ok()
            .filter(|z| (-128..=127).contains(z))
            .ok_or(fail("has a zero point outside the int8 range"))?;
        Ok((q.scales(), zero_point))
    }

    /// Writes the multiplier `input_scale · scale / output_scale` of each
    /// of weights or filter `t`'s `scales` into `scratch`; returns how many.
    fn write_multipliers(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        scales: Array<'m, f32>,
        (input_scale, output_scale): (f32, f32),
        scratch: &mut [QuantizedMultiplier],
    ) -> Result<usize, TfliteError> {
        if scratch.len() < scales.len() {
            return Err(TfliteError::Arena {
                what: "multipliers",
                needed: scales.len(),
                given: scratch.len(),
            });
        }
        for (slot, scale) in scratch.iter_mut().zip(scales) {
            *slot = fully_connected_multiplier(input_scale, scale, output_scale).map_err(|_| {
                self.fail(
                    name,
                    t,
                    OperandProblem::Quantization(
                        "gives a multiplier (input scale · its scale / output scale) that is not a finite, non-negative number",
                    ),
                )
            })?;
        }
        Ok(scales.len())
    }

    /// `FULLY_CONNECTED`: int8 (per-tensor or per-channel weights) or f32;
    /// weights `[units, input_dim]`, the input read as rows of `input_dim`.
    fn fully_connected(
        &self,
        options: FullyConnectedOptions,
        scratch: &mut [QuantizedMultiplier],
    ) -> Result<Step<'m>, TfliteError> {
        if options.weights_format != WeightsFormat::Default {
            return Err(self.unsupported_option("weights format", options.weights_format.name()));
        }
        let output = &self.output;
        let input = self.input(0, "input")?;
        let weights = self.input(1, "weights")?;
        let bias = self.optional(2);
        self.rank("weights", &weights, 2)?;
        self.constant("weights", &weights)?;
        let (units, input_dim) = (dim(&weights, 0), dim(&weights, 1));
        if input_dim == 0 || !input.elements().is_multiple_of(input_dim) {
            return Err(self.fail(
                "input",
                &input,
                OperandProblem::Elements {
                    expected: input_dim,
                    found: input.elements(),
                },
            ));
        }
        let dims = FullyConnectedDims {
            batches: input.elements() / input_dim,
            input_dim,
            units,
        };
        self.elements("output", output, dims.batches.saturating_mul(units))?;
        if let Some(bias) = &bias {
            self.elements("bias", bias, units)?;
            self.constant("bias", bias)?;
        }
        let input_slot = self.activation("input", &input)?;
        let output_slot = self.activation("output", output)?;
        match input.dtype() {
            TensorType::Float32 => {
                self.dtype("weights", &weights, TensorType::Float32)?;
                self.dtype("output", output, TensorType::Float32)?;
                if let Some(bias) = &bias {
                    self.dtype("bias", bias, TensorType::Float32)?;
                }
                Ok(Step::FullyConnectedF32 {
                    input: input_slot.range,
                    output: output_slot.range,
                    weights: weights.data_as().unwrap_or_else(Array::empty),
                    bias: bias.and_then(|b| b.data_as()),
                    dims,
                    range: activation_range_f32(options.fused_activation)?,
                })
            }
            TensorType::Int8 => {
                self.dtype("weights", &weights, TensorType::Int8)?;
                self.dtype("output", output, TensorType::Int8)?;
                if let Some(bias) = &bias {
                    self.dtype("bias", bias, TensorType::Int32)?;
                }
                let (input_scale, input_zero_point) = self.per_tensor("input", &input)?;
                let (output_scale, output_zero_point) = self.per_tensor("output", output)?;
                let (scales, weights_zero_point) =
                    self.channel_scales("weights", &weights, 0, units)?;
                let channels = self.write_multipliers(
                    "weights",
                    &weights,
                    scales,
                    (input_scale, output_scale),
                    scratch,
                )?;
                let (output_min, output_max) =
                    self.clamp(options.fused_activation, output_scale, output_zero_point)?;
                Ok(Step::FullyConnectedInt8 {
                    input: input_slot.range,
                    output: output_slot.range,
                    weights: weights.data_as().unwrap_or_else(Array::empty),
                    bias: bias.and_then(|b| b.data_as()),
                    dims,
                    quantization: Quantized {
                        input_zero_point,
                        weights_zero_point,
                        output_zero_point,
                        output_min,
                        output_max,
                        channels,
                    },
                })
            }
            found => Err(self.fail(
                "input",
                &input,
                OperandProblem::Dtype {
                    expected: TensorType::Int8,
                    found,
                },
            )),
        }
    }

    /// `DEPTHWISE_CONV_2D`, int8: NHWC input, filter `[1, KH, KW, C·M]`
    /// with zero point 0, per-tensor or per-channel (axis 3); the output's
    /// size as TFLite pads.
    fn depthwise_conv(
        &self,
        options: DepthwiseConv2dOptions,
        scratch: &mut [QuantizedMultiplier],
    ) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        let filter = self.input(1, "filter")?;
        let bias = self.optional(2);
        self.dtype("input", &input, TensorType::Int8)?;
        self.dtype("filter", &filter, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Int8)?;
        self.constant("filter", &filter)?;
        for (name, t) in [("input", &input), ("filter", &filter), ("output", output)] {
            self.rank(name, t, 4)?;
        }
        self.dim("filter", &filter, 0, 1)?;
        let input_depth = dim(&input, 3);
        let output_depth = dim(&filter, 3);
        if input_depth == 0 || !output_depth.is_multiple_of(input_depth) {
            return Err(TfliteError::KernelParam {
                what: "depthwise convolution's output channels",
                value: i64::try_from(output_depth).unwrap_or(i64::MAX),
                rule: "they must be a multiple of the input channels",
            });
        }
        let depth_multiplier = output_depth / input_depth;
        // a depth_multiplier option of 0 (older files): from the shapes alone
        if options.depth_multiplier != 0
            && usize::try_from(options.depth_multiplier).ok() != Some(depth_multiplier)
        {
            return Err(TfliteError::KernelParam {
                what: "depthwise convolution's depth_multiplier option",
                value: i64::from(options.depth_multiplier),
                rule: "it must be the filter's channels over the input's",
            });
        }
        // checked at least 1 by Model::parse; the output's shape was checked
        // against the op's rule before
        let size = |v: i32| usize::try_from(v).unwrap_or(0);
        let strides = (size(options.stride_h), size(options.stride_w));
        let dilations = (size(options.dilation_h), size(options.dilation_w));
        let x = crate::ops::need_rank(&self.op, "input", &input, 4)?;
        let ((rows, pad_top), (columns, pad_left)) = spatial(
            options.padding,
            &x,
            (dim(&filter, 1), dim(&filter, 2)),
            strides,
            dilations,
        )?;
        let quantization = self.filter_quantization(
            (&input, &filter, bias.as_ref()),
            3,
            output_depth,
            options.fused_activation,
            scratch,
        )?;
        Ok(Step::DepthwiseConvInt8 {
            input: self.activation("input", &input)?.range,
            output: self.activation("output", output)?.range,
            filter: filter.data_as().unwrap_or_else(Array::empty),
            bias: bias.and_then(|b| b.data_as()),
            dims: DepthwiseConvDims {
                batches: dim(&input, 0),
                input_height: dim(&input, 1),
                input_width: dim(&input, 2),
                input_depth,
                filter_height: dim(&filter, 1),
                filter_width: dim(&filter, 2),
                depth_multiplier,
                output_height: rows,
                output_width: columns,
            },
            strides,
            dilations,
            pads: (pad_top, pad_left),
            quantization,
        })
    }

    /// `CONV_2D`, int8: NHWC input, filter `[O, KH, KW, C]` with zero
    /// point 0, per-tensor or per-channel (axis 0); the output's shape
    /// checked by the op's rule before.
    fn conv_2d(
        &self,
        options: Conv2dOptions,
        scratch: &mut [QuantizedMultiplier],
    ) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        let filter = self.input(1, "filter")?;
        let bias = self.optional(2);
        self.dtype("input", &input, TensorType::Int8)?;
        self.dtype("filter", &filter, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Int8)?;
        self.constant("filter", &filter)?;
        let x = crate::ops::need_rank(&self.op, "input", &input, 4)?;
        let output_depth = dim(&filter, 0);
        let size = |v: i32| usize::try_from(v).unwrap_or(0);
        let strides = (size(options.stride_h), size(options.stride_w));
        let dilations = (size(options.dilation_h), size(options.dilation_w));
        let ((rows, pad_top), (columns, pad_left)) = spatial(
            options.padding,
            &x,
            (dim(&filter, 1), dim(&filter, 2)),
            strides,
            dilations,
        )?;
        let quantization = self.filter_quantization(
            (&input, &filter, bias.as_ref()),
            0,
            output_depth,
            options.fused_activation,
            scratch,
        )?;
        Ok(Step::Conv2dInt8 {
            input: self.activation("input", &input)?.range,
            output: self.activation("output", output)?.range,
            filter: filter.data_as().unwrap_or_else(Array::empty),
            bias: bias.and_then(|b| b.data_as()),
            dims: Conv2dDims {
                batches: dim(&input, 0),
                input_height: dim(&input, 1),
                input_width: dim(&input, 2),
                input_depth: dim(&input, 3),
                filter_height: dim(&filter, 1),
                filter_width: dim(&filter, 2),
                output_height: rows,
                output_width: columns,
                output_depth,
            },
            strides,
            dilations,
            pads: (pad_top, pad_left),
            quantization,
        })
    }

    /// A convolution's (`CONV_2D`'s, `DEPTHWISE_CONV_2D`'s) bias checked,
    /// and its requantization: the input's and output's zero points, the
    /// filter's scales along `axis` (`channels` of them, or one) with zero
    /// point 0 turned into multipliers in `scratch`, the fused activation's
    /// clamp.
    fn filter_quantization(
        &self,
        (input, filter, bias): (&ModelTensor<'m>, &ModelTensor<'m>, Option<&ModelTensor<'m>>),
        axis: usize,
        channels: usize,
        activation: Activation,
        scratch: &mut [QuantizedMultiplier],
    ) -> Result<Quantized, TfliteError> {
        let output = &self.output;
        if let Some(bias) = bias {
            self.dtype("bias", bias, TensorType::Int32)?;
            self.elements("bias", bias, channels)?;
            self.constant("bias", bias)?;
        }
        let (input_scale, input_zero_point) = self.per_tensor("input", input)?;
        let (output_scale, output_zero_point) = self.per_tensor("output", output)?;
        let (scales, filter_zero_point) = self.channel_scales("filter", filter, axis, channels)?;
        if filter_zero_point != 0 {
            return Err(self.fail(
                "filter",
                filter,
                OperandProblem::Quantization("has a zero point other than 0"),
            ));
        }
        let channels = self.write_multipliers(
            "filter",
            filter,
            scales,
            (input_scale, output_scale),
            scratch,
        )?;
        let (output_min, output_max) = self.clamp(activation, output_scale, output_zero_point)?;
        Ok(Quantized {
            input_zero_point,
            weights_zero_point: 0,
            output_zero_point,
            output_min,
            output_max,
            channels,
        })
    }

    /// `AVERAGE_POOL_2D` (`max` false) and `MAX_POOL_2D`, int8, NHWC; the
    /// output's quantization the input's, as TFLite requires.
    fn pool(&self, options: Pool2dOptions, max: bool) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("input", &input, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Int8)?;
        let x = crate::ops::need_rank(&self.op, "input", &input, 4)?;
        let size = |v: i32| usize::try_from(v).unwrap_or(0);
        let window = (size(options.filter_height), size(options.filter_width));
        let strides = (size(options.stride_h), size(options.stride_w));
        let ((rows, pad_top), (columns, pad_left)) =
            spatial(options.padding, &x, window, strides, (1, 1))?;
        let input_q = self.per_tensor("input", &input)?;
        let output_q = self.per_tensor("output", output)?;
        if input_q != output_q {
            return Err(self.fail(
                "output",
                output,
                OperandProblem::Quantization(
                    "is not the input's scale and zero point (TFLite's pools keep them)",
                ),
            ));
        }
        let (output_min, output_max) =
            self.clamp(options.fused_activation, output_q.0, output_q.1)?;
        Ok(Step::PoolInt8 {
            max,
            input: self.activation("input", &input)?.range,
            output: self.activation("output", output)?.range,
            dims: PoolDims {
                batches: dim(&input, 0),
                input_height: dim(&input, 1),
                input_width: dim(&input, 2),
                depth: dim(&input, 3),
                filter_height: window.0,
                filter_width: window.1,
                output_height: rows,
                output_width: columns,
            },
            params: PoolParams {
                stride_height: strides.0,
                stride_width: strides.1,
                pad_top,
                pad_left,
                output_min,
                output_max,
            },
        })
    }

    /// `MEAN` over H and W of an NHWC int8 tensor (the axes checked by the
    /// op's rule before).
    fn mean(&self) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("input", &input, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Int8)?;
        let sizes = [
            dim(&input, 0),
            dim(&input, 1),
            dim(&input, 2),
            dim(&input, 3),
        ];
        let (input_scale, input_zero_point) = self.per_tensor("input", &input)?;
        let (output_scale, output_zero_point) = self.per_tensor("output", output)?;
        let params = mean_params(
            input_scale,
            input_zero_point,
            output_scale,
            output_zero_point,
            sizes[1].saturating_mul(sizes[2]),
        )?;
        Ok(Step::MeanInt8 {
            input: self.activation("input", &input)?.range,
            output: self.activation("output", output)?.range,
            sizes,
            params,
        })
    }

    /// An int8 operand of `ADD`: an activation, or a constant read in place.
    fn source(&self, name: &'static str, t: &ModelTensor<'m>) -> Result<Source<'m>, TfliteError> {
        if t.data().is_empty() && t.elements() > 0 {
            Ok(Source::Activation(self.activation(name, t)?.range))
        } else {
            Ok(Source::Constant(t.data_as().unwrap_or_else(Array::empty)))
        }
    }

    /// `ADD`, int8, each input with its own scale and zero point, numpy
    /// broadcasting (`shape`, the op's rule's).
    fn add(&self, options: AddOptions, shape: &OpShape) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let a = self.input(0, "input1")?;
        let b = self.input(1, "input2")?;
        self.dtype("input1", &a, TensorType::Int8)?;
        self.dtype("input2", &b, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Int8)?;
        self.elements("output", output, shape.elements().unwrap_or(usize::MAX))?;
        let (a_scale, a_zero_point) = self.per_tensor("input1", &a)?;
        let (b_scale, b_zero_point) = self.per_tensor("input2", &b)?;
        let (output_scale, output_zero_point) = self.per_tensor("output", output)?;
        let (output_min, output_max) =
            self.clamp(options.fused_activation, output_scale, output_zero_point)?;
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
        Ok(Step::AddInt8 {
            a: self.source("input1", &a)?,
            b: self.source("input2", &b)?,
            output: self.activation("output", output)?.range,
            a_shape: crate::ops::shape_of(&self.op, "input1", &a)?,
            b_shape: crate::ops::shape_of(&self.op, "input2", &b)?,
            params,
        })
    }

    /// `PAD`, int8 (with the output's zero point, as TFLite Micro pads)
    /// or f32 (with 0).
    fn pad(&self) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("output", output, input.dtype())?;
        let shape = crate::ops::shape_of(&self.op, "input", &input)?;
        let paddings = pad_amounts(&self.model, &self.op, shape.dims().len())?;
        let value = match input.dtype() {
            TensorType::Int8 => {
                let input_q = self.per_tensor("input", &input)?;
                let output_q = self.per_tensor("output", output)?;
                if input_q != output_q {
                    return Err(self.fail(
                        "output",
                        output,
                        OperandProblem::Quantization(
                            "is not the input's scale and zero point (TFLite's PAD keeps them)",
                        ),
                    ));
                }
                i8::try_from(output_q.1).unwrap_or(0)
            }
            TensorType::Float32 => 0,
            found => {
                return Err(self.fail(
                    "input",
                    &input,
                    OperandProblem::Dtype {
                        expected: TensorType::Int8,
                        found,
                    },
                ))
            }
        };
        Ok(Step::Pad {
            input: self.activation("input", &input)?,
            output: self.activation("output", output)?,
            shape,
            paddings,
            value,
        })
    }

    /// `LOGISTIC`, int8; the output at scale 1/256 and zero point −128.
    fn logistic(&self) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("input", &input, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Int8)?;
        let (input_scale, input_zero_point) = self.per_tensor("input", &input)?;
        let (output_scale, output_zero_point) = self.per_tensor("output", output)?;
        let params = logistic_params(
            input_scale,
            input_zero_point,
            output_scale,
            output_zero_point,
        )
        .map_err(|_| {
            self.fail(
                "output",
                output,
                OperandProblem::Quantization(
                    "is not scale 1/256 and zero point −128 (TFLite's int8 logistic)",
                ),
            )
        })?;
        Ok(Step::LogisticInt8 {
            input: self.activation("input", &input)?.range,
            output: self.activation("output", output)?.range,
            params,
        })
    }

    /// `QUANTIZE`, f32 → int8 at the output's scale and zero point.
    fn quantize(&self) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("input", &input, TensorType::Float32)?;
        self.dtype("output", output, TensorType::Int8)?;
        let (scale, zero_point) = self.per_tensor("output", output)?;
        Ok(Step::Quantize {
            input: self.activation("input", &input)?.range,
            output: self.activation("output", output)?.range,
            scale,
            zero_point,
        })
    }

    /// `DEQUANTIZE`, int8 → f32 at the input's scale and zero point.
    fn dequantize(&self) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("input", &input, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Float32)?;
        let (scale, zero_point) = self.per_tensor("input", &input)?;
        Ok(Step::Dequantize {
            input: self.activation("input", &input)?.range,
            output: self.activation("output", output)?.range,
            scale,
            zero_point,
        })
    }

    /// `SOFTMAX`, int8, over the last axis; the output at scale 1/256 and
    /// zero point −128, as TFLite requires.
    fn softmax(&self, options: SoftmaxOptions) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("input", &input, TensorType::Int8)?;
        self.dtype("output", output, TensorType::Int8)?;
        self.elements("output", output, input.elements())?;
        let input_slot = self.activation("input", &input)?;
        let output_slot = self.activation("output", output)?;
        let (input_scale, _) = self.per_tensor("input", &input)?;
        let (output_scale, output_zero_point) = self.per_tensor("output", output)?;
        if output_scale != 1.0 / 256.0 || output_zero_point != -128 {
            return Err(self.fail(
                "output",
                output,
                OperandProblem::Quantization(
                    "is not scale 1/256 and zero point −128 (TFLite's int8 softmax)",
                ),
            ));
        }
        let depth = match input.shape().len() {
            0 => 1,
            rank => dim(&input, rank - 1),
        };
        Ok(Step::SoftmaxInt8 {
            input: input_slot.range,
            output: output_slot.range,
            depth,
            params: softmax_params(options.beta, input_scale)?,
        })
    }

    /// `RESHAPE`: the output's shape checked against the new shape (the
    /// second input when it is a constant, else the options', as TFLite
    /// reads them), the data copied.
    fn reshape(&self) -> Result<Step<'m>, TfliteError> {
        let output = &self.output;
        let input = self.input(0, "input")?;
        self.dtype("output", output, input.dtype())?;
        self.elements("output", output, input.elements())?;
        let from_tensor = self
            .optional(1)
            .filter(|s| !s.data().is_empty())
            .and_then(|s| s.data_as::<i32>());
        let from_options = match self.op.options() {
            Options::Reshape(r) => r.new_shape.filter(|s| !s.is_empty()),
            _ => None,
        };
        if let Some(new_shape) = from_tensor.or(from_options) {
            let (_, inferred) = reshape_dims(input.elements(), new_shape)?;
            self.rank("output", output, new_shape.len())?;
            for (axis, d) in new_shape.iter().enumerate() {
                let expected = usize::try_from(d).ok().or(inferred).unwrap_or(0);
                self.dim("output", output, axis, expected)?;
            }
        }
        Ok(Step::Reshape {
            input: self.activation("input", &input)?,
            output: self.activation("output", output)?,
        })
    }
}
