//! shapecheck's `model!` on a float32 CNN as Keras exports it without
//! quantization (`tflite/tests/models/float_cnn.tflite`: convolutions,
//! depthwise convolutions, a max pool, a mean, a dense layer, a softmax):
//! every recorded case of `float_cnn.json` in `predict_once`, each
//! output checked against TFLite Micro's to the bit, the first printed for
//! compare.sh, `RAM_BYTES` printed (`float_firmware!`, embedded/models/src/lib.rs).
#![no_std]
#![no_main]

shapecheck_models_compare::float_firmware!(FloatCnn, float_cnn, "float_cnn");
