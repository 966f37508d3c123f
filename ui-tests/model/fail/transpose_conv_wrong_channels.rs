// a transposed convolution whose filter [4, 2, 2, 3] takes 3 channels fed
// an input of 8: the input's channels must be the filter's last dim
use shapecheck::ops::layers::{transpose_conv_int8, ClampInt8, Multipliers, QuantizedMultiplier, Same, TransposeConvInt8};
use shapecheck::prelude::*;

static FILTER: [[[[i8; 3]; 2]; 2]; 4] = [[[[1; 3]; 2]; 2]; 4];

fn main() {
    let layer: TransposeConvInt8<'_, Dim<4>, Dim<2>, Dim<2>, Dim<3>, Same<2, 2>> = TransposeConvInt8 {
        filter: &FILTER,
        bias: None,
        padding: Same,
        input_zero_point: 0,
        output_zero_point: 0,
        multipliers: Multipliers::PerTensor(QuantizedMultiplier::ZERO),
        clamp: ClampInt8::FULL,
    };
    let x = Tensor::<i8, shape![1, 4, 5, 8]>::full(0);
    let _: Tensor<i8, shape![1, 8, 10, 4]> = transpose_conv_int8(&x, &layer);
}
