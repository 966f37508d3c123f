// Pdpd places else into then one way: a run-time else dim may be neither 1
// nor then's, so the plain `select` does not compile and names `try_select`.
use shapecheck::prelude::*;

fn main() {
    let then = tensor![[1, 2], [3, 4]];
    let els = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(2),), vec![0, 0]).unwrap();
    let cond = tensor![true, false];
    let _ = select(&cond, &then, &els, Pdpd::<0>);
}
