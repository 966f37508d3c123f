// sine.tflite with its FULLY_CONNECTED operator code (9) made 15,
// LSH_PROJECTION, an op shapecheck does not run
// (ui-tests/model/sine_lsh_projection.tflite: one byte of sine.tflite changed)
shapecheck::model!(Sine = "../sine_lsh_projection.tflite");

fn main() {}
