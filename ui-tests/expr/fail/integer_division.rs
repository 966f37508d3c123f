// Integer division can fail on a zero divisor: not offered in expressions.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![2]>::zeros();
    let _ = (x.lazy() / &x).eval();
}
