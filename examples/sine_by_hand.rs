//! The sine model (tflite/tests/models/sine.tflite: 1 → 16 → 16 → 1, int8,
//! ReLU on the first two layers) written by hand from the typed layers of
//! `shapecheck::ops::layers`, and the same model through `model!`; both
//! print their predictions for a few inputs, and must agree bit for bit.
//!
//! The hand-written model reads its constants from the file **at run
//! time**, with the reader (`shapecheck::tflite::Model`) and its checked
//! errors: so its weights and multipliers are derived here, independently
//! of the macro, and the agreement below is a real cross-check. A firmware
//! would use `model!`'s `static` items instead (nothing parsed when it
//! runs). Wiring a layer to the wrong one is a compile error
//! (`ui-tests/model/fail/miswired_layer.rs`).
//!
//! `cargo run --example sine_by_hand --features tflite`

use shapecheck::ops::layers::{fully_connected_int8, ClampInt8, FullyConnectedInt8, Multipliers};
use shapecheck::prelude::*;
use shapecheck::tflite::{
    activation_range_int8, fully_connected_multiplier, Model, Options, QuantizedMultiplier,
    Rounding,
};

shapecheck::model!(Sine = "tflite/tests/models/sine.tflite");

const FILE: &[u8] = include_bytes!("../tflite/tests/models/sine.tflite");

/// One fully connected layer's constants, read from the file: weights
/// `[O, K]`, bias, quantization.
struct Layer<O: StaticDim, K: StaticDim> {
    weights: <(O, K) as FixedShape>::Array<i8>,
    bias: O::Arr<i32>,
    input_zero_point: i32,
    output_zero_point: i32,
    multiplier: QuantizedMultiplier,
    clamp: ClampInt8,
}

impl<O: StaticDim, K: StaticDim> Layer<O, K> {
    /// Operator `index` of `model`, which must be a fully connected layer
    /// with weights `[O, K]`.
    fn read(model: &Model<'_>, index: usize) -> Result<Self, String> {
        let op = model.operator(index).ok_or("no such operator")?;
        let Options::FullyConnected(options) = op.options() else {
            return Err(format!(
                "operator {index} is {}, not FULLY_CONNECTED",
                op.op()
            ));
        };
        let tensor = |i: Option<usize>| {
            i.and_then(|i| model.tensor(i))
                .ok_or(format!("operator {index} lacks an operand"))
        };
        let (input, weights, bias) = (
            tensor(op.input(0))?,
            tensor(op.input(1))?,
            tensor(op.input(2))?,
        );
        let output = tensor(op.output(0))?;
        let quantization = |t: &shapecheck::tflite::ModelTensor<'_>| {
            let q = t
                .quantization()
                .ok_or(format!("\"{}\" is not quantized", t.name()))?;
            let zero_point = q
                .zero_point(0)
                .and_then(|z| i32::try_from(z).ok())
                .unwrap_or(0);
            Ok::<_, String>((q.scale(0).unwrap_or(0.0), zero_point))
        };
        let (input_scale, input_zero_point) = quantization(&input)?;
        let (output_scale, output_zero_point) = quantization(&output)?;
        let (weight_scale, _) = quantization(&weights)?;
        let w = weights.data_as::<i8>().ok_or("the weights are not int8")?;
        let b = bias.data_as::<i32>().ok_or("the bias is not int32")?;
        if w.len() != O::SIZE * K::SIZE || b.len() != O::SIZE {
            return Err(format!(
                "operator {index}'s weights are not [{}, {}]",
                O::SIZE,
                K::SIZE
            ));
        }
        let (lo, hi) =
            activation_range_int8(options.fused_activation, output_scale, output_zero_point)
                .map_err(|e| e.to_string())?;
        Ok(Layer {
            weights: <(O, K) as FixedShape>::array_from_fn(|i| w.get(i).unwrap_or(0)),
            bias: O::arr_from_fn(|i| b.get(i).unwrap_or(0)),
            input_zero_point,
            output_zero_point,
            multiplier: fully_connected_multiplier(input_scale, weight_scale, output_scale)
                .map_err(|e| e.to_string())?,
            clamp: ClampInt8::new(
                i8::try_from(lo).map_err(|e| e.to_string())?,
                i8::try_from(hi).map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?,
        })
    }

    /// The layer as `fully_connected_int8` takes it, with TFLite Micro's rounding.
    fn typed(&self) -> FullyConnectedInt8<'_, O, K> {
        FullyConnectedInt8 {
            weights: &self.weights,
            bias: Some(&self.bias),
            input_zero_point: self.input_zero_point,
            weights_zero_point: 0,
            output_zero_point: self.output_zero_point,
            multipliers: Multipliers::PerTensor(self.multiplier),
            clamp: self.clamp,
            rounding: Rounding::Double,
        }
    }
}

fn main() -> Result<(), String> {
    let model = Model::parse(FILE).map_err(|e| e.to_string())?;
    let first = Layer::<Dim<16>, One>::read(&model, 0)?;
    let second = Layer::<Dim<16>, Dim<16>>::read(&model, 1)?;
    let third = Layer::<One, Dim<16>>::read(&model, 2)?;
    let (first, second, third) = (first.typed(), second.typed(), third.typed());

    // the input's and output's quantization, from the file
    let scale_and_zero = |t: Option<shapecheck::tflite::ModelTensor<'_>>| {
        let q = t.and_then(|t| t.quantization()).ok_or("not quantized")?;
        Ok::<_, String>((
            q.scale(0).unwrap_or(1.0),
            q.zero_point(0).unwrap_or(0) as f32,
        ))
    };
    let (in_scale, in_zero) = scale_and_zero(model.input(0))?;
    let (out_scale, out_zero) = scale_and_zero(model.output(0))?;

    println!("     x   sin(x)  by hand  model!");
    for x in [0.0f32, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 6.0] {
        let q = ((x / in_scale).round() + in_zero).clamp(-128.0, 127.0) as i8;
        let input = Tensor::<i8, shape![1, 1]>::from_array([[q]]);
        let hidden = fully_connected_int8(&input, &first);
        let hidden = fully_connected_int8(&hidden, &second);
        let by_hand: Tensor<i8, shape![1, 1]> = fully_connected_int8(&hidden, &third);
        let generated = Sine::predict(&input);
        let real = |t: &Tensor<i8, shape![1, 1]>| {
            t.iter()
                .map(|&y| (f32::from(y) - out_zero) * out_scale)
                .sum::<f32>()
        };
        println!(
            "{x:6.2} {:8.4} {:8.4} {:7.4}",
            x.sin(),
            real(&by_hand),
            real(&generated)
        );
        if by_hand != generated {
            return Err(format!(
                "x = {x}: by hand {by_hand:?}, model! {generated:?}"
            ));
        }
    }
    println!("the hand-written model and model!'s agree bit for bit");
    Ok(())
}
