use shapecheck::{shape, Dim, Dyn, FixedShape, One, Shape};

const N: usize = 1500;

fn main() {
    let s: shape![2, 1, N, 4099] = (Dim, One, Dim, Dim);
    assert_eq!(s.dims().as_slice(), &[2, 1, 1500, 4099]);
    assert_eq!(<shape![2, 1, N, 4099] as FixedShape>::NUMEL, 2 * 1500 * 4099);
    let d: shape![Dyn, 16] = (Dyn(7), Dim);
    assert_eq!(d.dims().as_slice(), &[7, 16]);
    assert!(!<shape![Dyn, 16] as Shape>::IS_STATIC);
    let scalar: shape![] = ();
    assert_eq!(scalar.dims().rank(), 0);
    let r8: shape![2, 2, 2, 2, 2, 2, 2, 2] = Default::default();
    assert_eq!(r8.numel().unwrap(), 256);
    // a dim given at run time is checked against the type
    assert!(<shape![2, 3]>::from_dims(&[2, 4]).is_err());
    assert!(<shape![Dyn, 3]>::from_dims(&[9, 3]).is_ok());
}
