// pdpd at axis 0: neither cond [3] nor else [3] fits then [2, 3] there
// (3 against 2); one mistake, one error (else is checked first). The fix:
// Pdpd::<1> or Pdpd::<-1>.
use shapecheck::prelude::*;

fn main() {
    let c = Tensor::<bool, shape![3]>::full(true);
    let t = Tensor::<f32, shape![2, 3]>::full(1.0);
    let e = Tensor::<f32, shape![3]>::full(2.0);
    let _ = select(&c, &t, &e, Pdpd::<0>);
}
