//! Result storage is chosen by the output's shape: inline when every dim is
//! static, a `Vec` when one is `Dyn`, whatever the operands' storage (inline,
//! views, heap); a heap operand keeps its result on the heap.

use shapecheck::ops::Mul;
use shapecheck::prelude::*;
use shapecheck::{select, try_select};

/// A `Dyn` output from a view and an inline operand: a `Vec` result.
#[test]
fn elementwise_dyn_output_from_view_and_inline() {
    let buf = [1, 2, 3, 4, 5, 6];
    let x = Tensor::<i32, shape![Dyn, 3], &[i32]>::with_dims(&[2, 3], &buf[..]).unwrap();
    let y = tensor![10, 20, 30];
    let z: Tensor<i32, shape![Dyn, 3], Vec<i32>> =
        x.try_elementwise(Mul, &y, Axis::<-1>, Identity).unwrap();
    assert_eq!(z.dims().as_slice(), &[2, 3]);
    assert_eq!(z.as_slice(), &[10, 40, 90, 40, 100, 180]);
}

/// An inline left operand whose `One` meets a `Dyn` of the other: the output
/// dim is `Dyn`, so the result is a `Vec` (it used to need an inline result).
#[test]
fn elementwise_dyn_output_from_inline_left() {
    let x = tensor![[1, 2, 3]]; // [1, 3], inline
    let buf = [1, 10, 100, 1000];
    let y = Tensor::<i32, shape![Dyn, 1], &[i32]>::with_dims(&[4, 1], &buf[..]).unwrap();
    let z: Tensor<i32, shape![Dyn, 3], Vec<i32>> =
        x.try_elementwise(Mul, &y, Axis::<-1>, Identity).unwrap();
    assert_eq!(z.dims().as_slice(), &[4, 3]);
    assert_eq!(
        z.as_slice(),
        &[1, 2, 3, 10, 20, 30, 100, 200, 300, 1000, 2000, 3000]
    );
    // a run-time rule still gives a typed error
    let bad = Tensor::<i32, shape![Dyn, 3], &[i32]>::with_dims(&[2, 3], &[0; 6][..]).unwrap();
    let wide = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::with_dims(&[3, 3], vec![0; 9]).unwrap();
    assert!(bad
        .try_elementwise(Mul, &wide, Axis::<-1>, Identity)
        .is_err());
}

/// Select with inline then/else and a view cond of run-time rows.
#[test]
fn select_dyn_output_from_inline_then() {
    let t = tensor![1, 2];
    let e = tensor![-1, -2];
    let cbuf = [true, false, false, true, true, true];
    let c = Tensor::<bool, shape![Dyn, 2], &[bool]>::with_dims(&[3, 2], &cbuf[..]).unwrap();
    let out: Tensor<i32, shape![Dyn, 2], Vec<i32>> = try_select(&c, &t, &e, Numpy).unwrap();
    assert_eq!(out.dims().as_slice(), &[3, 2]);
    assert_eq!(out.as_slice(), &[1, -2, -1, 2, 1, 2]);
}

/// Static outputs stay inline for inline and view operands, and on the heap
/// for heap operands.
#[test]
fn static_outputs_keep_their_storage() {
    let buf = [1.0f32, 2.0, 3.0, 4.0];
    let v = Tensor::<f32, shape![2, 2], &[f32]>::from_storage(&buf[..]).unwrap();
    let inline: Tensor<f32, shape![2, 2]> = &v * &v;
    assert_eq!(inline.as_slice(), &[1.0, 4.0, 9.0, 16.0]);
    let heap = v.to_heap();
    let h: Tensor<f32, shape![2, 2], Vec<f32>> = &heap * &v;
    assert_eq!(h.as_slice(), inline.as_slice());
    let c = Tensor::<bool, shape![2]>::from_array([true, false]);
    let s: Tensor<f32, shape![2, 2], Vec<f32>> = select(&c, &heap, &inline, Numpy);
    assert_eq!(s.as_slice(), &[1.0, 4.0, 3.0, 16.0]);
}

/// `FixedShape::array_from_fn` (what a bounded result's room is built by)
/// calls its function once per element, in row-major order, for every rank
/// and with `One` dims among the others.
#[test]
fn array_from_fn_is_row_major_for_every_rank() {
    fn check<S: StaticShape>() {
        let mut calls = Vec::new();
        let a = S::array_from_fn(|i| {
            calls.push(i);
            i * 3 + 1
        });
        let expected: Vec<usize> = (0..S::NUMEL).map(|i| i * 3 + 1).collect();
        assert_eq!(S::array_as_slice(&a), &expected[..], "{:?}", S::DIMS);
        assert_eq!(calls, (0..S::NUMEL).collect::<Vec<_>>(), "{:?}", S::DIMS);
    }
    check::<shape![]>();
    check::<shape![4]>();
    check::<shape![1]>();
    check::<shape![2, 3]>();
    check::<shape![3, 1, 2]>();
    check::<shape![2, 1, 3, 2]>();
    check::<shape![2, 2, 1, 2, 3]>();
    check::<shape![1, 2, 2, 1, 2, 3]>();
    check::<shape![2, 1, 2, 2, 1, 2, 2]>();
    check::<shape![2, 2, 1, 2, 2, 1, 2, 3]>();
    check::<shape![0, 3]>();
}
