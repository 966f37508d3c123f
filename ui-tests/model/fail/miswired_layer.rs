// the sine model by hand with its second layer (16 → 16) fed the input,
// one value wide, instead of the first layer's 16
use shapecheck::ops::layers::{fully_connected_int8, ClampInt8, FullyConnectedInt8, Multipliers, Rounding};
use shapecheck::prelude::*;
use shapecheck::tflite::QuantizedMultiplier;

static LAYER_1: FullyConnectedInt8<'static, Dim<16>, Dim<16>> = FullyConnectedInt8 {
    weights: &[[1; 16]; 16],
    bias: None,
    input_zero_point: -128,
    weights_zero_point: 0,
    output_zero_point: -128,
    multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, -6)),
    clamp: ClampInt8::FULL,
    rounding: Rounding::Double,
};

fn main() {
    let x = Tensor::<i8, shape![1, 1]>::full(0);
    let _ = fully_connected_int8(&x, &LAYER_1);
}
