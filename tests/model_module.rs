//! One module shape, whatever the ops (issue 78): a model written as
//! typed layers (sine, speech) and one written from the plan's steps
//! (user_unet: `LEAKY_RELU`, `TRANSPOSE_CONV`, `CONCATENATION`,
//! `RESIZE_BILINEAR`; the int16 audio model; SPLIT's three outputs) give a firmware the same things: each quantized input's and
//! output's scale and zero point, the file's, with `quantize` /
//! `dequantize` computing TFLite Micro's arithmetic; `Arena::new()`, a
//! `const fn`, for an arena in a `static`; and an `assert_ram_fits` that
//! counts what the firmware holds, `size_of::<Arena>()` and the input.

use core::mem::size_of;
use std::sync::Mutex;

use shapecheck::prelude::*;
use shapecheck::tflite::Model;

shapecheck::model!(pub Sine = "tflite/tests/models/sine.tflite");
shapecheck::model!(pub UserUnet = "tflite/tests/user/user_unet.tflite");
shapecheck::model!(pub UserAudioInt16 = "tflite/tests/user/user_audio_int16.tflite");
shapecheck::model!(pub Split3 = "tflite/tests/ops/split_3.tflite");

/// The scale and zero point the file gives input (`true`) or output
/// `k` of the model at `path`.
fn file_quantization(path: &str, input: bool, k: usize) -> (f32, i32) {
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let model = Model::parse(&bytes).unwrap();
    let t = if input {
        model.input(k)
    } else {
        model.output(k)
    }
    .unwrap();
    let q = t.quantization().unwrap();
    assert!(!q.is_per_channel());
    let zero_point = i32::try_from(q.zero_point(0).unwrap()).unwrap();
    (q.scale(0).unwrap(), zero_point)
}

#[test]
fn every_kind_of_module_has_the_files_quantization() {
    let sine = "tflite/tests/models/sine.tflite";
    assert_eq!(
        (sine::INPUT_SCALE, sine::INPUT_ZERO_POINT),
        file_quantization(sine, true, 0)
    );
    assert_eq!(
        (sine::OUTPUT_SCALE, sine::OUTPUT_ZERO_POINT),
        file_quantization(sine, false, 0)
    );
    let unet = "tflite/tests/user/user_unet.tflite";
    assert_eq!(
        (user_unet::INPUT_SCALE, user_unet::INPUT_ZERO_POINT),
        file_quantization(unet, true, 0)
    );
    assert_eq!(
        (user_unet::OUTPUT_SCALE, user_unet::OUTPUT_ZERO_POINT),
        file_quantization(unet, false, 0)
    );
    let audio = "tflite/tests/user/user_audio_int16.tflite";
    assert_eq!(
        (
            user_audio_int16::INPUT_SCALE,
            user_audio_int16::INPUT_ZERO_POINT
        ),
        file_quantization(audio, true, 0)
    );
    assert_eq!(
        (
            user_audio_int16::OUTPUT_SCALE,
            user_audio_int16::OUTPUT_ZERO_POINT
        ),
        file_quantization(audio, false, 0)
    );
    // several outputs: one set each
    let split = "tflite/tests/ops/split_3.tflite";
    assert_eq!(
        (split3::INPUT_SCALE, split3::INPUT_ZERO_POINT),
        file_quantization(split, true, 0)
    );
    for (k, got) in [
        (split3::OUTPUT0_SCALE, split3::OUTPUT0_ZERO_POINT),
        (split3::OUTPUT1_SCALE, split3::OUTPUT1_ZERO_POINT),
        (split3::OUTPUT2_SCALE, split3::OUTPUT2_ZERO_POINT),
    ]
    .into_iter()
    .enumerate()
    {
        assert_eq!(got, file_quantization(split, false, k));
    }
}

/// TFLite's `QUANTIZE`: `round(x / scale) + zero point`, ties away from
/// zero, clamped to the element's range.
fn quantized(x: f32, scale: f32, zero_point: i32, lo: i32, hi: i32) -> i32 {
    ((x / scale).round() as i32 + zero_point).clamp(lo, hi)
}

#[test]
fn quantize_and_dequantize_are_tflites_arithmetic_on_every_kind() {
    // a step-written int8 model: every input value from its real value
    let real = Tensor::<f32, shape![1, 12, 10, 2]>::from_fn(|i| {
        (i[1] as f32 - 6.0) * 0.37 + i[3] as f32 * 0.11
    });
    let q: user_unet::Input = UserUnet::quantize(&real);
    for (&x, &q) in real.as_slice().iter().zip(q.as_slice()) {
        let want = quantized(
            x,
            user_unet::INPUT_SCALE,
            user_unet::INPUT_ZERO_POINT,
            -128,
            127,
        );
        assert_eq!(i32::from(q), want, "x = {x}");
    }
    let y = UserUnet::predict(&q);
    let back = UserUnet::dequantize(&y);
    for (&q, &r) in y.as_slice().iter().zip(back.as_slice()) {
        let want = user_unet::OUTPUT_SCALE * (i32::from(q) - user_unet::OUTPUT_ZERO_POINT) as f32;
        assert_eq!(r.to_bits(), want.to_bits());
    }
    // int16 (16x8 mode): i16 tensors, the int16 range
    let real = Tensor::<f32, shape![1, 24, 10, 1]>::from_fn(|i| {
        (i[1] as f32 - 12.0) * 0.5 + i[2] as f32 * 0.01
    });
    let q: user_audio_int16::Input = UserAudioInt16::quantize(&real);
    let (s, z) = (
        user_audio_int16::INPUT_SCALE,
        user_audio_int16::INPUT_ZERO_POINT,
    );
    for (&x, &q) in real.as_slice().iter().zip(q.as_slice()) {
        assert_eq!(i32::from(q), quantized(x, s, z, -32768, 32767), "x = {x}");
    }
    assert!(
        q.as_slice().iter().any(|&v| !(-128..=127).contains(&v)),
        "int16 values beyond int8's"
    );
    let y: user_audio_int16::Output = UserAudioInt16::predict(&q);
    let p = UserAudioInt16::dequantize(&y);
    let (s, z) = (
        user_audio_int16::OUTPUT_SCALE,
        user_audio_int16::OUTPUT_ZERO_POINT,
    );
    for (&q, &r) in y.as_slice().iter().zip(p.as_slice()) {
        assert_eq!(r.to_bits(), (s * (i32::from(q) - z) as f32).to_bits());
    }
    // a softmax's probabilities: they sum to about 1
    assert!(
        (p.as_slice().iter().sum::<f32>() - 1.0).abs() < 0.01,
        "{p:?}"
    );
    // several outputs: a function each
    let x: split3::Input = Split3::quantize(&Tensor::<f32, shape![1, 5, 4, 6]>::full(1.0));
    let (y0, y1, y2) = Split3::predict(&x);
    let reals = [
        Split3::dequantize_output0(&y0).as_slice()[0],
        Split3::dequantize_output1(&y1).as_slice()[0],
        Split3::dequantize_output2(&y2).as_slice()[0],
    ];
    assert!(reals.iter().all(|&v| (v - 1.0).abs() < 0.05), "{reals:?}");
}

// the firmware's arena in a static, the one spelling for both kinds
static SINE_ARENA: Mutex<sine::Arena> = Mutex::new(sine::Arena::new());
static UNET_ARENA: Mutex<user_unet::Arena> = Mutex::new(user_unet::Arena::new());

#[test]
fn an_arena_in_a_static_gives_predicts_output_on_every_kind() {
    let x = Sine::quantize(&tensor![[1.25f32]]);
    let mut arena = SINE_ARENA.lock().unwrap();
    assert_eq!(
        Sine::predict_in(&x, &mut arena).as_slice(),
        Sine::predict(&x).as_slice()
    );
    let x = UserUnet::quantize(&Tensor::<f32, shape![1, 12, 10, 2]>::from_fn(|i| {
        i[2] as f32 * 0.2 - 1.0
    }));
    let mut arena = UNET_ARENA.lock().unwrap();
    // twice in the same arena: the second run starts from the first's leavings
    for _ in 0..2 {
        assert_eq!(
            UserUnet::predict_in(&x, &mut arena).as_slice(),
            UserUnet::predict(&x).as_slice()
        );
    }
}

// what each firmware holds, its arena and its input, fits a budget of
// exactly that
const _: () = sine::assert_ram_fits(
    size_of::<sine::Arena>() + size_of::<sine::Input>(),
    size_of::<sine::Input>(),
);
const _: () = user_unet::assert_ram_fits(
    size_of::<user_unet::Arena>() + size_of::<user_unet::Input>(),
    size_of::<user_unet::Input>(),
);

#[test]
fn the_arena_is_what_assert_ram_fits_counts() {
    // typed layers: the arena is RAM_BYTES, the input is the caller's
    assert_eq!(size_of::<sine::Arena>(), Sine::RAM_BYTES);
    assert_eq!(sine::Arena::BYTES, size_of::<sine::Arena>());
    // the plan's steps: RAM_BYTES (the activations, as before) and the
    // copy of the input predict_in writes into the arena
    assert_eq!(user_unet::Arena::BYTES, size_of::<user_unet::Arena>());
    assert_eq!(
        size_of::<user_unet::Arena>(),
        UserUnet::RAM_BYTES + size_of::<user_unet::Input>()
    );
    assert_eq!(
        size_of::<user_audio_int16::Arena>(),
        UserAudioInt16::RAM_BYTES + size_of::<user_audio_int16::Input>()
    );
}
