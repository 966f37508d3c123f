//! The owned forms of shapecheck on the target, with a heap: a 32 KiB
//! static array managed by embedded-alloc's linked-list allocator
//! (src/heap.rs), `alloc`
//! built from source (-Zbuild-std=core,alloc) and shapecheck's `alloc`
//! feature. Runs DynTensor's ops (shapes as values, results on the heap,
//! errors typed), and the static API on Vec-backed tensors (`Vec` operands
//! give `Vec` results), with `Dyn` dims included. Expected values: the
//! recorded framework outputs of tests/vectors/*.json (embedded by
//! build.rs). At the end every allocation must have been given back.
#![no_std]
#![no_main]

extern crate alloc;

use alloc::vec::Vec;
use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::ops::Mul;
use shapecheck::{
    multiplex, ActivationKind, AutoBroadcast, BinaryOpKind, ElementwiseError, MultiplexError,
    SelectError,
};
use shapecheck_embedded::vectors::alloc::*;
use shapecheck_embedded::{attr, heap, Approx, Checks, Vector};

// vector: EW_DOC_TANH = elementwise elementwise_mul_doc#4
// vector: EW_NUMPY = elementwise elementwise_add_random#0
// vector: EW_AXIS0_I64 = elementwise elementwise_mul_sub#31
// vector: EW_REJECTED = elementwise elementwise_mul_random#0
// vector: SEL_NUMPY = select select_numpy_valid#8
// vector: SEL_PDPD = select select_pdpd_valid#8
// vector: SEL_REJECTED = select select_numpy_mismatch#3
// vector: MX_DOC = multiplex multiplex_doc#0
// vector: MX_RANK3 = multiplex multiplex_ok#8
// vector: MX_NEGATIVE = multiplex multiplex_negative#2
// vector: ST_DOC = dynamic_stitch dynamic_stitch_doc#0
// vector: ST_DUPLICATES = dynamic_stitch dynamic_stitch_duplicates#4
// vector: ST_NEGATIVE = dynamic_stitch dynamic_stitch_negative#0
// vector: PT_TWO = dynamic_stitch dynamic_partition_ok#6
// vector: PT_OUT_OF_RANGE = dynamic_stitch dynamic_partition_out_of_range#2
// vector: LR_Y_OFFSETS = lod_reset lod_reset_y_offsets#5
// vector: LR_Y_LOD2 = lod_reset lod_reset_y_lod2#7
// vector: LR_APPEND = lod_reset lod_reset_append#2
// vector: LR_BAD_END = lod_reset lod_reset_bad_target_end#5

// dynamic_stitch / dynamic_partition and LoD / lod_reset, owned forms
#[path = "alloc/stitch_lod.rs"]
mod stitch_lod;

/// The vector as a DynTensor (a panic, which fails the run, if its dims and
/// data disagree: build.rs copies them as recorded).
fn dyn_of<T: Copy>(v: &Vector<T>) -> DynTensor<T> {
    DynTensor::new(v.dims, v.data.to_vec()).expect("vector dims and data agree")
}

/// A DynTensor result against a case: OUT (dims and data) when accepted.
fn judge<T: Approx, E>(
    c: &mut Checks,
    what: &str,
    got: Result<DynTensor<T>, E>,
    want: Option<&Vector<T>>,
    tol: f64,
    expect: impl Fn(&E) -> bool,
) {
    match (got, want) {
        (Ok(z), Some(w)) => {
            c.check(z.dims().as_slice() == w.dims, what);
            c.approx(z.as_slice(), w.data, tol, what);
        }
        (Err(e), None) => c.check(expect(&e), what),
        _ => c.check(false, what),
    }
}

macro_rules! elementwise {
    ($c:ident, $case:ident, Err($expect:pat)) => {
        elementwise!($c, $case, 0.0, None, $expect)
    };
    ($c:ident, $case:ident, $tol:expr) => {
        elementwise!($c, $case, $tol, Some(&$case::OUT), _)
    };
    ($c:ident, $case:ident, $tol:expr, $want:expr, $expect:pat) => {{
        let op = BinaryOpKind::from_name($case::OP);
        let act = ActivationKind::from_name(attr($case::ATTRS, "act").unwrap_or(""));
        let axis = attr($case::ATTRS, "axis").and_then(|a| a.parse::<isize>().ok());
        match (op, act, axis) {
            (Some(op), Ok(act), Some(axis)) => {
                let got = dyn_of(&$case::X).elementwise(op, &dyn_of(&$case::Y), axis, act);
                let want = $want;
                $c.check($case::ERROR.is_some() == want.is_none(), stringify!($case));
                judge(&mut $c, stringify!($case), got, want, $tol, |e| {
                    matches!(e, $expect)
                });
            }
            _ => $c.check(false, stringify!($case)),
        }
    }};
}

macro_rules! select {
    ($c:ident, $case:ident) => {
        select!($c, $case, Some(&$case::OUT), _)
    };
    ($c:ident, $case:ident, Err($expect:pat)) => {
        select!($c, $case, None, $expect)
    };
    ($c:ident, $case:ident, $want:expr, $expect:pat) => {{
        let axis = attr($case::ATTRS, "axis")
            .and_then(|a| a.parse().ok())
            .unwrap_or(-1);
        match attr($case::ATTRS, "auto_broadcast").and_then(|m| AutoBroadcast::from_name(m, axis)) {
            Some(mode) => {
                let (cond, then, els) = (
                    dyn_of(&$case::COND),
                    dyn_of(&$case::THEN),
                    dyn_of(&$case::ELSE),
                );
                let got = DynTensor::select(&cond, &then, &els, mode);
                let want = $want;
                $c.check($case::ERROR.is_some() == want.is_none(), stringify!($case));
                judge(&mut $c, stringify!($case), got, want, 0.0, |e| {
                    matches!(e, $expect)
                });
            }
            None => $c.check(false, stringify!($case)),
        }
    }};
}

macro_rules! multiplex_dyn {
    ($c:ident, $case:ident) => {
        multiplex_dyn!($c, $case, Some(&$case::OUT), _)
    };
    ($c:ident, $case:ident, Err($expect:pat)) => {
        multiplex_dyn!($c, $case, None, $expect)
    };
    ($c:ident, $case:ident, $want:expr, $expect:pat) => {{
        let inputs: Vec<_> = $case::INPUTS.iter().map(dyn_of).collect();
        let got = DynTensor::multiplex(&inputs, &dyn_of(&$case::INDEX));
        let want = $want;
        $c.check($case::ERROR.is_some() == want.is_none(), stringify!($case));
        judge(&mut $c, stringify!($case), got, want, 0.0, |e| {
            matches!(e, $expect)
        });
    }};
}

#[entry]
fn main() -> ! {
    heap::init();
    let mut c = Checks::new("alloc");

    // ---- DynTensor: shapes as values, every rule checked at run time
    elementwise!(c, ew_doc_tanh, 1e-6);
    elementwise!(c, ew_numpy, 0.0);
    elementwise!(c, ew_axis0_i64, 0.0);
    elementwise!(
        c,
        ew_rejected,
        Err(ElementwiseError::DimMismatch {
            x_dim: 4,
            y_dim: 3,
            ..
        })
    );
    select!(c, sel_numpy);
    select!(c, sel_pdpd);
    select!(c, sel_rejected, Err(SelectError::NumpyMismatch { .. }));
    multiplex_dyn!(c, mx_doc);
    multiplex_dyn!(c, mx_rank3);
    multiplex_dyn!(
        c,
        mx_negative,
        Err(MultiplexError::NegativeIndex { row: 0, value: -1 })
    );

    // ---- the static API on Vec-backed tensors: results on the heap
    type X = shape![2, 3, 4, 5];
    type Y = shape![3, 4];
    let x = Tensor::<f32, X, Vec<f32>>::from_vec(X::default(), ew_doc_tanh::X.data.to_vec());
    let y = Tensor::<f32, Y, Vec<f32>>::from_vec(Y::default(), ew_doc_tanh::Y.data.to_vec());
    match (x, y) {
        (Ok(x), Ok(y)) => {
            let z: Tensor<f32, X, Vec<f32>> = x.elementwise_mul(&y, Axis::<1>, Tanh);
            c.approx(
                z.as_slice(),
                ew_doc_tanh::OUT.data,
                1e-6,
                "Vec-backed elementwise_mul",
            );
            // a run-time first dim: checked at run time, result on the heap
            let xd = Tensor::<f32, shape![Dyn, 3, 4, 5], Vec<f32>>::with_dims(
                ew_doc_tanh::X.dims,
                x.as_slice().to_vec(),
            );
            match xd.map(|xd| xd.try_elementwise(Mul, &y, Axis::<1>, Tanh)) {
                Ok(Ok(z)) => c.approx(z.as_slice(), ew_doc_tanh::OUT.data, 1e-6, "Dyn dim, Vec"),
                _ => c.check(false, "try_elementwise with a Dyn dim"),
            }
            // a static tensor to a DynTensor and back
            let back = z.to_dyn().into_static::<X>();
            c.check(
                back.is_ok_and(|b| b.as_slice() == z.as_slice()),
                "to_dyn / into_static",
            );
        }
        _ => c.check(false, "Vec-backed operands"),
    }
    let cands: Vec<Tensor<f32, shape![4, 4], Vec<f32>>> = mx_doc::INPUTS
        .iter()
        .filter_map(|v| Tensor::from_vec(Default::default(), v.data.to_vec()).ok())
        .collect();
    let index = Tensor::<i32, shape![4, 1], Vec<i32>>::from_vec(
        Default::default(),
        mx_doc::INDEX.data.to_vec(),
    );
    match (<[_; 4]>::try_from(cands), index) {
        (Ok(cands), Ok(index)) => match multiplex(&cands, &index).run() {
            Ok(z) => {
                let z: Tensor<f32, shape![4, 4], Vec<f32>> = z;
                c.approx(z.as_slice(), mx_doc::OUT.data, 0.0, "Vec-backed multiplex");
            }
            Err(_) => c.check(false, "Vec-backed multiplex"),
        },
        _ => c.check(false, "Vec-backed candidates"),
    }

    // ---- dynamic_stitch / dynamic_partition: owned results
    stitch_lod::stitch_partition(&mut c);
    // ---- LoD tensors and lod_reset: owned levels
    stitch_lod::lod(&mut c);
    // ---- next ops' owned forms go here: one `// vector:` line and one
    // block each

    // every Vec above has been dropped: the heap is empty again
    c.check(heap::used() == 0, "heap empty at the end (no leak)");
    c.finish()
}
