//! `model!`'s streamed runs (issue 70): a run the schedule
//! (`shapecheck_tflite::schedule::Schedule::search`) streams is written as
//! its stages' constants (`shapecheck_tflite::stream::Stage`, the values
//! the typed layers take), checked here by `StreamRun::new` when the
//! macro expands, and one call of the library's driver
//! (`StreamRun::run_prechecked`) on typed views of the arena: the run's
//! input, its output and its rings (`Arena::read_write_rings`, which does
//! not build when two of them overlap).
//!
//! A run may end in an `ADD` written over its skip (`Stage::Add`, the
//! schedule's `InPlace` for it): over a whole tensor of the arena, the
//! run's output view is that tensor; over the run's own input, the input
//! is the output view (`Arena::write_rings`, one tensor updated) and
//! `StreamRun::check_over_input` is checked when the macro expands.

use proc_macro2::Literal;
use quote::{format_ident, quote};
use shapecheck_tflite::schedule::{LayerInPlace, Run};
use shapecheck_tflite::stream::{InPlaceLayer, Stage, StreamRun};
use shapecheck_tflite::{
    activation_range_int8, add_params, conv_axis, conv_prepare, depthwise_prepare,
    fully_connected_multiplier, op_row, Activation, AddOver, AddParams, BuiltinOp, Conv2dDims,
    Conv2dParams, ConvPairStage, DepthwiseConvDims, DepthwiseConvParams, DepthwiseGroup,
    ModelTensor, Operator, Options, Padding, PoolDims, PoolParams, QuantizedMultiplier, Rounding,
    TypedLayer,
};

use super::{
    add_params_tokens, dims, doc, multiplier_tokens, per_tensor, shape_tokens, Place, Writer,
};

/// A group before `depthwise_prepare` fills it.
const EMPTY_GROUP: DepthwiseGroup = DepthwiseGroup {
    bias: [0; 4],
    table: [0; 18],
    constants: [[[0; 4]; 3]; 3],
    requant: None,
};

/// A channel pair before `conv_prepare` fills it.
const EMPTY_PAIR: ConvPairStage = ConvPairStage {
    constant: [0; 4],
    requant: [0; 11],
};

/// A convolution's prepared channel pair as tokens (a
/// `ConvPairStage { .. }` literal).
pub(super) fn pair_tokens(
    krate: &proc_macro2::TokenStream,
    p: &ConvPairStage,
) -> proc_macro2::TokenStream {
    let ints = |vs: &[i32]| {
        let vs = vs.iter().map(|&v| Literal::i32_unsuffixed(v));
        quote!([#(#vs),*])
    };
    let (constant, requant) = (ints(&p.constant), ints(&p.requant));
    quote!(#krate::tflite::ConvPairStage {
        constant: #constant,
        requant: #requant,
    })
}

/// A depthwise layer's prepared group of four channels as tokens (a
/// `DepthwiseGroup { .. }` literal).
fn group_tokens(krate: &proc_macro2::TokenStream, g: &DepthwiseGroup) -> proc_macro2::TokenStream {
    let ints = |vs: &[i32]| {
        let vs = vs.iter().map(|&v| Literal::i32_unsuffixed(v));
        quote!([#(#vs),*])
    };
    let bias = ints(&g.bias);
    let table = g.table.iter().map(|&v| Literal::u32_unsuffixed(v));
    let constants = g.constants.iter().map(|rows| {
        let rows = rows.iter().map(|k| ints(k));
        quote!([#(#rows),*])
    });
    let requant = match &g.requant {
        Some(words) => {
            let words = ints(words);
            quote!(Some(#words))
        }
        None => quote!(None),
    };
    quote!(#krate::tflite::DepthwiseGroup {
        bias: #bias,
        table: [#(#table),*],
        constants: [#(#constants),*],
        requant: #requant,
    })
}

/// A convolution's filter, bias and multipliers.
type Weights = (Vec<i8>, Option<Vec<i32>>, Vec<QuantizedMultiplier>);

/// One stage's operands, owned: what the stage's `static`s hold.
struct StageData {
    /// the op, for messages
    op: BuiltinOp,
    /// its layer kind (its registry row's `typed_layer`)
    kind: Option<TypedLayer>,
    filter: Vec<i8>,
    bias: Option<Vec<i32>>,
    multipliers: Vec<QuantizedMultiplier>,
    conv: Option<(Conv2dDims, Conv2dParams<'static>)>,
    depthwise: Option<(DepthwiseConvDims, DepthwiseConvParams<'static>)>,
    /// a depthwise layer's groups of four channels set up once
    /// (`depthwise_prepare`; empty where it does not take the layer)
    groups: Vec<DepthwiseGroup>,
    /// a convolution's channel pairs set up once (`conv_prepare`; empty
    /// where it does not take the layer)
    pairs: Vec<ConvPairStage>,
    pool: Option<(PoolDims, PoolParams)>,
    /// an ADD's parameters, the input it writes over, its rows and a
    /// row's values
    add: Option<(AddParams, AddOver, usize, usize)>,
}

impl StageData {
    /// The stage over these operands.
    fn stage(&self) -> Result<Stage<'_>, String> {
        let bias = self.bias.as_deref();
        let multipliers = &self.multipliers[..];
        match (self.kind, self.conv, self.depthwise, self.pool) {
            (Some(TypedLayer::Conv2d), Some((dims, params)), _, _) => Ok(Stage::Conv {
                filter: &self.filter,
                bias,
                prepared: (!self.pairs.is_empty()).then_some(&self.pairs[..]),
                dims,
                params: Conv2dParams {
                    multipliers,
                    ..params
                },
            }),
            (Some(TypedLayer::DepthwiseConv2d), _, Some((dims, params)), _) => {
                Ok(Stage::Depthwise {
                    filter: &self.filter,
                    bias,
                    prepared: (!self.groups.is_empty()).then_some(&self.groups[..]),
                    dims,
                    params: DepthwiseConvParams {
                        multipliers,
                        ..params
                    },
                })
            }
            (Some(TypedLayer::AveragePool2d), _, _, Some((dims, params))) => {
                Ok(Stage::AveragePool { dims, params })
            }
            (Some(TypedLayer::MaxPool2d), _, _, Some((dims, params))) => {
                Ok(Stage::MaxPool { dims, params })
            }
            (Some(TypedLayer::Add), _, _, _) => match self.add {
                Some((params, over, rows, row_len)) => Ok(Stage::Add {
                    params,
                    over,
                    rows,
                    row_len,
                }),
                None => Err("an ADD stage without its parameters".into()),
            },
            _ => Err(format!("a {} is not a stage of a streamed run", self.op)),
        }
    }
}

/// The axis sizes of a window: (pad before, output) along rows and
/// columns.
fn axes(
    padding: Padding,
    (h, w): (usize, usize),
    (kh, kw): (usize, usize),
    (sh, sw): (usize, usize),
    (dh, dw): (usize, usize),
) -> Result<(usize, usize), String> {
    let rows = conv_axis(padding, h, kh, sh, dh).map_err(|e| e.to_string())?;
    let cols = conv_axis(padding, w, kw, sw, dw).map_err(|e| e.to_string())?;
    Ok((rows.pad_before, cols.pad_before))
}

/// A 1×1 convolution's bias with its input zero point folded in:
/// `bias − zero_point · Σ w` per output channel, wrapping as the
/// accumulator does, so the layer with this bias and a zero point of 0 is
/// bit for bit the layer (a 1×1 window has no padding tap, where the zero
/// point would stand for a value).
pub(super) fn fold_zero_point(
    filter: &[i8],
    bias: Option<&[i32]>,
    channels: usize,
    zero_point: i32,
) -> Vec<i32> {
    let depth = filter.len() / channels.max(1);
    (0..channels)
        .map(|c| {
            let sum = filter
                .iter()
                .skip(c * depth)
                .take(depth)
                .fold(0i32, |s, &w| s.wrapping_add(i32::from(w)));
            let b = bias.and_then(|b| b.get(c)).copied().unwrap_or(0);
            b.wrapping_sub(zero_point.wrapping_mul(sum))
        })
        .collect()
}

fn size(v: i32) -> usize {
    usize::try_from(v).unwrap_or(0)
}

impl Writer<'_, '_> {
    /// A `CONV_2D`'s channel pairs set up once (`conv_prepare`'s, as its
    /// stage in a streamed run has them), for its whole-tensor layer: empty
    /// where the DSP loops take none (an odd channel count, an output
    /// stage they do not take) or its input is not one image.
    pub(super) fn conv_pairs(&self, op: &Operator<'_>) -> Vec<ConvPairStage> {
        self.stage_data(op).map(|d| d.pairs).unwrap_or_default()
    }

    /// A stage's operands, from operator `op`.
    fn stage_data(&self, op: &Operator<'_>) -> Result<StageData, String> {
        let input = self.tensor(op.input(0), "input", op)?;
        let output = self.tensor(op.output(0), "output", op)?;
        let (h, w, c) = match dims(&input)?.as_slice() {
            &[1, h, w, c] => (h, w, c),
            _ => return Err("its input is not one image [1, h, w, c]".into()),
        };
        let (oh, ow, oc) = match dims(&output)?.as_slice() {
            &[1, oh, ow, oc] => (oh, ow, oc),
            _ => return Err("its output is not one image [1, h, w, c]".into()),
        };
        let (input_scale, input_zero_point) = per_tensor(&input)?;
        let (output_scale, output_zero_point) = per_tensor(&output)?;
        let clamp = |activation: Activation| {
            activation_range_int8(activation, output_scale, output_zero_point)
                .map_err(|e| e.to_string())
        };
        let weights = |op: &Operator<'_>| -> Result<Weights, String> {
            let filter = self.tensor(op.input(1), "filter", op)?;
            let values: Vec<i8> = filter
                .data_as::<i8>()
                .ok_or("its filter is not int8")?
                .iter()
                .collect();
            let bias = match op.input(2).and_then(|k| self.model.tensor(k)) {
                Some(b) => Some(
                    b.data_as::<i32>()
                        .ok_or("its bias is not int32")?
                        .iter()
                        .collect(),
                ),
                None => None,
            };
            let q = filter.quantization().ok_or("its filter is not quantized")?;
            let multipliers = q
                .scales()
                .iter()
                .map(|s| {
                    fully_connected_multiplier(input_scale, s, output_scale)
                        .map_err(|e| e.to_string())
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok((values, bias, multipliers))
        };
        let filter_dims = |t: Option<ModelTensor<'_>>| t.map(|t| dims(&t)).transpose();
        let mut data = StageData {
            op: op.op(),
            kind: op_row(op.op()).and_then(|row| row.typed_layer),
            filter: Vec::new(),
            bias: None,
            multipliers: Vec::new(),
            conv: None,
            depthwise: None,
            groups: Vec::new(),
            pairs: Vec::new(),
            pool: None,
            add: None,
        };
        match (data.kind, op.options()) {
            (Some(TypedLayer::Conv2d), Options::Conv2d(o)) => {
                let (kh, kw) =
                    match filter_dims(op.input(1).and_then(|k| self.model.tensor(k)))?.as_deref() {
                        Some(&[_, kh, kw, _]) => (kh, kw),
                        _ => return Err("its filter is not [o, kh, kw, c]".into()),
                    };
                let (sh, sw, dh, dw) = (
                    size(o.stride_h),
                    size(o.stride_w),
                    size(o.dilation_h),
                    size(o.dilation_w),
                );
                let (pad_top, pad_left) = axes(o.padding, (h, w), (kh, kw), (sh, sw), (dh, dw))?;
                let (lo, hi) = clamp(o.fused_activation)?;
                (data.filter, data.bias, data.multipliers) = weights(op)?;
                // a 1×1 filter reads no padding: its zero point folded
                // into its bias, so each band's call sums no weights
                let input_zero_point = if (kh, kw) == (1, 1) {
                    data.bias = Some(fold_zero_point(
                        &data.filter,
                        data.bias.as_deref(),
                        oc,
                        input_zero_point,
                    ));
                    0
                } else {
                    input_zero_point
                };
                let conv = (
                    Conv2dDims {
                        batches: 1,
                        input_height: h,
                        input_width: w,
                        input_depth: c,
                        filter_height: kh,
                        filter_width: kw,
                        output_height: oh,
                        output_width: ow,
                        output_depth: oc,
                    },
                    Conv2dParams {
                        stride_height: sh,
                        stride_width: sw,
                        dilation_height: dh,
                        dilation_width: dw,
                        pad_top,
                        pad_left,
                        input_zero_point,
                        output_zero_point,
                        multipliers: &[],
                        output_min: lo,
                        output_max: hi,
                        rounding: Rounding::Double,
                    },
                );
                // the channel pairs set up once, for the DSP loops' band
                // calls (the matrix product's for a 1×1 filter, im2col's
                // for any other; none where they do not take them)
                let (dims, params) = conv;
                let params = Conv2dParams {
                    multipliers: &data.multipliers,
                    ..params
                };
                if oc % 2 == 0 {
                    let mut pairs = vec![EMPTY_PAIR; oc / 2];
                    if conv_prepare(
                        &data.filter,
                        data.bias.as_deref(),
                        dims,
                        &params,
                        &mut pairs,
                    )
                    .is_ok()
                    {
                        data.pairs = pairs;
                    }
                }
                data.conv = Some(conv);
            }
            (Some(TypedLayer::DepthwiseConv2d), Options::DepthwiseConv2d(o)) => {
                let (kh, kw) =
                    match filter_dims(op.input(1).and_then(|k| self.model.tensor(k)))?.as_deref() {
                        Some(&[1, kh, kw, _]) => (kh, kw),
                        _ => return Err("its filter is not [1, kh, kw, c]".into()),
                    };
                let (sh, sw, dh, dw) = (
                    size(o.stride_h),
                    size(o.stride_w),
                    size(o.dilation_h),
                    size(o.dilation_w),
                );
                let (pad_top, pad_left) = axes(o.padding, (h, w), (kh, kw), (sh, sw), (dh, dw))?;
                let (lo, hi) = clamp(o.fused_activation)?;
                (data.filter, data.bias, data.multipliers) = weights(op)?;
                let depthwise = (
                    DepthwiseConvDims {
                        batches: 1,
                        input_height: h,
                        input_width: w,
                        input_depth: c,
                        filter_height: kh,
                        filter_width: kw,
                        depth_multiplier: oc / c.max(1),
                        output_height: oh,
                        output_width: ow,
                    },
                    DepthwiseConvParams {
                        stride_height: sh,
                        stride_width: sw,
                        dilation_height: dh,
                        dilation_width: dw,
                        pad_top,
                        pad_left,
                        input_zero_point,
                        output_zero_point,
                        multipliers: &[],
                        output_min: lo,
                        output_max: hi,
                        rounding: Rounding::Double,
                    },
                );
                // its groups of four channels set up once, for the DSP
                // loops' band calls (none where it does not take them)
                let (dims, params) = depthwise;
                let params = DepthwiseConvParams {
                    multipliers: &data.multipliers,
                    ..params
                };
                if dims.depth_multiplier == 1 && c % 4 == 0 {
                    let mut groups = vec![EMPTY_GROUP; c / 4];
                    if depthwise_prepare(
                        &data.filter,
                        data.bias.as_deref(),
                        dims,
                        &params,
                        &mut groups,
                    )
                    .is_ok()
                    {
                        data.groups = groups;
                    }
                }
                data.depthwise = Some(depthwise);
            }
            (Some(TypedLayer::AveragePool2d | TypedLayer::MaxPool2d), Options::Pool2d(o)) => {
                let (kh, kw, sh, sw) = (
                    size(o.filter_height),
                    size(o.filter_width),
                    size(o.stride_h),
                    size(o.stride_w),
                );
                let (pad_top, pad_left) = axes(o.padding, (h, w), (kh, kw), (sh, sw), (1, 1))?;
                let (lo, hi) = clamp(o.fused_activation)?;
                data.pool = Some((
                    PoolDims {
                        batches: 1,
                        input_height: h,
                        input_width: w,
                        depth: c,
                        filter_height: kh,
                        filter_width: kw,
                        output_height: oh,
                        output_width: ow,
                    },
                    PoolParams {
                        stride_height: sh,
                        stride_width: sw,
                        pad_top,
                        pad_left,
                        output_min: lo,
                        output_max: hi,
                    },
                ));
            }
            (Some(TypedLayer::Add), Options::Add(o)) => {
                let other = self.tensor(op.input(1), "input2", op)?;
                if dims(&other)? != dims(&input)? || (h, w, c) != (oh, ow, oc) {
                    return Err("its inputs and output are not of one shape".into());
                }
                let (other_scale, other_zero_point) = per_tensor(&other)?;
                let (lo, hi) = clamp(o.fused_activation)?;
                let params = add_params(
                    input_scale,
                    input_zero_point,
                    other_scale,
                    other_zero_point,
                    output_scale,
                    output_zero_point,
                    lo,
                    hi,
                )
                .map_err(|e| e.to_string())?;
                let over = match self.in_place.iter().find(|a| a.op == op.index()) {
                    Some(a) if a.operand == 0 => AddOver::Input1,
                    Some(_) => AddOver::Input2,
                    None => return Err("the schedule writes it over no input".into()),
                };
                data.add = Some((params, over, oh, ow * oc));
            }
            _ => return Err("it is not a convolution, depthwise convolution, pool or ADD".into()),
        }
        Ok(data)
    }

    /// A stage's constants as `static`s named from `prefix` (its filter,
    /// bias, multipliers and prepared set-up, each documented by `what`),
    /// and the `Stage { .. }` literal that refers to them.
    fn stage_tokens(
        &mut self,
        prefix: &str,
        what: &str,
        d: &StageData,
    ) -> Result<proc_macro2::TokenStream, String> {
        let krate = self.krate;
        let filter_name = format_ident!("{}_FILTER", prefix);
        let bias_name = format_ident!("{}_BIAS", prefix);
        let groups_name = format_ident!("{}_GROUPS", prefix);
        let mult_name = format_ident!("{}_MULTIPLIERS", prefix);
        let what = doc(what);
        let mut statics = Vec::new();
        if !d.filter.is_empty() {
            let values = d.filter.iter().map(|&v| Literal::i64_unsuffixed(v.into()));
            let len = Literal::usize_unsuffixed(d.filter.len());
            statics.push(quote!(#what pub static #filter_name: [i8; #len] = [#(#values),*];));
        }
        let bias = match &d.bias {
            Some(b) => {
                let values = b.iter().map(|&v| Literal::i64_unsuffixed(v.into()));
                let len = Literal::usize_unsuffixed(b.len());
                statics.push(quote!(#what pub static #bias_name: [i32; #len] = [#(#values),*];));
                quote!(Some(&#bias_name))
            }
            None => quote!(None),
        };
        if !d.multipliers.is_empty() {
            let values = d.multipliers.iter().map(|&m| multiplier_tokens(krate, m));
            let len = Literal::usize_unsuffixed(d.multipliers.len());
            statics.push(quote!(#what pub static #mult_name: [#krate::tflite::QuantizedMultiplier; #len] = [#(#values),*];));
        }
        let pairs_name = format_ident!("{}_PAIRS", prefix);
        let conv_prepared = if d.pairs.is_empty() {
            quote!(None)
        } else {
            let values = d.pairs.iter().map(|p| pair_tokens(krate, p));
            let len = Literal::usize_unsuffixed(d.pairs.len());
            statics.push(quote!(#what pub static #pairs_name: [#krate::tflite::ConvPairStage; #len] = [#(#values),*];));
            quote!(Some(&#pairs_name))
        };
        let prepared = if d.groups.is_empty() {
            quote!(None)
        } else {
            let values = d.groups.iter().map(|g| group_tokens(krate, g));
            let len = Literal::usize_unsuffixed(d.groups.len());
            statics.push(quote!(#what pub static #groups_name: [#krate::tflite::DepthwiseGroup; #len] = [#(#values),*];));
            quote!(Some(&#groups_name))
        };
        self.statics.extend(statics);
        let lit = Literal::usize_unsuffixed;
        let int = |v: i32| Literal::i64_unsuffixed(v.into());
        let t = quote!(#krate::tflite);
        Ok(match d.stage()? {
            Stage::Conv {
                dims: x, params: p, ..
            } => {
                let [b, h, w, c, kh, kw, oh, ow, oc] = [
                    x.batches,
                    x.input_height,
                    x.input_width,
                    x.input_depth,
                    x.filter_height,
                    x.filter_width,
                    x.output_height,
                    x.output_width,
                    x.output_depth,
                ]
                .map(lit);
                let [sh, sw, dh, dw, pt, pl] = [
                    p.stride_height,
                    p.stride_width,
                    p.dilation_height,
                    p.dilation_width,
                    p.pad_top,
                    p.pad_left,
                ]
                .map(lit);
                let [zi, zo, lo, hi] = [
                    p.input_zero_point,
                    p.output_zero_point,
                    p.output_min,
                    p.output_max,
                ]
                .map(int);
                quote!(#t::stream::Stage::Conv {
                    filter: &#filter_name,
                    bias: #bias,
                    prepared: #conv_prepared,
                    dims: #t::Conv2dDims { batches: #b, input_height: #h, input_width: #w, input_depth: #c, filter_height: #kh, filter_width: #kw, output_height: #oh, output_width: #ow, output_depth: #oc },
                    params: #t::Conv2dParams { stride_height: #sh, stride_width: #sw, dilation_height: #dh, dilation_width: #dw, pad_top: #pt, pad_left: #pl, input_zero_point: #zi, output_zero_point: #zo, multipliers: &#mult_name, output_min: #lo, output_max: #hi, rounding: #t::Rounding::Double },
                })
            }
            Stage::Depthwise {
                dims: x, params: p, ..
            } => {
                let [b, h, w, c, kh, kw, m, oh, ow] = [
                    x.batches,
                    x.input_height,
                    x.input_width,
                    x.input_depth,
                    x.filter_height,
                    x.filter_width,
                    x.depth_multiplier,
                    x.output_height,
                    x.output_width,
                ]
                .map(lit);
                let [sh, sw, dh, dw, pt, pl] = [
                    p.stride_height,
                    p.stride_width,
                    p.dilation_height,
                    p.dilation_width,
                    p.pad_top,
                    p.pad_left,
                ]
                .map(lit);
                let [zi, zo, lo, hi] = [
                    p.input_zero_point,
                    p.output_zero_point,
                    p.output_min,
                    p.output_max,
                ]
                .map(int);
                quote!(#t::stream::Stage::Depthwise {
                    filter: &#filter_name,
                    bias: #bias,
                    prepared: #prepared,
                    dims: #t::DepthwiseConvDims { batches: #b, input_height: #h, input_width: #w, input_depth: #c, filter_height: #kh, filter_width: #kw, depth_multiplier: #m, output_height: #oh, output_width: #ow },
                    params: #t::DepthwiseConvParams { stride_height: #sh, stride_width: #sw, dilation_height: #dh, dilation_width: #dw, pad_top: #pt, pad_left: #pl, input_zero_point: #zi, output_zero_point: #zo, multipliers: &#mult_name, output_min: #lo, output_max: #hi, rounding: #t::Rounding::Double },
                })
            }
            Stage::AveragePool { dims: x, params: p } | Stage::MaxPool { dims: x, params: p } => {
                let variant = if d.kind == Some(TypedLayer::MaxPool2d) {
                    format_ident!("MaxPool")
                } else {
                    format_ident!("AveragePool")
                };
                let [b, h, w, c, kh, kw, oh, ow] = [
                    x.batches,
                    x.input_height,
                    x.input_width,
                    x.depth,
                    x.filter_height,
                    x.filter_width,
                    x.output_height,
                    x.output_width,
                ]
                .map(lit);
                let [sh, sw, pt, pl] =
                    [p.stride_height, p.stride_width, p.pad_top, p.pad_left].map(lit);
                let [lo, hi] = [p.output_min, p.output_max].map(int);
                quote!(#t::stream::Stage::#variant {
                    dims: #t::PoolDims { batches: #b, input_height: #h, input_width: #w, depth: #c, filter_height: #kh, filter_width: #kw, output_height: #oh, output_width: #ow },
                    params: #t::PoolParams { stride_height: #sh, stride_width: #sw, pad_top: #pt, pad_left: #pl, output_min: #lo, output_max: #hi },
                })
            }
            Stage::Add {
                params,
                over,
                rows,
                row_len,
            } => {
                let params = add_params_tokens(krate, &params);
                let over = match over {
                    AddOver::Input1 => quote!(#t::AddOver::Input1),
                    _ => quote!(#t::AddOver::Input2),
                };
                let [rows, row_len] = [rows, row_len].map(lit);
                quote!(#t::stream::Stage::Add { params: #params, over: #over, rows: #rows, row_len: #row_len })
            }
            _ => return Err("a stage of an unknown kind".into()),
        })
    }

    /// Writes operator `op` over its input (the schedule's
    /// `LayerInPlace` `o`): its stage's constants, the layer checked here
    /// (`InPlaceLayer::new`), and its block of `predict`: its tensor and
    /// its scratch as two views of the arena (`Arena::write_rings`, which
    /// does not build when they overlap).
    pub(super) fn layer_in_place(
        &mut self,
        op: &Operator<'_>,
        o: LayerInPlace,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let i = op.index();
        let data = self.stage_data(op)?;
        let checked = InPlaceLayer::new(data.stage()?, o.band)
            .map_err(|e| format!("written over its input: {e}"))?;
        if checked.scratch_len() != o.scratch {
            return Err("its scratch is not the schedule's".into());
        }
        let what = format!(
            "Operator {i} ({}), written over its input {} output row(s) a call.",
            op.op(),
            o.band
        );
        let stage = self.stage_tokens(&format!("LAYER_{i}"), &what, &data)?;
        let name = format_ident!("LAYER_{}_IN_PLACE", i);
        let band = Literal::usize_unsuffixed(o.band);
        let layer_doc = doc(&format!(
            "Operator {i} ({}), written over its input with a scratch of {} values, {} output row(s) a call (checked by `InPlaceLayer::new` when `model!` expanded).",
            op.op(),
            o.scratch,
            o.band
        ));
        self.statics.push(quote! {
            #layer_doc
            pub static #name: #krate::tflite::stream::InPlaceLayer<'static> =
                #krate::tflite::stream::InPlaceLayer::prechecked(#stage, #band);
        });
        let input = self.tensor(op.input(0), "input", op)?;
        let output = self.tensor(op.output(0), "output", op)?;
        let source = self.var(&input)?;
        let at = match source.place {
            Place::Arena(at)
                if source.views.is_empty()
                    && source.base_dims.iter().product::<usize>() == checked.len() =>
            {
                at
            }
            _ => return Err("its input is not a whole tensor of the arena".into()),
        };
        if self.offsets.get(&output.index()) != Some(&at) {
            return Err("its output is not placed over its input".into());
        }
        let out_dims = dims(&output)?;
        if out_dims.iter().product::<usize>() != checked.output_len() {
            return Err("its output is not its layer's".into());
        }
        let scratch_at = *self
            .scratch_at
            .get(&i)
            .ok_or("its scratch has no place in the arena")?;
        let x_shape = shape_tokens(krate, &source.base_dims);
        let xa = Literal::usize_unsuffixed(at);
        let s_shape = shape_tokens(krate, &[o.scratch]);
        let sa = Literal::usize_unsuffixed(scratch_at);
        self.body.push(quote! {{
            let (mut x, mut scratch) = arena.write_rings::<#x_shape, #xa, #s_shape, #sa>();
            #module::#name.run_prechecked(x.as_mut_slice(), scratch.as_mut_slice());
        }});
        self.scratch_docs.push((i, o.scratch, scratch_at));
        self.wrote_in_arena(i, output.index(), at, out_dims);
        Ok(())
    }

    /// Writes streamed run `n` of the schedule, whose rings are at
    /// `rings_at` in the arena: its stages' constants, checked here, and
    /// its block of `predict`.
    pub(super) fn stream_run(
        &mut self,
        n: usize,
        run: &Run,
        rings_at: usize,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let ops: Vec<Operator<'_>> = run
            .ops
            .clone()
            .map(|k| {
                self.model
                    .operator(k)
                    .ok_or_else(|| format!("the run's operator {k} is not in the model"))
            })
            .collect::<Result<_, _>>()?;
        let data: Vec<StageData> = ops
            .iter()
            .map(|op| {
                self.stage_data(op).map_err(|e| {
                    format!(
                        "operator {} ({}), a streamed stage: {e}",
                        op.index(),
                        op.op()
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        let stages: Vec<Stage<'_>> = data
            .iter()
            .map(StageData::stage)
            .collect::<Result<_, _>>()?;
        let checked = StreamRun::new(&stages, &run.ring_rows, run.band)
            .map_err(|e| format!("streamed run {n} (operators {:?}): {e}", run.ops))?;
        let (input_len, output_len, rings_len) = (
            checked.input_len(),
            checked.output_len(),
            checked.scratch_len(),
        );
        let mut stage_tokens = Vec::new();
        for (k, (d, op)) in data.iter().zip(&ops).enumerate() {
            let what = format!(
                "Operator {} ({}), stage {k} of streamed run {n}.",
                op.index(),
                op.op()
            );
            stage_tokens.push(self.stage_tokens(&format!("RUN_{n}_STAGE_{k}"), &what, d)?);
        }
        let count = Literal::usize_unsuffixed(stage_tokens.len());
        let rings = run.ring_rows.iter().map(|&r| Literal::usize_unsuffixed(r));
        let ring_count = Literal::usize_unsuffixed(run.ring_rows.len());
        let band = Literal::usize_unsuffixed(run.band);
        let stages_name = format_ident!("RUN_{}_STAGES", n);
        let rings_name = format_ident!("RUN_{}_RINGS", n);
        let run_name = format_ident!("RUN_{}", n);
        let ends_in_add = match self.in_place.iter().find(|a| run.ops.contains(&a.op)) {
            Some(a) if Some(a.over) == ops.first().and_then(|o| o.input(0)) => format!(
                " Its last stage, operator {} (ADD), writes each band over the run's input, tensor {} (`StreamRun::check_over_input`: over rows the first stage reads no more).",
                a.op, a.over
            ),
            Some(a) => format!(
                " Its last stage, operator {} (ADD), writes each band over its other input, tensor {}, at the output's place.",
                a.op, a.over
            ),
            None => String::new(),
        };
        let run_doc = doc(&format!(
            "Streamed run {n}: operators {}..{} computed {} output row(s) at a time, rings of {:?} rows ({} {}: {:?}) between them (checked by `StreamRun::new` when `model!` expanded).{ends_in_add}",
            run.ops.start,
            run.ops.end,
            run.band,
            run.ring_rows,
            rings_len,
            "i8",
            run.ring_sizes,
        ));
        self.statics.push(quote! {
            #[doc = "The stages of the streamed run below."]
            pub static #stages_name: [#krate::tflite::stream::Stage<'static>; #count] = [#(#stage_tokens),*];
            #[doc = "The rows of each ring of the streamed run below."]
            pub static #rings_name: [usize; #ring_count] = [#(#rings),*];
            #run_doc
            pub static #run_name: #krate::tflite::stream::StreamRun<'static> =
                #krate::tflite::stream::StreamRun::prechecked(&#stages_name, &#rings_name, #band);
        });
        // predict's block: the run's input, output and rings as views
        let (Some(first), Some(last)) = (ops.first(), ops.last()) else {
            return Err("an empty streamed run".into());
        };
        let input = self.tensor(first.input(0), "input", first)?;
        let output = self.tensor(last.output(0), "output", last)?;
        let source = self.var(&input)?;
        let out_dims = dims(&output)?;
        let out_at = *self
            .offsets
            .get(&output.index())
            .ok_or("the run's output has no place in the arena")?;
        if out_dims.iter().product::<usize>() != output_len
            || source.base_dims.iter().product::<usize>() != input_len
        {
            return Err("the run's input or output is not its stages'".into());
        }
        let y_shape = shape_tokens(krate, &out_dims);
        let ya = Literal::usize_unsuffixed(out_at);
        let r_shape = shape_tokens(krate, &[rings_len]);
        let ra = Literal::usize_unsuffixed(rings_at);
        // an ADD at the run's end writes over its skip: the run's input, or
        // a whole tensor at the output's place
        let over = self
            .in_place
            .iter()
            .find(|a| a.op == last.index())
            .map(|a| a.over);
        let over_input = over.is_some() && over == first.input(0);
        if over_input && !matches!(source.place, Place::Arena(_)) {
            return Err("the run's ADD writes over an input not in the arena".into());
        }
        if let Some(skip) = over.filter(|_| !over_input) {
            let skip = self
                .model
                .tensor(skip)
                .ok_or("the run's ADD writes over no tensor")?;
            let v = self.var(&skip)?;
            if v.place != Place::Arena(out_at) || !v.views.is_empty() || v.base_dims != out_dims {
                return Err(
                    "the run's ADD's skip is not a whole tensor at its output's place".into(),
                );
            }
        }
        let call = match source.place {
            Place::Arena(at) if over_input => {
                checked
                    .check_over_input()
                    .map_err(|e| format!("streamed run {n} (operators {:?}): {e}", run.ops))?;
                if at != out_at || !source.views.is_empty() || source.base_dims != out_dims {
                    return Err("the run's ADD does not write over its whole input".into());
                }
                quote! {{
                    let (mut y, mut rings) = arena.write_rings::<#y_shape, #ya, #r_shape, #ra>();
                    #module::#run_name.run_over_input_prechecked(y.as_mut_slice(), rings.as_mut_slice());
                }}
            }
            Place::Arena(at) => {
                let x_shape = shape_tokens(krate, &source.base_dims);
                let xa = Literal::usize_unsuffixed(at);
                quote! {{
                    let (x, mut y, mut rings) = arena.read_write_rings::<#x_shape, #xa, #y_shape, #ya, #r_shape, #ra>();
                    #module::#run_name.run_prechecked(x.as_slice(), rings.as_mut_slice(), y.as_mut_slice());
                }}
            }
            Place::Input => quote! {{
                let (mut y, mut rings) = arena.write_rings::<#y_shape, #ya, #r_shape, #ra>();
                #module::#run_name.run_prechecked(input.as_slice(), rings.as_mut_slice(), y.as_mut_slice());
            }},
            Place::Output => return Err("a streamed run reads the model's output".into()),
        };
        self.body.push(call);
        self.ring_docs
            .push((n, run.ops.clone(), rings_len, rings_at));
        self.wrote_in_arena(last.index(), output.index(), out_at, out_dims);
        Ok(())
    }
}
