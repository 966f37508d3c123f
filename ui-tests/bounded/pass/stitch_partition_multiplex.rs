// The bounded forms need neither a heap nor a caller buffer, and a bounded
// tensor is `Copy`.
use shapecheck::prelude::*;
use shapecheck::{multiplex_bounded, dynamic_partition_bounded};

fn main() {
    let (i, d) = (tensor![1, 0], tensor![[1, 2], [3, 4]]);
    let merged = dynamic_stitch(&i, &d).run_bounded::<4>().unwrap();
    let copy = merged;
    assert_eq!(copy.as_slice(), &[3, 4, 1, 2]);
    let [a, b] = dynamic_partition(&d, &i, Partitions::<2>).run_bounded::<2>().unwrap();
    assert_eq!((a.as_slice(), b.as_slice()), (&[3, 4][..], &[1, 2][..]));
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let m = multiplex(&[d, d], &index).run_bounded::<2>().unwrap();
    assert_eq!(m.as_slice(), &[1, 2, 3, 4]);
}
