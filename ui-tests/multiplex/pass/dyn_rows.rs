// A run-time row count on the heap: static rules still hold for the static
// dims, the Dyn dims are checked when the op runs.
use shapecheck::prelude::*;
use shapecheck::{multiplex, multiplex_into, MultiplexError, ShapeError};

fn main() {
    let a = Tensor::<i64, shape![Dyn, 2], Vec<i64>>::from_vec(
        (Dyn(3), Dim::<2>),
        vec![1, 2, 3, 4, 5, 6],
    )
    .unwrap();
    let b = Tensor::<i64, shape![Dyn, 2], Vec<i64>>::from_vec(
        (Dyn(3), Dim::<2>),
        vec![7, 8, 9, 10, 11, 12],
    )
    .unwrap();
    let index =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(3), One), vec![1, 1, 0]).unwrap();
    let out = multiplex(&[a.clone(), b.clone()], &index).run().unwrap();
    assert_eq!(out.as_slice(), &[7, 8, 9, 10, 5, 6]);

    // the index has 2 rows, the candidates 3: valid, a [2, 2] output
    let short =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 0]).unwrap();
    let out = multiplex(&[a.clone(), b.clone()], &short).run().unwrap();
    assert_eq!(out.dims().as_slice(), &[2, 2]);
    assert_eq!(out.as_slice(), &[7, 8, 3, 4]);

    // the index has 4 rows, the candidates 3: a run-time error naming both
    let long =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(4), One), vec![1, 1, 0, 0]).unwrap();
    let err = multiplex(&[a.clone(), b.clone()], &long).run().unwrap_err();
    assert!(matches!(err, MultiplexError::IndexRows { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "multiplex: index rows must not exceed candidate rows, but the index [4, 1] has 4 rows and the candidates [3, 2] have 3"
    );

    // static candidate rows (on the heap), a run-time index row count:
    // checked when it runs
    let s = Tensor::<i64, shape![2, 2], Vec<i64>>::from_vec(Default::default(), vec![1, 2, 3, 4])
        .unwrap();
    let err = multiplex(&[s.clone(), s.clone()], &long).run().unwrap_err();
    assert!(matches!(err, MultiplexError::IndexRows { .. }), "{err}");
    let out = multiplex(&[s.clone(), s.clone()], &short).run().unwrap();
    assert_eq!(out.as_slice(), &[1, 2, 3, 4]);

    // inline candidates, a run-time index row count: the output type has a
    // Dyn row dim, so it cannot be inline; write into a caller's tensor
    let i = Tensor::<i64, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let mut out =
        Tensor::<i64, shape![Dyn, 2], Vec<i64>>::from_vec((Dyn(2), Dim::<2>), vec![0; 4]).unwrap();
    multiplex_into(&[i, i], &short, &mut out).unwrap();
    assert_eq!(out.as_slice(), &[1, 2, 3, 4]);
    let mut wrong =
        Tensor::<i64, shape![Dyn, 2], Vec<i64>>::from_vec((Dyn(1), Dim::<2>), vec![9; 2]).unwrap();
    assert!(matches!(
        multiplex_into(&[i, i], &short, &mut wrong),
        Err(MultiplexError::Shape(ShapeError::OutputShape { .. }))
    ));
    assert_eq!(wrong.as_slice(), &[9, 9]);

    // candidates whose run-time dims differ
    let c =
        Tensor::<i64, shape![Dyn, 2], Vec<i64>>::from_vec((Dyn(2), Dim::<2>), vec![0; 4]).unwrap();
    let err = multiplex(&[a, c], &index).run().unwrap_err();
    assert!(
        matches!(err, MultiplexError::CandidateShapes { position: 1, .. }),
        "{err}"
    );
}
