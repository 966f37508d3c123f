//! The layers against `shapecheck_tflite`'s slice kernels on non-trivial
//! cases, and the arena's views against plain slices.

use super::*;
use crate::dim::{Dim, One};
use crate::tensor::Tensor;

#[test]
fn arena_views_are_the_elements_at_their_offsets() {
    let mut arena = Arena::<i32, 12>::new(-1);
    arena
        .write::<(Dim<2>, Dim<3>), 2>()
        .as_mut_slice()
        .copy_from_slice(&[1, 2, 3, 4, 5, 6]);
    assert_eq!(
        arena.read::<(Dim<12>,), 0>().as_slice(),
        &[-1, -1, 1, 2, 3, 4, 5, 6, -1, -1, -1, -1]
    );
    // a write after the read, then before it
    let (x, mut y) = arena.read_write::<(Dim<6>,), 2, (Dim<4>,), 8>();
    y.as_mut_slice().copy_from_slice(x.as_slice().split_at(4).0);
    assert_eq!(x.as_slice(), &[1, 2, 3, 4, 5, 6]);
    let (x, mut y) = arena.read_write::<(Dim<4>,), 8, (One, Dim<2>), 0>();
    y.as_mut_slice().copy_from_slice(x.as_slice().split_at(2).1);
    assert_eq!(
        arena.read::<(Dim<12>,), 0>().as_slice(),
        &[3, 4, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4]
    );
    // reads on both sides of the write, overlapping each other
    let (a, b, mut y) = arena.read2_write::<(Dim<3>,), 1, (Dim<4>,), 0, (Dim<2>,), 4>();
    assert_eq!(a.as_slice(), &[4, 1, 2]);
    assert_eq!(b.as_slice(), &[3, 4, 1, 2]);
    y.as_mut_slice().copy_from_slice(&[0, 0]);
    let (a, b, y) = arena.read2_write::<(Dim<2>,), 10, (Dim<6>,), 0, (Dim<4>,), 6>();
    assert_eq!(a.as_slice(), &[3, 4]);
    assert_eq!(b.as_slice(), &[3, 4, 1, 2, 0, 0]);
    assert_eq!(y.as_slice(), &[5, 6, 1, 2]);
    // empty views: a write of nothing cuts no read in two
    let (x, y) = arena.read_write::<(Dim<12>,), 0, (Dim<0>,), 5>();
    assert_eq!(x.as_slice().len(), 12);
    assert!(y.as_slice().is_empty());
    let (x, y) = arena.read_write::<(Dim<0>,), 5, (Dim<4>,), 4>();
    assert!(x.as_slice().is_empty());
    assert_eq!(y.as_slice(), &[0, 0, 5, 6]);
}

#[test]
fn arena_is_its_buffer() {
    assert_eq!(Arena::<i8, 100>::BYTES, 100);
    assert_eq!(Arena::<i32, 3>::BYTES, 12);
    let _: Tensor<i8, (Dim<100>,), &[i8]> = Arena::<i8, 100>::new(0).read::<(Dim<100>,), 0>();
}
