// sine.tflite with its FULLY_CONNECTED operator code (9) made 126,
// BATCH_MATMUL, an op shapecheck's layers do not cover
// (ui-tests/model/sine_batch_matmul.tflite: one byte of sine.tflite changed)
shapecheck::model!(Sine = "../sine_batch_matmul.tflite");

fn main() {}
