// A dynamic_stitch that is never run computes nothing, with one pair or
// more: the call is a warning naming the four output methods, an error
// under `deny(unused_must_use)`.
#![deny(unused_must_use)]
use shapecheck::prelude::*;

fn main() {
    let (i0, d0) = (tensor![0, 2], tensor![[1, 2], [5, 6]]);
    let (i1, d1) = (tensor![1], tensor![[3, 4]]);
    dynamic_stitch(&i0, &d0).pair(&i1, &d1);
}
