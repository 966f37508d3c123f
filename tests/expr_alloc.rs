//! A fused expression allocates nothing but its result, and a static
//! reduction or softmax nothing at all: counted with a
//! global allocator that counts the allocations of the thread inside
//! `counted` (the evaluations here are small, so they run on that thread;
//! libtest's own thread may allocate meanwhile, as it did once in CI when
//! this counted every thread: 5 allocations instead of 1).

use shapecheck::expr;
use shapecheck::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted (a `const` cell: no
    /// allocation to read it, which matters inside the allocator).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

/// Counts one allocation if this thread is counting.
fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread.
fn counted<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCATIONS.load(Ordering::SeqCst) - before, r)
}

#[test]
fn a_fused_expression_allocates_only_its_result() {
    // F1's chain with run-time dims (so the result is a Vec), rows of 300
    // elements (several pieces), and a select of two sub-expressions
    let x = Tensor::<f32, shape![Dyn, 300], Vec<f32>>::from_vec((Dyn(4), Dim), vec![0.5; 1200])
        .unwrap();
    let y = Tensor::<f32, shape![300]>::full(2.0);
    let b =
        Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(4), One), vec![-1.0, 0.0, 1.0, 2.0])
            .unwrap();
    let c = Tensor::<bool, shape![300]>::full(true);

    let (n, z) = counted(|| (x.lazy() * &y + &b).relu().try_eval().unwrap());
    assert_eq!(n, 1, "a fresh result: one allocation, its buffer");
    assert_eq!((z.as_slice()[0], z.as_slice()[300]), (0.0, 1.0));

    let (n, s) = counted(|| {
        expr::select(&c, x.lazy() * 2.0, (x.lazy() + &b).relu(), Numpy)
            .try_eval()
            .unwrap()
    });
    assert_eq!(n, 1, "a select of two expressions: one allocation");
    assert_eq!(s.as_slice()[0], 1.0);

    let mut buf = vec![0.0f32; 1200];
    let (n, ()) = counted(|| {
        let mut out =
            Tensor::<f32, shape![Dyn, 300], &mut [f32]>::with_dims(&[4, 300], &mut buf[..])
                .unwrap();
        (x.lazy() * &y + &b).relu().try_eval_into(&mut out).unwrap();
    });
    assert_eq!(n, 0, "into a caller's buffer: no allocation");
    assert_eq!(&buf[..], z.as_slice());

    // static tensors: an inline result, no allocation at all
    let a = Tensor::<f32, shape![2, 3, 4, 5]>::full(1.5);
    let bb = Tensor::<f32, shape![3, 4, 1]>::full(-2.0);
    let d = Tensor::<f32, shape![5]>::full(4.0);
    let (n, f3) = counted(|| (a.lazy() * &bb + &d).relu().eval());
    assert_eq!(n, 0, "an inline result: no allocation");
    assert_eq!(f3.as_slice()[0], 1.0);
}

#[test]
fn the_static_reductions_and_softmax_allocate_nothing() {
    let x = Tensor::<f32, shape![4, 300]>::from_fn(|i| (i[0] * 300 + i[1]) as f32 / 100.0);
    let (n, (s, m, a, p)) = counted(|| {
        (
            x.sum(Axis::<-1>),
            x.max_keepdim(Axis::<0>),
            x.argmax(Axis::<1>),
            x.softmax(Axis::<-1>),
        )
    });
    assert_eq!(n, 0, "inline results, no heap");
    assert_eq!(a.as_slice(), &[299; 4]);
    assert_eq!(m.as_slice()[0], 9.0);
    assert!((s.as_slice()[0] - 448.5).abs() < 1e-3);
    assert!((p.as_slice()[..300].iter().sum::<f32>() - 1.0).abs() < 1e-5);
}
