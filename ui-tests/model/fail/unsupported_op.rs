// sine.tflite with its FULLY_CONNECTED operator code (9) made 69, TILE
// (what Keras's nearest UpSampling2D exports to), an op neither model!
// nor the Interpreter runs
// (ui-tests/model/sine_tile.tflite: one byte of sine.tflite changed)
shapecheck::model!(Sine = "../sine_tile.tflite");

fn main() {}
