//! The export list (issue 22): the prelude is what users need, the crate
//! root re-exports the prelude and the rest, and the prelude shadows no
//! name of Rust's own preludes.

/// The prelude brings every op a user calls, its markers, errors and the
/// bounds generic code names: one import, then each op.
mod through_the_prelude {
    use shapecheck::prelude::*;

    #[test]
    fn every_op() {
        let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
        let y = x.elementwise_mul(&tensor![10.0f32, 20.0], Axis::<-1>, Relu);
        assert_eq!(y.as_slice(), &[10.0, 40.0, 30.0, 80.0]);
        let picked = select(&tensor![[true], [false]], &x, &y, Numpy);
        assert_eq!(picked.as_slice(), &[1.0, 2.0, 30.0, 80.0]);
        let rows = multiplex(
            &[x, y],
            &Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]),
        )
        .unwrap();
        assert_eq!(rows.as_slice(), &[10.0, 40.0, 3.0, 4.0]);
        let merged = dynamic_stitch(&tensor![1, 0], &tensor![5, 6])
            .run()
            .unwrap();
        assert_eq!(merged.as_slice(), &[6, 5]);
        let parts = dynamic_partition(&tensor![5, 6, 7], &tensor![1, 0, 1], Partitions::<2>);
        assert_eq!(parts.unwrap()[1].as_slice(), &[5, 7]);
        let err: Result<_, ShapeError> = DynTensor::new(&[2], vec![1.0f32]);
        assert!(err.is_err());
        let (a, b) = (tensor![[1, 2]], tensor![[3, 4]]);
        let first = Tensor::<i32, shape![1, 1]>::from_array([[1]]);
        assert_eq!(multiplex!(first; a, b).unwrap().as_slice(), &[3, 4]);
    }

    /// Generic code names the rules as bounds without another import.
    fn scale<S: BroadcastWith<Y>, Y: StaticShape>(
        x: &Tensor<f32, S>,
        y: &Tensor<f32, Y>,
    ) -> Tensor<f32, BroadcastOf<S, Y>> {
        x * y
    }

    #[test]
    fn generic_bounds() {
        let z = scale(&tensor![[1.0f32], [2.0]], &tensor![3.0f32, 4.0]);
        assert_eq!(z.as_slice(), &[3.0, 4.0, 6.0, 8.0]);
    }
}

/// `use std::ops::*` beside the prelude: no name is ambiguous (the op
/// markers `Mul`, `Add`, `Sub`, `Div` live in `shapecheck::ops`).
mod beside_std_ops {
    use shapecheck::prelude::*;
    #[allow(unused_imports)]
    use std::ops::*;

    fn mix<T: Add<Output = T> + Mul<Output = T> + Sub<Output = T> + Div<Output = T> + Copy>(
        a: T,
        b: T,
        c: T,
    ) -> T {
        a * b + a - b / c
    }

    #[test]
    fn no_ambiguous_name() {
        assert_eq!(mix(2, 3, 3), 2 * 3 + 2 - 1);
        let x = tensor![1.0f32, 2.0];
        let z = x
            .try_elementwise(shapecheck::ops::Mul, &x, Axis::<-1>, Identity)
            .unwrap();
        assert_eq!(z.as_slice(), &[1.0, 4.0]);
    }
}

/// The crate root re-exports the prelude and the rest: `use shapecheck::*`
/// compiles the same programs, and reaches the plumbing-free extras.
mod through_the_root {
    use shapecheck::*;

    #[test]
    fn the_prelude_and_the_rest() {
        let x: Tensor<f32, shape![2]> = tensor![1.0f32, 2.0];
        let y = x.elementwise_add(&x, Axis::<-1>, Identity);
        assert_eq!(y.as_slice(), &[2.0, 4.0]);
        // beyond the prelude: the dynamic path's rule functions
        let dims = select_output_dims(AutoBroadcast::Numpy, &[2, 1], &[3], &[]).unwrap();
        assert_eq!(dims.as_slice(), &[2, 3]);
        assert_eq!(MAX_RANK, 8);
    }
}
