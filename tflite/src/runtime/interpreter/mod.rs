//! [`Interpreter`]: a parsed [`Model`] run op by op over buffers the caller
//! gives (no heap), for the ops of the models this crate is tested on.

use crate::kernel::checker::Slot;
use core::ops::Range;

use crate::arith::quant::{QuantizedMultiplier, Rounding};
use crate::format::error::{Name, OperandProblem, Place, TfliteError};
use crate::format::model::{Model, Operator};
use crate::format::types::TensorType;
use crate::registry::{op_row, OpRow};

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
    /// elements of the int16 activations (TFLite's 16x8 mode)
    pub int16: usize,
    /// elements of the int32 activations (`ARG_MAX`'s output)
    pub int32: usize,
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
/// let arena = Arena { int8: &mut int8, float32: &mut float32, multipliers: &mut multipliers, ..Arena::default() };
/// assert_eq!(arena.int8.len(), 64);
/// ```
#[derive(Debug)]
pub struct Arena<'a> {
    /// the int8 activations
    pub int8: &'a mut [i8],
    /// the int16 activations (TFLite's 16x8 mode; empty for a model
    /// without them)
    pub int16: &'a mut [i16],
    /// the int32 activations (empty for a model without them)
    pub int32: &'a mut [i32],
    /// the f32 activations
    pub float32: &'a mut [f32],
    /// scratch for a layer's multipliers
    pub multipliers: &'a mut [QuantizedMultiplier],
}

impl Default for Arena<'_> {
    /// Every buffer empty: the start of an arena whose other buffers are
    /// given, `Arena { int8: &mut int8, ..Arena::default() }`.
    ///
    /// ```
    /// use shapecheck_tflite::Arena;
    ///
    /// let mut int8 = [0i8; 16];
    /// let arena = Arena { int8: &mut int8, ..Arena::default() };
    /// assert_eq!((arena.int8.len(), arena.int16.len(), arena.float32.len()), (16, 0, 0));
    /// ```
    fn default() -> Self {
        Arena {
            int8: &mut [],
            int16: &mut [],
            int32: &mut [],
            float32: &mut [],
            multipliers: &mut [],
        }
    }
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
    /// int16 elements
    Int16(&'a [i16]),
    /// int32 elements
    Int32(&'a [i32]),
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
            TensorData::Int16(d) => d.len(),
            TensorData::Int32(d) => d.len(),
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
            TensorData::Int16(_) => TensorType::Int16,
            TensorData::Int32(_) => TensorType::Int32,
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
/// Four constructors, one preparation (each operator checked, its
/// constants derived, its multipliers written; an op it does not run, or
/// operands that do not fit the op, is an error naming the operator and
/// tensor):
///
/// - [`new`](Self::new) checks every operator once and keeps nothing:
///   [`invoke`](Self::invoke) prepares each operator again as it runs it
///   (the least RAM: one layer's multipliers);
/// - [`prepared`](Self::prepared) prepares every operator once into
///   buffers the caller owns (no heap), and `invoke` only runs;
/// - [`planned`](Self::planned) does the same and places the activations
///   with the planner ([`Layout::Packed`]: person detection's 9,216 B
///   input beside its 55,296 B floor, where the others take 241,030 B),
///   no heap either, its buffers' lengths given by
///   [`planned_sizes`](Self::planned_sizes);
/// - `with_plan` (feature `alloc`) runs a `Plan` prepared on the heap,
///   with its packed layout.
///
/// `invoke` cannot panic.
///
/// ```
/// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, QuantizedMultiplier, TensorData};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// let sizes = Interpreter::arena_sizes(&model)?;
/// let mut int8 = vec![0i8; sizes.int8];
/// let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
/// let arena = Arena { int8: &mut int8, float32: &mut [], multipliers: &mut multipliers, ..Arena::default() };
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
    /// the steps it runs, prepared once ([`prepared`](Self::prepared),
    /// [`with_plan`](Self::with_plan)), and every operator's multipliers;
    /// `None`: each operator is checked and prepared as it runs
    /// ([`new`](Self::new))
    steps: Option<(&'a [PreparedStep<'m>], &'a [QuantizedMultiplier])>,
    /// each tensor's offset in its type's buffer
    /// ([`planned`](Self::planned)); `None`: each at its own place
    places: Option<&'a [usize]>,
    /// the plan whose layout it runs ([`with_plan`](Self::with_plan))
    #[cfg(feature = "alloc")]
    plan: Option<&'a Plan<'m>>,
}

/// One operator checked and prepared once, in a buffer the caller owns
/// ([`Interpreter::prepared`]): its step (each operand's place in the
/// [`Arena`] and each constant's in the model, the kernel's parameters)
/// and where its requantization multipliers are in the caller's
/// multiplier buffer. Opaque: made by [`EMPTY`](Self::EMPTY), filled by
/// [`Interpreter::prepared`]. On a microcontroller the buffer is RAM: a
/// `static mut` array, or a local one, of
/// [`Interpreter::prepared_sizes`]`(&model).steps` of them.
///
/// ```
/// use shapecheck_tflite::PreparedStep;
///
/// let steps = [PreparedStep::EMPTY; 3];
/// assert!(steps.iter().all(|s| !s.is_prepared()));
/// ```
#[derive(Clone)]
pub struct PreparedStep<'m> {
    step: Option<Step<'m>>,
    multipliers: Range<usize>,
}

impl<'m> PreparedStep<'m> {
    /// A step not prepared yet: what a buffer of them starts as.
    ///
    /// ```
    /// use shapecheck_tflite::PreparedStep;
    ///
    /// assert!(!PreparedStep::EMPTY.is_prepared());
    /// ```
    pub const EMPTY: Self = PreparedStep {
        step: None,
        multipliers: 0..0,
    };

    /// Whether the step holds a prepared operator.
    ///
    /// ```
    /// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, PreparedStep, QuantizedMultiplier};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let mut int8 = [0i8; 34];
    /// let mut steps = [PreparedStep::EMPTY; 4];
    /// let mut multipliers = [QuantizedMultiplier::ZERO; 33];
    /// let arena = Arena { int8: &mut int8, ..Arena::default() };
    /// Interpreter::prepared(model, arena, &mut steps, &mut multipliers, Arithmetic::Micro)?;
    /// // the model's three operators; the fourth step is not used
    /// assert_eq!(steps.map(|s| s.is_prepared()), [true, true, true, false]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn is_prepared(&self) -> bool {
        self.step.is_some()
    }

    /// The step and its multipliers in `all` (every operator's).
    pub(crate) fn parts<'s>(
        &'s self,
        all: &'s [QuantizedMultiplier],
    ) -> Option<(&'s Step<'m>, &'s [QuantizedMultiplier])> {
        let step = self.step.as_ref()?;
        Some((step, all.get(self.multipliers.clone()).unwrap_or(&[])))
    }

    /// The step and its multipliers' range in the plan's (what `model!`
    /// writes).
    #[cfg(feature = "alloc")]
    pub(crate) fn step_and_range(&self) -> Option<(&Step<'m>, Range<usize>)> {
        Some((self.step.as_ref()?, self.multipliers.clone()))
    }
}

impl core::fmt::Debug for PreparedStep<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PreparedStep")
            .field("prepared", &self.is_prepared())
            .field("multipliers", &self.multipliers)
            .finish()
    }
}

/// How many [`PreparedStep`]s and multipliers
/// [`Interpreter::prepared`] needs for a model
/// ([`Interpreter::prepared_sizes`]).
///
/// ```
/// use shapecheck_tflite::{Interpreter, Model};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let sizes = Interpreter::prepared_sizes(&model)?;
/// // the convolution's 8 channels and the fully connected layer's 4
/// assert_eq!((sizes.steps, sizes.multipliers), (4, 8 + 4));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreparedSizes {
    /// one step per operator
    pub steps: usize,
    /// every quantized layer's requantization multipliers (one per output
    /// channel), one layer after the other
    pub multipliers: usize,
}

/// The lengths of every buffer [`Interpreter::planned`] takes for a model
/// laid out one way ([`Interpreter::planned_sizes`]): computed without a
/// heap, on the device from the model's bytes, or by a build script on
/// the host from the same bytes (the same function, the same numbers).
/// Person detection's: 9,216 + 55,296 B of int8 activations packed (its
/// liveness floor), 241,030 B with each tensor at its own place
/// (README.md).
///
/// ```
/// use shapecheck_tflite::{Interpreter, Layout, Model};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
/// let sizes = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch)?;
/// // the 49x40 input beside the planned activations, model!'s RAM_BYTES
/// assert_eq!((sizes.arena.int8, sizes.activation_bytes), (1_960 + 4_004, 4_004));
/// assert_eq!((sizes.places, sizes.steps, sizes.multipliers), (10, 4, 12));
/// // each tensor at its own place (the input too)
/// let debug = Interpreter::planned_sizes(&model, Layout::Debug, &mut scratch)?;
/// assert_eq!(debug.arena.int8, 7_928);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedSizes {
    /// the activation buffers' elements (`multipliers` 0: the prepared
    /// multipliers are [`PlannedSizes::multipliers`])
    pub arena: ArenaSizes,
    /// the bytes of the activations the layout places, the model's inputs
    /// not counted: with [`Layout::Packed`], `model!`'s `RAM_BYTES`
    pub activation_bytes: usize,
    /// `usize`s of [`PlannedBuffers::places`]: one per tensor of the model
    pub places: usize,
    /// [`PreparedStep`]s: one per operator
    pub steps: usize,
    /// prepared multipliers: every quantized layer's
    pub multipliers: usize,
}

/// The buffers a planned [`Interpreter`] keeps ([`Interpreter::planned`]),
/// beside its [`Arena`]: each tensor's place, and the prepared operators.
/// At least [`PlannedSizes`]' lengths; on a microcontroller, `static`
/// arrays or local ones.
///
/// ```
/// use shapecheck_tflite::{PlannedBuffers, PreparedStep, QuantizedMultiplier};
///
/// let (mut places, mut steps, mut multipliers) = ([0usize; 12], [PreparedStep::EMPTY; 4], [QuantizedMultiplier::ZERO; 12]);
/// let buffers = PlannedBuffers { places: &mut places, steps: &mut steps, multipliers: &mut multipliers };
/// assert_eq!(buffers.places.len(), 12);
/// ```
#[derive(Debug)]
pub struct PlannedBuffers<'a, 'm> {
    /// each tensor's offset in its type's activation buffer
    pub places: &'a mut [usize],
    /// one prepared step per operator
    pub steps: &'a mut [PreparedStep<'m>],
    /// every quantized layer's requantization multipliers
    pub multipliers: &'a mut [QuantizedMultiplier],
}

mod layout;
#[cfg(feature = "alloc")]
mod plan;
#[cfg(test)]
mod tests;

pub use layout::Layout;
#[cfg(feature = "alloc")]
pub use plan::Plan;

use layout::{lay_out, slot_at, SCRATCH_PER_TENSOR};

use crate::kernel::checker::{check_export_kind, is_activation, operand_error, slot, Checker};
use crate::kernel::step::Buffers;
use crate::registry::Step;

/// Checks that each of `arena`'s buffers holds at least what `sizes` asks.
fn check_arena(sizes: &ArenaSizes, arena: &Arena<'_>) -> Result<(), TfliteError> {
    for (what, needed, given) in [
        ("int8 activations", sizes.int8, arena.int8.len()),
        ("int16 activations", sizes.int16, arena.int16.len()),
        ("int32 activations", sizes.int32, arena.int32.len()),
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
    Ok(())
}

/// Checks that every output of `model` is an activation the interpreter
/// keeps (`slot_of` gives it a place), so that [`Interpreter::output`]
/// reads it after a run: a constant output, or one of a type it does not
/// keep, is the error naming the tensor.
fn check_outputs(
    model: &Model<'_>,
    slot_of: impl Fn(usize) -> Option<Slot>,
) -> Result<(), TfliteError> {
    for index in model
        .outputs()
        .iter()
        .filter_map(|i| usize::try_from(i).ok())
    {
        let Some(t) = model.tensor(index) else {
            continue; // Model::parse checked every index
        };
        if slot_of(index).is_some() {
            continue;
        }
        let problem = if matches!(
            t.dtype(),
            TensorType::Int8 | TensorType::Int16 | TensorType::Int32 | TensorType::Float32
        ) {
            OperandProblem::Constant { expected: false }
        } else {
            OperandProblem::DtypeOneOf {
                expected: &[
                    TensorType::Int8,
                    TensorType::Int16,
                    TensorType::Int32,
                    TensorType::Float32,
                ],
                found: t.dtype(),
            }
        };
        return Err(operand_error(None, "output", &t, problem));
    }
    Ok(())
}

/// What a prepared step's run gives for an output overlapping an input
/// (built for nothing), which `invoke` turns into [`overlap_error`]'s
/// naming the operator when it occurs.
const OVERLAP: TfliteError = TfliteError::Length {
    what: "a step's output overlapping its input",
    expected: 0,
    actual: 0,
};

/// The error of a step whose output overlaps an input: `prepare` rejected
/// an output that is the input, and the activations of two tensors live
/// at the same operator never overlap, so a run does not meet it.
fn overlap_error(model: &Model<'_>, op: &Operator<'_>) -> TfliteError {
    match op.output(0).and_then(|i| model.tensor(i)) {
        Some(output) => operand_error(Some(op), "output", &output, OperandProblem::IsInput),
        None => TfliteError::MissingOperand {
            operator: op.index(),
            op: op.op(),
            operand: "output",
        },
    }
}

/// Checks operator `op` of `model`, whose activations are where `slot_of`
/// says, through its row in `OPS`: its shape rule, then its `prepare`,
/// which writes its multipliers, if any, into `scratch` and gives the step
/// to run. The one place every way of running a model prepares an
/// operator ([`Interpreter::new`]'s `invoke`, [`Interpreter::prepared`],
/// `Plan::new`).
fn prepare_op<'m>(
    model: Model<'m>,
    op: Operator<'m>,
    slot_of: impl Fn(usize) -> Option<Slot>,
    scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    #[cfg(test)]
    tests::count_prepare();
    let checker = Checker::with_slots(model, op, slot_of)?;
    let row = op_row(op.op()).ok_or_else(|| checker.unsupported_op(false))?;
    let shape = (row.output_shape)(&model, &op)?;
    checker.output_shape(&shape)?;
    (row.prepare)(&checker, &shape, scratch).map_err(|e| name_the_types(e, &op, row))
}

/// A [`prepare_op`] error about the type of the operator's first input,
/// when no form of the op takes that type, made to name every type the op
/// takes there (an op's check names the one its form would take:
/// `CONV_2D` on a FLOAT32 input would say "not INT8", though it runs INT16
/// too).
fn name_the_types(e: TfliteError, op: &Operator<'_>, row: &OpRow) -> TfliteError {
    let expected = row.input_types();
    match e {
        TfliteError::Operand {
            operator,
            op: o,
            operand,
            tensor,
            name,
            problem: OperandProblem::Dtype { found, .. },
        } if op.input(0) == Some(tensor) && expected.len() > 1 && !expected.contains(&found) => {
            TfliteError::Operand {
                operator,
                op: o,
                operand,
                tensor,
                name,
                problem: OperandProblem::DtypeOneOf { expected, found },
            }
        }
        e => e,
    }
}

/// Prepares every operator of `model` once, in order, into `steps` (one
/// per operator) and `multipliers` (each operator's after the one
/// before's), its activations where `slot_of` says. Fails as
/// [`prepare_op`] does, and with [`TfliteError::Arena`] when either
/// buffer is too short ([`Interpreter::prepared_sizes`]), before
/// preparing anything.
fn prepare_all<'m>(
    model: Model<'m>,
    slot_of: impl Fn(usize) -> Option<Slot>,
    steps: &mut [PreparedStep<'m>],
    multipliers: &mut [QuantizedMultiplier],
) -> Result<(), TfliteError> {
    check_export_kind(&model)?;
    let sizes = Interpreter::prepared_sizes(&model)?;
    for (what, needed, given) in [
        ("prepared steps", sizes.steps, steps.len()),
        ("prepared multipliers", sizes.multipliers, multipliers.len()),
    ] {
        if given < needed {
            return Err(TfliteError::Arena {
                what,
                needed,
                given,
            });
        }
    }
    let mut start = 0usize;
    for (op, prepared) in model.operators().zip(steps.iter_mut()) {
        // an op without a row needs none: `prepare_op` refuses it
        let count = op_row(op.op()).map_or(0, |row| (row.multipliers)(&model, &op));
        let end = start.saturating_add(count);
        let given = multipliers.len();
        let scratch = multipliers.get_mut(start..end).ok_or(TfliteError::Arena {
            what: "prepared multipliers",
            needed: end,
            given,
        })?;
        let step = prepare_op(model, op, &slot_of, scratch)?;
        *prepared = PreparedStep {
            step: Some(step),
            multipliers: start..end,
        };
        start = end;
    }
    Ok(())
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
            int16: 0,
            int32: 0,
            float32: 0,
            multipliers: 0,
        };
        for t in model.tensors().filter(is_activation) {
            let total = match t.dtype() {
                TensorType::Int8 => &mut sizes.int8,
                TensorType::Int16 => &mut sizes.int16,
                TensorType::Int32 => &mut sizes.int32,
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
            // an op without a row is refused by `new`; here it needs none
            let needed = op_row(op.op()).map_or(0, |row| (row.multipliers)(model, &op));
            sizes.multipliers = sizes.multipliers.max(needed);
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
    /// let arena = Arena { int8: &mut small, float32: &mut [], multipliers: &mut [], ..Arena::default() };
    /// let err = Interpreter::new(model, arena, Arithmetic::Micro).unwrap_err();
    /// assert_eq!(err.to_string(), "the int8 activations need 7928 elements, and their buffer has 10");
    /// # Ok::<(), TfliteError>(())
    /// ```
    pub fn new(
        model: Model<'m>,
        arena: Arena<'a>,
        arithmetic: Arithmetic,
    ) -> Result<Self, TfliteError> {
        check_export_kind(&model)?;
        let sizes = Self::arena_sizes(&model)?;
        check_arena(&sizes, &arena)?;
        check_outputs(&model, |i| slot(&model, i))?;
        let mut interpreter = Interpreter {
            model,
            arena,
            arithmetic,
            steps: None,
            places: None,
            #[cfg(feature = "alloc")]
            plan: None,
        };
        for op in model.operators() {
            interpreter.prepare(&op)?;
        }
        Ok(interpreter)
    }

    /// How many [`PreparedStep`]s and multipliers
    /// [`prepared`](Self::prepared) needs for `model`: one step per
    /// operator, and every quantized layer's multipliers (one per output
    /// channel), not only the widest layer's as [`arena_sizes`](Self::arena_sizes).
    ///
    /// Fails with [`TfliteError::TooManyElements`] when the sum overflows.
    ///
    /// ```
    /// use shapecheck_tflite::{Interpreter, Model};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let sizes = Interpreter::prepared_sizes(&model)?;
    /// // three fully connected layers: a multiplier per output channel
    /// assert_eq!((sizes.steps, sizes.multipliers), (3, 16 + 16 + 1));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn prepared_sizes(model: &Model<'_>) -> Result<PreparedSizes, TfliteError> {
        let mut multipliers = 0usize;
        for op in model.operators() {
            let count = op_row(op.op()).map_or(0, |row| (row.multipliers)(model, &op));
            multipliers = multipliers
                .checked_add(count)
                .ok_or(TfliteError::TooManyElements {
                    place: Place::Operator {
                        index: op.index(),
                        op: Some(op.op()),
                    },
                })?;
        }
        Ok(PreparedSizes {
            steps: model.operator_count(),
            multipliers,
        })
    }

    /// An interpreter of `model` in `arena`, with `arithmetic`'s rounding,
    /// every operator checked and prepared once, here, into buffers the
    /// caller owns: `steps` (one [`PreparedStep`] per operator) and
    /// `multipliers` (every quantized layer's), at least
    /// [`prepared_sizes`](Self::prepared_sizes) long. No heap:
    /// [`invoke`](Self::invoke) then only runs the prepared steps, with no
    /// checker, no shape rule and no multiplier derived again. The
    /// activations are where [`new`](Self::new) keeps them (each at its
    /// own place), and `arena.multipliers` is not used (it may be empty).
    ///
    /// Fails as [`new`](Self::new) does, and with [`TfliteError::Arena`]
    /// (`"prepared steps"`, `"prepared multipliers"`) when `steps` or
    /// `multipliers` is too short.
    ///
    /// ```
    /// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, PreparedStep, QuantizedMultiplier, TensorData};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// // the sizes of a model known when the firmware is written: constants
    /// assert_eq!(Interpreter::arena_sizes(&model)?.int8, 7928);
    /// assert_eq!(Interpreter::prepared_sizes(&model)?.steps, 4);
    /// assert_eq!(Interpreter::prepared_sizes(&model)?.multipliers, 12);
    /// let mut int8 = [0i8; 7928];
    /// let mut steps = [PreparedStep::EMPTY; 4];
    /// let mut multipliers = [QuantizedMultiplier::ZERO; 12];
    /// let arena = Arena { int8: &mut int8, ..Arena::default() };
    /// let mut interpreter = Interpreter::prepared(model, arena, &mut steps, &mut multipliers, Arithmetic::Micro)?;
    /// interpreter.set_input(0, TensorData::Int8(&[-123; 1960]))?; // every feature 0.5
    /// interpreter.invoke()?;
    /// assert_eq!(interpreter.output(0), Some(TensorData::Int8(&[-88, -58, -58, -52])));
    ///
    /// // a buffer too short, named with both lengths
    /// let mut int8 = [0i8; 7928];
    /// let mut steps = [PreparedStep::EMPTY; 4];
    /// let mut few = [QuantizedMultiplier::ZERO; 8];
    /// let arena = Arena { int8: &mut int8, ..Arena::default() };
    /// let err = Interpreter::prepared(model, arena, &mut steps, &mut few, Arithmetic::Micro).unwrap_err();
    /// assert_eq!(err.to_string(), "the prepared multipliers need 12 elements, and their buffer has 8");
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn prepared(
        model: Model<'m>,
        arena: Arena<'a>,
        steps: &'a mut [PreparedStep<'m>],
        multipliers: &'a mut [QuantizedMultiplier],
        arithmetic: Arithmetic,
    ) -> Result<Self, TfliteError> {
        let mut sizes = Self::arena_sizes(&model)?;
        // every layer's multipliers are in `multipliers`, not the arena's
        sizes.multipliers = 0;
        check_arena(&sizes, &arena)?;
        check_outputs(&model, |i| slot(&model, i))?;
        prepare_all(model, |i| slot(&model, i), steps, multipliers)?;
        let steps: &'a [PreparedStep<'m>] = steps;
        let used = steps.get(..model.operator_count()).unwrap_or(steps);
        Ok(Interpreter {
            model,
            arena,
            arithmetic,
            steps: Some((used, multipliers)),
            places: None,
            #[cfg(feature = "alloc")]
            plan: None,
        })
    }

    /// An interpreter of `plan`'s model in `arena`, with its layout and
    /// rounding (feature `alloc`). Every operator was checked and prepared
    /// when the plan was made: this checks the arena's lengths against
    /// [`Plan::arena_sizes`] ([`TfliteError::Arena`]), and
    /// [`invoke`](Self::invoke) then only runs the prepared steps.
    ///
    /// ```
    /// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Layout, Model, Plan, TensorData};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed)?;
    /// let mut int8 = vec![0i8; plan.arena_sizes().int8];
    /// let mut interpreter = Interpreter::with_plan(&plan, Arena { int8: &mut int8, ..Arena::default() })?;
    /// interpreter.set_input(0, TensorData::Int8(&[-108]))?; // x = 0.5
    /// interpreter.invoke()?;
    /// assert_eq!(interpreter.output(0), Some(TensorData::Int8(&[57])));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn with_plan(plan: &'a Plan<'m>, arena: Arena<'a>) -> Result<Self, TfliteError> {
        let sizes = plan.arena_sizes();
        // a plan holds its multipliers: `sizes.multipliers` is 0
        check_arena(&sizes, &arena)?;
        check_outputs(plan.model(), |i| plan.slot(i))?;
        Ok(Interpreter {
            model: *plan.model(),
            arena,
            arithmetic: plan.arithmetic(),
            steps: Some((plan.steps(), plan.all_multipliers())),
            places: None,
            plan: Some(plan),
        })
    }

    /// The `usize`s of scratch [`planned_sizes`](Self::planned_sizes) and
    /// [`planned`](Self::planned) work in: 7 per tensor of the model (the
    /// planner's tables and the activations it places). Needs no scratch
    /// itself; the scratch is only borrowed while they run (a local array
    /// on the device).
    ///
    /// ```
    /// use shapecheck_tflite::{Interpreter, Model};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(Interpreter::plan_scratch_len(&model), 7 * model.tensor_count());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn plan_scratch_len(model: &Model<'_>) -> usize {
        SCRATCH_PER_TENSOR.saturating_mul(model.tensor_count())
    }

    /// The lengths of the buffers [`planned`](Self::planned) takes for
    /// `model` laid out as `layout` says, with no heap: the placement is
    /// searched in `scratch` ([`plan_scratch_len`](Self::plan_scratch_len)
    /// long; [`Layout::Packed`]'s is the planner's, `Plan`'s and
    /// `model!`'s). A build script computes the same numbers on the host
    /// for a model known when the firmware is built:
    ///
    /// ```
    /// // build.rs: the arena's lengths as constants of the firmware
    /// use shapecheck_tflite::{Interpreter, Layout, Model};
    ///
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite"))?;
    /// let model = Model::parse(&bytes)?;
    /// let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
    /// let s = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch)?;
    /// let constants = format!(
    ///     "pub const INT8: usize = {};\npub const PLACES: usize = {};\npub const STEPS: usize = {};\npub const MULTIPLIERS: usize = {};\n",
    ///     s.arena.int8, s.places, s.steps, s.multipliers,
    /// );
    /// // std::fs::write(out_dir.join("arena.rs"), constants)?;
    /// assert!(constants.starts_with("pub const INT8: usize = 5964;")); // 1,960 input + 4,004
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// Fails with [`TfliteError::Arena`] (`"plan scratch"`) when `scratch`
    /// is too short, and with [`TfliteError::TooManyElements`] when a sum
    /// overflows.
    pub fn planned_sizes(
        model: &Model<'_>,
        layout: Layout,
        scratch: &mut [usize],
    ) -> Result<PlannedSizes, TfliteError> {
        let (arena, activation_bytes) = lay_out(model, layout, scratch, None)?;
        let prepared = Self::prepared_sizes(model)?;
        Ok(PlannedSizes {
            arena,
            activation_bytes,
            places: model.tensor_count(),
            steps: prepared.steps,
            multipliers: prepared.multipliers,
        })
    }

    /// An interpreter of `model` in `arena`, its activations laid out as
    /// `layout` says and every operator prepared once, here, with no heap:
    /// the placement is searched in `scratch` (borrowed only during this
    /// call), each tensor's place kept in `buffers.places` and the
    /// prepared operators in `buffers.steps` and `buffers.multipliers`.
    /// [`invoke`](Self::invoke) then only runs. With [`Layout::Packed`]
    /// the activations take the planner's arena ([`planned_sizes`](Self::planned_sizes)),
    /// exactly where `Plan` places them; with [`Layout::Debug`] each is at
    /// its own place, as [`prepared`](Self::prepared) keeps them.
    /// `arena.multipliers` is not used (it may be empty).
    ///
    /// Every length is checked before anything is written: fails with
    /// [`TfliteError::Arena`] naming the buffer and both lengths, and
    /// otherwise as [`prepared`](Self::prepared) does.
    ///
    /// ```
    /// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Layout, Model, PlannedBuffers, PreparedStep, QuantizedMultiplier, TensorData};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// // the lengths planned_sizes gives (constants from a build script)
    /// let mut int8 = [0i8; 1960 + 4004];
    /// let (mut places, mut steps, mut multipliers) = ([0usize; 12], [PreparedStep::EMPTY; 4], [QuantizedMultiplier::ZERO; 12]);
    /// let mut scratch = [0usize; 7 * 12];
    /// let buffers = PlannedBuffers { places: &mut places, steps: &mut steps, multipliers: &mut multipliers };
    /// let arena = Arena { int8: &mut int8, ..Arena::default() };
    /// let mut interpreter = Interpreter::planned(model, arena, buffers, &mut scratch, Layout::Packed, Arithmetic::Micro)?;
    /// interpreter.set_input(0, TensorData::Int8(&[-123; 1960]))?; // every feature 0.5
    /// interpreter.invoke()?;
    /// assert_eq!(interpreter.output(0), Some(TensorData::Int8(&[-88, -58, -58, -52])));
    ///
    /// // the arena of each tensor at its own place is too short for the packed one
    /// let mut int8 = [0i8; 1960 + 4004];
    /// let (mut places, mut steps, mut multipliers) = ([0usize; 12], [PreparedStep::EMPTY; 4], [QuantizedMultiplier::ZERO; 12]);
    /// let buffers = PlannedBuffers { places: &mut places, steps: &mut steps, multipliers: &mut multipliers };
    /// let arena = Arena { int8: &mut int8, ..Arena::default() };
    /// let err = Interpreter::planned(model, arena, buffers, &mut scratch, Layout::Debug, Arithmetic::Micro).unwrap_err();
    /// assert_eq!(err.to_string(), "the int8 activations need 7928 elements, and their buffer has 5964");
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn planned(
        model: Model<'m>,
        arena: Arena<'a>,
        buffers: PlannedBuffers<'a, 'm>,
        scratch: &mut [usize],
        layout: Layout,
        arithmetic: Arithmetic,
    ) -> Result<Self, TfliteError> {
        let sizes = Self::planned_sizes(&model, layout, scratch)?;
        let PlannedBuffers {
            places,
            steps,
            multipliers,
        } = buffers;
        for (what, needed, given) in [
            ("tensor places", sizes.places, places.len()),
            ("prepared steps", sizes.steps, steps.len()),
            ("prepared multipliers", sizes.multipliers, multipliers.len()),
        ] {
            if given < needed {
                return Err(TfliteError::Arena {
                    what,
                    needed,
                    given,
                });
            }
        }
        check_arena(&sizes.arena, &arena)?;
        lay_out(&model, layout, scratch, Some(&mut *places))?;
        let places: &'a [usize] = places;
        check_outputs(&model, |i| slot_at(&model, places, i))?;
        prepare_all(model, |i| slot_at(&model, places, i), steps, multipliers)?;
        let steps: &'a [PreparedStep<'m>] = steps;
        let used = steps.get(..model.operator_count()).unwrap_or(steps);
        Ok(Interpreter {
            model,
            arena,
            arithmetic,
            steps: Some((used, multipliers)),
            places: Some(places),
            #[cfg(feature = "alloc")]
            plan: None,
        })
    }

    /// The model.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// # let mut f = [0f32; 34];
    /// let interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [], ..Arena::default() }, Arithmetic::Micro)?;
    /// assert_eq!(interpreter.model().operator_count(), 3);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn model(&self) -> &Model<'m> {
        &self.model
    }

    /// Where activation tensor `index` lives: the plan's layout, or
    /// [`slot`]'s, each tensor at its own place.
    fn slot(&self, index: usize) -> Option<Slot> {
        #[cfg(feature = "alloc")]
        if let Some(plan) = self.plan {
            return plan.slot(index);
        }
        if let Some(places) = self.places {
            return slot_at(&self.model, places, index);
        }
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
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [], ..Arena::default() }, Arithmetic::Micro)?;
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
            TensorType::Int16 => TensorData::Int16(self.arena.int16.get(slot.range)?),
            TensorType::Int32 => TensorData::Int32(self.arena.int32.get(slot.range)?),
            _ => TensorData::Float32(self.arena.float32.get(slot.range)?),
        })
    }

    /// The data of the model's output `k`, or `None` past the last output.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, TensorData};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// # let mut f = [0f32; 34];
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [], ..Arena::default() }, Arithmetic::Micro)?;
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
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut [], float32: &mut f, multipliers: &mut [], ..Arena::default() }, Arithmetic::Micro)?;
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
            TensorData::Int16(d) => {
                if let Some(dst) = self.arena.int16.get_mut(slot.range) {
                    dst.copy_from_slice(d);
                }
            }
            TensorData::Int32(d) => {
                if let Some(dst) = self.arena.int32.get_mut(slot.range) {
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
    /// let mut interpreter = Interpreter::new(model, Arena { int8: &mut int8, float32: &mut [], multipliers: &mut m, ..Arena::default() }, Arithmetic::Micro)?;
    /// interpreter.set_input(0, TensorData::Int8(&[-123; 1960]))?; // every feature 0.5
    /// interpreter.invoke()?;
    /// // the models README's cross-check with microflow
    /// assert_eq!(interpreter.output(0), Some(TensorData::Int8(&[-88, -58, -58, -52])));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn invoke(&mut self) -> Result<(), TfliteError> {
        if let Some((steps, all_multipliers)) = self.steps {
            // `prepared`, `planned` and `Plan::new` prepared one step per
            // operator: nothing is decoded, searched or built here but
            // the buffers, once; an error names its operator only when
            // one occurs
            let mut buffers = Buffers {
                int8: &mut *self.arena.int8,
                int16: &mut *self.arena.int16,
                int32: &mut *self.arena.int32,
                float32: &mut *self.arena.float32,
                multipliers: &[],
                fc_rounding: match self.arithmetic {
                    Arithmetic::Micro => Rounding::Double,
                    Arithmetic::Reference => Rounding::Single,
                },
                overlap: OVERLAP,
            };
            let model = self.model;
            if steps.len() < model.operator_count() {
                return Err(TfliteError::Arena {
                    what: "prepared steps",
                    needed: model.operator_count(),
                    given: steps.len(),
                });
            }
            for (index, prepared) in steps.iter().enumerate() {
                let (step, multipliers) =
                    prepared.parts(all_multipliers).ok_or(TfliteError::Arena {
                        what: "prepared steps",
                        needed: model.operator_count(),
                        given: index,
                    })?;
                buffers.multipliers = multipliers;
                step.run(&mut buffers)
                    .map_err(|e| match model.operator(index) {
                        Some(op) if e == OVERLAP => overlap_error(&model, &op),
                        _ => e,
                    })?;
            }
            return Ok(());
        }
        for op in self.model.operators() {
            let step = self.prepare(&op)?;
            self.run(&op, step)?;
        }
        Ok(())
    }

    /// Prepares operator `op` ([`prepare_op`]), its multipliers in the
    /// arena's scratch.
    fn prepare(&mut self, op: &Operator<'m>) -> Result<Step<'m>, TfliteError> {
        let model = self.model;
        prepare_op(
            model,
            *op,
            |i| slot(&model, i),
            &mut *self.arena.multipliers,
        )
    }

    /// Runs a prepared step.
    fn run(&mut self, op: &Operator<'m>, step: Step<'m>) -> Result<(), TfliteError> {
        let overlap = overlap_error(&self.model, op);
        let fc_rounding = self.fc_rounding();
        let mut buffers = Buffers {
            int8: &mut *self.arena.int8,
            int16: &mut *self.arena.int16,
            int32: &mut *self.arena.int32,
            float32: &mut *self.arena.float32,
            multipliers: &*self.arena.multipliers,
            fc_rounding,
            overlap,
        };
        step.run(&mut buffers)
    }

    /// The rounding of `FULLY_CONNECTED`'s requantization.
    fn fc_rounding(&self) -> Rounding {
        match self.arithmetic {
            Arithmetic::Micro => Rounding::Double,
            Arithmetic::Reference => Rounding::Single,
        }
    }
}
