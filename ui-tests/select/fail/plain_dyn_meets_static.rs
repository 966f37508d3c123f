// A run-time dim that meets a static dim other than 1 needs a check when the
// op runs: the plain `select` does not compile and names `try_select`.
use shapecheck::prelude::*;

fn main() {
    let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1, 2], [3, 4]]).run().unwrap();
    let cond = tensor![[true, false], [false, true]];
    let _ = select(&cond, &rows, &tensor![0, 0], Numpy);
}
