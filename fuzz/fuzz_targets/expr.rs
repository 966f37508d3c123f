//! Fused expressions (`shapecheck::expr`) on arbitrary small dims, data,
//! ops and axis, against the chain of plain `try_` ops they replace.
//!
//! Invariants (differential): `((x op1 y at axis) op2 z).relu()` (op1 any
//! of the six, each with another op2; axis -1 or 1) through
//! `try_eval` is accepted exactly when the plain ops one after the other
//! are, with the same rule when both reject and the same values bit for bit
//! when both accept; `try_eval_into` writes every element of a buffer of the
//! right dims and leaves it untouched on an error; in place (`try_update`)
//! gives the same values when the output has x's dims.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::expr::{Expr, FloatOp, Node};
use shapecheck::ops::{Add, Div, Max, Min, Mul, Sub};
use shapecheck::prelude::*;
use shapecheck::ExprError;
use shapecheck_fuzz::*;

type T3 = Tensor<f32, (Dyn, Dyn, Dyn), Vec<f32>>;
type T2 = Tensor<f32, (Dyn, Dyn), Vec<f32>>;

/// Dims of rank `rank`, each 0 to 4, often `base`'s.
fn dims_of(u: &mut Unstructured<'_>, rank: usize, base: &[usize]) -> Vec<usize> {
    (0..rank)
        .map(|i| match (byte(u), base.get(i)) {
            (0..=159, Some(&b)) => b,
            (160..=199, _) => 1,
            _ => usize::from(byte(u) % 5),
        })
        .collect()
}

fn tensor_of<S: Shape>(u: &mut Unstructured<'_>, dims: &[usize]) -> Tensor<f32, S, Vec<f32>> {
    let n = dims.iter().product();
    Tensor::with_dims(dims, data::<f32>(u, n)).expect("dims of the shape's rank")
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

type S3 = (Dyn, Dyn, Dyn);

/// The checks on one tree: `fused` against `plain`, into a buffer, and in
/// place (`update` runs the same tree through `try_update` on a copy of x).
fn check<N: Node<f32, Shape = S3>>(
    fused: Expr<f32, N, S3>,
    plain: Result<T3, &'static str>,
    x: &T3,
    update: impl FnOnce(&mut T3) -> Result<(), ExprError>,
) {
    let got = fused.try_eval();
    let mut buf = vec![f32::from_bits(0x7fc0_1234); 64];
    match (&got, &plain) {
        (Ok(f), Ok(p)) => {
            assert_eq!(f.dims(), p.dims());
            assert_eq!(bits(f.as_slice()), bits(p.as_slice()));
            let n = p.as_slice().len();
            if n <= buf.len() {
                let mut out = Tensor::<f32, S3, &mut [f32]>::with_dims(&p.dims(), &mut buf[..n])
                    .expect("the output's dims");
                fused.try_eval_into(&mut out).expect("the same expression");
                assert_eq!(bits(&buf[..n]), bits(p.as_slice()));
            }
            if p.dims() == x.dims() {
                let mut inplace = x.clone();
                update(&mut inplace).expect("the output has x's dims");
                assert_eq!(bits(inplace.as_slice()), bits(p.as_slice()));
            }
        }
        (Err(f), Err(p)) => {
            assert_eq!(f.rule(), *p);
            // a buffer of x's dims is untouched by the failing expression
            let n = x.as_slice().len();
            if n <= buf.len() {
                let before = bits(&buf);
                let mut out = Tensor::<f32, S3, &mut [f32]>::with_dims(&x.dims(), &mut buf[..n])
                    .expect("x's dims");
                assert!(fused.try_eval_into(&mut out).is_err());
                assert_eq!(bits(&buf), before);
            }
        }
        (f, p) => panic!(
            "fused {:?} but plain {:?} for x {:?}",
            f.as_ref().map(|t| t.dims()),
            p.as_ref().map(|t| t.dims()),
            x.dims()
        ),
    }
}

/// `((x op1 y at axis) op2 z).relu()`, the axis -1 (numpy) or 1 (y [2]
/// placed on x's last two dims, or running past them): a type, so one arm
/// each, and few of them, since each is code of its own for the fuzz build.
fn chain<O1: FloatOp<f32>, O2: FloatOp<f32>>(pick: u8, o1: O1, o2: O2, x: &T3, y: &T2, z: &T3) {
    let second = |t: T3| t.try_elementwise(o2, z, Axis::<-1>, Relu).map_err(|e| e.rule());
    match pick % 2 {
        0 => check(
            x.lazy().elementwise(o1, y, Axis::<-1>, Identity).elementwise(o2, z, Axis::<-1>, Relu),
            x.try_elementwise(o1, y, Axis::<-1>, Identity).map_err(|e| e.rule()).and_then(second),
            x,
            |t| t.try_update(|x| x.elementwise(o1, y, Axis::<-1>, Identity).elementwise(o2, z, Axis::<-1>, Relu)),
        ),
        _ => check(
            x.lazy().elementwise(o1, y, Axis::<1>, Identity).elementwise(o2, z, Axis::<-1>, Relu),
            x.try_elementwise(o1, y, Axis::<1>, Identity).map_err(|e| e.rule()).and_then(second),
            x,
            |t| t.try_update(|x| x.elementwise(o1, y, Axis::<1>, Identity).elementwise(o2, z, Axis::<-1>, Relu)),
        ),
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    let u = &mut u;
    let xd = dims_of(u, 3, &[]);
    let x: T3 = tensor_of(u, &xd);
    let (lo, hi) = if flag(u) { (1, 3) } else { (0, 2) };
    let yd = dims_of(u, 2, xd.get(lo..hi).unwrap_or(&[]));
    let y: T2 = tensor_of(u, &yd);
    let zd = dims_of(u, 3, &xd);
    let z: T3 = tensor_of(u, &zd);
    // the first op any of the six, the second another (each pair of op
    // types is code of its own: few keep the target's build short)
    let pick = byte(u);
    match byte(u) % 6 {
        0 => chain(pick, Mul, Add, &x, &y, &z),
        1 => chain(pick, Add, Max, &x, &y, &z),
        2 => chain(pick, Sub, Mul, &x, &y, &z),
        3 => chain(pick, Div, Sub, &x, &y, &z),
        4 => chain(pick, Max, Div, &x, &y, &z),
        _ => chain(pick, Min, Add, &x, &y, &z),
    }
});
