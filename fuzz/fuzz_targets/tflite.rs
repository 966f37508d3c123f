//! The `.tflite` reader (`shapecheck_tflite::Model::parse`) on arbitrary
//! bytes, and on the test models (sine, speech, person detection and the 39
//! one-op models of `tflite/tests/ops/`) with bytes overwritten and cut off
//! where the input says; every accessor is then walked.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a rejection is
//! an error whose message is not empty; an accepted model keeps every
//! promise `parse` makes: each tensor's element count is its shape's
//! product, each constant buffer holds exactly those elements, scales and
//! zero points pair up and run along an axis of their count, every operator
//! and subgraph tensor index is a tensor (or -1 for an absent optional
//! input), every op code is one the schema names, every decoded stride,
//! dilation and pool window is at least 1, and every accessor past the end
//! is `None`.
//!
//! An accepted model is then run by the `Interpreter` (when its arena,
//! `Interpreter::arena_sizes`, is a few MB at most) on inputs made of the
//! fuzz input's bytes, with each arithmetic: `new`, `set_input` and
//! `invoke` return an error or succeed, never panic, and an error's message
//! is not empty; after a successful `invoke` every output is there. The
//! same with `Interpreter::prepared` (every operator prepared once into
//! buffers of `Interpreter::prepared_sizes`), which gives `new`'s error or
//! its outputs, bit for bit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    Arena, ArenaSizes, Arithmetic, BuiltinOp, Interpreter, Model, Options, PreparedStep,
    QuantizedMultiplier, TensorData, TensorType,
};

/// The most activation elements (and multipliers) a fuzzed model is run
/// with: larger ones are checked for their sizes only.
const MAX_ELEMENTS: usize = 1 << 20;

/// The most work (multiply-accumulates, as [`work`] estimates them) of a
/// fuzzed model run on every input with each arithmetic: speech (343,844)
/// is. A model of up to 16 times that, person detection (7.2 M) among
/// them, is run with one arithmetic when it is a test model patched by the
/// input, on one input in 64 ([`selected`]), and is only parsed and checked
/// otherwise: with the sanitizer person detection's `invoke` takes 0.3 to
/// 0.6 s here, and its `Interpreter::new` tens of ms (each operand's arena
/// slot reads every tensor before it), which on every input would leave
/// the small models few runs (its raw bytes, a seed, fill much of the
/// corpus). Each of its ops is in one of the one-op models, which run on
/// every input.
const MAX_WORK: u128 = 1 << 21;

/// An estimate of one `invoke`'s work, above what the kernels do: for each
/// operator, its output's elements times the most any output reads: the
/// filter's or weights' elements per output channel (a convolution's
/// `H · W · I`, a depthwise one's `H · W`, a fully connected layer's
/// inputs), the input's elements per output (a mean, a reshape), or a
/// pool's window (at most the input).
fn work(model: &Model<'_>) -> u128 {
    let tensor = |i: Option<usize>| i.and_then(|i| model.tensor(i));
    let elements = |i: Option<usize>| tensor(i).map_or(0, |t| t.elements() as u128);
    model
        .operators()
        .map(|o| {
            let out = elements(o.output(0)).max(1);
            let channels = tensor(o.output(0))
                .and_then(|t| t.shape().iter().last())
                .and_then(|d| u128::try_from(d).ok())
                .unwrap_or(1)
                .max(1);
            let (in0, in1) = (elements(o.input(0)), elements(o.input(1)));
            let window = match o.options() {
                Options::Pool2d(p) => {
                    let side = |v: i32| u128::try_from(v).unwrap_or(0);
                    (side(p.filter_width) * side(p.filter_height)).min(in0)
                }
                _ => 1,
            };
            let per_output = (in1 / channels).max(in0.div_ceil(out)).max(window).max(1);
            out.saturating_mul(per_output)
        })
        .fold(0, u128::saturating_add)
}

/// Whether a large model (see [`MAX_WORK`]) runs on `fill`: on one in 64
/// (by the sum of its bytes, which any change to them moves).
fn selected(fill: &[u8]) -> bool {
    !fill.is_empty() && fill.iter().fold(0u8, |sum, &b| sum.wrapping_add(b)) % 64 == 7
}

/// Runs `model` with each arithmetic (a large one only when `large`: see
/// [`MAX_WORK`]), on inputs whose values are the bytes of `fill` over and
/// over (zeros when it is empty).
fn run(model: Model<'_>, fill: &[u8], large: bool) {
    let Ok(sizes) = Interpreter::arena_sizes(&model) else {
        return;
    };
    if sizes.int8 > MAX_ELEMENTS || sizes.float32 > MAX_ELEMENTS || sizes.multipliers > MAX_ELEMENTS
    {
        return;
    }
    let work = work(&model);
    let arithmetics: &[Arithmetic] = if work <= MAX_WORK {
        &[Arithmetic::Micro, Arithmetic::Reference]
    } else if large && work <= 16 * MAX_WORK && selected(fill) {
        &[Arithmetic::Micro]
    } else {
        &[]
    };
    let Ok(prepared_sizes) = Interpreter::prepared_sizes(&model) else {
        return;
    };
    if prepared_sizes.multipliers > MAX_ELEMENTS {
        return;
    }
    for &arithmetic in arithmetics {
        // `new` (each operator prepared on every run) and `prepared` (every
        // operator prepared once, into the buffers below) agree: the same
        // error, or the same outputs, bit for bit
        let each_run = run_one(model, &sizes, None, arithmetic, fill);
        let mut steps = vec![PreparedStep::EMPTY; prepared_sizes.steps];
        let mut multipliers = vec![QuantizedMultiplier::ZERO; prepared_sizes.multipliers];
        let once = run_one(
            model,
            &sizes,
            Some((&mut steps, &mut multipliers)),
            arithmetic,
            fill,
        );
        assert_eq!(
            once, each_run,
            "Interpreter::prepared against Interpreter::new"
        );
    }
}

/// What one interpreter of `run` gives: the error of its constructor or
/// of its run (as text), or every output's elements, as bits.
type Outcome = Result<Vec<Vec<u32>>, String>;

/// One interpreter of `model` in fresh buffers of `sizes`: `new`, or
/// `prepared` into `prepared`'s buffers; its inputs set from `fill`,
/// one `invoke`.
fn run_one<'m>(
    model: Model<'m>,
    sizes: &ArenaSizes,
    prepared: Option<(&mut [PreparedStep<'m>], &mut [QuantizedMultiplier])>,
    arithmetic: Arithmetic,
    fill: &[u8],
) -> Outcome {
    let mut int8 = vec![0i8; sizes.int8];
    let mut int16 = vec![0i16; sizes.int16];
    let mut int32 = vec![0i32; sizes.int32];
    let mut float32 = vec![0f32; sizes.float32];
    let mut scratch = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        int16: &mut int16,
        int32: &mut int32,
        float32: &mut float32,
        multipliers: &mut scratch,
    };
    let built = match prepared {
        None => Interpreter::new(model, arena, arithmetic),
        Some((steps, multipliers)) => {
            Interpreter::prepared(model, arena, steps, multipliers, arithmetic)
        }
    };
    let mut interpreter = match built {
        Ok(i) => i,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return Err(e.to_string());
        }
    };
    for k in 0..model.inputs().len() {
        let input = model.input(k).expect("checked by parse");
        let n = input.elements().min(MAX_ELEMENTS);
        let int8: Vec<i8> = if fill.is_empty() {
            vec![0; n]
        } else {
            fill.iter().map(|&b| b as i8).cycle().take(n).collect()
        };
        let float32: Vec<f32> = int8.iter().map(|&v| f32::from(v) / 16.0).collect();
        let data = match input.dtype() {
            TensorType::Float32 => TensorData::Float32(&float32),
            _ => TensorData::Int8(&int8),
        };
        if let Err(e) = interpreter.set_input(k, data) {
            assert!(!e.to_string().is_empty());
        }
    }
    match interpreter.invoke() {
        Ok(()) => Ok((0..model.outputs().len())
            .map(|k| {
                let output = interpreter.output(k).expect("an output after invoke");
                match output {
                    TensorData::Int8(d) => d.iter().map(|&v| v as u8 as u32).collect(),
                    TensorData::Int16(d) => d.iter().map(|&v| v as u16 as u32).collect(),
                    TensorData::Int32(d) => d.iter().map(|&v| v as u32).collect(),
                    TensorData::Float32(d) => d.iter().map(|v| v.to_bits()).collect(),
                }
            })
            .collect()),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            Err(e.to_string())
        }
    }
}

/// The test models: the three first, person detection, then the one-op
/// models of `tflite/tests/ops/` (every op the interpreter runs, each
/// option it decodes: CONV_2D, DEPTHWISE_CONV_2D, both pools, MEAN, ADD,
/// PAD, LOGISTIC, QUANTIZE, DEQUANTIZE, FULLY_CONNECTED, SOFTMAX; SUM,
/// REDUCE_MAX, REDUCE_MIN, ARG_MAX, ARG_MIN, both resizes, TRANSPOSE_CONV,
/// BATCH_MATMUL, LOG_SOFTMAX, L2_NORMALIZATION).
const MODELS: [&[u8]; 43] = [
    include_bytes!("../../tflite/tests/models/sine.tflite"),
    include_bytes!("../../tflite/tests/models/sine_float.tflite"),
    include_bytes!("../../tflite/tests/models/speech.tflite"),
    include_bytes!("../../tflite/tests/models/person_detect.tflite"),
    include_bytes!("../../tflite/tests/ops/add_broadcast_channel.tflite"),
    include_bytes!("../../tflite/tests/ops/add_broadcast_row_relu.tflite"),
    include_bytes!("../../tflite/tests/ops/add_residual_relu.tflite"),
    include_bytes!("../../tflite/tests/ops/avgpool_2x2_s1_same.tflite"),
    include_bytes!("../../tflite/tests/ops/avgpool_3x3_s2_valid.tflite"),
    include_bytes!("../../tflite/tests/ops/conv_10x4_s2_same.tflite"),
    include_bytes!("../../tflite/tests/ops/conv_1x1.tflite"),
    include_bytes!("../../tflite/tests/ops/conv_3x3_s2_same.tflite"),
    include_bytes!("../../tflite/tests/ops/conv_5x3_dil2_valid.tflite"),
    include_bytes!("../../tflite/tests/ops/dw_3x3_dil2_valid.tflite"),
    include_bytes!("../../tflite/tests/ops/dw_3x3_dm2_same.tflite"),
    include_bytes!("../../tflite/tests/ops/dw_kx1_valid.tflite"),
    include_bytes!("../../tflite/tests/ops/fc_relu.tflite"),
    include_bytes!("../../tflite/tests/ops/float_io_conv.tflite"),
    include_bytes!("../../tflite/tests/ops/logistic.tflite"),
    include_bytes!("../../tflite/tests/ops/maxpool_2x2_valid.tflite"),
    include_bytes!("../../tflite/tests/ops/maxpool_3x3_s2_same.tflite"),
    include_bytes!("../../tflite/tests/ops/mean_hw.tflite"),
    include_bytes!("../../tflite/tests/ops/mean_hw_keepdims.tflite"),
    include_bytes!("../../tflite/tests/ops/pad_1_2.tflite"),
    include_bytes!("../../tflite/tests/ops/softmax.tflite"),
    // the reductions, arg max / min, resizes, transposed convolution, batch
    // matrix product, log softmax and L2 normalization
    include_bytes!("../../tflite/tests/ops/arg_max.tflite"),
    include_bytes!("../../tflite/tests/ops/arg_min.tflite"),
    include_bytes!("../../tflite/tests/ops/batch_matmul.tflite"),
    include_bytes!("../../tflite/tests/ops/l2_normalization.tflite"),
    include_bytes!("../../tflite/tests/ops/log_softmax.tflite"),
    include_bytes!("../../tflite/tests/ops/mean_rank3_axis1.tflite"),
    include_bytes!("../../tflite/tests/ops/reduce_max_axis12.tflite"),
    include_bytes!("../../tflite/tests/ops/reduce_min.tflite"),
    include_bytes!("../../tflite/tests/ops/resize_bilinear_5x4_to_7x9.tflite"),
    include_bytes!("../../tflite/tests/ops/resize_bilinear_x2.tflite"),
    include_bytes!("../../tflite/tests/ops/resize_bilinear_x2_align_corners.tflite"),
    include_bytes!("../../tflite/tests/ops/resize_bilinear_x2_legacy.tflite"),
    include_bytes!("../../tflite/tests/ops/resize_nearest_x2.tflite"),
    include_bytes!("../../tflite/tests/ops/resize_nearest_x2_align_corners.tflite"),
    include_bytes!("../../tflite/tests/ops/resize_nearest_x2_legacy.tflite"),
    include_bytes!("../../tflite/tests/ops/sum_axis2.tflite"),
    include_bytes!("../../tflite/tests/ops/transpose_conv_2x2_s2_same.tflite"),
    include_bytes!("../../tflite/tests/ops/transpose_conv_3x3_s2_same_bias.tflite"),
];

/// A test model picked by the first byte, patched and cut as the next
/// bytes say, and the bytes after those (the model's input values, see
/// [`run`]). The second byte's low 4 bits are the number of patches (0 to
/// 15: a model with few patches often still runs), and its bits 4 and 5
/// both set cut the model at a length the byte after the patches says.
/// Each patch is 4 bytes: a position (the first two bytes little-endian,
/// the third's low 7 bits above them, modulo the length: all of person
/// detection's 300 kB is in reach), then either a byte to write there
/// (third byte below 128: the fourth byte) or a 32-bit word the fourth
/// byte picks from values that matter to offsets, counts and indices.
fn patched(bytes: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let (&pick, rest) = bytes.split_first()?;
    let (header, rest) = rest.split_first().map_or((0, rest), |(&h, r)| (h, r));
    let (patches, rest) = rest.split_at(rest.len().min(4 * usize::from(header & 15)));
    let mut model = MODELS[usize::from(pick) % MODELS.len()].to_vec();
    let len = model.len() as u32;
    for p in patches.chunks_exact(4) {
        let at = (usize::from(u16::from_le_bytes([p[0], p[1]])) | usize::from(p[2] & 0x7f) << 16)
            % model.len();
        if p[2] < 128 {
            model[at] = p[3];
            continue;
        }
        let word: u32 = match p[3] % 8 {
            0 => 0,
            1 => u32::MAX,     // -1
            2 => u32::MAX - 1, // -2
            3 => i32::MAX as u32,
            4 => i32::MIN as u32,
            5 => len,
            6 => len.wrapping_sub(4),
            _ => u32::from(p[3] / 8), // a small count or index
        };
        for (i, b) in word.to_le_bytes().into_iter().enumerate() {
            if let Some(slot) = model.get_mut(at + i) {
                *slot = b;
            }
        }
    }
    let mut rest = rest;
    if header & 0x30 == 0x30 {
        if let Some((&a, after)) = rest.split_first() {
            model.truncate(usize::from(a) * model.len() / 256);
            rest = after;
        }
    }
    Some((model, rest))
}

/// Parses `bytes`, checks the promises, and runs the model on `fill` (a
/// large one only when `large`: see [`MAX_WORK`]).
fn check(bytes: &[u8], fill: &[u8], large: bool) {
    let model = match Model::parse(bytes) {
        Ok(m) => m,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let tensors = model.tensor_count();
    let _ = (model.version(), model.description(), model.subgraph_name());
    assert!(model.subgraph_count() >= 1);
    for t in model.tensors() {
        let mut product: usize = 1;
        for d in t.shape() {
            product = product
                .checked_mul(usize::try_from(d).expect("negative dim"))
                .expect("overflow");
        }
        assert_eq!(t.elements(), product, "tensor {}", t.index());
        let data = t.data();
        if let (false, false, Some(bits)) = (data.is_empty(), t.is_sparse(), t.dtype().size_bits())
        {
            assert_eq!(
                data.len(),
                (product * bits).div_ceil(8),
                "tensor {}",
                t.index()
            );
        }
        assert!(t.buffer_index() < model.buffer_count());
        let _ = (
            t.name(),
            t.shape_signature().iter().count(),
            t.is_variable(),
        );
        let _ = t.data_as::<i8>().map(|a| a.iter().count());
        let _ = t.data_as::<i32>().map(|a| a.iter().count());
        let _ = t.data_as::<f32>().map(|a| a.iter().count());
        if let Some(q) = t.quantization() {
            let n = q.scales().len();
            assert!(n >= 1);
            assert_eq!(q.zero_points().len(), n);
            if q.is_per_channel() {
                // one scale per slice along the axis; or a 1-D tensor's one
                // per element, whatever axis the file names (person
                // detection's depthwise biases say 3, as TFLite Micro
                // loads them)
                let along = |axis: usize| {
                    let dim = t.shape().get(axis).and_then(|d| usize::try_from(d).ok());
                    dim == Some(n)
                };
                assert!(
                    along(q.quantized_dimension()) || (t.shape().len() == 1 && along(0)),
                    "tensor {}: {n} scales along axis {} of {:?}",
                    t.index(),
                    q.quantized_dimension(),
                    t.shape()
                );
                assert!(q.scale(n - 1).is_some() && q.scale(n).is_none());
            } else {
                assert_eq!(q.scale(0).map(f32::to_bits), q.scale(7).map(f32::to_bits));
            }
            assert_eq!(q.zero_points().iter().count(), n);
        }
    }
    for o in model.operators() {
        assert_eq!(BuiltinOp::from_code(o.op().code()), Some(o.op()));
        assert!(o.opcode_index() < model.operator_code_count());
        for i in o.inputs() {
            assert!(i == -1 || usize::try_from(i).is_ok_and(|i| i < tensors));
        }
        for k in 0..o.outputs().len() {
            assert!(o.output(k).is_some_and(|i| i < tensors));
        }
        assert!(o.input(o.inputs().len()).is_none() && o.output(o.outputs().len()).is_none());
        match o.options() {
            Options::DepthwiseConv2d(d) => {
                assert!(
                    d.stride_w >= 1 && d.stride_h >= 1 && d.dilation_w >= 1 && d.dilation_h >= 1
                );
            }
            Options::Conv2d(c) => {
                assert!(
                    c.stride_w >= 1 && c.stride_h >= 1 && c.dilation_w >= 1 && c.dilation_h >= 1
                );
            }
            Options::Pool2d(p) => {
                assert!(
                    p.stride_w >= 1
                        && p.stride_h >= 1
                        && p.filter_width >= 1
                        && p.filter_height >= 1
                );
            }
            Options::Reshape(r) => {
                let _ = r.new_shape.map(|s| s.iter().count());
            }
            _ => {}
        }
        let _ = (o.version(), o.custom_code(), format!("{:?}", o.options()));
    }
    for k in 0..model.inputs().len() {
        assert!(model.input(k).is_some());
    }
    for k in 0..model.outputs().len() {
        assert!(model.output(k).is_some());
    }
    assert!(model.tensor(tensors).is_none());
    assert!(model.operator(model.operator_count()).is_none());
    assert!(model.input(model.inputs().len()).is_none());
    run(model, fill, large);
}

fuzz_target!(|bytes: &[u8]| {
    check(bytes, bytes, false);
    // a model's bytes (a seed, a mutation of one) are read as they are;
    // any other input patches a test model
    if bytes.get(4..8) != Some(b"TFL3") {
        if let Some((model, fill)) = patched(bytes) {
            check(&model, fill, true);
        }
    }
});
