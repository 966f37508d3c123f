// a dynamic-range ("hybrid") export: Optimize.DEFAULT without a
// representative dataset leaves the activations float32 and makes the
// second convolution's weights int8. TFLite Micro refuses it, and so does
// model!, naming the hybrid layer and the two exports that run
// (tflite/tests/models/refused/hybrid_conv.tflite)
shapecheck::model!(Hybrid = "../../../tflite/tests/models/refused/hybrid_conv.tflite");

fn main() {}
