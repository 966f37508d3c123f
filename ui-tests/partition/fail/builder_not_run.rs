// A dynamic_partition that is never run computes nothing: the call is a
// warning naming the four output methods, an error under
// `deny(unused_must_use)`.
#![deny(unused_must_use)]
use shapecheck::prelude::*;

fn main() {
    let data = tensor![[1, 2], [3, 4], [5, 6]];
    let parts = tensor![1, 0, 1];
    dynamic_partition(&data, &parts, Partitions::<2>);
}
