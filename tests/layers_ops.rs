//! The typed layers a user calls on their own (`concatenation_int8`,
//! `mul_int8`, the resizes, `transpose_conv_int8`, `slice_int8`,
//! `split_int8`) against TFLite Micro's one-op models
//! (`tflite/tests/ops/`): for every recorded case, the typed call on the
//! op's recorded operands gives the op's recorded output, bit for bit.
//! The layers' parameters are derived from the model's tensors with
//! `shapecheck::tflite`'s functions, as `model!` would; the shapes are
//! written here as types, the model's README's.

use proptest::prelude::*;
use serde_json::Value;
use shapecheck::ops::layers::{
    concatenation_int8, mul_int8, resize_bilinear_int8, resize_nearest_int8, slice_int8,
    split_int8, transpose_conv_int8, Begin, ClampInt8, MulInt8, Multipliers, QuantizedMultiplier,
    Resize, Same, TransposeConvInt8,
};
use shapecheck::prelude::*;
use shapecheck::tflite::{self, BuiltinOp, Model, Operator, Options};

const OPS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tflite/tests/ops");

/// A one-op model's file and recording.
struct OneOp {
    bytes: Vec<u8>,
    recording: Value,
}

impl OneOp {
    fn load(name: &str) -> Self {
        let bytes = std::fs::read(format!("{OPS}/{name}.tflite")).unwrap();
        let text = std::fs::read_to_string(format!("{OPS}/{name}.json")).unwrap();
        OneOp {
            bytes,
            recording: serde_json::from_str(&text).unwrap(),
        }
    }

    fn model(&self) -> Model<'_> {
        Model::parse(&self.bytes).unwrap()
    }

    /// The recorded cases (at least 8, the first a constant input).
    fn cases(&self) -> &[Value] {
        let cases = self.recording["cases"].as_array().unwrap();
        assert!(cases.len() >= 8, "{} cases", cases.len());
        cases
    }
}

/// The model's one operator of `op`.
fn operator<'a>(model: &Model<'a>, op: BuiltinOp) -> Operator<'a> {
    let mut found = model.operators().filter(|o| o.op() == op);
    let first = found.next().unwrap_or_else(|| panic!("no {op:?}"));
    assert!(found.next().is_none(), "more than one {op:?}");
    first
}

/// Tensor `index`'s int8 values as recorded in `case`.
fn recorded(case: &Value, index: usize) -> Vec<i8> {
    let data = &case["tensors"][index.to_string()]["data"];
    data.as_array()
        .unwrap_or_else(|| panic!("tensor {index} is not recorded"))
        .iter()
        .map(|v| i8::try_from(v.as_i64().unwrap()).unwrap())
        .collect()
}

/// Tensor `index`'s per-tensor `(scale, zero point)`.
fn quantization(model: &Model<'_>, index: usize) -> (f32, i32) {
    let q = model.tensor(index).unwrap().quantization().unwrap();
    (
        q.scale(0).unwrap(),
        i32::try_from(q.zero_point(0).unwrap()).unwrap(),
    )
}

/// Tensor `index`'s constant int8 data.
fn constant_i8(model: &Model<'_>, index: usize) -> Vec<i8> {
    model
        .tensor(index)
        .unwrap()
        .data()
        .iter()
        .map(|&b| b as i8)
        .collect()
}

/// Tensor `index`'s constant int32 data.
fn constant_i32(model: &Model<'_>, index: usize) -> Vec<i32> {
    model
        .tensor(index)
        .unwrap()
        .data_as::<i32>()
        .unwrap()
        .iter()
        .collect()
}

fn input(op: &Operator<'_>, k: usize) -> usize {
    op.input(k).unwrap()
}

fn output(op: &Operator<'_>, k: usize) -> usize {
    op.output(k).unwrap()
}

#[test]
fn concatenation_of_two_branches_along_axis_1() {
    let one = OneOp::load("concat_axis1");
    let model = one.model();
    let op = operator(&model, BuiltinOp::CONCATENATION);
    let Options::Concatenation(o) = op.options() else {
        panic!("options")
    };
    assert_eq!(o.axis, 1);
    for case in one.cases() {
        let a =
            Tensor::<i8, shape![1, 7, 4, 3]>::from_slice(&recorded(case, input(&op, 0))).unwrap();
        let b =
            Tensor::<i8, shape![1, 5, 4, 3]>::from_slice(&recorded(case, input(&op, 1))).unwrap();
        let y: Tensor<i8, shape![1, 12, 4, 3]> = concatenation_int8(&a, &b, Axis::<1>);
        assert_eq!(
            y.as_slice(),
            &recorded(case, output(&op, 0))[..],
            "{}",
            case["name"]
        );
    }
}

#[test]
fn concatenation_of_three_is_two_concatenations_along_the_last_axis() {
    let one = OneOp::load("concat_3_lastaxis");
    let model = one.model();
    let op = operator(&model, BuiltinOp::CONCATENATION);
    for case in one.cases() {
        let a =
            Tensor::<i8, shape![1, 5, 6, 2]>::from_slice(&recorded(case, input(&op, 0))).unwrap();
        let b =
            Tensor::<i8, shape![1, 5, 6, 3]>::from_slice(&recorded(case, input(&op, 1))).unwrap();
        let c =
            Tensor::<i8, shape![1, 5, 6, 4]>::from_slice(&recorded(case, input(&op, 2))).unwrap();
        let ab: Tensor<i8, shape![1, 5, 6, 5]> = concatenation_int8(&a, &b, Axis::<-1>);
        let y: Tensor<i8, shape![1, 5, 6, 9]> = concatenation_int8(&ab, &c, Axis::<-1>);
        assert_eq!(
            y.as_slice(),
            &recorded(case, output(&op, 0))[..],
            "{}",
            case["name"]
        );
    }
}

/// A `MUL`'s layer from its operator's tensors and fused activation.
fn mul_layer(model: &Model<'_>, op: &Operator<'_>) -> MulInt8 {
    let Options::Mul(o) = op.options() else {
        panic!("options")
    };
    let (s1, z1) = quantization(model, input(op, 0));
    let (s2, z2) = quantization(model, input(op, 1));
    let (so, zo) = quantization(model, output(op, 0));
    let (lo, hi) = tflite::activation_range_int8(o.fused_activation, so, zo).unwrap();
    MulInt8::new(tflite::mul_params(s1, z1, s2, z2, so, zo, lo, hi).unwrap()).unwrap()
}

#[test]
fn mul_of_two_activations() {
    let one = OneOp::load("mul_two");
    let model = one.model();
    let op = operator(&model, BuiltinOp::MUL);
    let mul = mul_layer(&model, &op);
    for case in one.cases() {
        let a =
            Tensor::<i8, shape![1, 5, 6, 3]>::from_slice(&recorded(case, input(&op, 0))).unwrap();
        let b =
            Tensor::<i8, shape![1, 5, 6, 3]>::from_slice(&recorded(case, input(&op, 1))).unwrap();
        let y = mul_int8(&a, &b, &mul);
        assert_eq!(
            y.as_slice(),
            &recorded(case, output(&op, 0))[..],
            "{}",
            case["name"]
        );
    }
}

#[test]
fn mul_by_a_broadcast_constant() {
    let one = OneOp::load("mul_broadcast_const");
    let model = one.model();
    let op = operator(&model, BuiltinOp::MUL);
    let mul = mul_layer(&model, &op);
    let shape: Vec<i32> = model
        .tensor(input(&op, 1))
        .unwrap()
        .shape()
        .iter()
        .collect();
    assert_eq!(shape, [1, 1, 1, 5]);
    let scale =
        Tensor::<i8, shape![1, 1, 1, 5]>::from_slice(&constant_i8(&model, input(&op, 1))).unwrap();
    for case in one.cases() {
        let x =
            Tensor::<i8, shape![1, 7, 4, 5]>::from_slice(&recorded(case, input(&op, 0))).unwrap();
        let y = mul_int8(&x, &scale, &mul);
        assert_eq!(
            y.as_slice(),
            &recorded(case, output(&op, 0))[..],
            "{}",
            case["name"]
        );
    }
}

/// A resize's sampling from its operator's options.
fn sampling(op: &Operator<'_>) -> Resize {
    let Options::Resize(o) = op.options() else {
        panic!("options")
    };
    Resize::new(o.align_corners, o.half_pixel_centers).unwrap()
}

/// Runs a resize's typed layer `$layer` of `$op` on the model `$name` from
/// `[1, 5, 4, 3]` to `$out`.
macro_rules! resize_case {
    ($test:ident, $name:literal, $op:expr, $layer:ident, $out:ty) => {
        #[test]
        fn $test() {
            let one = OneOp::load($name);
            let model = one.model();
            let op = operator(&model, $op);
            let resize = sampling(&op);
            for case in one.cases() {
                let x =
                    Tensor::<i8, shape![1, 5, 4, 3]>::from_slice(&recorded(case, input(&op, 0)))
                        .unwrap();
                let y: Tensor<i8, $out> = $layer(&x, &resize);
                assert_eq!(
                    y.as_slice(),
                    &recorded(case, output(&op, 0))[..],
                    "{}",
                    case["name"]
                );
            }
        }
    };
}

resize_case!(
    resize_nearest_x2,
    "resize_nearest_x2",
    BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
    resize_nearest_int8,
    shape![1, 10, 8, 3]
);
resize_case!(
    resize_nearest_x2_align_corners,
    "resize_nearest_x2_align_corners",
    BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
    resize_nearest_int8,
    shape![1, 10, 8, 3]
);
resize_case!(
    resize_nearest_x2_legacy,
    "resize_nearest_x2_legacy",
    BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
    resize_nearest_int8,
    shape![1, 10, 8, 3]
);
resize_case!(
    resize_bilinear_x2,
    "resize_bilinear_x2",
    BuiltinOp::RESIZE_BILINEAR,
    resize_bilinear_int8,
    shape![1, 10, 8, 3]
);
resize_case!(
    resize_bilinear_x2_align_corners,
    "resize_bilinear_x2_align_corners",
    BuiltinOp::RESIZE_BILINEAR,
    resize_bilinear_int8,
    shape![1, 10, 8, 3]
);
resize_case!(
    resize_bilinear_x2_legacy,
    "resize_bilinear_x2_legacy",
    BuiltinOp::RESIZE_BILINEAR,
    resize_bilinear_int8,
    shape![1, 10, 8, 3]
);
resize_case!(
    resize_bilinear_5x4_to_7x9,
    "resize_bilinear_5x4_to_7x9",
    BuiltinOp::RESIZE_BILINEAR,
    resize_bilinear_int8,
    shape![1, 7, 9, 3]
);

/// Runs `transpose_conv_int8` on the model `$name`: an input `$in`, a
/// filter `[$o, $kh, $kw, $ci]` of stride 2, SAME, and an output `$out`.
macro_rules! transpose_conv_case {
    ($test:ident, $name:literal, $in:ty, $o:literal, $kh:literal, $kw:literal, $ci:literal, $out:ty) => {
        #[test]
        fn $test() {
            let one = OneOp::load($name);
            let model = one.model();
            let op = operator(&model, BuiltinOp::TRANSPOSE_CONV);
            let Options::TransposeConv(o) = op.options() else {
                panic!("options")
            };
            assert_eq!((o.padding, o.stride_h, o.stride_w), (tflite::Padding::Same, 2, 2));
            let (filter_i, x_i) = (input(&op, 1), input(&op, 2));
            let filter_values = constant_i8(&model, filter_i);
            let filter = <(Dim<$o>, Dim<$kh>, Dim<$kw>, Dim<$ci>) as FixedShape>::array_from_fn(|i| {
                filter_values[i]
            });
            let bias = op
                .input(3)
                .map(|b| <Dim<$o> as StaticDim>::arr_from_fn(|i| constant_i32(&model, b)[i]));
            let (si, zi) = quantization(&model, x_i);
            let (so, zo) = quantization(&model, output(&op, 0));
            let fq = model.tensor(filter_i).unwrap().quantization().unwrap();
            let multipliers: [QuantizedMultiplier; $o] = std::array::from_fn(|c| {
                let fs = if fq.is_per_channel() { fq.scale(c) } else { fq.scale(0) };
                tflite::fully_connected_multiplier(si, fs.unwrap(), so).unwrap()
            });
            let (lo, hi) = tflite::activation_range_int8(o.fused_activation, so, zo).unwrap();
            let layer: TransposeConvInt8<'_, Dim<$o>, Dim<$kh>, Dim<$kw>, Dim<$ci>, Same<2, 2>> =
                TransposeConvInt8 {
                    filter: &filter,
                    bias: bias.as_ref(),
                    padding: Same,
                    input_zero_point: zi,
                    output_zero_point: zo,
                    multipliers: Multipliers::PerChannel(&multipliers),
                    clamp: ClampInt8::new(lo as i8, hi as i8).unwrap(),
                };
            for case in one.cases() {
                let x = Tensor::<i8, $in>::from_slice(&recorded(case, x_i)).unwrap();
                let y: Tensor<i8, $out> = transpose_conv_int8(&x, &layer);
                assert_eq!(y.as_slice(), &recorded(case, output(&op, 0))[..], "{}", case["name"]);
            }
        }
    };
}

transpose_conv_case!(
    transpose_conv_2x2_s2_same,
    "transpose_conv_2x2_s2_same",
    shape![1, 5, 6, 3],
    4,
    2,
    2,
    3,
    shape![1, 10, 12, 4]
);
transpose_conv_case!(
    transpose_conv_3x3_s2_same_bias,
    "transpose_conv_3x3_s2_same_bias",
    shape![1, 4, 5, 3],
    5,
    3,
    3,
    3,
    shape![1, 8, 10, 5]
);

#[test]
fn slice_of_a_box() {
    let one = OneOp::load("slice");
    let model = one.model();
    let op = operator(&model, BuiltinOp::SLICE);
    // the model's begin and size, which the types below state
    assert_eq!(constant_i32(&model, input(&op, 1)), [0, 1, 2, 1]);
    assert_eq!(constant_i32(&model, input(&op, 2)), [1, 3, 4, 2]);
    for case in one.cases() {
        let x =
            Tensor::<i8, shape![1, 5, 6, 4]>::from_slice(&recorded(case, input(&op, 0))).unwrap();
        let y: Tensor<i8, shape![1, 3, 4, 2]> = slice_int8(&x, Begin::<0, 1, 2, 1>);
        assert_eq!(
            y.as_slice(),
            &recorded(case, output(&op, 0))[..],
            "{}",
            case["name"]
        );
    }
}

#[test]
fn split_into_three_along_the_last_axis() {
    let one = OneOp::load("split_3");
    let model = one.model();
    let op = operator(&model, BuiltinOp::SPLIT);
    // SPLIT's axis is input 0, its activation input 1
    assert_eq!(constant_i32(&model, input(&op, 0)), [-1]);
    for case in one.cases() {
        let x =
            Tensor::<i8, shape![1, 5, 4, 6]>::from_slice(&recorded(case, input(&op, 1))).unwrap();
        let pieces: [Tensor<i8, shape![1, 5, 4, 2]>; 3] = split_int8(&x, Axis::<-1>);
        for (k, piece) in pieces.iter().enumerate() {
            assert_eq!(
                piece.as_slice(),
                &recorded(case, output(&op, k))[..],
                "{} {k}",
                case["name"]
            );
        }
    }
}

// The layers that move data, against a naive reference written plainly
// here: each output element found by its index.

/// The row-major offset of `index` in a tensor of `dims`.
fn offset(dims: &[usize], index: &[usize]) -> usize {
    dims.iter().zip(index).fold(0, |acc, (&d, &i)| acc * d + i)
}

/// Every index of a tensor of `dims`, in row-major order.
fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &d in dims {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                (0..d).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect();
    }
    all
}

proptest! {
    #[test]
    fn concatenation_along_the_middle_axis_is_the_naive_join(
        a in proptest::collection::vec(any::<i8>(), 2 * 3 * 4),
        b in proptest::collection::vec(any::<i8>(), 2 * 2 * 4),
    ) {
        let x = Tensor::<i8, shape![2, 3, 4]>::from_slice(&a).unwrap();
        let y = Tensor::<i8, shape![2, 2, 4]>::from_slice(&b).unwrap();
        let z: Tensor<i8, shape![2, 5, 4]> = concatenation_int8(&x, &y, Axis::<1>);
        for index in indices(&[2, 5, 4]) {
            let want = if index[1] < 3 {
                a[offset(&[2, 3, 4], &index)]
            } else {
                b[offset(&[2, 2, 4], &[index[0], index[1] - 3, index[2]])]
            };
            prop_assert_eq!(z.as_slice()[offset(&[2, 5, 4], &index)], want);
        }
    }

    #[test]
    fn slice_is_the_naive_box(a in proptest::collection::vec(any::<i8>(), 3 * 4 * 5)) {
        let x = Tensor::<i8, shape![3, 4, 5]>::from_slice(&a).unwrap();
        let y: Tensor<i8, shape![2, 2, 3]> = slice_int8(&x, Begin::<1, 1, 2>);
        for index in indices(&[2, 2, 3]) {
            let from = [index[0] + 1, index[1] + 1, index[2] + 2];
            prop_assert_eq!(y.as_slice()[offset(&[2, 2, 3], &index)], a[offset(&[3, 4, 5], &from)]);
        }
    }

    #[test]
    fn split_is_the_naive_cut(a in proptest::collection::vec(any::<i8>(), 2 * 6 * 3)) {
        let x = Tensor::<i8, shape![2, 6, 3]>::from_slice(&a).unwrap();
        let pieces: [Tensor<i8, shape![2, 2, 3]>; 3] = split_int8(&x, Axis::<1>);
        for (k, piece) in pieces.iter().enumerate() {
            for index in indices(&[2, 2, 3]) {
                let from = [index[0], index[1] + 2 * k, index[2]];
                prop_assert_eq!(piece.as_slice()[offset(&[2, 2, 3], &index)], a[offset(&[2, 6, 3], &from)]);
            }
        }
    }
}
