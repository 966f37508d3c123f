// Cond, then and else with one brand on their rows meet in the plain
// `select` in every mode, with no check when the op runs.
use shapecheck::prelude::*;

fn main() {
    let then = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim), vec![1, 2, 3, 4]).unwrap();
    let els = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim), vec![-1, -2, -3, -4]).unwrap();
    let rows = Tensor::<bool, shape![Dyn, 1], Vec<bool>>::from_vec((Dyn(2), One), vec![true, false]).unwrap();
    let full = Tensor::<bool, shape![Dyn, 2], Vec<bool>>::from_vec((Dyn(2), Dim), vec![true, false, false, true]).unwrap();
    let (numpy, none, pdpd) = then.with_brand(|t, b| {
        let e = els.brand_rows(b)?;
        let c = rows.brand_rows(b)?;
        let f = full.brand_rows(b)?;
        let numpy = select(&c, &t, &e, Numpy).unbrand_rows();
        let none = select(&f, &t, &e, NoBroadcast).unbrand_rows();
        let pdpd = select(&c, &t, &tensor![9, 9], Pdpd::<-1>).unbrand_rows();
        Ok::<_, ShapeError>((numpy, none, pdpd))
    }).unwrap();
    assert_eq!(numpy.as_slice(), &[1, 2, -3, -4]);
    assert_eq!(none.as_slice(), &[1, -2, -3, 4]);
    assert_eq!(pdpd.as_slice(), &[1, 2, 9, 9]);
}
