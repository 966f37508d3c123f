//! TensorFlow's dynamic_stitch on the target, no heap: the static builder
//! (`dynamic_stitch(&i, &d).pair(..)`) over views of the vectors' data in
//! flash, `.run_into` a caller's stack buffer: pairs of mixed ranks (a
//! scalar index among them), duplicate indices (the later pair wins), rows
//! no index names (zeros), an empty pair; a negative index and a buffer too
//! small (typed errors, the buffer untouched); the shape errors the static
//! API turns into compile errors through the no-heap dynamic path
//! (`stitch_slices`). Expected values: the recorded TensorFlow outputs of
//! tests/vectors/dynamic_stitch.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::{shape, stitch_slices, StitchError as E, StitchPair};
use shapecheck_embedded::vectors::stitch::*;
use shapecheck_embedded::{Approx, Checks, Sentinel, Vector};

// vector: DOC = dynamic_stitch dynamic_stitch_doc#0
// vector: SCALAR_MATRIX = dynamic_stitch dynamic_stitch_scalar_and_matrix#4
// vector: SCALAR_MATRIX_F64 = dynamic_stitch dynamic_stitch_scalar_and_matrix#7
// vector: DUPLICATES = dynamic_stitch dynamic_stitch_duplicates#4
// vector: DUPLICATES_3D = dynamic_stitch dynamic_stitch_duplicates#2
// vector: GAPS_EMPTY_PAIR = dynamic_stitch dynamic_stitch_gaps#1
// vector: NEGATIVE = dynamic_stitch dynamic_stitch_negative#0
// vector: NEGATIVE_LAST = dynamic_stitch dynamic_stitch_negative#2
// vector: BAD_PREFIX = dynamic_stitch dynamic_stitch_bad_prefix#0
// vector: BAD_INNER = dynamic_stitch dynamic_stitch_bad_inner#0

/// Room for any output here (elements).
const BUF: usize = 64;

/// A case through the static builder, into a stack buffer of `BUF`
/// sentinels: `(index view, data view): [index dims] / [data dims]` per
/// pair (the k-th of the case's INDICES / DATA), then `Ok` (compare with
/// OUT) or `Err(pattern)` (and the buffer untouched).
macro_rules! stitch_case {
    ($c:ident, $case:ident: $T:ty,
     ($i0:ident, $d0:ident, $k0:literal): [$($is0:tt)*] / [$($ds0:tt)*]
     $(, ($i:ident, $d:ident, $k:literal): [$($is:tt)*] / [$($ds:tt)*])*
     -> $($want:tt)+) => {{
        let what = stringify!($case);
        $c.check($case::OP == "dynamic_stitch", what);
        let $i0 = $c.some($case::INDICES.get($k0).and_then(Vector::view::<shape![$($is0)*]>), what);
        let $d0 = $c.some($case::DATA.get($k0).and_then(Vector::view::<shape![$($ds0)*]>), what);
        $(
            let $i = $c.some($case::INDICES.get($k).and_then(Vector::view::<shape![$($is)*]>), what);
            let $d = $c.some($case::DATA.get($k).and_then(Vector::view::<shape![$($ds)*]>), what);
        )*
        $c.check($case::INDICES.len() == 1 $(+ { let _ = $k; 1 })*, what);
        if let (Some($i0), Some($d0) $(, Some($i), Some($d))*) = ($i0, $d0 $(, $i, $d)*) {
            let stitch = ::shapecheck::dynamic_stitch(&$i0, &$d0) $(.pair(&$i, &$d))*;
            let mut buf = [<$T as Sentinel>::SENTINEL; BUF];
            let got = stitch.run_into(&mut buf).map(|v| v.dims());
            stitch_case!(@judge $c, what, $case, got, buf, $($want)+);
        }
    }};
    (@judge $c:ident, $what:ident, $case:ident, $got:ident, $buf:ident, Ok) => {
        $c.check($case::ERROR.is_none(), $what);
        match $got {
            Ok(dims) => {
                $c.check(dims.as_slice() == $case::OUT.dims, $what);
                let n = $case::OUT.data.len();
                $c.approx(&$buf[..n], $case::OUT.data, 0.0, $what);
                $c.check($buf[n..].iter().all(|v| *v == Sentinel::SENTINEL), $what);
            }
            Err(_) => $c.check(false, $what),
        }
    };
    (@judge $c:ident, $what:ident, $case:ident, $got:ident, $buf:ident, Err($err:pat)) => {
        $c.check($case::ERROR.is_some(), $what);
        $c.check(matches!($got, Err($err)), $what);
        $c.check($buf.iter().all(|v| *v == Sentinel::SENTINEL), $what);
    };
}

/// The case's pairs as run-time values (`N` of them), through
/// `stitch_slices` into a buffer of sentinels: OUT if TensorFlow accepted
/// the case, else an error for which `expect` holds and the buffer untouched.
fn slices<T: Approx + Sentinel + Default, const N: usize>(
    c: &mut Checks,
    what: &str,
    indices: &'static [Vector<i32>],
    data: &'static [Vector<T>],
    out: Option<&Vector<T>>,
    expect: impl Fn(&E) -> bool,
) {
    let pairs: [Option<StitchPair<'static, T>>; N] = core::array::from_fn(|m| {
        let (i, d) = (indices.get(m)?, data.get(m)?);
        StitchPair::new(i.dims, i.data, d.dims, d.data).ok()
    });
    c.check(indices.len() == N && data.len() == N, what);
    let Some(pairs) = c.some(
        pairs
            .iter()
            .all(Option::is_some)
            .then(|| pairs.map(|p| p.unwrap_or_else(|| unreachable!()))),
        what,
    ) else {
        return;
    };
    let mut buf = [T::SENTINEL; BUF];
    match (stitch_slices(&pairs, &mut buf), out) {
        (Ok(dims), Some(w)) => {
            c.check(dims.as_slice() == w.dims, what);
            c.approx(&buf[..w.data.len()], w.data, 0.0, what);
        }
        (Err(e), None) => {
            c.check(expect(&e), what);
            c.check(buf.iter().all(|v| *v == T::SENTINEL), what);
        }
        _ => c.check(false, what),
    }
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("stitch");

    // TensorFlow's documented example: index ranks 0, 1 and 2 in one call
    stitch_case!(c, doc: i32,
        (i0, d0, 0): [] / [2], (i1, d1, 1): [2] / [2, 2], (i2, d2, 2): [2, 2] / [2, 2, 2] -> Ok);
    // a scalar index with a rank-2 index; row 0 named by none: zeros
    stitch_case!(c, scalar_matrix: i64,
        (i0, d0, 0): [] / [1, 3], (i1, d1, 1): [1, 2] / [1, 2, 1, 3] -> Ok);
    stitch_case!(c, scalar_matrix_f64: f64,
        (i0, d0, 0): [] / [1, 3], (i1, d1, 1): [2, 2] / [2, 2, 1, 3] -> Ok);
    // duplicate indices: the later pair wins
    stitch_case!(c, duplicates: f64,
        (i0, d0, 0): [2] / [2], (i1, d1, 1): [3] / [3], (i2, d2, 2): [2] / [2] -> Ok);
    stitch_case!(c, duplicates_3d: i64,
        (i0, d0, 0): [1] / [1, 3, 1], (i1, d1, 1): [8] / [8, 3, 1],
        (i2, d2, 2): [1] / [1, 3, 1] -> Ok);
    // an empty pair and gaps
    stitch_case!(c, gaps_empty_pair: f32,
        (i0, d0, 0): [0] / [0, 1, 2], (i1, d1, 1): [1] / [1, 1, 2], (i2, d2, 2): [1] / [1, 1, 2] -> Ok);
    // index values: run-time errors of the static API
    stitch_case!(c, negative: i32,
        (i0, d0, 0): [1] / [1, 3, 1], (i1, d1, 1): [4] / [4, 3, 1]
        -> Err(E::NegativeIndex { m: 0, j: 0, value: -1 }));
    stitch_case!(c, negative_last: i32,
        (i0, d0, 0): [4] / [4], (i1, d1, 1): [0] / [0]
        -> Err(E::NegativeIndex { m: 0, j: 3, value: -1 }));

    // a buffer too small for the output [7, 2]: its error, the buffer untouched
    let i0 = doc::INDICES.first().and_then(Vector::view::<shape![]>);
    let d0 = doc::DATA.first().and_then(Vector::view::<shape![2]>);
    let i2 = doc::INDICES.get(2).and_then(Vector::view::<shape![2, 2]>);
    let d2 = doc::DATA.get(2).and_then(Vector::view::<shape![2, 2, 2]>);
    match (i0, d0, i2, d2) {
        (Some(i0), Some(d0), Some(i2), Some(d2)) => {
            let stitch = shapecheck::dynamic_stitch(&i0, &d0).pair(&i2, &d2);
            let mut small = [i32::SENTINEL; 13];
            let r = stitch.run_into(&mut small).map(|_| ());
            c.check(
                matches!(
                    r,
                    Err(E::BufferTooSmall {
                        needed: 14,
                        len: 13,
                        ..
                    })
                ),
                "buffer too small",
            );
            c.check(
                small.iter().all(|v| *v == i32::SENTINEL),
                "buffer untouched",
            );
            // the exact size is enough
            let mut exact = [i32::SENTINEL; 14];
            let dims = stitch.run_into(&mut exact).map(|v| v.dims());
            c.check(dims.is_ok_and(|d| d.as_slice() == [7, 2]), "exact buffer");
        }
        _ => c.check(false, "doc views"),
    }

    // shapes: compile errors on the static API, typed errors here
    slices::<f64, 3>(
        &mut c,
        "bad_prefix",
        bad_prefix::INDICES,
        bad_prefix::DATA,
        None,
        |e| matches!(e, E::PrefixMismatch { m: 0, .. }),
    );
    slices::<i64, 2>(
        &mut c,
        "bad_inner",
        bad_inner::INDICES,
        bad_inner::DATA,
        None,
        |e| {
            matches!(
                e,
                E::SliceMismatch {
                    m: 1,
                    rank0: 1,
                    rank: 1,
                    ..
                }
            )
        },
    );
    // accepted ones through the same path
    slices::<i32, 3>(
        &mut c,
        "doc",
        doc::INDICES,
        doc::DATA,
        Some(&doc::OUT),
        |_| false,
    );
    slices::<f64, 3>(
        &mut c,
        "duplicates",
        duplicates::INDICES,
        duplicates::DATA,
        Some(&duplicates::OUT),
        |_| false,
    );
    c.check(
        bad_prefix::ERROR.is_some() && bad_inner::ERROR.is_some(),
        "rejected by TF",
    );

    c.finish()
}
