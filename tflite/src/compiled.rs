//! The interface of the code `model!` writes for a model that its typed
//! layers do not cover, **not an API**: nothing here is stable, and it is
//! hidden from the docs.
//!
//! `model!` prepares the model with a `Plan` when it
//! expands (every operator checked and its constants derived, as the
//! `Interpreter` runs it), then writes each prepared
//! step as a `static` of its own step type (`WriteRust`, implemented
//! beside each step type in its op's module), the plan's multipliers as a
//! `static` array, and a `predict` that copies its inputs into the arena,
//! runs the steps in order, each by its own type's `run` ([`Run::step`]),
//! and copies its outputs out. Calling each step's own type, not a loop
//! over the interpreter's `Step`, is what lets a model link only its own
//! ops' kernels. The step types and their fields are public (and hidden)
//! only so that the written expressions can name them.

use core::fmt::{self, Write};
use core::ops::Range;

pub use crate::array::Array;
use crate::array::LeNumber;
use crate::error::TfliteError;
use crate::interpreter::step::RunStep;
use crate::interpreter::Buffers;
use crate::quant::Rounding;

pub use crate::add::{AddLayer, AddParams, AddStep};
pub use crate::arg_min_max::{ArgMinMaxDims, ArgMinMaxStep};
pub use crate::batch_matmul::{BatchMatMulParams, BatchMatMulStep};
pub use crate::concat::{ConcatenationParams, ConcatenationStep, PackParams, PackStep};
pub use crate::conv::{Conv2dDims, Conv2dStep, ConvLayer};
pub use crate::depth_space::{DepthSpaceParams, DepthToSpaceStep, SpaceToDepthStep};
pub use crate::depthwise_conv::{DepthwiseConvDims, DepthwiseConvStep, DepthwiseLayer};
pub use crate::div::DivParams;
pub use crate::elementwise::{
    BinaryInt16Step, BinaryKernel, BinaryKernelInt16, BinaryStep, UnaryInt16Step, UnaryKernel,
    UnaryKernelInt16, UnaryStep,
};
pub use crate::expand_dims::ExpandDimsStep;
pub use crate::float_ops::{BinaryF32, BinaryF32Step, MapF32, MapF32Step, MeanF32Step};
pub use crate::fully_connected::{FullyConnectedDims, FullyConnectedStep};
pub use crate::gather::{GatherParams, GatherStep};
pub use crate::hard_swish::HardSwishParams;
pub use crate::interpreter::checker::{Quantized, Slot, Source};
pub use crate::l2_normalization::{L2NormalizationParams, L2NormalizationStep};
pub use crate::layout::Places;
pub use crate::leaky_relu::LeakyReluParams;
pub use crate::log_softmax::{LogSoftmaxParams, LogSoftmaxStep};
pub use crate::logistic::{LogisticInt16Params, LogisticParams, LogisticStep};
pub use crate::mean::MeanParams;
pub use crate::mirror_pad::{MirrorPadParams, MirrorPadStep};
pub use crate::mul::MulParams;
pub use crate::ops::OpShape;
pub use crate::pad::PadStep;
pub use crate::pool::{PoolDims, PoolParams, PoolStep};
pub use crate::prelu::PreluParams;
pub use crate::quant::QuantizedMultiplier;
pub use crate::quantize::QuantizeStep;
pub use crate::reduce::{ReduceAxes, ReduceStep, Reduction};
pub use crate::relu::{Relu6Params, ReluParams};
pub use crate::requantize::RequantizeParams;
pub use crate::reshape::ReshapeStep;
pub use crate::resize::{ResizeDims, ResizeParams, ResizeStep};
pub use crate::rsqrt::RsqrtParams;
pub use crate::slice::{SliceParams, SliceStep, StridedSliceParams, StridedSliceStep};
pub use crate::softmax::{SoftmaxInt16Params, SoftmaxParams, SoftmaxStep};
pub use crate::split::{SplitParams, SplitStep, UnpackParams, UnpackStep};
pub use crate::squared_difference::SquaredDifferenceParams;
pub use crate::sub::SubParams;
pub use crate::tanh::{TanhInt16Params, TanhParams};
pub use crate::transpose::{TransposeParams, TransposeStep};
pub use crate::transpose_conv::{TransposeConvDims, TransposeConvStep};
pub use crate::types::TensorType;

/// A value written as a Rust constant expression that rebuilds it, naming
/// this module's items through the path `k` (the generated code's path to
/// this module, e.g. `::shapecheck::tflite::compiled`). Each step type
/// and each type in it implements it beside its definition.
pub trait WriteRust {
    /// Writes the expression.
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result;
}

/// `k::name { field: value, ... }`: a struct, or an enum's struct variant
/// (`name` is then `Enum::Variant`).
pub fn write_struct(
    w: &mut dyn Write,
    k: &str,
    name: &str,
    fields: &[(&str, &dyn WriteRust)],
) -> fmt::Result {
    write!(w, "{k}::{name} {{ ")?;
    for (field, value) in fields {
        write!(w, "{field}: ")?;
        value.write_rust(w, k)?;
        w.write_str(", ")?;
    }
    w.write_str("}")
}

/// `k::name(value, ...)`: an enum's tuple variant.
pub fn write_tuple(
    w: &mut dyn Write,
    k: &str,
    name: &str,
    values: &[&dyn WriteRust],
) -> fmt::Result {
    write!(w, "{k}::{name}(")?;
    for value in values {
        value.write_rust(w, k)?;
        w.write_str(", ")?;
    }
    w.write_str(")")
}

/// `k::name`: an enum's unit variant.
pub fn write_path(w: &mut dyn Write, k: &str, name: &str) -> fmt::Result {
    write!(w, "{k}::{name}")
}

impl WriteRust for usize {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}usize")
    }
}

impl WriteRust for i8 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i8")
    }
}

impl WriteRust for i16 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i16")
    }
}

impl WriteRust for i32 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i32")
    }
}

impl WriteRust for u32 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}u32")
    }
}

impl WriteRust for i64 {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}i64")
    }
}

impl WriteRust for bool {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{self}")
    }
}

impl WriteRust for f32 {
    /// By its bits: every value exactly, infinities and NaN included.
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(
            w,
            "::core::primitive::f32::from_bits({:#010x}u32)",
            self.to_bits()
        )
    }
}

impl WriteRust for Range<usize> {
    fn write_rust(&self, w: &mut dyn Write, _: &str) -> fmt::Result {
        write!(w, "{}usize..{}usize", self.start, self.end)
    }
}

impl<T: WriteRust> WriteRust for Option<T> {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        match self {
            Some(v) => {
                w.write_str("::core::option::Option::Some(")?;
                v.write_rust(w, k)?;
                w.write_str(")")
            }
            None => w.write_str("::core::option::Option::None"),
        }
    }
}

impl<T: WriteRust, const N: usize> WriteRust for [T; N] {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        w.write_str("[")?;
        for v in self {
            v.write_rust(w, k)?;
            w.write_str(", ")?;
        }
        w.write_str("]")
    }
}

impl<A: WriteRust, B: WriteRust> WriteRust for (A, B) {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        w.write_str("(")?;
        self.0.write_rust(w, k)?;
        w.write_str(", ")?;
        self.1.write_rust(w, k)?;
        w.write_str(")")
    }
}

impl<A: WriteRust, B: WriteRust, C: WriteRust> WriteRust for (A, B, C) {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        w.write_str("(")?;
        self.0.write_rust(w, k)?;
        w.write_str(", ")?;
        self.1.write_rust(w, k)?;
        w.write_str(", ")?;
        self.2.write_rust(w, k)?;
        w.write_str(")")
    }
}

impl<T: LeNumber> WriteRust for Array<'_, T> {
    /// A byte string literal: the constant goes to flash as it is in the
    /// model, and only the constants the steps read.
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        write!(w, "{k}::Array::from_static(b\"")?;
        for byte in self.as_bytes() {
            write!(w, "\\x{byte:02x}")?;
        }
        w.write_str("\")")
    }
}

impl WriteRust for QuantizedMultiplier {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        write!(
            w,
            "{k}::QuantizedMultiplier::from_parts({}i32, {}i32)",
            self.multiplier(),
            self.shift()
        )
    }
}

impl WriteRust for OpShape {
    fn write_rust(&self, w: &mut dyn Write, k: &str) -> fmt::Result {
        write!(w, "{k}::OpShape::from_parts(")?;
        self.dims.write_rust(w, k)?;
        write!(w, ", {}usize)", self.rank)
    }
}

/// The error a step's `run` gives for an output overlapping an input,
/// which the plan rules out.
const OVERLAP: TfliteError = TfliteError::Length {
    what: "a step's output overlapping its input",
    expected: 0,
    actual: 0,
};

/// What `model!`'s code runs its steps over: the arena's buffers and the
/// model's `static` multipliers, with TFLite Micro's rounding
/// (`Arithmetic::Micro`, what `model!` plans with).
pub struct Run<'a> {
    buffers: Buffers<'a>,
    multipliers: &'a [QuantizedMultiplier],
    stopped: bool,
}

impl<'a> Run<'a> {
    /// A run over the arena's buffers and the model's multipliers.
    pub fn new(
        int8: &'a mut [i8],
        int16: &'a mut [i16],
        int32: &'a mut [i32],
        float32: &'a mut [f32],
        multipliers: &'a [QuantizedMultiplier],
    ) -> Self {
        Run {
            buffers: Buffers {
                int8,
                int16,
                int32,
                float32,
                multipliers: &[],
                fc_rounding: Rounding::Double,
                overlap: OVERLAP,
            },
            multipliers,
            stopped: false,
        }
    }

    /// Runs `step` by its own type's `run` (the one the interpreter's
    /// `Step::run` calls), its multipliers the range `multipliers` of the
    /// model's.
    ///
    /// For buffers and multipliers the plan was checked against (`model!`
    /// checked each step when it prepared it, and the buffers are its
    /// arena's arrays of the plan's lengths); on others what it writes is
    /// unspecified, but it never panics and never writes outside the
    /// buffers: once a step reports an error, this and every later step
    /// do nothing.
    pub fn step<S: RunStep>(&mut self, step: &S, multipliers: Range<usize>) {
        if self.stopped {
            return;
        }
        self.buffers.multipliers = self.multipliers.get(multipliers).unwrap_or(&[]);
        if step.run_step(&mut self.buffers).is_err() {
            self.stopped = true;
        }
    }
}

/// Copies `values` into `buffer` from `start` (a model input into its
/// slot of the arena); copies nothing if they do not fit there, which the
/// plan rules out.
pub fn copy_in<T: Copy>(buffer: &mut [T], start: usize, values: &[T]) {
    let end = start.saturating_add(values.len());
    if let Some(slot) = buffer.get_mut(start..end) {
        slot.copy_from_slice(values);
    }
}

/// Copies `out.len()` values of `buffer` from `start` into `out` (a model
/// output out of its slot of the arena); copies nothing if they are not
/// all there, which the plan rules out.
pub fn copy_out<T: Copy>(buffer: &[T], start: usize, out: &mut [T]) {
    let end = start.saturating_add(out.len());
    if let Some(slot) = buffer.get(start..end) {
        out.copy_from_slice(slot);
    }
}

/// What `model!` writes from a plan: each prepared step as a `static` of
/// its own step type, `static STEP_<i>: <type> = <value>;`, into
/// `statics`, and the call that runs it, `run.step(&STEP_<i>,
/// <multipliers>);` (a [`Run`] named `run`), into `calls`, in order.
/// Returns the count of steps.
#[cfg(feature = "alloc")]
pub fn write_steps(
    plan: &crate::Plan<'_>,
    statics: &mut dyn Write,
    calls: &mut dyn Write,
    k: &str,
) -> Result<usize, fmt::Error> {
    let mut count = 0usize;
    for (step, multipliers) in plan.prepared() {
        let (step_type, value) = step.written();
        write!(statics, "static STEP_{count}: {k}::{step_type} = ")?;
        value.write_rust(statics, k)?;
        statics.write_str(";\n")?;
        write!(calls, "run.step(&STEP_{count}, ")?;
        multipliers.write_rust(calls, k)?;
        calls.write_str(");\n")?;
        count = count.saturating_add(1);
    }
    Ok(count)
}

/// The plan's multipliers as an array expression, and their count.
#[cfg(feature = "alloc")]
pub fn write_multipliers(
    plan: &crate::Plan<'_>,
    w: &mut dyn Write,
    k: &str,
) -> Result<usize, fmt::Error> {
    let all = plan.all_multipliers();
    w.write_str("[")?;
    for m in all {
        m.write_rust(w, k)?;
        w.write_str(", ")?;
    }
    w.write_str("]")?;
    Ok(all.len())
}

/// Where the plan puts tensor `index`: its element type's buffer and its
/// elements there (`None` for a constant or a tensor no step reads).
#[cfg(feature = "alloc")]
pub fn slot(plan: &crate::Plan<'_>, index: usize) -> Option<(TensorType, Range<usize>)> {
    plan.slot(index).map(|s| (s.dtype, s.range))
}
