// `?` across four ops into `shapecheck::Error`, with no heap: stitch rows
// into a bounded room, scale them along the last axis, pick against zeros,
// then multiplex two candidates. A global allocator that counts proves that
// nothing is allocated; each op's error arrives as its own variant.
use shapecheck::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

type Rows = (Bounded<4>, Dim<2>);

fn pipeline(
    order: &Tensor<i32, shape![3]>,
    rows: &Tensor<f32, shape![3, 2]>,
    scale: &Tensor<f32, shape![2]>,
    pick: &Tensor<i32, shape![3, 1]>,
) -> Result<Owned<f32, Rows>, shapecheck::Error> {
    let stitched: Owned<f32, Rows> = dynamic_stitch(order, rows).run_bounded::<4>()?;
    let scaled = stitched.try_elementwise_mul(scale, Axis::<-1>, Relu)?;
    let kept = try_select(&tensor![true, false], &scaled, &stitched, Numpy)?;
    let picked = multiplex(&[kept, stitched], pick).run_bounded::<4>()?;
    Ok(picked)
}

fn main() {
    let rows = tensor![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let scale = tensor![10.0f32, -1.0];
    let pick = Tensor::<i32, shape![3, 1]>::from_array([[0], [1], [0]]);

    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let out = pipeline(&tensor![2, 0, 1], &rows, &scale, &pick);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(after, before, "the pipeline allocated");

    // stitched: rows 1, 2, 0 = [3, 4], [5, 6], [1, 2]; kept: [30, 4], [50, 6], [10, 2]
    let out = out.unwrap();
    assert_eq!(out.as_slice(), &[30.0, 4.0, 5.0, 6.0, 10.0, 2.0]);

    // a negative index: the stitch's error, as `Error::Stitching`, with its rule
    let err = pipeline(&tensor![2, -1, 1], &rows, &scale, &pick).unwrap_err();
    assert!(matches!(err, shapecheck::Error::Stitching(_)), "{err:?}");
    assert_eq!(err.rule(), "dynamic_stitch/negative-index");
    // an index past the candidates: multiplex's
    let bad = Tensor::<i32, shape![3, 1]>::from_array([[0], [2], [0]]);
    let err = pipeline(&tensor![2, 0, 1], &rows, &scale, &bad).unwrap_err();
    assert!(matches!(err, shapecheck::Error::Multiplexing(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        MultiplexError::IndexOutOfRange {
            row: 1,
            value: 2,
            candidates: 2
        }
        .to_string()
    );
    // the wrapped error is the source
    assert!(std::error::Error::source(&err).is_some());
}
