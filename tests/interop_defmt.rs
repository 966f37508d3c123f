//! Feature `defmt`: `defmt::Format` for tensors, dims and the errors, run on
//! the host through a logger that keeps the encoded bytes. defmt sends
//! interned format strings as indices and arguments in binary; these tests
//! check what can be read without the decoder: the elements' bytes are in
//! the frame, an error's `Display` text is, and different values encode
//! differently.
#![cfg(feature = "defmt")]

use shapecheck::prelude::*;
use shapecheck::{AutoBroadcast, BinaryOpKind};
use shapecheck::{Dims, ElementwiseError, MultiplexError, SelectError, ShapeError};
use std::sync::Mutex;

static BYTES: Mutex<Vec<u8>> = Mutex::new(Vec::new());
/// Serializes the tests: the logger is global.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[defmt::global_logger]
struct Capture;

unsafe impl defmt::Logger for Capture {
    fn acquire() {}
    unsafe fn flush() {}
    unsafe fn release() {}
    unsafe fn write(bytes: &[u8]) {
        BYTES
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
    }
}

defmt::timestamp!("{=u8}", 0);

/// The bytes defmt sends for `defmt::println!("{}", v)`.
fn encode<T: defmt::Format>(v: &T) -> Vec<u8> {
    BYTES.lock().unwrap().clear();
    defmt::println!("{}", v);
    std::mem::take(&mut *BYTES.lock().unwrap())
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn tensors_send_their_elements() {
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let t = Tensor::<i32, shape![2]>::from_array([0x1234_5678, -2]);
    let bytes = encode(&t);
    assert!(
        contains(&bytes, &0x1234_5678i32.to_le_bytes()),
        "{bytes:x?}"
    );
    assert!(contains(&bytes, &(-2i32).to_le_bytes()), "{bytes:x?}");
    // a view of the same data sends the same frame; a DynTensor the same
    // arguments (its format string is interned apart, so its index differs)
    assert_eq!(encode(&t.view()), bytes);
    let d = encode(&t.to_dyn());
    assert_eq!(d.len(), bytes.len());
    assert!(contains(&d, &bytes[bytes.len() - 20..]), "{d:x?}");
    // another value, another frame
    let u = Tensor::<i32, shape![2]>::from_array([0x1234_5678, -3]);
    assert_ne!(encode(&u), bytes);
}

#[test]
fn dims_encode_their_values() {
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let a = encode(&Dims::new(&[2, 3]).unwrap());
    assert_eq!(encode(&Dims::new(&[2, 3]).unwrap()), a);
    assert_ne!(encode(&Dims::new(&[2, 4]).unwrap()), a);
    assert_ne!(encode(&Dims::new(&[2, 3, 1]).unwrap()), a);
    assert_ne!(encode(&Dim::<7>), encode(&Dim::<8>));
    assert_eq!(encode(&Dyn(7)).len(), encode(&Dim::<7>).len());
    assert_ne!(encode(&One), encode(&Dyn(2)));
}

#[test]
fn errors_send_their_display_text() {
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let shape = ShapeError::DimMismatch {
        axis: 1,
        expected: 3,
        found: 2,
    };
    let x = Dims::new(&[2, 3]).unwrap();
    let y = Dims::new(&[2]).unwrap();
    let elementwise = DynTensor::new(&[2, 3], vec![0; 6])
        .unwrap()
        .elementwise(
            BinaryOpKind::Add,
            &DynTensor::new(&[2], vec![0; 2]).unwrap(),
            -1,
            ActivationKind::Identity,
        )
        .unwrap_err();
    assert!(matches!(elementwise, ElementwiseError::DimMismatch { .. }));
    let select = DynTensor::select(
        &DynTensor::new(&[2], vec![true, false]).unwrap(),
        &DynTensor::new(&[3], vec![1, 2, 3]).unwrap(),
        &DynTensor::new(&[3], vec![1, 2, 3]).unwrap(),
        AutoBroadcast::None,
    )
    .unwrap_err();
    let multiplex = MultiplexError::TooFewCandidates { count: 1 };
    let act = ActivationKind::from_name("gelu").unwrap_err();
    let _ = (x, y);
    fn check<E: defmt::Format + std::fmt::Display>(e: &E) {
        let bytes = encode(e);
        assert!(
            contains(&bytes, e.to_string().as_bytes()),
            "{}: {bytes:x?}",
            e
        );
    }
    check(&shape);
    check(&elementwise);
    check::<SelectError>(&select);
    check(&multiplex);
    check(&act);
}

#[cfg(feature = "ndarray")]
#[test]
fn the_ndarray_error_too() {
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let a = ndarray::array![[1, 2], [3, 4]];
    let err = Tensor::<i32, shape![2, 2], &[i32]>::try_from(a.t()).unwrap_err();
    assert!(contains(&encode(&err), err.to_string().as_bytes()));
}

#[test]
fn lod_tensors_and_the_stitch_and_lod_errors() {
    use shapecheck::{DynLodTensor, LodTensor, Offsets, OwnedLod};
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    fn check<E: defmt::Format + std::fmt::Display>(e: &E) {
        let bytes = encode(e);
        assert!(
            contains(&bytes, e.to_string().as_bytes()),
            "{e}: {bytes:x?}"
        );
    }
    // a LoD tensor sends its elements and its offsets
    let dense = || Tensor::<u32, shape![3]>::from_array([0xA1A2_A3A4, 2, 3]);
    let levels = [Offsets::new(&[0, 1, 3])];
    let x = LodTensor::new(dense(), &levels[..]).unwrap();
    let bytes = encode(&x);
    assert!(
        contains(&bytes, &0xA1A2_A3A4u32.to_le_bytes()),
        "{bytes:x?}"
    );
    let other = [Offsets::new(&[0, 2, 3])];
    assert_ne!(encode(&LodTensor::new(dense(), &other[..]).unwrap()), bytes);
    // the errors of dynamic_stitch, LoD construction and lod_reset
    let stitch = DynTensor::dynamic_stitch(&[(
        &DynTensor::new(&[1], vec![-1i32]).unwrap(),
        &DynTensor::new(&[1], vec![5i32]).unwrap(),
    )])
    .unwrap_err();
    check(&stitch);
    let lod = DynLodTensor::new(
        DynTensor::new(&[2], vec![1, 2]).unwrap(),
        OwnedLod::from_offsets(vec![vec![1, 2]]),
    )
    .unwrap_err();
    check(&lod);
    let reset = x.lod_reset(Offsets::new(&[0, 4]), false).unwrap_err();
    check(&reset);
}
