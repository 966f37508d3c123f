// A run-time row count on the heap: static rules still hold for the static
// dims, the Dyn dims are checked when the op runs.
use shapecheck::prelude::*;
use shapecheck::{multiplex, MultiplexError};

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
    let out = multiplex(&[a.clone(), b.clone()], &index).unwrap();
    assert_eq!(out.as_slice(), &[7, 8, 9, 10, 5, 6]);

    // the index has 2 rows, the candidates 3: a run-time error, no out-of-bounds read
    let short =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 1]).unwrap();
    let err = multiplex(&[a.clone(), b], &short).unwrap_err();
    assert!(
        matches!(err, MultiplexError::IndexShape { rows: 3, .. }),
        "{err}"
    );

    // candidates whose run-time dims differ
    let c =
        Tensor::<i64, shape![Dyn, 2], Vec<i64>>::from_vec((Dyn(2), Dim::<2>), vec![0; 4]).unwrap();
    let err = multiplex(&[a, c], &index).unwrap_err();
    assert!(
        matches!(err, MultiplexError::CandidateShapes { position: 1, .. }),
        "{err}"
    );
}
