// a DEPTHWISE_CONV_2D whose filter [3, 3, 8] has 8 channels fed an input of
// 3 channels: the filter's channels must be a multiple of the input's (the
// depth multiplier). Stable Rust cannot state "a multiple of" in a bound,
// so this is an assertion evaluated at instantiation: `cargo build`
// reports it, `cargo check` does not (the convolution's channels, an
// equality, are a trait: `conv_wrong_channels.rs`)
use shapecheck::ops::layers::{depthwise_conv_int8, ClampInt8, DepthwiseConvInt8, Multipliers, QuantizedMultiplier, Same};
use shapecheck::prelude::*;

static FILTER: [[[i8; 8]; 3]; 3] = [[[1; 8]; 3]; 3];

fn main() {
    let layer: DepthwiseConvInt8<'_, Dim<3>, Dim<3>, Dim<8>, Same<1, 1>> = DepthwiseConvInt8 {
        filter: &FILTER,
        bias: None,
        padding: Same,
        input_zero_point: 0,
        output_zero_point: 0,
        multipliers: Multipliers::PerTensor(QuantizedMultiplier::ZERO),
        clamp: ClampInt8::FULL,
    };
    let x = Tensor::<i8, shape![1, 8, 8, 3]>::full(0);
    let _: Tensor<i8, shape![1, 8, 8, 8]> = depthwise_conv_int8(&x, &layer);
}
