// a DEPTHWISE_CONV_2D whose filter [3, 3, 8] has 8 channels (depth
// multiplier 1) fed an input of 3 channels: the input's channels must be
// the filter's. One error naming both shapes at `cargo check`, as the
// convolution's (`conv_wrong_channels.rs`)
use shapecheck::ops::layers::{depthwise_conv_int8, ClampInt8, DepthwiseConvInt8, Multipliers, QuantizedMultiplier, Same};
use shapecheck::prelude::*;

static FILTER: [[[i8; 8]; 3]; 3] = [[[1; 8]; 3]; 3];

fn main() {
    let layer: DepthwiseConvInt8<'_, Dim<3>, Dim<3>, Dim<8>, Same<1, 1>> = DepthwiseConvInt8 {
        filter: &FILTER,
        depth_multiplier: One,
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
