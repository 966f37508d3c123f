// a model written from the plan's steps (SPLIT: no typed layer, three
// outputs) with its arena in a static, as a firmware holds it: Arena::new
// is a const fn, and predict_in returns the three outputs
use shapecheck::prelude::*;
use std::sync::Mutex;

shapecheck::model!(Split3 = "../../../tflite/tests/ops/split_3.tflite");

static ARENA: Mutex<split3::Arena> = Mutex::new(split3::Arena::new());

// the firmware holds the arena (RAM_BYTES 120 and the input's copy, 120)
// and its input (120): 360 bytes
const _: () = split3::assert_ram_fits(360, core::mem::size_of::<split3::Input>());

fn main() {
    let x: split3::Input = Tensor::full(3);
    let mut arena = ARENA.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (a, b, c): split3::Output = Split3::predict_in(&x, &mut arena);
    assert_eq!((a.as_slice()[0], b.as_slice()[1], c.as_slice()[2]), (3, 3, 3));
    // the arena: the input (120 int8) and the three outputs (40 each)
    assert_eq!(split3::Arena::BYTES, 120 + Split3::RAM_BYTES);
    assert_eq!(core::mem::size_of::<split3::Arena>(), split3::Arena::BYTES);
    assert_eq!(Split3::RAM_BYTES, 120);
}
