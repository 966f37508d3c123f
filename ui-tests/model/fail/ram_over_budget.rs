// a firmware's RAM budget of 16 bytes: sine's arena (32 bytes) and the
// input it holds (1 byte) do not fit, and the error names the numbers
shapecheck::model!(Sine = "../../../tflite/tests/models/sine.tflite");

const _: () = sine::assert_ram_fits(16, core::mem::size_of::<sine::Input>());

fn main() {}
