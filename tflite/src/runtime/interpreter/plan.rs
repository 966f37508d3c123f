//! A model prepared once (feature `alloc`): where each activation lives,
//! and every operator checked, its constants derived and its multipliers
//! written, so that an [`Interpreter`](super::Interpreter) built on it
//! only runs.

use alloc::vec::Vec;
use core::ops::Range;

use super::layout::{lay_out, slot_at, Layout, NOWHERE};
use super::{prepare_all, ArenaSizes, Arithmetic, PreparedStep, Step};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::Model;
use crate::kernel::checker::Slot;

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
        // the layout the heap-less `Interpreter::planned` makes, in buffers
        // on the heap: the same places
        let mut scratch = alloc::vec![0usize; super::Interpreter::plan_scratch_len(&model)];
        let mut places = alloc::vec![NOWHERE; model.tensor_count()];
        let (sizes, activations) = lay_out(&model, layout, &mut scratch, Some(&mut places))?;
        let slots: Vec<Option<Slot>> = (0..model.tensor_count())
            .map(|i| slot_at(&model, &places, i))
            .collect();
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
