//! The schedule search (feature `alloc`, issue 70): which chains of
//! layers run streamed ([`crate::runtime::stream`]), a band of rows at a time,
//! and at which band heights; and the arena that schedule needs.
//!
//! A *streamed run* is a chain of consecutive convolutions, depthwise
//! convolutions and pools, each reading the one before's output and
//! nothing else reading it. The tensors between its stages are rings
//! ([`crate::runtime::stream::ring_rows`]); its first input and its last output are
//! whole tensors. The RAM of a schedule is [`crate::runtime::plan::place`]'s arena
//! over the whole tensors and, for each run, one block of its rings, live
//! from the run's first operator to its last (the run's input stays live
//! to its last operator, its output from its first).
//!
//! The techniques it uses: streaming (depth-first runs with rings); at a
//! run's end, an average pool whose window spans every row that
//! accumulates its sums as the rows stream ([`Run::sums`], bytes after
//! the rings in the run's block); and, in every schedule but
//! [`Goal::Layers`], an `ADD` of two tensors of one shape that writes its
//! output over an input it is the last to read ([`InPlace`], TFLite's
//! arithmetic reads each element pair before it writes that element), so
//! that its input and output are one slot of the arena. Such an `ADD`
//! may also end a run ([`crate::runtime::stream::Stage::Add`]): the run's last
//! layer's rows (a ring) added to the other input, the *skip*, written
//! over it a band at a time. The skip is a whole tensor the run does not
//! touch, or the run's own input, where each band is written over rows
//! the first layer reads no more ([`crate::runtime::stream::writes_behind_reads`],
//! a residual block streamed whole: its convolutions and its `ADD`).
//! And a depthwise or 1×1 convolution may be written over its own input
//! ([`LayerInPlace`], [`crate::runtime::stream::InPlaceLayer`]): its output in its
//! input's slot, a scratch of [`crate::runtime::stream::InPlaceShape::scratch`]'s
//! values beside it at its operator alone, at the band the search
//! chooses.
//!
//! The instructions of a schedule are estimated from the MACs and one
//! table of per-kernel costs ([`COSTS`]), plus a cost per kernel call
//! (a band is a call, two where it wraps past its ring's end).

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::arith::window::conv_axis;
use crate::format::model::{Model, Operator};
use crate::format::types::TensorType;
use crate::registry::options::Options;
use crate::registry::{op_row, TypedLayer};
use crate::runtime::plan::{activations, liveness_floor, place, Lifetime};
use crate::runtime::stream::{
    ring_rows, ring_slide, walk, writes_behind_reads, InPlaceKind, InPlaceShape, RowGeometry,
};

/// A layer's kind, as the cost table [`COSTS`] counts it.
///
/// ```
/// use shapecheck_tflite::schedule::{cost, Kernel};
///
/// assert!(cost(Kernel::Depthwise).per_mac_milli > cost(Kernel::Conv1x1).per_mac_milli);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kernel {
    /// a `CONV_2D` with a 1×1 filter
    Conv1x1,
    /// a `CONV_2D` with a larger filter (or a `DEPTHWISE_CONV_2D` of one
    /// input channel: the convolution it is), of a multiple of 4 values
    ConvKxK,
    /// the same with a filter of a number of values not a multiple of 4
    /// (a first layer's 3×3×1 or 3×3×3: its rows padded to whole words)
    ConvShallow,
    /// a `DEPTHWISE_CONV_2D`
    Depthwise,
    /// an `AVERAGE_POOL_2D` or `MAX_POOL_2D` (a MAC is a window tap)
    Pool,
    /// a `FULLY_CONNECTED`
    FullyConnected,
    /// any other op (its MACs counted as 0)
    Other,
}

/// The estimated cost of one kernel kind on the Cortex-M4F at opt-level
/// 3: instructions per MAC (in thousandths) and per kernel call.
///
/// ```
/// use shapecheck_tflite::schedule::{cost, Kernel};
///
/// assert_eq!(cost(Kernel::Conv1x1).per_mac_milli, 1_470);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    /// the kind
    pub kernel: Kernel,
    /// instructions per MAC, in thousandths
    pub per_mac_milli: u64,
    /// instructions per kernel call (a band, or a whole layer)
    pub per_call: u64,
    /// instructions per kernel call and output channel (the per-channel
    /// constants and output stages each call sets up)
    pub per_call_channel: u64,
}

/// The instructions per value a streamed run's ring moves to its front
/// ([`crate::runtime::stream::ring_slide`]), in thousandths: person detection's
/// 195,840 bytes moved in 345,132 instructions of `memmove` at its
/// smallest plan (see [`COSTS`]).
const MOVE_MILLI: u64 = 1_760;

/// The instructions of the streamed run's driver per band call of a
/// stage (the walk, the band's window and its stage's geometry, the
/// copies of its operands): what `drive` and `pull` issue beside the
/// kernels, about 890 a call over person detection's 294 stage calls at
/// its smallest plan and 2,200 over keyword spotting's 130 at `ram =
/// 8_640` (see [`COSTS`]).
const STREAM_CALL: u64 = 1_500;

/// The instructions of a layer in place's kernel call
/// ([`crate::runtime::stream::InPlaceLayer`]) beyond the kernel's own per-call
/// cost in [`COSTS`]: the band's geometry and the kernel's checks, as a
/// streamed band has them: keyword spotting's depthwise layers at `ram =
/// 8_696` (bands of 8 rows of each group of four channels, 256 calls)
/// took 470 k more than its layer plan's (`Stage::band`'s, counted as
/// [`COSTS`] says), 1,865 a call against [`COSTS`]' 1,180.
const IN_PLACE_CALL: u64 = 700;

/// The one table of per-kernel costs, measured on the Cortex-M4F at
/// opt-level 3: the TinyML firmware (`embedded/models`, built as
/// `SHAPECHECK_MODELS=DIR COMPARE_SET=tiny OPT_LEVELS=3 bash
/// embedded/compare.sh` builds it) counted per function with `python3
/// embedded/count_instructions.py ELF --by-symbol`, each model at the
/// layer-by-layer plan (`schedule = layers`: person detection 13,374,893
/// instructions, keyword spotting 4,796,673, the streaming wake word
/// 2,103,225) and at a streamed plan (person detection `ram = 14_208`:
/// 14,719,382; keyword spotting `ram = 8_640`: 5,587,205; the streaming
/// wake word `ram = 4_992`: 2,255,549 before the 1×1 convolutions' pairs
/// were prepared), 2026-11-28, with the depthwise
/// layers' groups set up once per layer ([`crate::DepthwiseGroup`]) and
/// the 1×1 convolutions' channel pairs too ([`crate::ConvPairStage`]):
/// - per MAC, from person detection's layer plan: the 1×1 convolutions
///   (`matmul_wide`, `group_stages`, `Requant4::for_channels`) 9.10 M
///   over 6,193,664 MACs; the first layer, a 3×3 filter over one channel
///   (`conv_im2col_rows`) 0.90 M over 165,888; the depthwise layers
///   (`depthwise_conv_int8_prechecked`) 3.07 M over 798,336; ResNet-8's
///   3×3 convolutions 1.44 and anomaly detection's fully connected
///   layers 1.68 per MAC (docs/embedded.md's breakdown at `s`, the rows
///   within 2 % of their totals at `3`); a pool's tap 72 (person
///   detection's average pool);
/// - per call and per call and output channel, from the streamed plans'
///   excess over the layer plans: a depthwise call (`dsp::depthwise`:
///   each class of pixels' geometry once a call, then each group of 4
///   channels' state copied from its prepared set-up and its runs) 577 k
///   more over person detection's 126 band calls of 3,072 channels in
///   all, 582 k over keyword spotting's 52 calls of 64 channels: fitted
///   as 500 a call and 170 a channel; a 1×1 convolution's call, its
///   channel pairs prepared (`matmul`'s checks, one group of all the
///   channels: nothing set up per channel), was 263 k over person
///   detection's 120 calls and 327 k over keyword spotting's 52 when
///   each call set up its pairs (400 a call and 75 a channel), and the
///   prepared pairs took 260 k and 228 k of that away: about 30 a call
///   left on person detection and 1,900 on keyword spotting, fitted as
///   800 a call (between the two) and none a channel; the first layer's
///   im2col about 300 a call (15 k over person detection's 48 calls).
///
/// The estimates against the firmware at `3`, layer by layer: person
/// detection 13.47 M (measured 13.37 M, +0.7 %), keyword spotting 5.22 M
/// (4.80 M, +9 %: its 1×1 and depthwise layers cost less per MAC than
/// person detection's), the streaming wake word 1.39 M (2.10 M, −34 %:
/// its depthwise layers over narrow maps take the general path); and of
/// the streamed plans against the layer plans: person detection at
/// `ram = 14_208` 1.107× (measured 1.101×) and at `ram = 15_360` 1.096×
/// (1.093×), keyword spotting at `ram = 8_640` 1.191× (1.165×), the
/// streaming wake word at `ram = 4_992` 1.149× (1.072× before the
/// prepared pairs).
pub const COSTS: [Cost; 7] = [
    Cost {
        kernel: Kernel::Conv1x1,
        per_mac_milli: 1_470,
        per_call: 800,
        per_call_channel: 0,
    },
    Cost {
        kernel: Kernel::ConvShallow,
        per_mac_milli: 5_400,
        per_call: 300,
        per_call_channel: 0,
    },
    Cost {
        kernel: Kernel::ConvKxK,
        per_mac_milli: 1_440,
        per_call: 2_000,
        per_call_channel: 100,
    },
    Cost {
        kernel: Kernel::Depthwise,
        per_mac_milli: 3_850,
        per_call: 500,
        per_call_channel: 170,
    },
    Cost {
        kernel: Kernel::Pool,
        per_mac_milli: 72_000,
        per_call: 400,
        per_call_channel: 0,
    },
    Cost {
        kernel: Kernel::FullyConnected,
        per_mac_milli: 1_680,
        per_call: 400,
        per_call_channel: 0,
    },
    Cost {
        kernel: Kernel::Other,
        per_mac_milli: 0,
        per_call: 400,
        per_call_channel: 0,
    },
];

/// The row of [`COSTS`] of `kernel`.
///
/// ```
/// use shapecheck_tflite::schedule::{cost, Kernel};
///
/// assert_eq!(cost(Kernel::Other).per_mac_milli, 0);
/// ```
pub fn cost(kernel: Kernel) -> Cost {
    COSTS
        .iter()
        .copied()
        .find(|c| c.kernel == kernel)
        .unwrap_or(Cost {
            kernel,
            per_mac_milli: 0,
            per_call: 0,
            per_call_channel: 0,
        })
}

/// What the user asks of the schedule (`model!`'s `schedule = layers`,
/// `ram = N`, or neither).
///
/// ```
/// use shapecheck_tflite::schedule::Goal;
///
/// let goal = Goal::Ram(16_384);
/// assert_ne!(goal, Goal::Default);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Goal {
    /// the least RAM whose estimated instructions are at most 1.10× the
    /// layer-by-layer schedule's
    Default,
    /// the fewest estimated instructions within this many bytes
    Ram(usize),
    /// every layer whole, one after another (the interpreter's schedule)
    Layers,
}

/// A streamed run: operators `ops` (positions in the model's run), the
/// last one computing `band` output rows at a time.
///
/// ```
/// use shapecheck_tflite::schedule::{Goal, Schedule};
/// use shapecheck_tflite::Model;
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/person_detect.tflite")))?;
/// let s = Schedule::search(&model, Goal::Default).unwrap();
/// assert!(s.runs.iter().all(|r| r.ops.len() >= 2 && r.ring_rows.len() == r.ops.len() - 1));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// its operators, consecutive
    pub ops: core::ops::Range<usize>,
    /// the last operator's output rows per step
    pub band: usize,
    /// the rows of the ring after each stage but the last
    pub ring_rows: Vec<usize>,
    /// the elements of each of those rings (rows × a row's elements)
    pub ring_sizes: Vec<usize>,
    /// the bytes of the last stage's sums, when it is an average pool
    /// whose window spans the rows
    /// ([`crate::runtime::stream::RowGeometry::accumulated`]), after the rings
    pub sums: usize,
    /// each stage's geometry
    pub stages: Vec<RowGeometry>,
}

/// What an arena slot holds.
///
/// ```
/// use shapecheck_tflite::schedule::Holds;
///
/// assert_ne!(Holds::Tensor(3), Holds::Rings(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Holds {
    /// a whole tensor (its index in the model)
    Tensor(usize),
    /// the rings of run `k` of [`Schedule::runs`], one after another
    Rings(usize),
    /// the scratch of the layer written over its input at operator `k`
    /// ([`Schedule::layers_in_place`])
    Scratch(usize),
}

/// One slot of the arena: what it holds, its lifetime and its offset.
///
/// ```
/// use shapecheck_tflite::schedule::{Goal, Holds, Schedule};
/// use shapecheck_tflite::Model;
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let s = Schedule::search(&model, Goal::Layers).unwrap();
/// assert!(s.slots.iter().all(|slot| matches!(slot.holds, Holds::Tensor(_))));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// what it holds
    pub holds: Holds,
    /// its elements and operators
    pub lifetime: Lifetime,
    /// its offset in the arena, in elements
    pub offset: usize,
}

/// An `ADD` whose output is written over one of its inputs
/// ([`crate::add_int8_in_place`]): the input is not read after it, and
/// the two are one slot of the arena (the input's [`Holds::Tensor`] slot,
/// live to the output's last reader). An `ADD` that ends a streamed run
/// writes over its skip (the input that is not the run's last layer's
/// output), which may be the run's input.
///
/// ```
/// use shapecheck_tflite::schedule::InPlace;
///
/// let add = InPlace { op: 3, operand: 1, over: 24, output: 25 };
/// assert_eq!(add.operand, 1); // written over input 2
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InPlace {
    /// the `ADD` (its position in the model's run)
    pub op: usize,
    /// which of its inputs it writes over: 0 (input 1) or 1 (input 2)
    pub operand: usize,
    /// that input's tensor
    pub over: usize,
    /// its output tensor
    pub output: usize,
}

/// A depthwise or 1×1 convolution written over its own input
/// ([`crate::runtime::stream::InPlaceLayer`]): its output in its input's slot
/// (an [`InPlace`] of [`Schedule::in_place`]), a scratch of
/// [`InPlaceShape::scratch`]'s values beside it (a [`Holds::Scratch`]
/// slot live at its operator alone).
///
/// ```
/// use shapecheck_tflite::schedule::{Goal, Schedule};
/// use shapecheck_tflite::stream::InPlaceKind;
/// use shapecheck_tflite::Model;
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/person_detect.tflite")))?;
/// let s = Schedule::search(&model, Goal::Ram(usize::MAX)).unwrap();
/// for layer in &s.layers_in_place {
///     assert!(matches!(layer.shape.kind, InPlaceKind::Depthwise | InPlaceKind::Pointwise));
///     assert_eq!(layer.shape.scratch(layer.band), Some(layer.scratch));
/// }
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerInPlace {
    /// the layer (its position in the model's run)
    pub op: usize,
    /// its output rows per kernel call
    pub band: usize,
    /// its shape
    pub shape: InPlaceShape,
    /// its scratch's elements
    pub scratch: usize,
}

/// A schedule and its arena.
///
/// ```
/// use shapecheck_tflite::schedule::{Goal, Schedule};
/// use shapecheck_tflite::Model;
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/person_detect.tflite")))?;
/// let layers = Schedule::search(&model, Goal::Layers).unwrap();
/// assert_eq!((layers.arena, layers.floor), (55_296, 55_296));
/// let streamed = Schedule::search(&model, Goal::Default).unwrap();
/// assert!(streamed.arena < layers.arena / 2);
/// assert!(streamed.instructions * 100 <= layers.instructions * 110);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// the streamed runs, in order (every other operator runs whole)
    pub runs: Vec<Run>,
    /// the arena's slots
    pub slots: Vec<Slot>,
    /// the `ADD`s and layers written over an input, each output in its
    /// input's slot (none at [`Goal::Layers`]), in operator order
    pub in_place: Vec<InPlace>,
    /// the depthwise and 1×1 convolutions among them, with their bands
    /// and scratch (none at [`Goal::Layers`]), in operator order
    pub layers_in_place: Vec<LayerInPlace>,
    /// the arena's elements
    pub arena: usize,
    /// the layer-by-layer schedule's liveness floor ([`liveness_floor`])
    pub floor: usize,
    /// the estimated instructions ([`COSTS`])
    pub instructions: u64,
}

/// No schedule within a `ram` budget: the smallest the search found.
///
/// ```
/// use shapecheck_tflite::schedule::{Goal, Schedule, TooLittleRam};
/// use shapecheck_tflite::Model;
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/person_detect.tflite")))?;
/// let e: TooLittleRam = Schedule::search(&model, Goal::Ram(1_000)).unwrap_err();
/// assert_eq!(e.budget, 1_000);
/// assert!(e.smallest > 1_000);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLittleRam {
    /// the budget asked for, in bytes
    pub budget: usize,
    /// the smallest arena the search found, in bytes
    pub smallest: usize,
}

impl fmt::Display for TooLittleRam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no schedule fits in ram = {} bytes: the smallest the search finds takes {} bytes",
            self.budget, self.smallest
        )
    }
}

/// One operator as the search sees it.
#[derive(Clone, Debug)]
struct Layer {
    kind: Kernel,
    macs: u64,
    /// its vertical window and its output's row elements, where it can be
    /// a stage of a run
    stage: Option<(RowGeometry, usize)>,
    /// where it is an average pool whose window spans the rows: the
    /// geometry it is walked by and the bytes of its sums as a run's last
    /// stage ([`crate::runtime::stream::RowGeometry::accumulated`])
    accumulates: Option<(RowGeometry, usize)>,
    /// its activation input and output tensors
    input: Option<usize>,
    output: Option<usize>,
    /// its output's channels (a call's set-up is per channel)
    channels: u64,
    /// where it is an `ADD` of two tensors of its output's shape, one
    /// image: its two inputs (it can end a run, the stage before's output
    /// one of them, written over the other: [`crate::runtime::stream::Stage::Add`])
    add: Option<(usize, usize)>,
    /// where it can be written over its input ([`InPlaceShape::check`],
    /// its input read by it last, neither a model output): its shape
    in_place: Option<InPlaceShape>,
}

/// The search's view of a model.
struct Problem {
    layers: Vec<Layer>,
    /// links[k]: operators k and k + 1 can be in one run
    links: Vec<bool>,
    tensors: Vec<usize>,
    lifetimes: Vec<Lifetime>,
    /// the `ADD`s written over an input (none at [`Goal::Layers`])
    in_place: Vec<InPlace>,
}

/// Band heights tried for a run's last stage.
const BANDS: [usize; 4] = [1, 2, 4, 8];

/// Band heights tried for a layer written over its input (a band taller
/// than the output is the output).
const IN_PLACE_BANDS: [usize; 7] = [1, 2, 4, 8, 16, 32, usize::MAX];

/// How many caps the search tries at most (each one a shortest path and
/// a placement).
const EVALUATIONS: usize = 400;

/// A schedule: which links are streamed and each
/// operator's band (used when it ends a run).
#[derive(Clone, PartialEq, Eq, Default)]
struct State {
    streamed: Vec<bool>,
    band: Vec<usize>,
    /// each operator written over its input (at its `band`)
    in_place: Vec<bool>,
}

/// A state's measures: the arena and the instructions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Score {
    arena: usize,
    instructions: u64,
}

/// Operators `ops` as one run at `band` (or one operator run whole): its
/// peak of live elements and its instructions.
#[derive(Clone, Debug)]
struct Segment {
    ops: core::ops::Range<usize>,
    band: usize,
    /// one operator written over its input
    in_place: bool,
    peak: usize,
    instructions: u64,
}

impl Schedule {
    /// The schedule of `model`'s int8 activations that `goal` asks for
    /// (an arena of another element type is always layer by layer), or,
    /// for a `ram` budget below every schedule the search finds, the
    /// smallest it found.
    ///
    /// ```
    /// use shapecheck_tflite::schedule::{Goal, Schedule};
    /// use shapecheck_tflite::Model;
    ///
    /// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/person_detect.tflite")))?;
    /// let s = Schedule::search(&model, Goal::Ram(30_000)).unwrap();
    /// assert!(s.arena <= 30_000);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn search(model: &Model<'_>, goal: Goal) -> Result<Schedule, TooLittleRam> {
        let problem = Problem::new(model, goal != Goal::Layers);
        let layers = State {
            streamed: vec![false; problem.links.len()],
            band: vec![1; problem.layers.len()],
            in_place: vec![false; problem.layers.len()],
        };
        let base = problem.score(&layers);
        let key = |s: &Score| (s.arena, s.instructions);
        let state = match goal {
            Goal::Layers => layers,
            Goal::Default => {
                let limit = base.instructions.saturating_mul(110) / 100;
                [(layers, base)]
                    .into_iter()
                    .chain(problem.frontier())
                    .filter(|(_, s)| s.instructions <= limit)
                    .min_by_key(|(_, s)| key(s))
                    .map(|(state, _)| state)
                    .unwrap_or_default()
            }
            Goal::Ram(budget) => {
                let frontier = problem.frontier();
                let smallest = frontier
                    .iter()
                    .map(|(_, s)| s.arena)
                    .chain([base.arena])
                    .min()
                    .unwrap_or(base.arena);
                [(layers, base)]
                    .into_iter()
                    .chain(frontier)
                    .filter(|(_, s)| s.arena <= budget)
                    .min_by_key(|(_, s)| (s.instructions, s.arena))
                    .map(|(state, _)| state)
                    .ok_or(TooLittleRam { budget, smallest })?
            }
        };
        Ok(problem.schedule(&state))
    }
}

impl Problem {
    /// The search's view of `model`; its `ADD`s written over an input
    /// where they can be when `in_place`.
    fn new(model: &Model<'_>, in_place: bool) -> Problem {
        let (tensors, lifetimes) = activations(model, TensorType::Int8);
        let mut layers: Vec<Layer> = model.operators().map(|op| layer(model, &op)).collect();
        let outputs: Vec<usize> = model
            .outputs()
            .iter()
            .filter_map(|i| usize::try_from(i).ok())
            .collect();
        // a layer written over its input: that input an arena tensor it
        // reads last, its output one too, neither a model output
        for (k, l) in layers.iter_mut().enumerate() {
            let life = |t: usize| lifetime_of(&tensors, &lifetimes, t);
            let keeps = in_place
                && l.input.zip(l.output).is_some_and(|(x, y)| {
                    x != y
                        && life(x).is_some_and(|lx| lx.last == k)
                        && life(y).is_some()
                        && !outputs.contains(&x)
                        && !outputs.contains(&y)
                });
            if !keeps {
                l.in_place = None;
            }
        }
        let links = (0..layers.len().saturating_sub(1))
            .map(|k| {
                let (Some(a), Some(b)) = (layers.get(k), layers.get(k + 1)) else {
                    return false;
                };
                let (Some(t), true, true) = (a.output, a.stage.is_some(), b.stage.is_some()) else {
                    return false;
                };
                let life = |t: usize| lifetime_of(&tensors, &lifetimes, t);
                // b reads a's output, and nothing after b does
                let only_b = life(t).is_some_and(|l| l.first == k && l.last == k + 1);
                let reads = match b.add {
                    // an ADD ends a run; its other input (the skip), an
                    // arena tensor it is the last to read, is written over
                    Some((x1, x2)) => {
                        let skip = if x1 == t { x2 } else { x1 };
                        in_place
                            && a.add.is_none()
                            && (x1 == t) != (x2 == t)
                            && life(skip).is_some_and(|l| l.last == k + 1)
                            && !outputs.contains(&skip)
                    }
                    None => a.add.is_none() && b.input == Some(t),
                };
                reads && only_b && !outputs.contains(&t)
            })
            .collect();
        let in_place: Vec<InPlace> = if in_place {
            model
                .operators()
                .filter_map(|op| add_in_place(model, &op, &tensors, &lifetimes, &outputs))
                .collect()
        } else {
            Vec::new()
        };
        Problem {
            layers,
            links,
            tensors,
            lifetimes,
            in_place,
        }
    }

    /// The runs of `state`: each maximal chain of streamed links.
    fn runs(&self, state: &State) -> Vec<Run> {
        let mut runs = Vec::new();
        let mut k = 0;
        while k < self.layers.len() {
            let mut end = k + 1;
            while state.streamed.get(end - 1).copied().unwrap_or(false) {
                end += 1;
            }
            if end - k >= 2 {
                let band = state.band.get(end - 1).copied().unwrap_or(1);
                runs.push(self.run(k..end, band));
            }
            k = end;
        }
        runs
    }

    /// The layers `state` writes over their input.
    fn overwrites(&self, state: &State) -> Vec<LayerInPlace> {
        state
            .in_place
            .iter()
            .enumerate()
            .filter(|(_, &on)| on)
            .filter_map(|(k, _)| self.overwrite(k, state.band.get(k).copied().unwrap_or(1)))
            .collect()
    }

    /// Operator `op` written over its input at `band`, where it can be.
    fn overwrite(&self, op: usize, band: usize) -> Option<LayerInPlace> {
        let shape = self.layers.get(op)?.in_place?;
        // a band of every row is the output's rows; a depthwise layer's
        // group takes every row in one call, whatever the band
        let band = match shape.kind {
            InPlaceKind::Depthwise => shape.output[0],
            InPlaceKind::Pointwise => band.min(shape.output[0]),
        }
        .max(1);
        shape.check(band).ok()?;
        Some(LayerInPlace {
            op,
            band,
            shape,
            scratch: shape.scratch(band)?,
        })
    }

    fn run(&self, ops: core::ops::Range<usize>, band: usize) -> Run {
        let mut stages: Vec<(RowGeometry, usize)> = ops
            .clone()
            .filter_map(|k| self.layers.get(k).and_then(|l| l.stage))
            .collect();
        // the last stage accumulates where it can
        let last = ops.end.checked_sub(1).and_then(|k| self.layers.get(k));
        let mut sums = 0;
        if let (Some((walked, bytes)), Some(stage)) =
            (last.and_then(|l| l.accumulates), stages.last_mut())
        {
            stage.0 = walked;
            sums = bytes;
        }
        let geometry: Vec<RowGeometry> = stages.iter().map(|s| s.0).collect();
        let mut rows = vec![0; geometry.len().saturating_sub(1)];
        ring_rows(&geometry, band, &mut rows);
        let ring_sizes = rows
            .iter()
            .zip(&stages)
            .map(|(r, (_, row))| r.saturating_mul(*row))
            .collect();
        Run {
            ops,
            band,
            ring_rows: rows,
            ring_sizes,
            sums,
            stages: geometry,
        }
    }

    /// The arena's slots of a schedule of `runs` and of `overwrites`,
    /// unplaced.
    fn lifetimes(&self, runs: &[Run], overwrites: &[LayerInPlace]) -> Vec<(Holds, Lifetime)> {
        let mut slots: Vec<(Holds, Lifetime)> = self
            .tensors
            .iter()
            .zip(&self.lifetimes)
            .map(|(&t, &l)| (Holds::Tensor(t), l))
            .collect();
        for (n, run) in runs.iter().enumerate() {
            let (first, last) = (run.ops.start, run.ops.end - 1);
            // the tensors between the stages are rings
            let inside: Vec<usize> = run
                .ops
                .clone()
                .take(run.ops.len() - 1)
                .filter_map(|k| self.layers.get(k).and_then(|l| l.output))
                .collect();
            slots.retain(|(h, _)| !matches!(h, Holds::Tensor(t) if inside.contains(t)));
            let input = self.layers.get(first).and_then(|l| l.input);
            let output = self.layers.get(last).and_then(|l| l.output);
            for (h, l) in slots.iter_mut() {
                if matches!(h, Holds::Tensor(t) if Some(*t) == input) {
                    l.last = l.last.max(last);
                }
                if matches!(h, Holds::Tensor(t) if Some(*t) == output) {
                    l.first = l.first.min(first);
                }
            }
            slots.push((
                Holds::Rings(n),
                Lifetime {
                    size: run.ring_sizes.iter().sum::<usize>() + run.sums,
                    first,
                    last,
                },
            ));
        }
        for layer in overwrites {
            slots.push((
                Holds::Scratch(layer.op),
                Lifetime {
                    size: layer.scratch,
                    first: layer.op,
                    last: layer.op,
                },
            ));
        }
        // an ADD or a layer written over an input: its output is that
        // input's slot, live to the output's last reader
        // (in operator order: an ADD over an earlier one's output extends
        // the slot that output went to)
        let mut holder: Vec<(usize, usize)> = Vec::new();
        for add in &self.merges(runs, overwrites) {
            let over = holder
                .iter()
                .find(|(t, _)| *t == add.over)
                .map_or(add.over, |&(_, h)| h);
            let Some(at) = slots
                .iter()
                .position(|(h, _)| *h == Holds::Tensor(add.output))
            else {
                continue;
            };
            let (_, out) = slots.remove(at);
            for (h, l) in slots.iter_mut() {
                if *h == Holds::Tensor(over) {
                    l.last = l.last.max(out.last);
                }
            }
            holder.push((add.output, over));
        }
        slots
    }

    /// The `ADD` that ends `run`, written over its skip (the input that
    /// is not the stage before's output), as an [`InPlace`]; `None` for a
    /// run that ends in another layer.
    fn run_add(&self, run: &Run) -> Option<InPlace> {
        let last = run.ops.end.checked_sub(1)?;
        let (x1, x2) = self.layers.get(last)?.add?;
        let chain = self.layers.get(last.checked_sub(1)?)?.output?;
        let (operand, over) = if x1 == chain { (1, x2) } else { (0, x1) };
        Some(InPlace {
            op: last,
            operand,
            over,
            output: self.layers.get(last)?.output?,
        })
    }

    /// Whether `run` is walked as its kernels can: a run ending in an
    /// `ADD` whose skip is the run's input writes each band over input
    /// rows its first stage reads no more
    /// ([`crate::runtime::stream::writes_behind_reads`]).
    fn can_end_over_input(&self, run: &Run) -> bool {
        let input = self.layers.get(run.ops.start).and_then(|l| l.input);
        match self.run_add(run) {
            Some(add) if Some(add.over) == input => writes_behind_reads(&run.stages, run.band),
            _ => true,
        }
    }

    /// The `ADD`s and layers written over an input in a schedule of
    /// `runs` and `overwrites`: the `ADD`s ending a run (over their skip),
    /// those run whole that can be, and the layers, in operator order.
    fn merges(&self, runs: &[Run], overwrites: &[LayerInPlace]) -> Vec<InPlace> {
        let ending: Vec<InPlace> = runs.iter().filter_map(|r| self.run_add(r)).collect();
        let whole = self
            .in_place
            .iter()
            .filter(|a| !runs.iter().any(|r| r.ops.contains(&a.op)));
        let layers: Vec<InPlace> = overwrites
            .iter()
            .filter_map(|o| {
                let l = self.layers.get(o.op)?;
                Some(InPlace {
                    op: o.op,
                    operand: 0,
                    over: l.input?,
                    output: l.output?,
                })
            })
            .collect();
        let mut all: Vec<InPlace> = ending.iter().chain(whole).chain(&layers).copied().collect();
        all.sort_by_key(|a| a.op);
        all
    }

    fn instructions(&self, runs: &[Run], overwrites: &[LayerInPlace]) -> u64 {
        self.instructions_of(runs, overwrites, 0..self.layers.len())
    }

    /// The instructions of operators `ops`, the runs among them streamed
    /// and `overwrites` written over their input.
    fn instructions_of(
        &self,
        runs: &[Run],
        overwrites: &[LayerInPlace],
        ops: core::ops::Range<usize>,
    ) -> u64 {
        // per operator: its kernel calls, the output channels each sets
        // up, and the values its ring (or its copies in place) moves
        let mut calls: Vec<u64> = vec![1; self.layers.len()];
        let mut channels: Vec<u64> = self.layers.iter().map(|l| l.channels).collect();
        let mut moved: Vec<u64> = vec![0; self.layers.len()];
        let mut driver: Vec<u64> = vec![0; self.layers.len()];
        for o in overwrites {
            if let (Some(c), Some(ch), Some(m)) = (
                calls.get_mut(o.op),
                channels.get_mut(o.op),
                moved.get_mut(o.op),
            ) {
                *c = o.shape.calls(o.band) as u64;
                *m = o.shape.moved() as u64;
                if let Some(d) = driver.get_mut(o.op) {
                    *d = c.saturating_mul(IN_PLACE_CALL);
                }
                // a depthwise call computes one group of four channels
                if o.shape.kind == InPlaceKind::Depthwise {
                    *ch = 4;
                }
            }
        }
        for run in runs {
            for k in run.ops.clone() {
                if let Some(c) = calls.get_mut(k) {
                    *c = 0;
                }
            }
            let last = run.stages.len().saturating_sub(1);
            let mut first = vec![0usize; run.stages.len()];
            walk(&run.stages, run.band, |s, rows| {
                let op = run.ops.start + s;
                if let Some(c) = calls.get_mut(op) {
                    *c += 1;
                }
                if let Some(m) = driver.get_mut(op) {
                    *m += STREAM_CALL;
                }
                // the rows the stage's ring moves to its front first
                if let (true, Some(&size), Some(held)) =
                    (s < last, run.ring_rows.get(s), first.get_mut(s))
                {
                    let (keep, rows) = ring_slide(*held, size, rows);
                    *held = keep;
                    let row = self.layers.get(op).and_then(|l| l.stage).map_or(0, |g| g.1);
                    if let Some(m) = moved.get_mut(op) {
                        *m += (rows.len() * row) as u64;
                    }
                }
                true
            });
        }
        self.layers
            .iter()
            .zip(
                calls
                    .iter()
                    .zip(moved.iter().zip(driver.iter().zip(&channels))),
            )
            .skip(ops.start)
            .take(ops.len())
            .map(|(l, (&n, (&m, (&d, &ch))))| {
                let c = cost(l.kind);
                let per_call = c
                    .per_call
                    .saturating_add(c.per_call_channel.saturating_mul(ch));
                (l.macs.saturating_mul(c.per_mac_milli) / 1000)
                    .saturating_add(n.saturating_mul(per_call))
                    .saturating_add(m.saturating_mul(MOVE_MILLI) / 1000)
                    .saturating_add(d)
            })
            .sum()
    }

    fn score(&self, state: &State) -> Score {
        let runs = self.runs(state);
        let overwrites = self.overwrites(state);
        let slots: Vec<Lifetime> = self
            .lifetimes(&runs, &overwrites)
            .into_iter()
            .map(|s| s.1)
            .collect();
        Score {
            arena: place(&slots).size,
            instructions: self.instructions(&runs, &overwrites),
        }
    }

    /// Every segment `i..j` of operators that can be one run (or is one
    /// operator run whole), at each band height: its peak of live
    /// elements over its operators (the tensors live across it
    /// included) and its instructions. The liveness at an operator
    /// depends only on the segment it lies in: a run changes the
    /// lifetimes of its own operators' tensors only.
    fn segments(&self) -> Vec<Segment> {
        let n = self.layers.len();
        let mut all = Vec::new();
        for i in 0..n {
            for j in i + 1..=n {
                if j - i >= 2 && !self.links.get(j - 2).copied().unwrap_or(false) {
                    break;
                }
                let bands: &[usize] = if j - i >= 2 { &BANDS } else { &[1] };
                for &band in bands {
                    let runs = if j - i >= 2 {
                        vec![self.run(i..j, band)]
                    } else {
                        Vec::new()
                    };
                    if !runs.iter().all(|r| self.can_end_over_input(r)) {
                        continue;
                    }
                    all.push(self.segment(i..j, band, &runs, &[]));
                }
                // one operator written over its input, at each band (a
                // band taller than its output once, as the output's rows)
                if j - i == 1 {
                    let mut tried: Vec<usize> = Vec::new();
                    // and the output's rows split evenly in two to four
                    let rows = self
                        .layers
                        .get(i)
                        .and_then(|l| l.in_place)
                        .map_or(1, |s| s.output[0]);
                    let even = (2..=4).map(|k| rows.div_ceil(k));
                    for band in IN_PLACE_BANDS.into_iter().chain(even) {
                        let Some(o) = self.overwrite(i, band) else {
                            continue;
                        };
                        if !tried.contains(&o.band) {
                            tried.push(o.band);
                            all.push(self.segment(i..j, o.band, &[], &[o]));
                        }
                    }
                }
            }
        }
        all
    }

    /// Operators `ops` as one segment: `runs` (one run, or none) and
    /// `overwrites` (one layer in place, or none).
    fn segment(
        &self,
        ops: core::ops::Range<usize>,
        band: usize,
        runs: &[Run],
        overwrites: &[LayerInPlace],
    ) -> Segment {
        let slots = self.lifetimes(runs, overwrites);
        let peak = ops
            .clone()
            .map(|op| {
                slots
                    .iter()
                    .filter(|(_, l)| l.first <= op && op <= l.last)
                    .map(|(_, l)| l.size)
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        Segment {
            instructions: self.instructions_of(runs, overwrites, ops.clone()),
            ops,
            band,
            in_place: !overwrites.is_empty(),
            peak,
        }
    }

    /// The fewest instructions over segmentations whose every segment's
    /// peak is at most `cap` (a shortest path over the operators), as a
    /// state; `None` when no segmentation keeps under it.
    fn cheapest_under(&self, segments: &[Segment], cap: usize) -> Option<State> {
        let n = self.layers.len();
        // best[j]: the fewest instructions for operators 0..j (then the
        // fewest streamed operators), and the segment that ends there
        let mut best: Vec<Option<((u64, usize), usize)>> = vec![None; n + 1];
        if let Some(b) = best.get_mut(0) {
            *b = Some(((0, 0), usize::MAX));
        }
        for j in 1..=n {
            for (k, seg) in segments.iter().enumerate() {
                if seg.ops.end != j || seg.peak > cap {
                    continue;
                }
                let Some(Some((before, _))) = best.get(seg.ops.start).copied() else {
                    continue;
                };
                let streamed = if seg.ops.len() >= 2 { seg.ops.len() } else { 0 };
                let total = (
                    before.0.saturating_add(seg.instructions),
                    before.1 + streamed,
                );
                let slot = best.get_mut(j)?;
                if slot.is_none_or(|(t, _)| total < t) {
                    *slot = Some((total, k));
                }
            }
        }
        let mut state = State {
            streamed: vec![false; self.links.len()],
            band: vec![1; n],
            in_place: vec![false; n],
        };
        let mut j = n;
        while j > 0 {
            let (_, k) = best.get(j).copied().flatten()?;
            let seg = segments.get(k)?;
            for link in seg.ops.start..seg.ops.end - 1 {
                if let Some(x) = state.streamed.get_mut(link) {
                    *x = true;
                }
            }
            if let Some(b) = state.band.get_mut(seg.ops.end - 1) {
                *b = seg.band;
            }
            if let Some(x) = state.in_place.get_mut(seg.ops.start) {
                *x = seg.in_place;
            }
            j = seg.ops.start;
        }
        Some(state)
    }

    /// For each cap (each segment's peak, ascending, up to the budget of
    /// evaluations), the cheapest segmentation under it and its score;
    /// then the same without layers in place (whose slots a placement
    /// may fit less tightly than the runs they undercut).
    fn frontier(&self) -> Vec<(State, Score)> {
        let all = self.segments();
        let whole: Vec<Segment> = all.iter().filter(|s| !s.in_place).cloned().collect();
        let mut found: Vec<(State, Score)> = Vec::new();
        for segments in [&all, &whole] {
            let mut caps: Vec<usize> = segments.iter().map(|s| s.peak).collect();
            caps.sort_unstable();
            caps.dedup();
            for cap in caps.into_iter().take(EVALUATIONS) {
                if let Some(state) = self.cheapest_under(segments, cap) {
                    if found.iter().any(|(s, _)| *s == state) {
                        continue;
                    }
                    let score = self.score(&state);
                    found.push((state, score));
                }
            }
        }
        found
    }

    fn schedule(&self, state: &State) -> Schedule {
        let runs = self.runs(state);
        let layers_in_place = self.overwrites(state);
        let slots = self.lifetimes(&runs, &layers_in_place);
        let in_place = self.merges(&runs, &layers_in_place);
        let lifetimes: Vec<Lifetime> = slots.iter().map(|s| s.1).collect();
        let placement = place(&lifetimes);
        let instructions = self.instructions(&runs, &layers_in_place);
        Schedule {
            runs,
            slots: slots
                .iter()
                .zip(&placement.offsets)
                .map(|(&(holds, lifetime), &offset)| Slot {
                    holds,
                    lifetime,
                    offset,
                })
                .collect(),
            in_place,
            layers_in_place,
            arena: placement.size,
            floor: liveness_floor(&self.lifetimes),
            instructions,
        }
    }
}

/// Operator `op` as an `ADD` written over an input, where it can be: an
/// int8 `ADD` of two different activations of its output's shape (no
/// broadcast), each an arena tensor of its own (not a view, not the
/// model's input), one of which it is the last to read and is not a
/// model output. Over the input written last when both qualify (its
/// slot is the shorter to extend).
fn add_in_place(
    model: &Model<'_>,
    op: &Operator<'_>,
    tensors: &[usize],
    lifetimes: &[Lifetime],
    outputs: &[usize],
) -> Option<InPlace> {
    if op_row(op.op()).and_then(|row| row.typed_layer) != Some(TypedLayer::Add) {
        return None;
    }
    let output = op.output(0)?;
    let shape = dims_of(model, Some(output));
    let life = |t: usize| lifetime_of(tensors, lifetimes, t).copied();
    let (a, b) = (op.input(0)?, op.input(1)?);
    let int8 = [a, b, output].iter().all(|&t| {
        model
            .tensor(t)
            .is_some_and(|t| t.dtype() == TensorType::Int8)
    });
    let same = [a, b].iter().all(|&t| dims_of(model, Some(t)) == shape);
    if a == b || !int8 || !same || life(output).is_none() || shape.is_empty() {
        return None;
    }
    [(0, a), (1, b)]
        .into_iter()
        .filter_map(|(operand, t)| {
            let l = life(t)?;
            let dies = l.last == op.index() && !outputs.contains(&t);
            dies.then_some((l.first, operand, t))
        })
        .max_by_key(|&(first, operand, _)| (first, usize::MAX - operand))
        .map(|(_, operand, over)| InPlace {
            op: op.index(),
            operand,
            over,
            output,
        })
}

/// Tensor `t`'s lifetime, `None` where it is not an activation of the
/// arena (`tensors` and `lifetimes` are `plan::activations`').
fn lifetime_of<'l>(tensors: &[usize], lifetimes: &'l [Lifetime], t: usize) -> Option<&'l Lifetime> {
    tensors
        .iter()
        .position(|&x| x == t)
        .and_then(|p| lifetimes.get(p))
}

/// A tensor's dims as `usize`s.
fn dims_of(model: &Model<'_>, t: Option<usize>) -> Vec<usize> {
    t.and_then(|i| model.tensor(i))
        .map(|t| {
            t.shape()
                .iter()
                .map(|d| usize::try_from(d).unwrap_or(0))
                .collect()
        })
        .unwrap_or_default()
}

/// One operator's kind, MACs and, for a convolution, depthwise
/// convolution or pool of one int8 image, its stage geometry.
fn layer(model: &Model<'_>, op: &Operator<'_>) -> Layer {
    let input = op.input(0);
    let output = op.output(0);
    let x = dims_of(model, input);
    let y = dims_of(model, output);
    let f = dims_of(model, op.input(1));
    let int8 = [input, output].iter().all(|t| {
        t.and_then(|i| model.tensor(i))
            .is_some_and(|t| t.dtype() == TensorType::Int8)
    });
    let image = match (x.as_slice(), y.as_slice()) {
        (&[1, h, _, _], &[1, oh, ow, oc]) if int8 => Some((h, oh, ow, oc)),
        _ => None,
    };
    let outputs: u64 = y.iter().map(|&d| d as u64).product();
    let size = |v: i32| usize::try_from(v).unwrap_or(0);
    let geometry = |padding, h, oh, filter, stride, dilation| {
        let axis = conv_axis(padding, h, filter, stride, dilation).ok()?;
        (axis.output == oh).then_some(RowGeometry {
            input_rows: h,
            output_rows: oh,
            stride,
            pad_top: axis.pad_before,
            dilation,
            filter,
        })
    };
    let mut accumulates = None;
    let mut add = None;
    // the op's layer kind, from its registry row
    let layer = op_row(op.op()).and_then(|row| row.typed_layer);
    let (kind, macs, stage) = match (layer, op.options()) {
        (Some(TypedLayer::Conv2d), Options::Conv2d(o)) => {
            let (kh, kw, ci) = match f.as_slice() {
                &[_, kh, kw, ci] => (kh, kw, ci),
                _ => (0, 0, 0),
            };
            let kind = if (kh, kw) == (1, 1) {
                Kernel::Conv1x1
            } else if !(kh * kw * ci).is_multiple_of(4) {
                Kernel::ConvShallow
            } else {
                Kernel::ConvKxK
            };
            let stage = image.and_then(|(h, oh, ow, oc)| {
                let g = geometry(o.padding, h, oh, kh, size(o.stride_h), size(o.dilation_h))?;
                Some((g, ow * oc))
            });
            (kind, outputs * (kh * kw * ci) as u64, stage)
        }
        (Some(TypedLayer::DepthwiseConv2d), Options::DepthwiseConv2d(o)) => {
            let (kh, kw) = match f.as_slice() {
                &[_, kh, kw, _] => (kh, kw),
                _ => (0, 0),
            };
            let stage = image.and_then(|(h, oh, ow, oc)| {
                let g = geometry(o.padding, h, oh, kh, size(o.stride_h), size(o.dilation_h))?;
                Some((g, ow * oc))
            });
            // one input channel: the convolution it is, as the DSP
            // loops run it (im2col)
            let kind = match x.last() {
                Some(1) if !(kh * kw).is_multiple_of(4) => Kernel::ConvShallow,
                Some(1) => Kernel::ConvKxK,
                _ => Kernel::Depthwise,
            };
            (kind, outputs * (kh * kw) as u64, stage)
        }
        (Some(TypedLayer::AveragePool2d), Options::Pool2d(o)) => {
            let (kh, kw) = (size(o.filter_height), size(o.filter_width));
            let stage = image.and_then(|(h, oh, ow, oc)| {
                let g = geometry(o.padding, h, oh, kh, size(o.stride_h), 1)?;
                // a window over every row accumulates at a run's end
                accumulates = g.accumulated().map(|walked| (walked, ow * oc * 4));
                Some((g, ow * oc))
            });
            (Kernel::Pool, outputs * (kh * kw) as u64, stage)
        }
        (Some(TypedLayer::MaxPool2d), Options::Pool2d(o)) => {
            let (kh, kw) = (size(o.filter_height), size(o.filter_width));
            let stage = image.and_then(|(h, oh, ow, oc)| {
                let g = geometry(o.padding, h, oh, kh, size(o.stride_h), 1)?;
                Some((g, ow * oc))
            });
            (Kernel::Pool, outputs * (kh * kw) as u64, stage)
        }
        (Some(TypedLayer::Add), _) => {
            let (x1, x2) = (op.input(0), op.input(1));
            let same = dims_of(model, x1) == y && dims_of(model, x2) == y;
            let both_int8 = x2
                .and_then(|i| model.tensor(i))
                .is_some_and(|t| t.dtype() == TensorType::Int8);
            let stage = match (image, same && both_int8) {
                (Some((h, oh, ow, oc)), true) if h == oh => {
                    add = x1.zip(x2);
                    Some((
                        RowGeometry {
                            input_rows: h,
                            output_rows: h,
                            stride: 1,
                            pad_top: 0,
                            dilation: 1,
                            filter: 1,
                        },
                        ow * oc,
                    ))
                }
                _ => None,
            };
            (Kernel::Other, 0, stage)
        }
        (Some(TypedLayer::FullyConnected), _) => {
            let k = f.get(1).copied().unwrap_or(0);
            (Kernel::FullyConnected, outputs * k as u64, None)
        }
        _ => (Kernel::Other, 0, None),
    };
    // a depthwise or 1×1 convolution of one int8 image written over its
    // input, where its shape lets it (the search checks its input's
    // lifetime)
    let in_place = match (layer, x.as_slice(), y.as_slice(), f.as_slice()) {
        (
            Some(TypedLayer::Conv2d | TypedLayer::DepthwiseConv2d),
            &[1, h, w, c],
            &[1, oh, ow, oc],
            &[_, kh, kw, _],
        ) if stage.is_some() => {
            let kind = match layer {
                Some(TypedLayer::Conv2d) => InPlaceKind::Pointwise,
                _ => InPlaceKind::Depthwise,
            };
            let shape = InPlaceShape {
                kind,
                input: [h, w, c],
                output: [oh, ow, oc],
                filter: [kh, kw],
            };
            shape.check(1).is_ok().then_some(shape)
        }
        _ => None,
    };
    Layer {
        kind,
        macs,
        stage,
        accumulates,
        in_place,
        input,
        output,
        channels: y.last().map_or(0, |&c| c as u64),
        add,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person() -> Model<'static> {
        Model::parse(include_bytes!("../../tests/models/person_detect.tflite")).unwrap()
    }

    #[test]
    fn person_detection_layers_is_todays_plan() {
        let s = Schedule::search(&person(), Goal::Layers).unwrap();
        assert!(s.runs.is_empty());
        assert_eq!((s.arena, s.floor), (55_296, 55_296));
    }

    #[test]
    fn person_detection_default_plan_is_the_least_ram_within_1_10x() {
        let model = person();
        let layers = Schedule::search(&model, Goal::Layers).unwrap();
        let s = Schedule::search(&model, Goal::Default).unwrap();
        // the 48×48 and 24×24 stages streamed to 12×12×64 a row at a
        // time, and the 12×12 stage's depthwise and 1×1 convolutions
        // written over their input: 0.26× the floor, 1.089× the estimated
        // instructions
        let runs: Vec<_> = s.runs.iter().map(|r| (r.ops.clone(), r.band)).collect();
        assert_eq!(runs, [(0..8, 1)], "{} B", s.arena);
        let in_place: Vec<_> = s.layers_in_place.iter().map(|o| (o.op, o.band)).collect();
        assert_eq!(in_place, [(9, 12), (10, 6)], "{} B", s.arena);
        assert_eq!(s.arena, 14_208);
        assert!(s.instructions * 100 <= layers.instructions * 110);
        // every plan with less RAM the search finds costs more than 1.10×
        // (here there is none: the default plan is the smallest)
        match Schedule::search(&model, Goal::Ram(s.arena - 1)) {
            Ok(smaller) => assert!(smaller.instructions * 100 > layers.instructions * 110),
            Err(e) => assert_eq!(e.smallest, s.arena),
        }
        // every slot live at one operator apart from every other
        for (i, a) in s.slots.iter().enumerate() {
            assert!(a.offset + a.lifetime.size <= s.arena);
            for b in s.slots.iter().skip(i + 1) {
                let meet =
                    a.lifetime.first <= b.lifetime.last && b.lifetime.first <= a.lifetime.last;
                if meet {
                    assert!(
                        a.offset + a.lifetime.size <= b.offset
                            || b.offset + b.lifetime.size <= a.offset
                    );
                }
            }
        }
    }

    #[test]
    fn a_ram_budget_gets_the_fastest_within_it_or_names_the_smallest() {
        let model = person();
        let smallest = Schedule::search(&model, Goal::Ram(usize::MAX)).unwrap();
        let tight = Schedule::search(&model, Goal::Ram(20_000)).unwrap();
        assert!(tight.arena <= 20_000);
        let e = Schedule::search(&model, Goal::Ram(100)).unwrap_err();
        assert_eq!(e.budget, 100);
        assert!(e.smallest > 100);
        assert!(smallest.instructions <= tight.instructions);
    }

    #[test]
    fn rings_hold_what_each_stage_reads() {
        let s = Schedule::search(&person(), Goal::Default).unwrap();
        for run in &s.runs {
            for (k, &ring) in run.ring_rows.iter().enumerate() {
                let consumer = run.stages[k + 1];
                // a 1-row filter reads one row a call at band 1 and more
                // for a band; a k-row filter reads k rows at least
                assert!(ring >= consumer.filter.min(consumer.input_rows));
            }
        }
    }
}
