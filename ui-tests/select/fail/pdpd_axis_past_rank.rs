// pdpd: the axis must be -1 or in [0, rank(then)]; 3 is past rank 2. Both
// cond and else are rejected at that axis, and that is one error.
use shapecheck::prelude::*;

fn main() {
    let s = Tensor::<bool, shape![]>::full(true);
    let t = Tensor::<f32, shape![2, 3]>::full(1.0);
    let _ = select(&s, &t, &t, Pdpd::<3>);
}
