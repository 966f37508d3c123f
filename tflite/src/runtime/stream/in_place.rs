//! Layers written over their own input (issue 70): a depthwise or 1×1
//! convolution whose output takes its input's place in the arena, with a
//! small scratch beside it instead of a second tensor.
//!
//! - A **depthwise** convolution of depth multiplier 1 computes each
//!   output channel from the same input channel alone. It runs group by
//!   group of four channels: the group's input plane and filter taps are
//!   copied into the scratch, then the group's output is computed from
//!   them in one call, straight into the group's channels of the tensor
//!   (its pixels a tensor's depth apart), which no other group reads. Its
//!   scratch: the filter's taps and one plane of four channels; its band
//!   is every row.
//! - A **1×1 convolution** of stride 1 and no padding computes each
//!   output pixel from the same input pixel alone. It runs as one column
//!   of pixels, the band's pixels in whole pairs a call
//!   ([`InPlaceShape::pixels_a_call`]): the call's output into the
//!   scratch, then copied over the call's input pixels (and, with fewer
//!   output channels, over pixels before them), which the layer reads no
//!   more. At a stride of 2 it runs band by band of rows, each output row
//!   read from input rows at or after its own; with padding above it is
//!   refused (a row would read the row above, written over already). Its
//!   scratch: one call's output.
//!
//! Each call is the kernel's whole-tensor call (a depthwise group's over
//! its plane, a 1×1 band's over that band: [`Stage`]'s), so the values
//! are bit for bit the layer's. The rule of
//! which layers qualify and of the scratch each needs is
//! [`InPlaceShape`]'s: [`InPlaceLayer::new`] checks it and the schedule
//! search (`crate::runtime::schedule`) plans by it.

use core::ops::Range;

use super::Stage;
use crate::arith::window::length;
use crate::format::error::TfliteError;
use crate::ops::conv::depthwise_conv::{
    depthwise_strided, DepthwiseConvDims, DepthwiseConvParams, StridedRuns,
};
use crate::ops::conv::Conv2dDims;

/// Which way a layer is written over its input.
///
/// ```
/// use shapecheck_tflite::stream::InPlaceKind;
///
/// assert_ne!(InPlaceKind::Depthwise, InPlaceKind::Pointwise);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InPlaceKind {
    /// a depthwise convolution, group by group of four channels
    Depthwise,
    /// a 1×1 convolution, band by band of rows
    Pointwise,
}

/// The shape of a layer written over its input, and the one rule of
/// which layers can be and of the scratch each needs.
///
/// ```
/// use shapecheck_tflite::stream::{InPlaceKind, InPlaceShape};
///
/// // keyword spotting's depthwise layers: 25×5×64, a 3×3 filter
/// let dw = InPlaceShape { kind: InPlaceKind::Depthwise, input: [25, 5, 64], output: [25, 5, 64], filter: [3, 3] };
/// assert!(dw.check(13).is_ok());
/// // 9 taps and a plane of four channels, at any band (the group's
/// // output goes straight into the tensor)
/// assert_eq!(dw.scratch(13), Some(36 + 25 * 5 * 4));
/// assert_eq!(dw.scratch(1), dw.scratch(25));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InPlaceShape {
    /// the kind of layer
    pub kind: InPlaceKind,
    /// its input's rows, columns and channels
    pub input: [usize; 3],
    /// its output's rows, columns and channels
    pub output: [usize; 3],
    /// its filter's rows and columns
    pub filter: [usize; 2],
}

impl InPlaceShape {
    /// A 1×1 convolution's pixels a call at `band` output rows: the
    /// band's pixels, one more where they are odd (the DSP loops take
    /// pixels in pairs; a row of 5 pixels is 3 pairs a call, not 2 and a
    /// lone one), at most the output's. `None` when they overflow.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{InPlaceKind, InPlaceShape};
    ///
    /// let conv = InPlaceShape { kind: InPlaceKind::Pointwise, input: [25, 5, 64], output: [25, 5, 64], filter: [1, 1] };
    /// assert_eq!(conv.pixels_a_call(1), Some(6));
    /// assert_eq!(conv.pixels_a_call(2), Some(10));
    /// assert_eq!(conv.pixels_a_call(99), Some(125));
    /// ```
    pub fn pixels_a_call(&self, band: usize) -> Option<usize> {
        let [oh, ow, _] = self.output;
        let pixels = band.min(oh).checked_mul(ow)?;
        Some(pixels.saturating_add(pixels % 2).min(oh.checked_mul(ow)?))
    }

    /// Whether the layer can be written over its input at `band` output
    /// rows a call: `Err` names the rule it breaks.
    /// - a band has rows;
    /// - a depthwise convolution: depth multiplier 1 (as many output
    ///   channels as input ones), channels by fours (the DSP loops'
    ///   groups), an output of at most its input's pixels;
    /// - a convolution: a 1×1 filter, an output of its input's rows and
    ///   columns, at most its input's channels (so that every band is
    ///   written over values already read).
    ///
    /// ```
    /// use shapecheck_tflite::stream::{InPlaceKind, InPlaceShape};
    ///
    /// let conv = InPlaceShape { kind: InPlaceKind::Pointwise, input: [4, 4, 8], output: [4, 4, 16], filter: [1, 1] };
    /// assert_eq!(conv.check(1), Err("a convolution in place has at most its input's channels"));
    /// ```
    pub fn check(&self, band: usize) -> Result<(), &'static str> {
        let [h, w, c] = self.input;
        let [oh, ow, oc] = self.output;
        if band == 0 {
            return Err("a band has rows");
        }
        let pixels = |a: usize, b: usize| a.saturating_mul(b);
        match self.kind {
            InPlaceKind::Depthwise => {
                if oc != c {
                    return Err("a depthwise convolution in place has depth multiplier 1");
                }
                if c == 0 || !c.is_multiple_of(4) {
                    return Err("a depthwise convolution in place has channels by fours");
                }
                if pixels(oh, ow) > pixels(h, w) {
                    return Err("a layer in place writes no more pixels than it reads");
                }
            }
            InPlaceKind::Pointwise => {
                if self.filter != [1, 1] {
                    return Err("a convolution in place has a 1×1 filter");
                }
                if (oh, ow) != (h, w) {
                    return Err("a convolution in place keeps its input's rows and columns");
                }
                if oc > c {
                    return Err("a convolution in place has at most its input's channels");
                }
            }
        }
        match self.scratch(band) {
            Some(_) => Ok(()),
            None => Err("the sizes overflow"),
        }
    }

    /// The scratch the layer needs at `band` output rows a call, in
    /// values: a depthwise convolution's filter taps and plane of four
    /// channels (every row in one call, whatever the band); a 1×1
    /// convolution's output of one call ([`InPlaceShape::pixels_a_call`],
    /// at least a band of rows). `None` when the sizes overflow.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{InPlaceKind, InPlaceShape};
    ///
    /// let conv = InPlaceShape { kind: InPlaceKind::Pointwise, input: [25, 5, 64], output: [25, 5, 64], filter: [1, 1] };
    /// assert_eq!(conv.scratch(2), Some(2 * 5 * 64));
    /// // a band taller than the output is the output
    /// assert_eq!(conv.scratch(99), Some(25 * 5 * 64));
    /// ```
    pub fn scratch(&self, band: usize) -> Option<usize> {
        let [h, w, _] = self.input;
        let [oh, ow, oc] = self.output;
        match self.kind {
            InPlaceKind::Depthwise => {
                let taps = self.filter[0].checked_mul(self.filter[1])?.checked_mul(4)?;
                let plane = h.checked_mul(w)?.checked_mul(4)?;
                // the output's length in the tensor, checked here once
                let _ = oh.checked_mul(ow)?.checked_mul(oc)?;
                taps.checked_add(plane)
            }
            InPlaceKind::Pointwise => self.pixels_a_call(band)?.checked_mul(oc),
        }
    }

    /// The kernel calls the layer makes at `band` output rows a call:
    /// a depthwise convolution one per group of four channels (every row
    /// in one call, whatever the band), a 1×1 convolution one per
    /// [`InPlaceShape::pixels_a_call`] of its pixels (at stride 1, the
    /// layers the schedule writes over their input).
    ///
    /// ```
    /// use shapecheck_tflite::stream::{InPlaceKind, InPlaceShape};
    ///
    /// let dw = InPlaceShape { kind: InPlaceKind::Depthwise, input: [25, 5, 64], output: [25, 5, 64], filter: [3, 3] };
    /// assert_eq!(dw.calls(13), 16);
    /// ```
    pub fn calls(&self, band: usize) -> usize {
        match self.kind {
            InPlaceKind::Depthwise => self.input[2] / 4,
            InPlaceKind::Pointwise => {
                let pixels = self.output[0].saturating_mul(self.output[1]);
                pixels.div_ceil(self.pixels_a_call(band).unwrap_or(1).max(1))
            }
        }
    }

    /// The values the layer copies besides its kernel calls: a depthwise
    /// convolution's input gathered (its output is written in place), a
    /// 1×1 convolution's output copied back.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{InPlaceKind, InPlaceShape};
    ///
    /// let conv = InPlaceShape { kind: InPlaceKind::Pointwise, input: [2, 2, 8], output: [2, 2, 4], filter: [1, 1] };
    /// assert_eq!(conv.moved(), 16);
    /// ```
    pub fn moved(&self) -> usize {
        match self.kind {
            InPlaceKind::Depthwise => values(self.input),
            InPlaceKind::Pointwise => values(self.output),
        }
    }
}

/// A layer written over its input, checked: a [`Stage::Depthwise`] or
/// [`Stage::Conv`] that [`InPlaceShape::check`] accepts, and its band.
///
/// ```
/// use shapecheck_tflite::stream::{InPlaceLayer, Stage};
/// use shapecheck_tflite::{depthwise_conv_int8, quantize_multiplier, DepthwiseConvDims, DepthwiseConvParams, Rounding};
///
/// // a 3×3 depthwise convolution over a 4×3 image of 8 channels, SAME
/// let dims = DepthwiseConvDims { batches: 1, input_height: 4, input_width: 3, input_depth: 8,
///     filter_height: 3, filter_width: 3, depth_multiplier: 1, output_height: 4, output_width: 3 };
/// let multipliers = [quantize_multiplier(0.05)?];
/// let params = DepthwiseConvParams { stride_height: 1, stride_width: 1, dilation_height: 1,
///     dilation_width: 1, pad_top: 1, pad_left: 1, input_zero_point: 2, output_zero_point: -1,
///     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
/// let filter: Vec<i8> = (0..72).map(|v| (v * 7 % 23 - 11) as i8).collect();
/// let image: Vec<i8> = (0..96).map(|v| (v * 5 % 31 - 15) as i8).collect();
/// let mut whole = vec![0i8; 96];
/// depthwise_conv_int8(&image, &filter[..], None::<&[i32]>, dims, &params, &mut whole)?;
///
/// let stage = Stage::Depthwise { filter: &filter, bias: None, prepared: None, dims, params };
/// let layer = InPlaceLayer::new(stage, 2)?;
/// let mut io = image.clone();
/// let mut scratch = vec![0i8; layer.scratch_len()];
/// layer.run(&mut io, &mut scratch)?;
/// assert_eq!(io, whole);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct InPlaceLayer<'a> {
    stage: Stage<'a>,
    band: usize,
}

/// The shape of `stage` as a layer in place; `None` for a pool or an
/// `ADD`.
fn shape_of(stage: &Stage<'_>) -> Option<InPlaceShape> {
    match *stage {
        Stage::Conv { dims, .. } => Some(InPlaceShape {
            kind: InPlaceKind::Pointwise,
            input: [dims.input_height, dims.input_width, dims.input_depth],
            output: [dims.output_height, dims.output_width, dims.output_depth],
            filter: [dims.filter_height, dims.filter_width],
        }),
        Stage::Depthwise { dims, .. } => Some(InPlaceShape {
            kind: InPlaceKind::Depthwise,
            input: [dims.input_height, dims.input_width, dims.input_depth],
            output: [
                dims.output_height,
                dims.output_width,
                dims.input_depth.saturating_mul(dims.depth_multiplier),
            ],
            filter: [dims.filter_height, dims.filter_width],
        }),
        _ => None,
    }
}

impl<'a> InPlaceLayer<'a> {
    /// Checks a layer in place: the stage as its kernel checks it, of one
    /// image, a depthwise or 1×1 convolution that [`InPlaceShape::check`]
    /// accepts at `band` output rows a call. A
    /// [`TfliteError::KernelParam`] naming the rule, or the kernel's
    /// error, otherwise.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    ///
    /// // a 1×1 convolution from 2 channels to 4: more than it reads
    /// let dims = Conv2dDims { batches: 1, input_height: 2, input_width: 2, input_depth: 2,
    ///     filter_height: 1, filter_width: 1, output_height: 2, output_width: 2, output_depth: 4 };
    /// let multipliers = [quantize_multiplier(0.5)?];
    /// let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    ///     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    ///     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// let stage = Stage::Conv { filter: &[1; 8], bias: None, prepared: None, dims, params };
    /// let e = InPlaceLayer::new(stage, 1).unwrap_err();
    /// assert!(e.to_string().contains("at most its input's channels"));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn new(stage: Stage<'a>, band: usize) -> Result<InPlaceLayer<'a>, TfliteError> {
        let param = |value: usize, rule| TfliteError::KernelParam {
            what: "layer in place",
            value: i64::try_from(value).unwrap_or(i64::MAX),
            rule,
        };
        let shape = shape_of(&stage).ok_or(param(
            0,
            "a layer in place is a depthwise or 1×1 convolution",
        ))?;
        stage.check()?;
        if stage.batches() != 1 {
            return Err(param(
                stage.batches(),
                "a layer in place computes one image",
            ));
        }
        shape.check(band).map_err(|rule| param(band, rule))?;
        // a 1×1 layer's band is written over rows read already: no output
        // row reads an input row above its own
        if let Stage::Conv { params, .. } = stage {
            if params.pad_top != 0 {
                return Err(param(
                    params.pad_top,
                    "a 1×1 convolution in place has no padding above",
                ));
            }
        }
        let layer = InPlaceLayer { stage, band };
        for len in [layer.len(), layer.output_len(), layer.scratch_len()] {
            if len == usize::MAX {
                return Err(param(len, "the sizes overflow"));
            }
        }
        Ok(layer)
    }

    /// A layer its caller has checked with [`InPlaceLayer::new`] (a
    /// `const fn`, for a `static`): `model!` checks each one when it
    /// expands and writes this constructor with the same constants. An
    /// unchecked layer never reads or writes outside a slice; it computes
    /// wrong values.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// use shapecheck_tflite::{Conv2dDims, Conv2dParams, QuantizedMultiplier, Rounding};
    ///
    /// static MULTIPLIERS: [QuantizedMultiplier; 1] = [QuantizedMultiplier::from_parts(1 << 30, 0)];
    /// static LAYER: InPlaceLayer<'static> = InPlaceLayer::prechecked(Stage::Conv {
    ///     filter: &[2, 0, 0, 2],
    ///     bias: None,
    ///     prepared: None,
    ///     dims: Conv2dDims { batches: 1, input_height: 1, input_width: 2, input_depth: 2,
    ///         filter_height: 1, filter_width: 1, output_height: 1, output_width: 2, output_depth: 2 },
    ///     params: Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    ///         dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    ///         multipliers: &MULTIPLIERS, output_min: -128, output_max: 127, rounding: Rounding::Double },
    /// }, 1);
    /// let mut io = [3i8, 4, 5, 6];
    /// LAYER.run_prechecked(&mut io, &mut [0; 2]);
    /// assert_eq!(io, [3, 4, 5, 6]); // 2x, times 0.5
    /// ```
    pub const fn prechecked(stage: Stage<'a>, band: usize) -> InPlaceLayer<'a> {
        InPlaceLayer { stage, band }
    }

    /// Its shape ([`InPlaceShape`]).
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{InPlaceKind, InPlaceLayer, Stage};
    /// # use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    /// # let dims = Conv2dDims { batches: 1, input_height: 2, input_width: 2, input_depth: 2,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 2, output_depth: 2 };
    /// # let multipliers = [quantize_multiplier(0.5)?];
    /// # let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    /// #     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    /// #     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// let stage = Stage::Conv { filter: &[1; 4], bias: None, prepared: None, dims, params };
    /// let layer = InPlaceLayer::new(stage, 1)?;
    /// assert_eq!(layer.shape().map(|s| s.kind), Some(InPlaceKind::Pointwise));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn shape(&self) -> Option<InPlaceShape> {
        shape_of(&self.stage)
    }

    /// The values of its input, which `io` holds ([`InPlaceLayer::run`]).
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// # use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    /// # let dims = Conv2dDims { batches: 1, input_height: 2, input_width: 2, input_depth: 2,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 2, output_depth: 1 };
    /// # let multipliers = [quantize_multiplier(0.5)?];
    /// # let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    /// #     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    /// #     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// let stage = Stage::Conv { filter: &[1; 2], bias: None, prepared: None, dims, params };
    /// let layer = InPlaceLayer::new(stage, 1)?;
    /// assert_eq!((layer.len(), layer.output_len()), (8, 4));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.shape().map_or(0, |s| values(s.input))
    }

    /// Whether its input has no values.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// # use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    /// # let dims = Conv2dDims { batches: 1, input_height: 2, input_width: 2, input_depth: 2,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 2, output_depth: 1 };
    /// # let multipliers = [quantize_multiplier(0.5)?];
    /// # let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    /// #     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    /// #     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// let stage = Stage::Conv { filter: &[1; 2], bias: None, prepared: None, dims, params };
    /// assert!(!InPlaceLayer::new(stage, 1)?.is_empty());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values of its output, the first of `io`'s after the run.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// # use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    /// # let dims = Conv2dDims { batches: 1, input_height: 2, input_width: 2, input_depth: 2,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 2, output_depth: 2 };
    /// # let multipliers = [quantize_multiplier(0.5)?];
    /// # let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    /// #     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    /// #     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// let stage = Stage::Conv { filter: &[1; 4], bias: None, prepared: None, dims, params };
    /// assert_eq!(InPlaceLayer::new(stage, 1)?.output_len(), 8);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn output_len(&self) -> usize {
        self.shape().map_or(0, |s| values(s.output))
    }

    /// The values of its scratch ([`InPlaceShape::scratch`] at its band).
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// # use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    /// # let dims = Conv2dDims { batches: 1, input_height: 3, input_width: 2, input_depth: 2,
    /// #     filter_height: 1, filter_width: 1, output_height: 3, output_width: 2, output_depth: 2 };
    /// # let multipliers = [quantize_multiplier(0.5)?];
    /// # let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    /// #     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    /// #     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// let stage = Stage::Conv { filter: &[1; 4], bias: None, prepared: None, dims, params };
    /// assert_eq!(InPlaceLayer::new(stage, 2)?.scratch_len(), 2 * 2 * 2); // two rows
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn scratch_len(&self) -> usize {
        self.shape()
            .and_then(|s| s.scratch(self.band))
            .unwrap_or(usize::MAX)
    }

    /// Runs the layer over its input: `io` holds the input
    /// ([`InPlaceLayer::len`] values) and then, in its first
    /// [`InPlaceLayer::output_len`] values, the output, bit for bit the
    /// layer's whole-tensor kernel; `scratch` holds
    /// [`InPlaceLayer::scratch_len`] values. Fails, `io` untouched, when
    /// a length differs.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// # use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    /// # let dims = Conv2dDims { batches: 1, input_height: 2, input_width: 1, input_depth: 2,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 1, output_depth: 1 };
    /// # let multipliers = [quantize_multiplier(1.0)?];
    /// # let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    /// #     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    /// #     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// // each pixel's two channels summed
    /// let stage = Stage::Conv { filter: &[1, 1], bias: None, prepared: None, dims, params };
    /// let layer = InPlaceLayer::new(stage, 1)?;
    /// let mut io = [1i8, 2, 3, 4];
    /// // a band of one row of one pixel: two pixels a call (whole pairs)
    /// assert_eq!(layer.scratch_len(), 2);
    /// layer.run(&mut io, &mut [0; 2])?;
    /// assert_eq!(io[..2], [3, 7]);
    /// assert!(layer.run(&mut io, &mut []).is_err());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn run(&self, io: &mut [i8], scratch: &mut [i8]) -> Result<(), TfliteError> {
        length("layer in place's input", self.len(), io.len())?;
        length(
            "layer in place's scratch",
            self.scratch_len(),
            scratch.len(),
        )?;
        self.run_prechecked(io, scratch);
        Ok(())
    }

    /// [`InPlaceLayer::run`] with the lengths checked by the caller: what
    /// `model!`'s `predict` calls, its lengths the arena's typed views'.
    /// A length that differs computes fewer values, never reads or writes
    /// outside a slice.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{InPlaceLayer, Stage};
    /// # use shapecheck_tflite::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    /// # let dims = Conv2dDims { batches: 1, input_height: 2, input_width: 1, input_depth: 2,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 1, output_depth: 2 };
    /// # let multipliers = [quantize_multiplier(1.0)?];
    /// # let params = Conv2dParams { stride_height: 1, stride_width: 1, dilation_height: 1,
    /// #     dilation_width: 1, pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
    /// #     multipliers: &multipliers, output_min: -128, output_max: 127, rounding: Rounding::Double };
    /// // each pixel's channels swapped
    /// let stage = Stage::Conv { filter: &[0, 1, 1, 0], bias: None, prepared: None, dims, params };
    /// let mut io = [1i8, 2, 3, 4];
    /// InPlaceLayer::new(stage, 2)?.run_prechecked(&mut io, &mut [0; 4]);
    /// assert_eq!(io, [2, 1, 4, 3]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn run_prechecked(&self, io: &mut [i8], scratch: &mut [i8]) {
        let Some(shape) = self.shape() else {
            return;
        };
        match self.stage {
            Stage::Depthwise {
                filter,
                bias,
                prepared,
                dims,
                params,
            } => {
                let [h, w, c] = shape.input;
                let [oh, ow, _] = shape.output;
                let taps = dims.filter_height.saturating_mul(dims.filter_width);
                let (taps_buf, rest) =
                    scratch.split_at_mut(taps.saturating_mul(4).min(scratch.len()));
                let plane_len = h.saturating_mul(w).saturating_mul(4);
                let Some(plane) = rest.get_mut(..plane_len) else {
                    return;
                };
                let group_dims = DepthwiseConvDims {
                    input_depth: 4,
                    ..dims
                };
                // a group's output in the tensor: its pixels `c` apart,
                // from its first channel to the last pixel's fourth
                let out_len = oh
                    .saturating_mul(ow)
                    .saturating_sub(1)
                    .saturating_mul(c)
                    .saturating_add(4);
                // the classes of the DSP runs, the same for every group
                let runs = StridedRuns::new(group_dims, &params, c);
                for g in 0..c / 4 {
                    let channels = 4 * g..4 * g + 4;
                    gather(filter, c, channels.clone(), taps_buf);
                    gather(io, c, channels.clone(), plane);
                    let multipliers = match params.multipliers.len() {
                        1 => params.multipliers,
                        _ => params.multipliers.get(channels.clone()).unwrap_or(&[]),
                    };
                    let params = DepthwiseConvParams {
                        multipliers,
                        ..params
                    };
                    // the group's input is in the plane now: its channels
                    // of the tensor, which no other group reads, take its
                    // output
                    let Some(out) =
                        io.get_mut(channels.start..channels.start.saturating_add(out_len))
                    else {
                        return;
                    };
                    depthwise_strided(
                        &runs,
                        plane,
                        taps_buf,
                        bias.and_then(|b| b.get(channels.clone())),
                        prepared.and_then(|p| p.get(g..g + 1)),
                        group_dims,
                        &params,
                        out,
                        c,
                    );
                }
            }
            Stage::Conv {
                filter,
                bias,
                prepared,
                dims,
                params,
            } => {
                let [h, w, c] = shape.input;
                let oc = shape.output[2];
                // of stride 1 and no padding, a 1×1 convolution maps each
                // pixel to itself: the tensor as one column of pixels, each
                // call the band's pixels in whole pairs (`pixels_a_call`)
                let pixel_to_pixel = (params.stride_height, params.stride_width) == (1, 1)
                    && (params.pad_top, params.pad_left) == (0, 0);
                let (stage, bands_of) = if pixel_to_pixel {
                    let pixels = h.saturating_mul(w);
                    let column = Stage::Conv {
                        filter,
                        bias,
                        prepared,
                        dims: Conv2dDims {
                            input_height: pixels,
                            input_width: 1,
                            output_height: pixels,
                            output_width: 1,
                            ..dims
                        },
                        params,
                    };
                    let per_call = shape.pixels_a_call(self.band).unwrap_or(1).max(1);
                    (column, bands(pixels, per_call))
                } else {
                    // else by rows, each output row from input rows at or
                    // after its own (no padding above, `new` checked; a
                    // stride of 2 reads ahead), written over rows read
                    // already
                    (self.stage, bands(shape.output[0], self.band))
                };
                let [_, sw, _] = shape_of(&stage).map_or([0; 3], |s| s.input);
                let [_, sow, _] = shape_of(&stage).map_or([0; 3], |s| s.output);
                let (in_row, out_row) = (sw.saturating_mul(c), sow.saturating_mul(oc));
                let geometry = stage.geometry();
                for rows in bands_of {
                    let needed = geometry.needed(rows.clone());
                    let (from, to) = (
                        rows.start.saturating_mul(out_row),
                        rows.end.saturating_mul(out_row),
                    );
                    let (Some(image), Some(out)) = (
                        io.get(
                            needed.start.saturating_mul(in_row)..needed.end.saturating_mul(in_row),
                        ),
                        scratch.get_mut(..to - from),
                    ) else {
                        return;
                    };
                    stage.band(image, needed, rows, out);
                    // over rows this call and those before it read (16
                    // bytes a step, not `memcpy`'s word loop)
                    if let Some(place) = io.get_mut(from..to) {
                        crate::base::bytes::copy_forward(place, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The values of a tensor of rows, columns and channels `dims`
/// (`usize::MAX` when they overflow, which [`InPlaceLayer::new`] refuses).
fn values(dims: [usize; 3]) -> usize {
    dims[0]
        .checked_mul(dims[1])
        .and_then(|v| v.checked_mul(dims[2]))
        .unwrap_or(usize::MAX)
}

/// Output rows `0..rows` in bands of `band` (the last one shorter).
fn bands(rows: usize, band: usize) -> impl Iterator<Item = Range<usize>> {
    let band = band.max(1);
    (0..rows)
        .step_by(band)
        .map(move |start| start..start.saturating_add(band).min(rows))
}

/// Channels `channels` of each pixel of `from` (`depth` values a pixel),
/// one after another into `to`, as many pixels as both hold.
fn gather(from: &[i8], depth: usize, channels: Range<usize>, to: &mut [i8]) {
    let width = channels.len();
    if depth == 0 || width == 0 {
        return;
    }
    // a group of four channels (the depthwise layers'): a word a pixel,
    // not a call
    if width == 4 {
        for (to, from) in to.chunks_exact_mut(4).zip(from.chunks_exact(depth)) {
            let from = from
                .get(channels.start..)
                .and_then(|f| f.first_chunk::<4>());
            if let (Some(to), Some(from)) = (to.first_chunk_mut::<4>(), from) {
                *to = *from;
            }
        }
        return;
    }
    for (to, from) in to.chunks_exact_mut(width).zip(from.chunks_exact(depth)) {
        if let Some(from) = from.get(channels.clone()) {
            to.copy_from_slice(from);
        }
    }
}
