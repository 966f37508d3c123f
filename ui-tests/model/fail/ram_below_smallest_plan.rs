// person detection asked to fit in 8 KiB: the smallest schedule the
// search finds (its 48×48 and 24×24 stages streamed) takes more, and the
// error names both numbers
shapecheck::model!(Person = "../../../tflite/tests/models/person_detect.tflite", ram = 8_192);

fn main() {}
