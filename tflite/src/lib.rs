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

mod add;
mod arg_min_max;
mod array;
mod batch_matmul;
mod bytes;
// the generated code's interface (model!), not an API
#[doc(hidden)]
pub mod compiled;
mod concat;
mod conv;
mod depth_space;
mod depthwise_conv;
mod dims;
mod div;
// what the kernels' SMLAD loops share (each kernel's own loops are its
// `dsp` module, beside its portable loop): used on the target with the
// DSP extension (`cfg(shapecheck_dsp)`, set by build.rs) and by the unit
// tests, which run the loops' plain-Rust twins on the host against
// `reference`; elsewhere only the depthwise layers' set-up
// (`depthwise_prepare`, which `model!` runs on the host) is used
#[cfg_attr(not(any(shapecheck_dsp, test)), allow(dead_code))]
#[allow(unsafe_code)]
mod dsp;
// the band kernels' DSP path on the host, against the whole-tensor kernels
#[cfg(test)]
mod band_dsp_tests;
mod elementwise;
mod elu;
mod error;
mod exp;
mod expand_dims;
mod flatbuffer;
mod float_math;
mod float_ops;
mod fully_connected;
mod gather;
mod hard_swish;
mod interpreter;
mod l2_normalization;
mod layout;
mod leaky_relu;
mod log_softmax;
mod logistic;
mod maximum_minimum;
mod mean;
mod mirror_pad;
mod model;
mod mul;
mod neg;
mod ops;
mod options;
mod pad;
#[cfg(feature = "alloc")]
pub mod plan;
mod pool;
mod prelu;
mod quant;
mod quantize;
mod reduce;
// the kernels written plainly, the one reference of the host's and the
// firmware's tests (issue 69); not an API: feature `reference`
#[cfg(any(test, feature = "reference"))]
#[doc(hidden)]
pub mod reference;
mod relu;
mod requantize;
mod reshape;
mod resize;
mod rsqrt;
#[cfg(feature = "alloc")]
pub mod schedule;
mod slice;
mod softmax;
mod split;
mod squared_difference;
pub mod stream;
mod sub;
mod tanh;
mod transpose;
mod transpose_conv;
mod types;
mod values;
mod window;

pub use add::{
    add_f32, add_int16, add_int8, add_int8_in_place, add_int8_in_place_prechecked,
    add_int8_prechecked, add_params, add_params_int16, broadcast_shape, AddOver, AddParams,
};
pub use array::{Array, ArrayIter, LeNumber};
pub use concat::{
    concatenation, concatenation_dim, concatenation_output_shape, concatenation_params,
    concatenation_prechecked, pack, pack_output_shape, pack_params, ConcatenationOptions,
    ConcatenationParams, PackOptions, PackParams, MAX_JOINED,
};
pub use conv::{
    conv_1x1_prepare, conv_2d_int16, conv_2d_int8, conv_2d_int8_band, conv_2d_int8_band_prepared,
    conv_2d_int8_prechecked, Conv2dDims, Conv2dParams, ConvPairStage,
};
pub use depth_space::{
    depth_space_params, depth_to_space, depth_to_space_output_shape, space_to_depth,
    space_to_depth_output_shape, BlockSizeOptions, DepthSpaceParams,
};
pub use depthwise_conv::{
    conv_axis, depthwise_conv_int16, depthwise_conv_int8, depthwise_conv_int8_band,
    depthwise_conv_int8_band_prepared, depthwise_conv_int8_prechecked, depthwise_prepare, ConvAxis,
    DepthwiseConvDims, DepthwiseConvParams, DepthwiseGroup,
};
pub use elu::{elu_f32, elu_value};
pub use error::{Name, OperandProblem, Place, TfliteError};
pub use exp::{exp_f32, exp_value};
pub use expand_dims::{
    expand_dims, expand_dims_output_shape, expand_dims_params, ExpandDimsParams,
};
pub use float_ops::{mean_f32, mul_f32, rsqrt_f32, rsqrt_value, squared_difference_f32, sub_f32};
pub use fully_connected::{
    activation_range_f32, activation_range_int16, activation_range_int8, fully_connected_f32,
    fully_connected_f32_prechecked, fully_connected_int16, fully_connected_int8,
    fully_connected_int8_accumulate, fully_connected_int8_finish, fully_connected_int8_prechecked,
    fully_connected_multiplier, FullyConnectedDims, FullyConnectedParams,
};
pub use gather::{gather, gather_output_shape, gather_params, GatherOptions, GatherParams};
pub use interpreter::{
    Arena, ArenaSizes, Arithmetic, Interpreter, PreparedSizes, PreparedStep, TensorData,
};
#[cfg(feature = "alloc")]
pub use interpreter::{Layout, Plan};
pub use logistic::{
    logistic_int16, logistic_int8, logistic_int8_prechecked, logistic_params,
    logistic_params_int16, LogisticInt16Params, LogisticParams,
};
pub use mean::{mean_int8, mean_int8_prechecked, mean_params, MeanParams};
pub use mirror_pad::{
    mirror_pad, mirror_pad_params, MirrorPadMode, MirrorPadOptions, MirrorPadParams,
};
pub use model::{Model, ModelTensor, Operator, Quantization};
pub use neg::neg_f32;
pub use ops::{op_row, OpRow, OpShape, OptionsTable, TypedLayer, MAX_DIMS, OPS};
pub use options::{
    AddOptions, Conv2dOptions, DepthwiseConv2dOptions, FullyConnectedOptions, Options,
    Pool2dOptions, ReducerOptions, ReshapeOptions, SoftmaxOptions,
};
pub use pad::{pad, pad_output_shape, pad_prechecked, padv2_params, PadV2Params};
pub use pool::{
    average_pool_int16, average_pool_int8, average_pool_int8_band, average_pool_int8_prechecked,
    max_pool_int16, max_pool_int8, max_pool_int8_band, max_pool_int8_prechecked, PoolDims,
    PoolParams,
};
pub use quant::{
    multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_int64, quantize_multiplier,
    rounding_divide_by_pot, saturating_rounding_doubling_high_mul, QuantizedMultiplier, Rounding,
};
pub use quantize::{
    dequantize_int16, dequantize_int8, dequantize_value, dequantize_value_int16, quantize_int16,
    quantize_int8, quantize_value, quantize_value_int16,
};
pub use reshape::{reshape, reshape_dims};
pub use slice::{
    slice, slice_ends_within, slice_output_shape, slice_params, slice_prechecked, strided_slice,
    strided_slice_output_shape, strided_slice_params, SliceParams, StridedSliceOptions,
    StridedSliceParams, MAX_SLICE_RANK,
};
pub use softmax::{
    softmax_int16, softmax_int8, softmax_int8_prechecked, softmax_params, softmax_params_int16,
    SoftmaxInt16Params, SoftmaxParams,
};
pub use split::{
    split, split_output_shape, split_params, split_piece, split_prechecked, split_v_params, unpack,
    unpack_output_shape, unpack_params, SplitOptions, SplitParams, SplitVOptions, UnpackOptions,
    UnpackParams, MAX_SPLITS,
};
pub use transpose::{transpose, transpose_output_shape, transpose_params, TransposeParams};
pub use types::{Activation, BuiltinOp, Padding, TensorType, WeightsFormat};
pub use values::Values;

// element-wise ops: MUL, SUB, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE,
// RELU, RELU6, LEAKY_RELU, PRELU, HARD_SWISH, TANH, RSQRT, int8 QUANTIZE
pub use div::{div_int8, div_params, DivOptions, DivParams};
pub use hard_swish::{hard_swish_int8, hard_swish_params, HardSwishParams};
pub use leaky_relu::{leaky_relu_int8, leaky_relu_params, LeakyReluOptions, LeakyReluParams};
pub use maximum_minimum::{maximum, minimum};
pub use mul::{
    mul_int16, mul_int8, mul_int8_prechecked, mul_params, mul_params_int16, MulOptions, MulParams,
};
pub use prelu::{prelu_int8, prelu_params, PreluParams};
pub use relu::{relu6_int8, relu6_params, relu_int8, relu_params, Relu6Params, ReluParams};
pub use requantize::{
    requantize_int16, requantize_int8, requantize_params, requantize_params_int16, RequantizeParams,
};
pub use rsqrt::{rsqrt_int8, rsqrt_params, RsqrtParams};
pub use squared_difference::{
    squared_difference_int8, squared_difference_params, SquaredDifferenceParams,
};
pub use sub::{sub_int8, sub_params, SubOptions, SubParams};
pub use tanh::{
    tanh_int16, tanh_int8, tanh_params, tanh_params_int16, TanhInt16Params, TanhParams,
};
// the reductions, arg max / min, resizes, transposed convolution, batch
// matrix product, log softmax and L2 normalization
pub use arg_min_max::{
    arg_max, arg_min, arg_min_max_dims, arg_min_max_output_shape, ArgMinMaxDims, ArgMinMaxOptions,
};
pub use batch_matmul::{
    batch_matmul_int8, batch_matmul_output_shape, batch_matmul_params, BatchMatMulOptions,
    BatchMatMulParams,
};
pub use l2_normalization::{
    l2_normalization_int8, l2_normalization_params, L2NormOptions, L2NormalizationParams,
};
pub use log_softmax::{
    log_softmax_int8, log_softmax_params, LogSoftmaxParams, LOG_SOFTMAX_OUTPUT_SCALE,
    LOG_SOFTMAX_OUTPUT_ZERO_POINT,
};
pub use reduce::{
    mean_or_sum_int16, mean_or_sum_int8, reduce_axes, reduce_max, reduce_min, reduce_output_shape,
    sum_params, ReduceAxes,
};
pub use resize::{
    resize_bilinear_int8, resize_bilinear_int8_prechecked, resize_nearest_neighbor,
    resize_nearest_neighbor_prechecked, resize_output_shape, resize_params, ResizeDims,
    ResizeOptions, ResizeParams, RESIZE_SIZE_LIMIT,
};
pub use transpose_conv::{
    transpose_conv_int8, transpose_conv_int8_prechecked, transpose_conv_output_shape,
    transpose_conv_params, TransposeConvDims, TransposeConvOptions, TransposeConvParams,
};
