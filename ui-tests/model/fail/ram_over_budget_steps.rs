// a model written from the plan's steps (CONCATENATION, RESIZE_BILINEAR,
// LEAKY_RELU: no typed layer) holds a copy of its input in its arena, so a
// budget of RAM_BYTES and the input the firmware holds is short by that
// copy: the error names it
shapecheck::model!(Unet = "../../../tflite/tests/user/user_unet.tflite");

const INPUT: usize = core::mem::size_of::<unet::Input>();
const _: () = unet::assert_ram_fits(unet::RAM_BYTES + INPUT, INPUT);

fn main() {}
