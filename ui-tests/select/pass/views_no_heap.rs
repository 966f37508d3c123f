// No heap: views over static buffers in, a caller's buffer out.
use shapecheck::prelude::*;
use shapecheck::select_into;

static COND: [bool; 4] = [true, false, false, true];
static THEN: [f32; 8] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
static ELSE: [f32; 2] = [-1.0, -2.0];

fn main() {
    let mut buf = [0.0f32; 8];
    let c = Tensor::<bool, shape![4], &[bool]>::from_storage(&COND[..]).unwrap();
    let t = Tensor::<f32, shape![2, 4], &[f32]>::from_storage(&THEN[..]).unwrap();
    let e = Tensor::<f32, shape![2, 1], &[f32]>::from_storage(&ELSE[..]).unwrap();
    let mut out = Tensor::<f32, shape![2, 4], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    select_into(&c, &t, &e, Numpy, &mut out);
    assert_eq!(buf, [1.0, -1.0, -1.0, 4.0, 5.0, -2.0, -2.0, 8.0]);
}
