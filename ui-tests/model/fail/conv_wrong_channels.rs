// a CONV_2D whose filter [8, 3, 3, 4] takes 4 input channels fed an input
// of 3 channels: the input's last dim must be the filter's
use shapecheck::ops::layers::{conv_2d_int8, ClampInt8, Conv2dInt8, Multipliers, QuantizedMultiplier, Same};
use shapecheck::prelude::*;

static FILTER: [[[[i8; 4]; 3]; 3]; 8] = [[[[1; 4]; 3]; 3]; 8];

fn main() {
    let layer: Conv2dInt8<'_, Dim<8>, Dim<3>, Dim<3>, Dim<4>, Same<1, 1>> = Conv2dInt8 {
        filter: &FILTER,
        bias: None,
        padding: Same,
        input_zero_point: 0,
        output_zero_point: 0,
        multipliers: Multipliers::PerTensor(QuantizedMultiplier::ZERO),
        clamp: ClampInt8::FULL,
    };
    let x = Tensor::<i8, shape![1, 8, 8, 3]>::full(0);
    let _: Tensor<i8, shape![1, 8, 8, 8]> = conv_2d_int8(&x, &layer);
}
