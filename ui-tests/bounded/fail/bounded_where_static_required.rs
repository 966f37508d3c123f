// A bounded tensor (rows `Bounded<8>`, a run-time size) where a static shape
// is required: `from_array` builds an inline tensor, whose every dim must be
// known to the compiler.
use shapecheck::prelude::*;

fn main() {
    let _t = Tensor::<f32, (Bounded<8>, Dim<2>)>::from_array([[1.0, 2.0]]);
}
