//! A reader of TensorFlow Lite (`.tflite`) models, zero-copy and `no_std`,
//! and TFLite's int8 requantization arithmetic.
//!
//! [`Model::parse`] reads a model in place from its bytes (a FlatBuffer of
//! TFLite's `schema.fbs`, read by hand for the part of the schema a model
//! of plain layers uses) and checks every offset, length and index once;
//! afterwards its [`ModelTensor`]s (name, shape, type, constant data,
//! quantization) and [`Operator`]s (builtin op, tensor indices, options)
//! are read without errors. A malformed file is a [`TfliteError`] naming
//! what is wrong and where, never a panic.
//!
//! [`quantize_multiplier`] and [`multiply_by_quantized_multiplier`] are
//! TFLite's fixed-point requantization, with the single rounding of the
//! TFLite interpreter and the double rounding of TFLite Micro
//! ([`Rounding`]). TFLite's kernels, on slices and bit for bit, are built
//! on them: [`fully_connected_int8`], [`fully_connected_f32`],
//! [`depthwise_conv_int8`] and [`conv_2d_int8`] (with [`conv_axis`],
//! TFLite's padding), [`average_pool_int8`], [`max_pool_int8`],
//! [`mean_int8`] (the spatial mean), [`softmax_int8`] (TFLite Micro's fixed
//! point) and [`reshape`]; and, as TFLite Micro computes them,
//! [`add_int8`] (with numpy's broadcasting, [`broadcast_shape`]), [`pad`],
//! [`logistic_int8`], [`quantize_int8`] and [`dequantize_int8`]; the
//! element-wise ops, broadcast as `ADD` ([`mul_int8`], [`sub_int8`],
//! [`div_int8`], [`squared_difference_int8`], [`prelu_int8`], and
//! [`maximum`] and [`minimum`] for any element type) or one input to one
//! output ([`relu_int8`], [`relu6_int8`] (TFLite Micro's clamp without
//! rescaling), [`leaky_relu_int8`], [`hard_swish_int8`], [`tanh_int8`],
//! [`rsqrt_int8`] and [`requantize_int8`], the int8 → int8 `QUANTIZE`); in f32,
//! as TFLite Micro's float kernels compute them (the float ops of a float
//! island between int8 ones, or of a float32 model), [`elu_f32`],
//! [`exp_f32`], [`neg_f32`], [`rsqrt_f32`], [`add_f32`], [`sub_f32`],
//! [`mul_f32`], [`squared_difference_f32`] and [`mean_f32`].
//! Also in f32: [`div_f32`], [`reduce_max_f32`], [`resize_bilinear_f32`]
//! and [`batch_matmul_f32`] (and [`maximum`], [`minimum`],
//! [`resize_nearest_neighbor`] and [`concatenation`] on f32 slices);
//! and the f32 activations, [`softmax_f32`], [`log_softmax_f32`], [`logistic_f32`],
//! [`tanh_f32`], [`relu_f32`], [`relu6_f32`], [`hard_swish_f32`],
//! [`leaky_relu_f32`], [`prelu_f32`] and [`l2_normalization_f32`].
//! The ops that move data copy TFLite Micro's values on any element type:
//! [`concatenation`], [`pack`], [`split`] (`SPLIT`, `SPLIT_V`), [`unpack`],
//! [`slice`](fn@slice), [`strided_slice`], [`transpose`], [`expand_dims`],
//! [`gather`], [`depth_to_space`], [`space_to_depth`], [`mirror_pad`] and
//! `PADV2` ([`pad`] with [`padv2_params`]' value). Each op's
//! quantization arithmetic, from the tensors' float scales to the kernel's
//! constants, is one function ([`add_params`], [`logistic_params`],
//! [`mean_params`], [`softmax_params`], ...). [`OPS`] is the table of the
//! ops the interpreter and `model!` run, each with its shape rule.
//!
//! [`Interpreter`] runs a parsed model op by op with those kernels, over
//! buffers the caller gives (no heap), reading the weights in place:
//!
//! ```
//! use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model, TensorData};
//!
//! let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite"));
//! let model = Model::parse(bytes)?;
//! let mut activations = [0f32; 34]; // Interpreter::arena_sizes(&model)?.float32
//! let arena = Arena { int8: &mut [], float32: &mut activations, multipliers: &mut [], ..Arena::default() };
//! let mut interpreter = Interpreter::new(model, arena, Arithmetic::Micro)?;
//! interpreter.set_input(0, TensorData::Float32(&[0.5]))?;
//! interpreter.invoke()?;
//! let Some(TensorData::Float32(&[y])) = interpreter.output(0) else { unreachable!() };
//! assert!((y - 0.5f32.sin()).abs() < 0.05);
//! # Ok::<(), shapecheck_tflite::TfliteError>(())
//! ```
//!
//! ```
//! use shapecheck_tflite::{BuiltinOp, Model, Options};
//!
//! let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite"));
//! let model = Model::parse(bytes)?;
//! for op in model.operators() {
//!     let output = model.tensor(op.output(0).unwrap()).unwrap();
//!     println!("{} -> {:?} {}", op.op(), output.shape(), output.dtype());
//! }
//! let conv = model.operator(1).unwrap();
//! assert_eq!(conv.op(), BuiltinOp::DEPTHWISE_CONV_2D);
//! let filter = model.tensor(conv.input(1).unwrap()).unwrap();
//! assert_eq!(filter.quantization().unwrap().scales().len(), 8); // per channel
//! assert!(matches!(conv.options(), Options::DepthwiseConv2d(_)));
//! # Ok::<(), shapecheck_tflite::TfliteError>(())
//! ```
#![no_std]
// `deny`, not `forbid`: the two exceptions are the DSP loops (the Cortex-M
// DSP extension's SMLAD loops in `asm!`: `dsp`, what they share, and each
// kernel's own `conv::dsp`, `depthwise_conv::dsp`, `fully_connected::dsp`,
// `#[allow(unsafe_code)]` on those modules alone; see `dsp`'s
// documentation, and `tflite/tests/architecture.rs`) and `bytes::as_i8` (an
// int8 constant's bytes as `i8`, one line). Everything else stays without `unsafe`.
#![deny(unsafe_code)]
#![deny(missing_docs)]
#![warn(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
// Unit tests inside the library may unwrap: a failed unwrap there is a failed test.
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

#[cfg(feature = "alloc")]
extern crate alloc;

// The layers, from the bottom up (ARCHITECTURE.md's code map): a module
// imports only from its own layer's shared modules and the layers below
// it (`tests/layers.rs` checks it).
// 1. what everything uses: bytes, little-endian arrays, the code writer
mod base;
// 2. the file format: flatbuffer reading, the model view, op codes,
//    element types, errors
mod format;
// 3. the arithmetic: quantization, activation ranges, dims, windows, the
//    float routines, what the DSP loops share
pub(crate) mod arith;
// 4. the kernel interface: what an op's preparation and step see
mod kernel;
// 5. what several ops share
mod shared;
// 6. the ops, one module each
mod ops;
// the kernels written plainly, over the ops' parameter types: the one
// reference of the host's and the firmware's tests (issue 69), imported by
// no module of the library; not an API: feature `reference`
#[cfg(any(test, feature = "reference"))]
#[doc(hidden)]
pub mod reference;
// 7. the registry: the one list of ops
mod registry;
// 8. the interpreter, the planner and `model!`'s support
mod runtime;

// the generated code's interface (model!), not an API
#[doc(hidden)]
pub use runtime::compiled;
pub use runtime::plan;
#[cfg(feature = "alloc")]
pub use runtime::schedule;
pub use runtime::stream;

pub use arith::activation::{
    activation_range_f32, activation_range_int16, activation_range_int8,
    fully_connected_multiplier, quantize_value, quantize_value_int16,
};
pub use arith::quant::{
    multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_int64, quantize_multiplier,
    rounding_divide_by_pot, saturating_rounding_doubling_high_mul, QuantizedMultiplier, Rounding,
};
pub use arith::window::{conv_axis, ConvAxis};
pub use format::array::{Array, ArrayIter, LeNumber};
pub use format::error::{Name, OperandProblem, Place, TfliteError};
pub use format::model::{Model, ModelTensor, Operator, Quantization};
pub use format::types::{Activation, BuiltinOp, Padding, TensorType, WeightsFormat};
pub use format::values::{F32Constant, Values};
pub use kernel::shape::{OpShape, MAX_DIMS};
pub use ops::abs::{abs_f32, abs_int8, abs_params, AbsParams};
pub use ops::add::{
    add_f32, add_int16, add_int8, add_int8_in_place, add_int8_in_place_prechecked,
    add_int8_prechecked, add_params, add_params_int16, AddOver, AddParams,
};
pub use ops::concat::{
    concatenation, concatenation_dim, concatenation_output_shape, concatenation_params,
    concatenation_prechecked, pack, pack_output_shape, pack_params, ConcatenationOptions,
    ConcatenationParams, PackOptions, PackParams, MAX_JOINED,
};
pub use ops::conv::depthwise_conv::{
    depthwise_conv_int16, depthwise_conv_int8, depthwise_conv_int8_band,
    depthwise_conv_int8_band_prepared, depthwise_conv_int8_prechecked, depthwise_prepare,
    DepthwiseConvDims, DepthwiseConvParams, DepthwiseGroup,
};
pub use ops::conv::fully_connected::{
    fully_connected_f32, fully_connected_f32_prechecked, fully_connected_int16,
    fully_connected_int8, fully_connected_int8_accumulate, fully_connected_int8_finish,
    fully_connected_int8_prechecked, FullyConnectedDims, FullyConnectedParams,
};
pub use ops::conv::{
    conv_1x1_prepare, conv_2d_int16, conv_2d_int8, conv_2d_int8_band, conv_2d_int8_band_prepared,
    conv_2d_int8_prechecked, conv_2d_int8_prepared_prechecked, conv_prepare, Conv2dDims,
    Conv2dParams, ConvPairStage,
};
pub use ops::depth_space::{
    depth_space_params, depth_to_space, depth_to_space_output_shape, space_to_depth,
    space_to_depth_output_shape, BlockSizeOptions, DepthSpaceParams,
};
pub use ops::elu::{elu_f32, elu_value};
pub use ops::exp::{exp_f32, exp_value};
pub use ops::gather::{gather, gather_output_shape, gather_params, GatherOptions, GatherParams};
pub use ops::logistic::{
    logistic_int16, logistic_int8, logistic_int8_prechecked, logistic_params,
    logistic_params_int16, LogisticInt16Params, LogisticParams,
};
pub use ops::mul::mul_f32;
pub use ops::neg::neg_f32;
pub use ops::pad::mirror_pad::{
    mirror_pad, mirror_pad_params, MirrorPadMode, MirrorPadOptions, MirrorPadParams,
};
pub use ops::pad::{pad, pad_output_shape, pad_prechecked, padv2_params, PadV2Params};
pub use ops::pool::{
    average_pool_int16, average_pool_int8, average_pool_int8_band, average_pool_int8_prechecked,
    max_pool_int16, max_pool_int8, max_pool_int8_band, max_pool_int8_prechecked, PoolDims,
    PoolParams,
};
pub use ops::quantize::{
    dequantize_int16, dequantize_int8, dequantize_value, dequantize_value_int16, quantize_int16,
    quantize_int8,
};
pub use ops::reduce::mean::{mean_int8, mean_int8_prechecked, mean_params, MeanParams};
pub use ops::reduce::mean_f32;
pub use ops::reshape::expand_dims::{
    expand_dims, expand_dims_output_shape, expand_dims_params, ExpandDimsParams,
};
pub use ops::reshape::{reshape, reshape_dims};
pub use ops::rsqrt::{rsqrt_f32, rsqrt_value};
pub use ops::slice::{
    slice, slice_ends_within, slice_output_shape, slice_params, slice_prechecked, strided_slice,
    strided_slice_output_shape, strided_slice_params, SliceParams, StridedSliceOptions,
    StridedSliceParams, MAX_SLICE_RANK,
};
pub use ops::softmax::{
    softmax_int16, softmax_int8, softmax_int8_prechecked, softmax_params, softmax_params_int16,
    SoftmaxInt16Params, SoftmaxParams,
};
pub use ops::split::{
    split, split_output_shape, split_params, split_piece, split_prechecked, split_v_params, unpack,
    unpack_output_shape, unpack_params, SplitOptions, SplitParams, SplitVOptions, UnpackOptions,
    UnpackParams, MAX_SPLITS,
};
pub use ops::square::square_f32;
pub use ops::squared_difference::squared_difference_f32;
pub use ops::sub::sub_f32;
pub use ops::transpose::{transpose, transpose_output_shape, transpose_params, TransposeParams};
pub use registry::options::{
    AddOptions, Conv2dOptions, DepthwiseConv2dOptions, FullyConnectedOptions, Options,
    Pool2dOptions, ReducerOptions, ReshapeOptions, SoftmaxOptions,
};
pub use registry::{op_row, OpRow, OptionsTable, TypedLayer, OPS};
#[cfg(feature = "alloc")]
pub use runtime::interpreter::Plan;
pub use runtime::interpreter::{
    Arena, ArenaSizes, Arithmetic, Interpreter, Layout, PlannedBuffers, PlannedSizes,
    PreparedSizes, PreparedStep, TensorData,
};
pub use shared::broadcast::broadcast_shape;

// element-wise ops: MUL, SUB, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE,
// RELU, RELU6, LEAKY_RELU, PRELU, HARD_SWISH, TANH, RSQRT, int8 QUANTIZE
pub use ops::div::{div_int8, div_params, DivOptions, DivParams};
pub use ops::hard_swish::{hard_swish_int8, hard_swish_params, HardSwishParams};
pub use ops::leaky_relu::{leaky_relu_int8, leaky_relu_params, LeakyReluOptions, LeakyReluParams};
pub use ops::logistic::tanh::{
    tanh_int16, tanh_int8, tanh_params, tanh_params_int16, TanhInt16Params, TanhParams,
};
pub use ops::maximum_minimum::{maximum, minimum};
pub use ops::mul::{
    mul_int16, mul_int8, mul_int8_prechecked, mul_params, mul_params_int16, MulOptions, MulParams,
};
pub use ops::prelu::{prelu_int8, prelu_params, PreluParams};
pub use ops::quantize::requantize::{
    requantize_int16, requantize_int8, requantize_params, requantize_params_int16, RequantizeParams,
};
pub use ops::relu::{relu6_int8, relu6_params, relu_int8, relu_params, Relu6Params, ReluParams};
pub use ops::rsqrt::{rsqrt_int8, rsqrt_params, RsqrtParams};
pub use ops::squared_difference::{
    squared_difference_int8, squared_difference_params, SquaredDifferenceParams,
};
pub use ops::sub::{sub_int8, sub_params, SubOptions, SubParams};
// the reductions, arg max / min, resizes, transposed convolution, batch
// matrix product, log softmax and L2 normalization
pub use ops::arg_min_max::{
    arg_max, arg_min, arg_min_max_dims, arg_min_max_output_shape, ArgMinMaxDims, ArgMinMaxOptions,
};
pub use ops::batch_matmul::{
    batch_matmul_int8, batch_matmul_output_shape, batch_matmul_params, BatchMatMulOptions,
    BatchMatMulParams,
};
pub use ops::l2_normalization::{
    l2_normalization_int8, l2_normalization_params, L2NormOptions, L2NormalizationParams,
};
pub use ops::reduce::{
    mean_or_sum_int16, mean_or_sum_int8, reduce_axes, reduce_max, reduce_min, reduce_output_shape,
    sum_params, ReduceAxes,
};
pub use ops::resize::{
    resize_bilinear_int8, resize_bilinear_int8_prechecked, resize_nearest_neighbor,
    resize_nearest_neighbor_prechecked, resize_output_shape, resize_params, ResizeDims,
    ResizeOptions, ResizeParams, RESIZE_SIZE_LIMIT,
};
pub use ops::softmax::log_softmax::{
    log_softmax_int8, log_softmax_params, LogSoftmaxParams, LOG_SOFTMAX_OUTPUT_SCALE,
    LOG_SOFTMAX_OUTPUT_ZERO_POINT,
};
pub use ops::transpose_conv::{
    transpose_conv_int8, transpose_conv_int8_prechecked, transpose_conv_output_shape,
    transpose_conv_params, TransposeConvDims, TransposeConvOptions, TransposeConvParams,
};
// the f32 convolutions and pools
pub use ops::conv::depthwise_conv::depthwise_conv_f32;
pub use ops::conv::{conv_2d_f32, ConvF32Params};
pub use ops::pool::{average_pool_f32, max_pool_f32, PoolF32Params};
pub use ops::transpose_conv::{transpose_conv_f32, TransposeConvF32Params};

// the float32 kernels of issue 79's misc ops: DIV, REDUCE_MAX,
// RESIZE_BILINEAR, BATCH_MATMUL (MAXIMUM, MINIMUM, CONCATENATION and
// RESIZE_NEAREST_NEIGHBOR run f32 through their generic kernels)
pub use ops::batch_matmul::batch_matmul_f32;
pub use ops::div::div_f32;
pub use ops::reduce::reduce_max_f32;
pub use ops::resize::resize_bilinear_f32;

// the f32 activations of a float32 model (issue 79)
pub use ops::hard_swish::{hard_swish_f32, hard_swish_value};
pub use ops::l2_normalization::{l2_normalization_f32, L2_NORMALIZATION_EPSILON};
pub use ops::leaky_relu::{leaky_relu_f32, leaky_relu_value};
pub use ops::logistic::tanh::{tanh_f32, tanh_value};
pub use ops::logistic::{logistic_f32, logistic_value};
pub use ops::prelu::{prelu_f32, prelu_value};
pub use ops::relu::{relu6_f32, relu6_value, relu_f32, relu_value};
pub use ops::softmax::log_softmax::log_softmax_f32;
pub use ops::softmax::softmax_f32;

/// The examples of README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
