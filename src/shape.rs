//! What a shape is: a tuple of dims, rank 0 to [`MAX_RANK`].
//!
//! `()` is a scalar, `(Dim<3>,)` a vector, `(Dim<2>, Dim<3>)` a 2×3 matrix.
//! [`Shape`] gives the dims as values whatever they are; [`StaticShape`] is a
//! shape whose dims are all static, which is what inline (no heap) storage and
//! the infallible operator forms need. The impls for every rank are generated
//! by `shapecheck-macros`.

use core::fmt;

use crate::dims::ShapeError;
pub use crate::dims::{Dims, MAX_RANK};

/// Whether a shape (or a dim) is known to the compiler, as a type, and the
/// storage that this chooses for a result ([`KindBuffer`](kind::KindBuffer),
/// what [`OutputStorage`](crate::storage::OutputStorage) reads). Internal:
/// only [`Shape`] and [`DimLike`](crate::DimLike) name it. The kind promises
/// the storage (a supertrait), so the two live here, beside the shape
/// whose kind it is, and below the dims and the storage, which import it.
#[doc(hidden)]
pub mod kind {
    use super::Shape;
    #[cfg(not(feature = "alloc"))]
    use crate::buffer::Storage;
    #[cfg(feature = "alloc")]
    use crate::buffer::{OwnedStorage, ResultStorage};

    mod sealed {
        #[doc(hidden)]
        pub trait Sealed {}
    }

    /// Every dim is static.
    #[derive(Clone, Copy, Debug)]
    pub enum Fixed {}
    /// No `Dyn` or branded dim, and at least one
    /// [`Bounded<CAP>`](crate::Bounded): a size known at run time, with a
    /// capacity known at compile time.
    #[derive(Clone, Copy, Debug)]
    pub enum Capacity {}
    /// At least one dim is a run-time [`Dyn`](crate::Dyn) or a brand: a
    /// size with no bound known at compile time.
    #[derive(Clone, Copy, Debug)]
    pub enum Runtime {}
    /// A kind: [`Fixed`], [`Capacity`] or [`Runtime`] (sealed). A shape's
    /// kind is its dims' kinds joined: `Runtime` if any dim is, otherwise
    /// `Capacity` if any dim is, otherwise `Fixed`. It chooses the storage
    /// of an op's result, and says so as a supertrait
    /// ([`KindBuffer`]: inline, a `Room`, a `Vec`), so that generic
    /// code sees the storage of a shape whose kind it does not know.
    #[doc(hidden)]
    pub trait Kind: sealed::Sealed + KindBuffer {
        /// The kind of this and `K` together.
        type Join<K: Kind>: Kind;
        /// The kind of this and [`Capacity`] together (what
        /// `Capacity::Join<Self>` is).
        type WithCapacity: Kind;
    }
    impl sealed::Sealed for Fixed {}
    impl sealed::Sealed for Capacity {}
    impl sealed::Sealed for Runtime {}
    impl Kind for Fixed {
        type Join<K: Kind> = K;
        type WithCapacity = Capacity;
    }
    impl Kind for Capacity {
        type Join<K: Kind> = K::WithCapacity;
        type WithCapacity = Capacity;
    }
    impl Kind for Runtime {
        type Join<K: Kind> = Runtime;
        type WithCapacity = Runtime;
    }

    /// The storage of an owned tensor of each kind of shape (internal; a
    /// supertrait of [`Kind`], so that rustc sees it for
    /// a shape whose dims are generic, `(B, Dim<8>)` with `B: DimLike`): inline
    /// for [`Fixed`], a [`Room`](crate::Room) for [`Capacity`], a `Vec` for `Runtime` (with
    /// `alloc`; without it, nothing).
    #[doc(hidden)]
    pub trait KindBuffer {
        /// The storage of a shape `S` of this kind.
        #[cfg(feature = "alloc")]
        type Buffer<T: Copy, S: Shape<Kind = Self>>: OwnedStorage<T, S>
            + ResultStorage<T, S, Out = Self::Buffer<T, S>>;
        /// The storage of a shape `S` of this kind.
        #[cfg(not(feature = "alloc"))]
        type Buffer<T: Copy, S: Shape<Kind = Self>>: Storage<T>;
    }
}

/// A shape: a tuple of [`DimLike`] dims.
///
/// ```
/// use shapecheck::prelude::*;
/// let s: shape![2, Dyn] = (Dim, Dyn(5));
/// assert_eq!(s.dims().as_slice(), &[2, 5]);
/// assert_eq!(<shape![2, Dyn] as Shape>::RANK, 2);
/// assert!(!<shape![2, Dyn] as Shape>::IS_STATIC);
/// assert!(<shape![2, 3] as Shape>::IS_STATIC);
/// ```
pub trait Shape:
    Copy + fmt::Debug + PartialEq + Send + Sync + SameOrScalar<Self> + SameOrScalar<()>
{
    /// The number of dims.
    const RANK: usize;
    /// `true` when every dim is static.
    const IS_STATIC: bool;
    /// The same as a type: [`kind::Fixed`], [`kind::Capacity`] or
    /// [`kind::Runtime`] (what chooses a result's storage).
    #[doc(hidden)]
    type Kind: kind::Kind;
    /// The shape with each run-time dim replaced by `Dim<P>` (static dims
    /// kept): what an op plans its loops with at compile time, from its
    /// dims alone ([`PlaceholderDims`], not [`StaticShape`], whose operator
    /// promises rustc would prove again for every rank's placeholder).
    #[doc(hidden)]
    type Placeholder<const P: usize>: PlaceholderDims;
    /// The static shape with room for every size of this one, dim by dim
    /// ([`DimLike::Room`]): the shape itself when static, `Bounded<CAP>`
    /// read as `Dim<CAP>`. A [`Room`](crate::Room) holds its array.
    #[doc(hidden)]
    type Room: StaticShape;
    /// The dims as values.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!((Dim::<2>, Dyn(4)).dims().as_slice(), &[2, 4]);
    /// assert_eq!(().dims().rank(), 0);
    /// ```
    #[must_use]
    fn dims(&self) -> Dims;
    /// The size of the first dim (1 for a scalar), without building [`Dims`].
    #[doc(hidden)]
    fn first_size(&self) -> usize;
    /// Builds the shape from dims given at run time, checking the rank and
    /// every static dim.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let s = <shape![Dyn, 3] as Shape>::from_dims(&[5, 3]).unwrap();
    /// assert_eq!(s, (Dyn(5), Dim::<3>));
    /// assert_eq!(<shape![Dyn, 3] as Shape>::from_dims(&[5, 4]).unwrap_err().rule(), "shape/dim-mismatch");
    /// assert_eq!(<shape![Dyn, 3] as Shape>::from_dims(&[5]).unwrap_err().rule(), "shape/rank-mismatch");
    /// ```
    fn from_dims(dims: &[usize]) -> Result<Self, ShapeError>;
    /// The element count, or [`ShapeError::NumelOverflow`].
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!((Dyn(4), Dim::<3>).numel(), Ok(12));
    /// assert_eq!((Dyn(usize::MAX), Dim::<2>).numel().unwrap_err().rule(), "shape/overflow");
    /// ```
    fn numel(&self) -> Result<usize, ShapeError> {
        self.dims().try_numel()
    }
}

/// A shape whose every dim's size is proven by the type
/// ([`ProvenDim`](crate::dim::ProvenDim): static or branded): a tensor of
/// this shape type has exactly these dims, so an op's plain `_into` form
/// writes into it with no run-time check.
#[diagnostic::on_unimplemented(
    message = "the output shape {Self} has a run-time dim that is not branded: a plain `_into` form cannot check the buffer's size",
    label = "the output buffer's shape is only known at run time",
    note = "brand the dim once (`brand_rows`), or call the `try_..._into` form, which checks the buffer and returns a Result"
)]
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::shape::ProvenShape;
/// fn proven<S: ProvenShape>() {}
/// proven::<shape![2, 3]>();
/// proven::<()>();
/// ```
pub trait ProvenShape: Shape {
    /// `Self`: the `_into` forms name it in `out`'s type, so that rustc
    /// reports a failure of this rule as one short error.
    type Proven: Shape;
}

#[diagnostic::do_not_recommend]
impl ProvenShape for () {
    type Proven = ();
}

/// A shape whose dims are all static: its value, dims and element count are
/// constants, and it has an inline array type (`[[T; 3]; 2]` for `[2, 3]`).
///
/// It is also the one bound generic code writes to combine a tensor with
/// another of its own shape or with a scalar (`shape![]`): every static
/// shape meets both under numpy's rule (Paddle's axis -1), with itself as
/// the output, and says so in its supertraits, so the operators (`&a - &b`,
/// `&a * &s`), fused expressions of them (`a.lazy() * &b + &s`) and
/// `select(&c, &a, &b_or_s, Numpy)` with a cond of the same shape need no
/// other bound; nor do the named forms (`x.elementwise_max(&y,
/// Axis::<-1>, Identity)`, ..., with the prelude in scope). Shapes that
/// differ take [`BroadcastWith`](crate::ops::elementwise::BroadcastWith) or
/// [`SelectWith`](crate::ops::select::SelectWith).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::Owned;
/// /// `a + t * (b - a)` over any static shape.
/// fn lerp<S: StaticShape>(a: &Tensor<f32, S>, b: &Tensor<f32, S>, t: &Tensor<f32, shape![]>) -> Owned<f32, S> {
///     &(&(b - a) * t) + a
/// }
/// let l = lerp(&tensor![[0.0f32, 4.0]], &tensor![[4.0f32, 8.0]], &Tensor::full(0.25));
/// assert_eq!(l.as_slice(), &[1.0, 5.0]);
/// /// `x` where `keep`, else 0.
/// fn masked<S: StaticShape>(keep: &Tensor<bool, S>, x: &Tensor<f32, S>) -> Owned<f32, S> {
///     select(keep, x, &Tensor::<f32, shape![]>::full(0.0), Numpy)
/// }
/// assert_eq!(masked(&tensor![true, false], &tensor![3.0f32, 4.0]).as_slice(), &[3.0, 0.0]);
/// /// `x` clipped below at `lo`, elementwise.
/// fn clip<S: StaticShape>(x: &Tensor<f32, S>, lo: &Tensor<f32, S>) -> Owned<f32, S> {
///     x.elementwise_max(lo, Axis::<-1>, Identity)
/// }
/// assert_eq!(clip(&tensor![-1.0f32, 2.0], &Tensor::full(0.0)).as_slice(), &[0.0, 2.0]);
/// ```
///
/// ```
/// use shapecheck::prelude::*;
/// assert_eq!(<shape![2, 3] as StaticShape>::DIMS, &[2, 3]);
/// assert_eq!(<shape![2, 3] as StaticShape>::NUMEL, 6);
/// assert_eq!(<shape![] as StaticShape>::NUMEL, 1);
/// let a: <shape![2, 3] as StaticShape>::Array<u8> = [[0; 3]; 2];
/// assert_eq!(<shape![2, 3] as StaticShape>::array_as_slice::<u8>(&a).len(), 6);
/// ```
pub trait StaticShape:
    Shape<Kind = kind::Fixed, Room = Self>
    + Default
    + 'static
    + crate::ops::elementwise::OperatorShapes<Self, Output = Self>
    + crate::ops::elementwise::OperatorShapes<(), Output = Self>
    + crate::ops::elementwise::LazyOperatorShapes<Self, Output = Self>
    + crate::ops::elementwise::LazyOperatorShapes<(), Output = Self>
    + crate::ops::select::SelectShapes<Self, Self, crate::ops::select::Numpy, Output = Self>
    + crate::ops::select::SelectNoCheck<Self, Self, crate::ops::select::Numpy, Then = Self>
    + crate::ops::select::SelectShapes<Self, (), crate::ops::select::Numpy, Output = Self>
    + crate::ops::select::SelectNoCheck<Self, (), crate::ops::select::Numpy, Then = Self>
    + crate::ops::matmul::MatmulNoCheck<crate::ops::matmul::NoTrans>
    + crate::ops::matmul::MatmulNoCheck<crate::ops::matmul::Trans>
{
    /// The dims.
    const DIMS: &'static [usize];
    /// The element count. A shape whose count overflows `usize` fails to compile.
    const NUMEL: usize;
    /// The nested array holding one `T` per element, row-major.
    type Array<T: Copy>: Copy;
    /// An array with every element `v`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(<shape![2, 3] as StaticShape>::array_filled(7u8), [[7; 3]; 2]);
    /// assert_eq!(<shape![] as StaticShape>::array_filled(7u8), 7);
    /// ```
    fn array_filled<T: Copy>(v: T) -> Self::Array<T>;
    /// An array whose element `i` (row-major) is `f(i)`, called once per
    /// element in order: each element is written once, with no fill first.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(<shape![2, 3] as StaticShape>::array_from_fn(|i| i), [[0, 1, 2], [3, 4, 5]]);
    /// assert_eq!(<shape![] as StaticShape>::array_from_fn(|i| i + 7), 7);
    /// ```
    fn array_from_fn<T: Copy>(f: impl FnMut(usize) -> T) -> Self::Array<T>;
    /// The array as a flat row-major slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let a = [[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(<shape![2, 3] as StaticShape>::array_as_slice::<i32>(&a), &[1, 2, 3, 4, 5, 6]);
    /// ```
    fn array_as_slice<T: Copy>(a: &Self::Array<T>) -> &[T];
    /// The array as a flat row-major mutable slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut a = [[1, 2, 3], [4, 5, 6]];
    /// <shape![2, 3] as StaticShape>::array_as_mut_slice::<i32>(&mut a)[4] = 50;
    /// assert_eq!(a, [[1, 2, 3], [4, 50, 6]]);
    /// ```
    fn array_as_mut_slice<T: Copy>(a: &mut Self::Array<T>) -> &mut [T];
}

/// The element count of a shape's dims as the compiler knows them
/// ([`StaticDims`](crate::dim::StaticDims): `Some(n)` static, `None`
/// [`Dyn`](crate::Dyn)), counted as [`Dims::numel`] counts at run time:
/// - `None` if a dim is `Dyn` (the count is not a constant);
/// - `Some(0)` if a dim is 0, **even when the other dims' product
///   overflows** (`[usize::MAX, 2, 0]` holds no element, as `Dims::numel`
///   says), so a constant count and the run-time count never disagree;
/// - otherwise the product, `None` if it overflows `usize`.
///
/// The empty list (a scalar, or a row of no dims) counts 1.
///
/// ```
/// use shapecheck::shape::static_numel;
/// assert_eq!(static_numel(&[Some(2), Some(3)]), Some(6));
/// assert_eq!(static_numel(&[]), Some(1));
/// assert_eq!(static_numel(&[Some(2), None]), None);
/// assert_eq!(static_numel(&[Some(usize::MAX), Some(2), Some(0)]), Some(0));
/// assert_eq!(static_numel(&[Some(usize::MAX), Some(2)]), None);
/// ```
#[doc(hidden)]
#[must_use]
pub const fn static_numel(dims: &[Option<usize>]) -> Option<usize> {
    // a `Dyn` anywhere: not a constant; then a 0 anywhere: no element
    let mut rest = dims;
    let mut zero = false;
    while let Some((d, tail)) = rest.split_first() {
        match *d {
            None => return None,
            Some(0) => zero = true,
            Some(_) => {}
        }
        rest = tail;
    }
    if zero {
        return Some(0);
    }
    let mut acc = 1usize;
    let mut rest = dims;
    while let Some((d, tail)) = rest.split_first() {
        if let Some(d) = *d {
            acc = match acc.checked_mul(d) {
                Some(p) => p,
                None => return None,
            };
        }
        rest = tail;
    }
    Some(acc)
}

impl Shape for () {
    const RANK: usize = 0;
    const IS_STATIC: bool = true;
    type Kind = kind::Fixed;
    type Placeholder<const P: usize> = ();
    type Room = ();
    fn dims(&self) -> Dims {
        Dims::SCALAR
    }
    fn first_size(&self) -> usize {
        1
    }
    fn from_dims(dims: &[usize]) -> Result<Self, ShapeError> {
        if dims.is_empty() {
            Ok(())
        } else {
            Err(ShapeError::RankMismatch {
                expected: 0,
                found: dims.len(),
            })
        }
    }
}

/// `Y` is `Self` or `shape![]`: an operand that meets a tensor of shape
/// `Self` with `Self` as the output, whatever the dims are. Every shape
/// promises both (supertraits of [`Shape`]; one impl per rank), so a
/// function generic over `S` gives the named elementwise forms
/// (`x.elementwise_max(&y, ..)`, `x.try_elementwise_add(&y, ..)`) a `y`
/// of shape `S` or `shape![]` with no bound. Write it for an operand of
/// another type parameter that is one of those two; to broadcast two
/// different shapes the bound is [`BroadcastWith`](crate::BroadcastWith)
/// (static) or [`ElementwiseShapes`](crate::ElementwiseShapes).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{ElementwiseError, SameOrScalar};
/// fn diff<S: Shape + SameOrScalar<Y>, Y: Shape>(
///     x: &Tensor<f32, S, Vec<f32>>,
///     y: &Tensor<f32, Y, Vec<f32>>,
/// ) -> Result<Tensor<f32, S, Vec<f32>>, ElementwiseError> {
///     x.try_elementwise_sub(y, Axis::<-1>, Identity)
/// }
/// let x = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![3.0, 5.0]).unwrap();
/// assert_eq!(diff(&x, &x).unwrap().as_slice(), &[0.0, 0.0]);
/// let one = Tensor::<f32, shape![], Vec<f32>>::from_vec((), vec![1.0]).unwrap();
/// assert_eq!(diff(&x, &one).unwrap().as_slice(), &[2.0, 4.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "elementwise/broadcast: x of shape {Self} and y of shape {Y}: nothing says that they broadcast",
    label = "{Self} and {Y} must broadcast",
    note = "in generic code, add `{Self}: BroadcastWith<{Y}>` (static shapes, axis -1; the output is `BroadcastOf<{Self}, {Y}>`) or `{Self}: ElementwiseShapes<{Y}, AXIS>`; a shape meets its own and `shape![]` with no bound"
)]
pub trait SameOrScalar<Y: ?Sized> {}

impl SameOrScalar<()> for () {}

/// The dims of a [`Shape::Placeholder`] as a constant (every dim static).
/// One impl per rank, each asking only that its dims are static.
#[doc(hidden)]
pub trait PlaceholderDims {
    /// The dims.
    const DIMS: &'static [usize];
}

impl PlaceholderDims for () {
    const DIMS: &'static [usize] = &[];
}

impl StaticShape for () {
    const DIMS: &'static [usize] = &[];
    const NUMEL: usize = 1;
    type Array<T: Copy> = T;
    #[inline(always)]
    fn array_filled<T: Copy>(v: T) -> T {
        v
    }
    #[inline(always)]
    fn array_from_fn<T: Copy>(mut f: impl FnMut(usize) -> T) -> T {
        f(0)
    }
    #[inline(always)]
    fn array_as_slice<T: Copy>(a: &T) -> &[T] {
        core::slice::from_ref(a)
    }
    #[inline(always)]
    fn array_as_mut_slice<T: Copy>(a: &mut T) -> &mut [T] {
        core::slice::from_mut(a)
    }
}

/// `dims` as [`Dims`] if every one is static.
// Every index below is guarded by `i < dims.len() <= MAX_RANK`.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn static_dims(dims: &[Option<usize>]) -> Option<Dims> {
    if dims.len() > MAX_RANK {
        return None;
    }
    let mut buf = [0usize; MAX_RANK];
    let mut i = 0;
    while i < dims.len() {
        let Some(d) = dims[i] else {
            return None;
        };
        buf[i] = d;
        i += 1;
    }
    match Dims::new(buf.split_at(dims.len()).0) {
        Ok(d) => Some(d),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{static_numel, Dims};

    const VALUES: [usize; 5] = [0, 1, 2, 3, usize::MAX];

    /// `static_numel` of `dims` (rank `dims.len()`) against the run-time
    /// count, and with each dim in turn made `Dyn`.
    fn check(dims: &[usize]) {
        let mut known = [None; 3];
        for (k, &d) in known.iter_mut().zip(dims) {
            *k = Some(d);
        }
        let known = &mut known[..dims.len()];
        let runtime = Dims::new(dims).ok().and_then(|d| d.numel());
        assert_eq!(static_numel(known), runtime, "{dims:?}");
        for i in 0..dims.len() {
            let d = known[i].take();
            assert_eq!(static_numel(known), None, "{known:?}");
            known[i] = d;
        }
    }

    /// `static_numel` agrees with the run-time count (`Dims::numel`) on every
    /// list of dims from {0, 1, 2, 3, usize::MAX} up to rank 3, and a `Dyn`
    /// anywhere makes it `None`.
    #[test]
    fn static_numel_counts_as_dims_numel() {
        check(&[]);
        for a in VALUES {
            check(&[a]);
            for b in VALUES {
                check(&[a, b]);
                for c in VALUES {
                    check(&[a, b, c]);
                }
            }
        }
    }

    /// The 0 case: a 0 dim wins over a product that overflows, wherever the
    /// 0 is; a `Dyn` wins over a 0 (the count is then not a constant).
    #[test]
    fn static_numel_zero_and_dyn() {
        assert_eq!(static_numel(&[Some(usize::MAX), Some(2), Some(0)]), Some(0));
        assert_eq!(static_numel(&[Some(0), Some(usize::MAX), Some(2)]), Some(0));
        assert_eq!(static_numel(&[Some(usize::MAX), Some(2)]), None);
        assert_eq!(static_numel(&[None, Some(0)]), None);
        assert_eq!(static_numel(&[]), Some(1));
    }
}
