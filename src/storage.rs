//! Where a tensor's elements live.
//!
//! - [`Inline`]: a nested array inside the tensor (no heap; static shapes only),
//!   for embedded code and small tensors;
//! - `Vec<T>` (feature `alloc`): a heap buffer, for large tensors and shapes
//!   with [`Dyn`](crate::Dyn) dims (a static `[256, 128, 256]` f32 tensor is
//!   33 MB: keep it on the heap, not the stack);
//! - `&[T]` / `&mut [T]`: a view over a caller's buffer (a `static` array in
//!   no_std code), its length checked once when the tensor is built;
//! - [`Room`]: inline with room for a capacity, for shapes with
//!   [`Bounded`](crate::Bounded) dims (no heap, no caller buffer; `bounded`).
//!
//! An op's result is stored by its **output's shape** ([`OutputStorage`]):
//! inline when every dim of the output is static, a [`Room`] when the
//! others are [`Bounded`](crate::Bounded), a `Vec` when one is
//! [`Dyn`](crate::Dyn) or branded. The choice is made by the shape's kind
//! ([`KindBuffer`]), so it is known for a shape whose dims are generic:
//! [`Owned<T, (B, Dim<8>)>`](crate::Owned) is a type for any `B: DimLike`.
//! One exception ([`ResultStorage`]): an op whose operand is on the heap
//! keeps its result on the heap, so that a big static tensor never moves
//! to the stack. Every op also has an `_into` form that
//! writes into a caller's tensor (no heap needed, whatever the shape).

mod bounded;
pub use crate::buffer::{Ordered, OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::error::ShapeError;
#[doc(hidden)]
pub use crate::shape::kind::KindBuffer;
use crate::shape::kind::{Capacity, Fixed, Runtime};
use crate::shape::{FixedShape, Shape};
pub(crate) use bounded::{
    bounded_into, bounded_into_of, bounded_result, bounded_result_from_fn, bounded_rows,
};
pub use bounded::{BoundedRows, BoundedShape, BoundedTensor, Room};
use core::fmt;

/// The storage an op creates for a result of shape `Self`, chosen by that
/// shape alone (as nalgebra's `Allocator<R, C>` is chosen by the result's
/// dims, whatever the operands are):
///
/// | the output's shape | its storage | needs |
/// |---|---|---|
/// | every dim static (`shape![2, 3]`) | [`Inline`], a nested array | nothing: no heap |
/// | [`Bounded<CAP>`](crate::Bounded) dims, the others static (`(Bounded<8>, Dim<3>)`) | [`Room`], inline with room for the capacities | nothing: no heap |
/// | a [`Dyn`](crate::Dyn) or branded dim (`shape![Dyn, 3]`) | `Vec<T>` | feature `alloc` |
/// | a `Dyn` dim, without `alloc` | no owned result: a compile error | the op's `_into` form, writing into a caller's `&mut [T]` tensor |
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::Mul;
/// // a view (no heap) over a run-time number of rows, times an inline row
/// let buf = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let x = Tensor::<f32, shape![Dyn, 3], &[f32]>::with_dims(&[2, 3], &buf[..]).unwrap();
/// let y = tensor![10.0f32, 20.0, 30.0];
/// // the output has a `Dyn` dim, so it is a `Vec`
/// let z: Tensor<f32, shape![Dyn, 3], Vec<f32>> =
///     x.try_elementwise(Mul, &y, Axis::<-1>, Identity).unwrap();
/// assert_eq!(z.as_slice(), &[10.0, 40.0, 90.0, 40.0, 100.0, 180.0]);
/// // the same row times a static [2, 3] view: every dim static, so inline
/// let s = Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&buf[..]).unwrap();
/// let w: Tensor<f32, shape![2, 3]> = s.elementwise_mul(&y, Axis::<-1>, Identity);
/// assert_eq!(w.as_slice(), z.as_slice());
/// ```
/// [`Owned`] names the tensor itself.
#[diagnostic::on_unimplemented(
    message = "the result's shape {Self} has a run-time (`Dyn`) dim, and an owned result of it needs a heap: enable shapecheck's `alloc` feature",
    label = "an owned result of shape {Self} needs `alloc`",
    note = "without a heap, use the op's `_into` form (for example `try_elementwise_into`, `try_select_into`), which writes into a caller's tensor (`Tensor<T, S, &mut [T]>` over a buffer you own)"
)]
#[doc(hidden)]
pub trait OutputStorage<T: Copy>: Shape {
    /// The result's storage; an op on an operand stored so, with a result of
    /// this same shape, stores its result so too.
    type Buffer: OwnedStorage<T, Self> + ResultStorage<T, Self, Out = Self::Buffer>;
}

/// Every shape whose kind's storage is owned storage: all of them with
/// `alloc`; without it, those with no run-time dim (`Runtime`'s buffer is
/// then [`NoHeap`], which no op can fill, and this message is the error).
#[diagnostic::do_not_recommend]
impl<T: Copy, S: Shape> OutputStorage<T> for S
where
    KindBufferOf<T, S>: OwnedStorage<T, S> + ResultStorage<T, S, Out = KindBufferOf<T, S>>,
{
    type Buffer = KindBufferOf<T, S>;
}

/// The storage [`KindBuffer`] gives a shape of `S`'s kind.
pub(crate) type KindBufferOf<T, S> = <<S as Shape>::Kind as KindBuffer>::Buffer<T, S>;

/// A static shape's array (`S::Room` is `S`: every dim is its own room).
impl KindBuffer for Fixed {
    type Buffer<T: Copy, S: Shape<Kind = Self>> = Inline<T, S::Room>;
}

/// A shape whose run-time dims are all [`Bounded`](crate::Bounded): a
/// [`Room`] with space for every size the capacities allow, no heap.
impl KindBuffer for Capacity {
    type Buffer<T: Copy, S: Shape<Kind = Self>> = Room<T, S>;
}

/// A shape with a `Dyn` or branded dim: the heap.
#[cfg(feature = "alloc")]
impl KindBuffer for Runtime {
    type Buffer<T: Copy, S: Shape<Kind = Self>> = alloc::vec::Vec<T>;
}

/// A shape with a `Dyn` or branded dim, without a heap: [`NoHeap`].
#[cfg(not(feature = "alloc"))]
impl KindBuffer for Runtime {
    type Buffer<T: Copy, S: Shape<Kind = Self>> = NoHeap<T>;
}

/// Without `alloc`, the storage of an owned result with a run-time dim: a
/// type with no value, so that no op makes one (an op asks for `alloc` or
/// points to its `_into` form instead).
#[cfg(not(feature = "alloc"))]
#[doc(hidden)]
pub enum NoHeap<T> {
    #[doc(hidden)]
    Never(core::convert::Infallible, core::marker::PhantomData<T>),
}

#[cfg(not(feature = "alloc"))]
impl<T> Storage<T> for NoHeap<T> {
    fn as_slice(&self) -> &[T] {
        match *self {
            NoHeap::Never(never, _) => match never {},
        }
    }
}

/// Inline storage: the nested array of a static shape (`[[T; 3]; 2]` for `[2, 3]`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::Storage;
/// use shapecheck::Inline;
/// let s = Inline::<i32, shape![2, 3]>([[1, 2, 3], [4, 5, 6]]);
/// assert_eq!(s.as_slice(), &[1, 2, 3, 4, 5, 6]);
/// let t = Tensor::<i32, shape![2, 3]>::from_storage(s).unwrap();
/// assert_eq!(t.get(&[1, 2]), Some(&6));
/// ```
pub struct Inline<T: Copy, S: FixedShape>(pub S::Array<T>);

impl<T: Copy, S: FixedShape> Clone for Inline<T, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Copy, S: FixedShape> Copy for Inline<T, S> {}

impl<T: Copy + fmt::Debug, S: FixedShape> fmt::Debug for Inline<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Copy + PartialEq, S: FixedShape> PartialEq for Inline<T, S> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy, S: FixedShape> Storage<T> for Inline<T, S> {
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        S::array_as_slice(&self.0)
    }
}
impl<T: Copy, S: FixedShape> StorageMut<T> for Inline<T, S> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        S::array_as_mut_slice(&mut self.0)
    }
}
/// Every static shape: `S::Room` is `S` itself (written so that a shape of
/// the [`Fixed`] kind whose dims are generic is covered too).
impl<T: Copy, S: Shape<Kind = Fixed>> OwnedStorage<T, S> for Inline<T, S::Room> {
    #[inline]
    fn try_filled(_shape: &S, v: T) -> Result<Self, ShapeError> {
        Ok(Inline(<S::Room as FixedShape>::array_filled(v)))
    }
    #[inline]
    fn filled(_shape: &S, v: T) -> Self {
        Inline(<S::Room as FixedShape>::array_filled(v))
    }
}
#[diagnostic::do_not_recommend]
impl<T: Copy, S: FixedShape, S2: Shape> ResultStorage<T, S2> for Inline<T, S>
where
    KindBufferOf<T, S2>: OwnedStorage<T, S2>,
{
    type Out = KindBufferOf<T, S2>;
}

impl<T> Storage<T> for &[T] {
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> Storage<T> for &mut [T] {
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> StorageMut<T> for &mut [T] {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
#[diagnostic::do_not_recommend]
impl<T: Copy, S2: OutputStorage<T>> ResultStorage<T, S2> for &[T] {
    type Out = S2::Buffer;
}
#[diagnostic::do_not_recommend]
impl<T: Copy, S2: OutputStorage<T>> ResultStorage<T, S2> for &mut [T] {
    type Out = S2::Buffer;
}

#[cfg(feature = "alloc")]
mod heap {
    use super::*;
    use alloc::vec::Vec;

    impl<T> Storage<T> for Vec<T> {
        #[inline(always)]
        fn as_slice(&self) -> &[T] {
            self
        }
    }
    impl<T> StorageMut<T> for Vec<T> {
        #[inline(always)]
        fn as_mut_slice(&mut self) -> &mut [T] {
            self
        }
    }
    impl<T: Copy, S: Shape> OwnedStorage<T, S> for Vec<T> {
        fn try_filled(shape: &S, v: T) -> Result<Self, ShapeError> {
            filled_vec(shape.numel()?, v)
        }
        fn filled(shape: &S, v: T) -> Self {
            // A count past `usize` (run-time dims only: a static count is a
            // constant) is no more allocatable than any buffer past the
            // address space: the allocation fails as every std allocation
            // does (an abort, `handle_alloc_error`), never a buffer shorter
            // than the shape.
            let Ok(numel) = shape.numel() else {
                alloc::alloc::handle_alloc_error(core::alloc::Layout::new::<T>())
            };
            advised_vec(numel, v)
        }
        fn try_written(
            shape: &S,
            v: T,
            write: impl FnOnce(&mut Ordered<'_, T>),
        ) -> Result<Self, ShapeError> {
            let numel = shape.numel()?;
            let mut out = reserved_vec(numel)?;
            write(&mut Ordered::appending(&mut out));
            // `write` appends exactly `numel` elements; another count would
            // be a bug, and still gives a buffer of the shape's length
            out.resize(numel, v);
            Ok(out)
        }
    }
    #[diagnostic::do_not_recommend]
    impl<T: Copy, S2: Shape> ResultStorage<T, S2> for Vec<T> {
        type Out = Vec<T>;
    }

    /// A vector of `numel` copies of `v`, reporting allocation failure as an
    /// error. The buffer is advised before `v` is written, so that the fill
    /// faults in huge pages; for a result the op writes over anyway, see
    /// [`default_vec`], which does not fill.
    pub(crate) fn filled_vec<T: Copy>(numel: usize, v: T) -> Result<Vec<T>, ShapeError> {
        let mut out = reserved_vec(numel)?;
        out.resize(numel, v);
        Ok(out)
    }

    /// A vector of `numel` copies of `T::default()`, reporting allocation
    /// failure as an error: the buffer of an op's heap result, which the op
    /// then writes (the static path's `run`, `DynTensor`'s ops).
    ///
    /// The allocator is asked first with `try_reserve_exact`, which reports
    /// a count it cannot give (or whose bytes overflow) instead of aborting;
    /// that buffer goes back untouched (for a large one a `mmap` and a
    /// `munmap`: microseconds), and the result is [`advised_vec`]'s, the
    /// same buffer as the infallible [`OwnedStorage::filled`]. For the
    /// primitive types the default is zero and that buffer comes zeroed from
    /// `calloc`, written by no one: a `resize` (as in [`filled_vec`]) writes
    /// every page once before the op writes it again.
    pub(crate) fn default_vec<T: Copy + Default>(numel: usize) -> Result<Vec<T>, ShapeError> {
        let mut probe = Vec::<T>::new();
        probe
            .try_reserve_exact(numel)
            .map_err(|_| ShapeError::Allocation { numel })?;
        drop(probe);
        Ok(advised_vec(numel, T::default()))
    }

    /// `vec![v; numel]`, advised to use huge pages when large. For a zero `v`
    /// of a primitive type, `vec!` makes one zeroed allocation (`calloc`),
    /// whose fresh pages nothing has touched yet: the advice comes before
    /// the op's first write, so that write faults in huge pages and the
    /// kernel's zeroing of them is the only fill. (Any other `v` is written
    /// by `vec!` before the advice: those pages stay small.) Aborts if the
    /// allocation fails, as every std allocation does; [`default_vec`] asks
    /// first.
    fn advised_vec<T: Copy>(numel: usize, v: T) -> Vec<T> {
        let mut out = alloc::vec![v; numel];
        huge_pages::advise(&mut out);
        out
    }

    /// An empty vector with room for exactly `numel` elements (advised to use
    /// huge pages when large), reporting allocation failure as an error: for
    /// results that are pushed rather than filled.
    pub(crate) fn reserved_vec<T>(numel: usize) -> Result<Vec<T>, ShapeError> {
        let mut out = Vec::new();
        out.try_reserve_exact(numel)
            .map_err(|_| ShapeError::Allocation { numel })?;
        huge_pages::advise(&mut out);
        Ok(out)
    }
}

#[cfg(feature = "alloc")]
mod huge_pages;

#[cfg(feature = "alloc")]
pub(crate) use heap::{default_vec, filled_vec, reserved_vec};

#[cfg(all(test, feature = "std", target_os = "linux"))]
mod tests {
    use super::huge_pages::{blocks, MIN_BYTES};

    const MIB: usize = 1 << 20;

    #[test]
    fn small_buffers_get_no_advice() {
        assert_eq!(blocks(0, MIN_BYTES - 1), None);
        assert_eq!(blocks(8 * MIB, MIB), None);
    }

    #[test]
    fn advice_covers_whole_aligned_blocks_inside_the_buffer() {
        // aligned start and end: everything
        assert_eq!(blocks(4 * MIB, 8 * MIB), Some((0, 8 * MIB)));
        // glibc's mmapped chunks start 16 bytes into a page
        let start = 6 * MIB + 4096 + 16;
        let (offset, len) = blocks(start, 32 * MIB).unwrap();
        assert_eq!(start + offset, 8 * MIB);
        assert_eq!(len, 30 * MIB);
        assert!(start + offset + len <= start + 32 * MIB);
        // 4 MiB straddling two blocks: only the one whole block
        assert_eq!(blocks(MIB, 4 * MIB), Some((MIB, 2 * MIB)));
        assert_eq!(blocks(MIB + 1, MIN_BYTES), Some((MIB - 1, 2 * MIB)));
        // an end past the address space (cannot happen): no advice
        assert_eq!(blocks(usize::MAX - MIB, MIN_BYTES), None);
    }
}
