// a firmware's RAM budget of 64 bytes holds sine's arena (32 bytes) and
// its input (1 byte): the check builds
shapecheck::model!(Sine = "../../../tflite/tests/models/sine.tflite");

const _: () = sine::assert_ram_fits(64, core::mem::size_of::<sine::Input>());

fn main() {
    sine::assert_ram_fits(33, 0); // at run time too, where it fits
}
