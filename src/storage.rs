//! Where a tensor's elements live.
//!
//! - [`Inline`]: a nested array inside the tensor (no heap; static shapes only),
//!   for embedded code and small tensors;
//! - `Vec<T>` (feature `alloc`): a heap buffer, for large tensors and shapes
//!   with [`Dyn`](crate::Dyn) dims (a static `[256, 128, 256]` f32 tensor is
//!   33 MB: keep it on the heap, not the stack);
//! - `&[T]` / `&mut [T]`: a view over a caller's buffer (a `static` array in
//!   no_std code), its length checked once when the tensor is built.
//!
//! An op's result is stored like its left operand ([`ResultStorage`]): inline
//! and view operands give an inline result, heap operands a heap result. Every
//! op also has an `_into` form that writes into a caller's tensor.

use crate::error::ShapeError;
use crate::shape::{Shape, StaticShape};
use core::fmt;

/// Read access to a buffer of `T`, in row-major order.
pub trait Storage<T> {
    /// The elements.
    fn as_slice(&self) -> &[T];
}

/// Write access to a buffer of `T`.
pub trait StorageMut<T>: Storage<T> {
    /// The elements, mutably.
    fn as_mut_slice(&mut self) -> &mut [T];
}

/// A buffer an op can create for a result of shape `S`.
pub trait OwnedStorage<T: Copy, S: Shape>: StorageMut<T> + Sized {
    /// A buffer of `shape.numel()` copies of `v`; an error if the count
    /// overflows or cannot be allocated.
    fn try_filled(shape: &S, v: T) -> Result<Self, ShapeError>;
    /// A buffer of `shape.numel()` copies of `v`, for static shapes whose count
    /// is a compile-time constant (a heap buffer aborts on out-of-memory, as
    /// every std allocation does).
    fn filled(shape: &S, v: T) -> Self;
}

/// The storage of an op's result of shape `S2` when `Self` is the left operand.
pub trait ResultStorage<T: Copy, S2: Shape>: Storage<T> {
    /// The result's storage.
    type Out: OwnedStorage<T, S2>;
}

/// Inline storage: the nested array of a static shape (`[[T; 3]; 2]` for `[2, 3]`).
pub struct Inline<T: Copy, S: StaticShape>(pub S::Array<T>);

impl<T: Copy, S: StaticShape> Clone for Inline<T, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Copy, S: StaticShape> Copy for Inline<T, S> {}

impl<T: Copy + fmt::Debug, S: StaticShape> fmt::Debug for Inline<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Copy + PartialEq, S: StaticShape> PartialEq for Inline<T, S> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy, S: StaticShape> Storage<T> for Inline<T, S> {
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        S::array_as_slice(&self.0)
    }
}
impl<T: Copy, S: StaticShape> StorageMut<T> for Inline<T, S> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        S::array_as_mut_slice(&mut self.0)
    }
}
impl<T: Copy, S: StaticShape> OwnedStorage<T, S> for Inline<T, S> {
    fn try_filled(_shape: &S, v: T) -> Result<Self, ShapeError> {
        Ok(Inline(S::array_filled(v)))
    }
    fn filled(_shape: &S, v: T) -> Self {
        Inline(S::array_filled(v))
    }
}
impl<T: Copy, S: StaticShape, S2: StaticShape> ResultStorage<T, S2> for Inline<T, S> {
    type Out = Inline<T, S2>;
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
impl<T: Copy, S2: StaticShape> ResultStorage<T, S2> for &[T] {
    type Out = Inline<T, S2>;
}
impl<T: Copy, S2: StaticShape> ResultStorage<T, S2> for &mut [T] {
    type Out = Inline<T, S2>;
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
            alloc::vec![v; shape.numel().unwrap_or(0)]
        }
    }
    impl<T: Copy, S2: Shape> ResultStorage<T, S2> for Vec<T> {
        type Out = Vec<T>;
    }

    /// A vector of `numel` copies of `v`, reporting allocation failure as an error.
    pub(crate) fn filled_vec<T: Copy>(numel: usize, v: T) -> Result<Vec<T>, ShapeError> {
        let mut out = Vec::new();
        out.try_reserve_exact(numel)
            .map_err(|_| ShapeError::Allocation { numel })?;
        out.resize(numel, v);
        Ok(out)
    }
}

#[cfg(feature = "alloc")]
pub(crate) use heap::filled_vec;
