// Pdpd places else into then one way: two run-time else dims, each maybe
// neither 1 nor then's, so the plain `select` does not compile and names
// `try_select`.
use shapecheck::prelude::*;

fn main() {
    let then = tensor![[1, 2], [3, 4]];
    let els = Tensor::<i32, shape![Dyn, Dyn], Vec<i32>>::from_vec((Dyn(2), Dyn(2)), vec![0; 4]).unwrap();
    let cond = tensor![true, false];
    let _ = select(&cond, &then, &els, Pdpd::<0>);
}
