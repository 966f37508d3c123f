// a float16-weight export (supported_types = [tf.float16]): each
// layer's weights stored as FLOAT16 and DEQUANTIZEd to float32 first.
// TFLite Micro refuses it, and so does model!, naming the first FLOAT16
// tensor and the two exports that run
// (tflite/tests/models/refused/f16_weights_conv.tflite)
shapecheck::model!(Half = "../../../tflite/tests/models/refused/f16_weights_conv.tflite");

fn main() {}
