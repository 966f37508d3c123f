//! A model prepared once (feature `alloc`): where each activation lives,
//! and every operator checked, its constants derived and its multipliers
//! written, so that an [`Interpreter`](super::Interpreter) built on it
//! only runs.

use alloc::vec::Vec;
use core::ops::Range;

use super::{prepare_all, ArenaSizes, Arithmetic, PreparedStep, Step};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::{Name, Place, TfliteError};
use crate::format::model::Model;
use crate::format::types::{BuiltinOp, TensorType};
use crate::kernel::checker::{slot, Slot};
use crate::runtime::plan::{activations, place};

/// Where a [`Plan`] puts the activations in the interpreter's buffers.
///
/// ```
/// use shapecheck_tflite::{Arithmetic, Layout, Model, Plan};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let packed = Plan::new(model, Arithmetic::Micro, Layout::Packed)?;
/// let debug = Plan::new(model, Arithmetic::Micro, Layout::Debug)?;
/// // the input beside the liveness floor, or every tensor at its own place
/// assert_eq!((packed.arena_sizes().int8, debug.arena_sizes().int8), (1960 + 4004, 7928));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The planner's placement ([`plan::place`](crate::runtime::plan::place)): the
    /// model's inputs first, then the activations `model!` places, two
    /// that are live at the same operator never overlapping (the model's
    /// outputs live to the end); a `RESHAPE`'s output is its input. After
    /// a run the inputs and outputs hold their values, and an intermediate
    /// tensor may have been overwritten.
    Packed,
    /// Every activation at its own place, as [`Interpreter::new`](super::Interpreter::new)
    /// keeps them: every intermediate tensor can be read after a run.
    Debug,
}

/// A model prepared once: each activation's place in the buffers
/// ([`Layout`]), and every operator checked and ready to run, with its
/// constants and requantization multipliers (which live here, on the
/// heap, not in the [`Arena`](super::Arena)). Built on the host or behind
/// feature `alloc`; [`Interpreter::with_plan`](super::Interpreter::with_plan)
/// runs it over the caller's buffers without checking or deriving
/// anything again.
///
/// ```
/// use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Layout, Model, Plan, TensorData};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed)?;
/// let mut int8 = vec![0i8; plan.arena_sizes().int8];
/// let mut interpreter = Interpreter::with_plan(&plan, Arena { int8: &mut int8, ..Arena::default() })?;
/// interpreter.set_input(0, TensorData::Int8(&[-123; 1960]))?; // every feature 0.5
/// interpreter.invoke()?;
/// assert_eq!(interpreter.output(0), Some(TensorData::Int8(&[-88, -58, -58, -52])));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone)]
pub struct Plan<'m> {
    model: Model<'m>,
    arithmetic: Arithmetic,
    layout: Layout,
    slots: Vec<Option<Slot>>,
    sizes: ArenaSizes,
    activations: usize,
    steps: Vec<PreparedStep<'m>>,
    multipliers: Vec<QuantizedMultiplier>,
}

impl core::fmt::Debug for Plan<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Plan")
            .field("layout", &self.layout)
            .field("sizes", &self.sizes)
            .field("steps", &self.steps.len())
            .field("multipliers", &self.multipliers.len())
            .finish()
    }
}

/// The element types the interpreter keeps, and their sizes in bytes.
const TYPES: [(TensorType, usize); 4] = [
    (TensorType::Int8, 1),
    (TensorType::Int16, 2),
    (TensorType::Int32, 4),
    (TensorType::Float32, 4),
];

impl<'m> Plan<'m> {
    /// Plans `model` with `arithmetic`'s rounding: places its activations
    /// as `layout` says, then checks and prepares every operator, failing
    /// as [`Interpreter::new`](super::Interpreter::new) does (an op it does
    /// not run, an operand that does not fit, a parameter out of range).
    /// Linear in the model's size, the placement's search aside.
    ///
    /// ```
    /// use shapecheck_tflite::{Arithmetic, Layout, Model, Plan};
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/person_detect.tflite")))?;
    /// let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed)?;
    /// // model!'s RAM_BYTES for person detection: the liveness floor
    /// assert_eq!(plan.activation_bytes(), 55_296);
    /// assert_eq!(plan.arena_sizes().int8, 9_216 + 55_296); // its input beside it
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn new(
        model: Model<'m>,
        arithmetic: Arithmetic,
        layout: Layout,
    ) -> Result<Self, TfliteError> {
        let (slots, sizes, activations) = match layout {
            Layout::Packed => packed(&model)?,
            Layout::Debug => {
                let mut sizes = super::Interpreter::arena_sizes(&model)?;
                sizes.multipliers = 0;
                let slots = (0..model.tensor_count()).map(|i| slot(&model, i)).collect();
                (slots, sizes, bytes(&sizes))
            }
        };
        // the preparation `Interpreter::prepared` runs, into buffers on the heap
        let sizes_needed = super::Interpreter::prepared_sizes(&model)?;
        let mut steps = alloc::vec![PreparedStep::EMPTY; sizes_needed.steps];
        let mut multipliers = alloc::vec![QuantizedMultiplier::ZERO; sizes_needed.multipliers];
        prepare_all(
            model,
            |i| slots.get(i).cloned().flatten(),
            &mut steps,
            &mut multipliers,
        )?;
        Ok(Plan {
            model,
            arithmetic,
            layout,
            slots,
            sizes,
            activations,
            steps,
            multipliers,
        })
    }

    /// The model.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arithmetic, Layout, Model, Plan};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed)?;
    /// assert_eq!(plan.model().operator_count(), 3);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn model(&self) -> &Model<'m> {
        &self.model
    }

    /// The layout.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arithmetic, Layout, Model, Plan};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(Plan::new(model, Arithmetic::Micro, Layout::Debug)?.layout(), Layout::Debug);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The lengths of the buffers an [`Interpreter`](super::Interpreter)
    /// on this plan needs (its `multipliers` 0: the plan holds them).
    ///
    /// ```
    /// # use shapecheck_tflite::{Arithmetic, Layout, Model, Plan};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let sizes = Plan::new(model, Arithmetic::Micro, Layout::Packed)?.arena_sizes();
    /// assert_eq!((sizes.int8, sizes.multipliers), (1 + 32, 0)); // the input and model!'s 32 B
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn arena_sizes(&self) -> ArenaSizes {
        self.sizes
    }

    /// The bytes of the activations the layout places, the model's inputs
    /// not counted: with [`Layout::Packed`], `model!`'s `RAM_BYTES` for the
    /// same model (its liveness floor where the planner reaches it).
    ///
    /// ```
    /// # use shapecheck_tflite::{Arithmetic, Layout, Model, Plan};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(Plan::new(model, Arithmetic::Micro, Layout::Packed)?.activation_bytes(), 4004);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn activation_bytes(&self) -> usize {
        self.activations
    }

    /// The bytes the prepared operators take on the heap: their steps
    /// (each operand's place and each constant's, the kernel's
    /// parameters) and their requantization multipliers. On a target
    /// without a heap these would be RAM; `model!` writes them as `static`
    /// items in flash instead.
    ///
    /// ```
    /// # use shapecheck_tflite::{Arithmetic, Layout, Model, Plan};
    /// # let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed)?;
    /// assert!(plan.prepared_bytes() >= 8 * core::mem::size_of::<shapecheck_tflite::QuantizedMultiplier>());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn prepared_bytes(&self) -> usize {
        self.steps.len() * core::mem::size_of::<PreparedStep<'_>>()
            + self.multipliers.len() * core::mem::size_of::<QuantizedMultiplier>()
    }

    /// Where activation tensor `index` lives.
    pub(crate) fn slot(&self, index: usize) -> Option<Slot> {
        self.slots.get(index).cloned().flatten()
    }

    /// The prepared operators, in order, one per operator.
    pub(crate) fn steps(&self) -> &[PreparedStep<'m>] {
        &self.steps
    }

    /// The prepared operators, in order: each step and its multipliers'
    /// range in [`all_multipliers`](Self::all_multipliers) (what `model!`
    /// writes).
    pub(crate) fn prepared(&self) -> impl Iterator<Item = (&Step<'m>, Range<usize>)> {
        self.steps.iter().filter_map(|p| p.step_and_range())
    }

    /// Every operator's multipliers, one after the other.
    pub(crate) fn all_multipliers(&self) -> &[QuantizedMultiplier] {
        &self.multipliers
    }

    /// The rounding of `FULLY_CONNECTED`.
    pub(crate) fn arithmetic(&self) -> Arithmetic {
        self.arithmetic
    }
}

/// The bytes of the activations in buffers of `sizes`.
fn bytes(sizes: &ArenaSizes) -> usize {
    TYPES.iter().fold(0usize, |sum, &(t, size)| {
        let elements = match t {
            TensorType::Int8 => sizes.int8,
            TensorType::Int16 => sizes.int16,
            TensorType::Int32 => sizes.int32,
            _ => sizes.float32,
        };
        sum.saturating_add(elements.saturating_mul(size))
    })
}

/// The packed layout: per element type, the model's inputs first, then the
/// planner's placement of the activations (outputs live to the end); a
/// `RESHAPE`'s output at its input's place. Returns the slots, the buffer
/// sizes and the placed activations' bytes.
type Layouted = (Vec<Option<Slot>>, ArenaSizes, usize);

fn packed(model: &Model<'_>) -> Result<Layouted, TfliteError> {
    let mut slots: Vec<Option<Slot>> = alloc::vec![None; model.tensor_count()];
    let mut sizes = ArenaSizes {
        int8: 0,
        int16: 0,
        int32: 0,
        float32: 0,
        multipliers: 0,
    };
    let mut placed_bytes = 0usize;
    let last_op = model.operator_count().saturating_sub(1);
    let outputs: Vec<usize> = model
        .outputs()
        .iter()
        .filter_map(|i| usize::try_from(i).ok())
        .collect();
    let too_many = |index: usize| TfliteError::TooManyElements {
        place: Place::ModelTensor {
            index,
            name: Name::new(model.tensor(index).map_or("", |t| t.name())),
        },
    };
    for (dtype, size) in TYPES {
        // the inputs of this type, side by side at the front
        let mut at = 0usize;
        for index in model
            .inputs()
            .iter()
            .filter_map(|i| usize::try_from(i).ok())
        {
            let Some(t) = model.tensor(index).filter(|t| t.dtype() == dtype) else {
                continue;
            };
            let end = at.checked_add(t.elements()).ok_or(too_many(index))?;
            if let Some(s) = slots.get_mut(index) {
                *s = Some(Slot {
                    dtype,
                    range: at..end,
                });
            }
            at = end;
        }
        let base = at;
        let (tensors, mut lifetimes) = activations(model, dtype);
        for (t, l) in tensors.iter().zip(lifetimes.iter_mut()) {
            if outputs.contains(t) {
                l.last = last_op;
            }
        }
        let placement = place(&lifetimes);
        for ((&index, l), &offset) in tensors.iter().zip(&lifetimes).zip(&placement.offsets) {
            let start = base.checked_add(offset).ok_or(too_many(index))?;
            let end = start.checked_add(l.size).ok_or(too_many(index))?;
            if let Some(s) = slots.get_mut(index) {
                *s = Some(Slot {
                    dtype,
                    range: start..end,
                });
            }
        }
        let total = base
            .checked_add(placement.size)
            .ok_or(too_many(model.tensor_count()))?;
        match dtype {
            TensorType::Int8 => sizes.int8 = total,
            TensorType::Int16 => sizes.int16 = total,
            TensorType::Int32 => sizes.int32 = total,
            _ => sizes.float32 = total,
        }
        placed_bytes = placed_bytes.saturating_add(placement.size.saturating_mul(size));
    }
    // a RESHAPE's output is its input's elements, in operator order so that
    // a chain of them reaches the first input
    for op in model.operators().filter(|op| op.op() == BuiltinOp::RESHAPE) {
        if let (Some(i), Some(o)) = (op.input(0), op.output(0)) {
            let input = slots.get(i).cloned().flatten();
            if let Some(s) = slots.get_mut(o) {
                *s = input;
            }
        }
    }
    Ok((slots, sizes, placed_bytes))
}
