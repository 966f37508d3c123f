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

#[cfg(feature = "alloc")]
use core::fmt::{self, Write};
use core::ops::Range;

use crate::arith::quant::Rounding;
pub use crate::format::array::Array;
use crate::format::error::TfliteError;
pub use crate::format::values::F32Constant;
use crate::kernel::step::Buffers;
use crate::kernel::step::RunStep;

pub use crate::arith::quant::QuantizedMultiplier;
pub use crate::format::types::TensorType;
pub use crate::kernel::checker::{Quantized, Slot, Source};
pub use crate::kernel::shape::OpShape;
pub use crate::ops::add::{AddLayer, AddParams};
pub use crate::ops::arg_min_max::ArgMinMaxDims;
pub use crate::ops::batch_matmul::BatchMatMulParams;
pub use crate::ops::concat::{ConcatenationParams, PackParams};
pub use crate::ops::conv::depthwise_conv::DepthwiseConvDims;
pub use crate::ops::conv::fully_connected::FullyConnectedDims;
pub use crate::ops::conv::{Conv2dDims, ConvLayer, ConvStep};
pub use crate::ops::depth_space::DepthSpaceParams;
pub use crate::ops::gather::GatherParams;
pub use crate::ops::l2_normalization::L2NormalizationParams;
pub use crate::ops::logistic::{LogisticInt16Params, LogisticParams};
pub use crate::ops::pad::mirror_pad::MirrorPadParams;
pub use crate::ops::pool::{PoolDims, PoolParams};
pub use crate::ops::reduce::mean::MeanParams;
pub use crate::ops::reduce::{ReduceAxes, Reduction};
pub use crate::ops::resize::{ResizeDims, ResizeParams};
pub use crate::ops::slice::{SliceParams, StridedSliceParams};
pub use crate::ops::softmax::log_softmax::LogSoftmaxParams;
pub use crate::ops::softmax::{SoftmaxInt16Params, SoftmaxParams};
pub use crate::ops::split::{SplitParams, UnpackParams};
pub use crate::ops::transpose::TransposeParams;
pub use crate::ops::transpose_conv::TransposeConvDims;
pub use crate::shared::moves::Places;

pub use crate::base::write_rust::{write_path, write_struct, write_tuple, WriteRust};
// every step type of the registry's list and the kernel types they hold
pub use crate::registry::steps::names::*;

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
/// its own step type, `static STEP_<i>: <type> = <value>;` (with what its
/// kernel would set up at each call set up once: a convolution's channel
/// pairs, in flash), into
/// `statics`, and the call that runs it, `run.step(&STEP_<i>,
/// <multipliers>);` (a [`Run`] named `run`), into `calls`, in order.
/// Returns the count of steps.
#[cfg(feature = "alloc")]
pub fn write_steps(
    plan: &crate::runtime::interpreter::Plan<'_>,
    statics: &mut dyn Write,
    calls: &mut dyn Write,
    k: &str,
) -> Result<usize, fmt::Error> {
    let mut count = 0usize;
    let all = plan.all_multipliers();
    for (step, multipliers) in plan.prepared() {
        // what the step's kernel would set up at each call, set up here
        // once (a convolution's channel pairs), written with it
        let mut pairs = alloc::vec::Vec::new();
        let layer = all.get(multipliers.clone()).unwrap_or(&[]);
        let set_up = step.set_up(layer, &mut pairs);
        let (step_type, value) = set_up.as_ref().unwrap_or(step).written();
        let step_type = step_type.replace("{k}", k);
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
    plan: &crate::runtime::interpreter::Plan<'_>,
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
pub fn slot(
    plan: &crate::runtime::interpreter::Plan<'_>,
    index: usize,
) -> Option<(TensorType, Range<usize>)> {
    plan.slot(index).map(|s| (s.dtype, s.range))
}

#[cfg(all(test, feature = "alloc"))]
mod set_up_tests {
    use crate::format::model::Model;
    use crate::ops::conv::{conv_params, conv_rows_dsp, ConvPairStage, ConvStep};
    use crate::registry::steps::Step;
    use crate::runtime::interpreter::{Arithmetic, Layout, Plan};

    extern crate std;
    use std::vec::Vec;

    /// `write_steps`' `CONV_2D` steps carry `conv_prepare`'s channel
    /// pairs made from their own multipliers (`Step::set_up`): on the DSP
    /// loops' structure (the host's twins) each one-op convolution gives
    /// the same outputs with them as without, on random inputs.
    #[test]
    fn set_up_pairs_run_as_the_step_without_them() {
        let mut compared = 0;
        // the one-op models (their biases 0), then person detection's and
        // two user models' convolutions (biases of every sign)
        for name in [
            "ops/conv_1x1",
            "ops/conv_3x3_s2_same",
            "ops/conv_5x3_dil2_valid",
            "ops/conv_10x4_s2_same",
            "ops/float_io_conv",
            "models/person_detect",
            "user/user_padded_resnet",
            "user/user_unet",
        ] {
            let path = std::format!("{}/tests/{name}.tflite", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(path).unwrap();
            let model = Model::parse(&bytes).unwrap();
            let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed).unwrap();
            let all = plan.all_multipliers();
            for (step, range) in plan.prepared() {
                let mut pairs = Vec::new();
                let (Step::Conv2d(ConvStep::Int8(l)), Some(Step::Conv2d(ConvStep::Int8(set)))) =
                    (step, step.set_up(&all[range.clone()], &mut pairs))
                else {
                    continue;
                };
                assert_eq!(set.pairs.len(), l.dims.output_depth / 2, "{name}");
                let params = conv_params(l, &all[range]);
                let filter: Vec<i8> = l.filter.iter().collect();
                let bias: Option<Vec<i32>> = l.bias.as_ref().map(|b| b.iter().collect());
                let d = l.dims;
                let image_len = d.input_height * d.input_width * d.input_depth;
                let out_len = d.output_height * d.output_width * d.output_depth;
                for seed in 1..6u32 {
                    let image: Vec<i8> = (0..image_len as u32)
                        .map(|v| {
                            (v.wrapping_mul(2_654_435_761).wrapping_add(seed * 97) >> 13) as i8
                        })
                        .collect();
                    let run = |prepared: Option<&[ConvPairStage]>| {
                        let mut out = std::vec![0i8; out_len];
                        conv_rows_dsp(
                            &filter,
                            &image,
                            d.input_height,
                            0..d.output_height,
                            bias.as_deref(),
                            prepared,
                            d,
                            &params,
                            &mut out,
                        );
                        out
                    };
                    assert_eq!(run(Some(set.pairs)), run(None), "{name}, seed {seed}");
                }
                compared += 1;
            }
        }
        // each an int8 CONV_2D whose pairs the loops take, but
        // conv_3x3_s2_same's 5 output channels (an odd count: none set up)
        assert!(compared >= 4 + 14, "{compared} convolutions compared");
    }
}
