// a convolution written by hand as model! writes its layers: a `static`
// whose clamp is built by `ClampInt8::new` in its initializer, a constant.
// The clamp [5, -5] is empty (TFLite's kernels refuse it), so the build
// fails, naming the layer; `predict` never meets it at run time.
use shapecheck::ops::layers::{ClampInt8, Conv2dInt8, Multipliers, QuantizedMultiplier, Same};
use shapecheck::prelude::*;

static FILTER: [[[[i8; 4]; 3]; 3]; 8] = [[[[1; 4]; 3]; 3]; 8];

static LAYER_3: Conv2dInt8<'static, Dim<8>, Dim<3>, Dim<3>, Dim<4>, Same<1, 1>> = Conv2dInt8 {
    filter: &FILTER,
    bias: None,
    padding: Same,
    input_zero_point: 0,
    output_zero_point: 0,
    multipliers: Multipliers::PerTensor(QuantizedMultiplier::ZERO),
    clamp: match ClampInt8::new(5, -5) {
        Ok(clamp) => clamp,
        Err(_) => panic!("operator 3 (CONV_2D): its clamp [5, -5] is empty"),
    },
};

fn main() {
    let _ = &LAYER_3;
}
