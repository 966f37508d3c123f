// dynamic_partition into a caller's buffer: no heap, TensorFlow's values.
use shapecheck::prelude::*;

fn main() {
    let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
    let parts = Tensor::<i32, shape![4]>::from_array([1, 0, 1, 1]);
    let mut buf = [0; 8];
    let [p0, p1] = dynamic_partition(&data, &parts, Partitions::<2>).run_into(&mut buf).unwrap();
    assert_eq!(p0.dims().as_slice(), &[1, 2]);
    assert_eq!(p0.as_slice(), &[3, 4]);
    assert_eq!(p1.dims().as_slice(), &[3, 2]);
    assert_eq!(p1.as_slice(), &[1, 2, 5, 6, 7, 8]);
    // a partition value outside [0, 2) is an error, and nothing is written
    let bad = Tensor::<i32, shape![4]>::from_array([0, 2, 0, 0]);
    let mut buf = [0; 8];
    assert!(dynamic_partition(&data, &bad, Partitions::<2>).run_into(&mut buf).is_err());
    assert_eq!(buf, [0; 8]);
}
