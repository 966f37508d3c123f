//! What a dim is.
//!
//! A dim is either **static**, a type whose size the compiler knows, or
//! **dynamic** ([`Dyn`]), a `usize` known at run time. Both implement
//! [`DimLike`], so one shape can mix them (`shape![Dyn, 16]`).
//!
//! Size 1 has a type of its own, [`One`], because it is the size that
//! broadcasts: with `Dim<N>` for every other size, "equal, or one of them is 1"
//! is four disjoint impls, `(Dim<N>, Dim<N>)`, `(Dim<N>, One)`, `(One, Dim<N>)`
//! and `(One, One)`, which stable Rust accepts (a single `Dim<N>` for every N
//! would need overlapping impls). The [`shape!`](crate::shape!) macro writes
//! `One` for a literal 1. A `Dim<1>` written by hand is a valid dim of size 1
//! but does not broadcast in static rules: it only matches another `Dim<1>`.

use core::fmt::Debug;

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// Whether a dim (or a shape) is known to the compiler, as a type: what
/// [`OutputStorage`](crate::storage::OutputStorage) reads to choose a
/// result's storage. Internal: only [`DimLike`] and [`Shape`](crate::Shape)
/// name it.
#[doc(hidden)]
pub mod kind {
    /// Every dim is static.
    #[derive(Clone, Copy, Debug)]
    pub enum Fixed {}
    /// At least one dim is a run-time [`Dyn`](crate::Dyn).
    #[derive(Clone, Copy, Debug)]
    pub enum Runtime {}
    /// A kind: [`Fixed`] or [`Runtime`] (sealed).
    pub trait Kind: super::sealed::Sealed {
        /// The kind of this and `K` together: [`Fixed`] only if both are.
        type Join<K: Kind>: Kind;
    }
    impl super::sealed::Sealed for Fixed {}
    impl super::sealed::Sealed for Runtime {}
    impl Kind for Fixed {
        type Join<K: Kind> = K;
    }
    impl Kind for Runtime {
        type Join<K: Kind> = Runtime;
    }
}

/// A dim: static ([`Dim`], [`One`]) or dynamic ([`Dyn`]).
///
/// ```
/// use shapecheck::prelude::*;
/// assert_eq!(Dim::<3>.size(), 3);
/// assert_eq!(Dyn(7).size(), 7);
/// assert_eq!(<One as DimLike>::STATIC, Some(1));
/// assert_eq!(<Dyn as DimLike>::STATIC, None);
/// ```
pub trait DimLike: Copy + Debug + PartialEq + Eq + Send + Sync + 'static + sealed::Sealed {
    /// `Some(n)` when the size is part of the type.
    const STATIC: Option<usize>;
    /// [`kind::Fixed`] for a static dim, [`kind::Runtime`] for [`Dyn`].
    #[doc(hidden)]
    type Kind: kind::Kind;
    /// The size of this dim.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<4>.size(), 4);
    /// assert_eq!(One.size(), 1);
    /// assert_eq!(Dyn(5).size(), 5);
    /// ```
    #[must_use]
    fn size(self) -> usize;
    /// Builds the dim from a size; `None` if a static dim has another size.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<3>::from_size(3), Some(Dim::<3>));
    /// assert_eq!(Dim::<3>::from_size(2), None);
    /// assert_eq!(One::from_size(2), None);
    /// assert_eq!(Dyn::from_size(9), Some(Dyn(9)));
    /// ```
    #[must_use]
    fn from_size(n: usize) -> Option<Self>;
}

/// A dim whose size is part of its type: the building block of inline storage.
///
/// ```
/// use shapecheck::prelude::*;
/// assert_eq!(<Dim<4> as StaticDim>::SIZE, 4);
/// assert_eq!(<One as StaticDim>::SIZE, 1);
/// let row: <Dim<3> as StaticDim>::Arr<i32> = [1, 2, 3];
/// assert_eq!(Dim::<3>::arr_as_slice::<i32>(&row), &[1, 2, 3]);
/// ```
pub trait StaticDim: DimLike<Kind = kind::Fixed> + Default {
    /// The size.
    const SIZE: usize;
    /// An array of `SIZE` values of `T`: `[T; SIZE]`.
    type Arr<T: Copy>: Copy;
    /// An array with every element set to `v`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<3>::arr_filled(7u8), [7, 7, 7]);
    /// assert_eq!(One::arr_filled(0.5f32), [0.5]);
    /// ```
    fn arr_filled<T: Copy>(v: T) -> Self::Arr<T>;
    /// The array as a slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<2>::arr_as_slice::<i32>(&[1, 2]), &[1, 2]);
    /// ```
    fn arr_as_slice<T: Copy>(a: &Self::Arr<T>) -> &[T];
    /// The array as a mutable slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut a = [1, 2];
    /// Dim::<2>::arr_as_mut_slice::<i32>(&mut a)[0] = 5;
    /// assert_eq!(a, [5, 2]);
    /// ```
    fn arr_as_mut_slice<T: Copy>(a: &mut Self::Arr<T>) -> &mut [T];
    /// A slice of arrays as one flat slice (nested arrays are contiguous).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let rows = [[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(Dim::<3>::flatten::<i32>(&rows), &[1, 2, 3, 4, 5, 6]);
    /// ```
    fn flatten<T: Copy>(s: &[Self::Arr<T>]) -> &[T];
    /// A mutable slice of arrays as one flat mutable slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut rows = [[1, 2, 3], [4, 5, 6]];
    /// Dim::<3>::flatten_mut::<i32>(&mut rows)[3] = 40;
    /// assert_eq!(rows, [[1, 2, 3], [40, 5, 6]]);
    /// ```
    fn flatten_mut<T: Copy>(s: &mut [Self::Arr<T>]) -> &mut [T];
}

/// A static dim of size `N` (written by [`shape!`](crate::shape!) for every size but 1).
///
/// ```
/// use shapecheck::prelude::*;
/// let s: shape![2, 3] = (Dim::<2>, Dim::<3>);
/// assert_eq!(s.dims().as_slice(), &[2, 3]);
/// assert_eq!(Dim::<5>.size(), 5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim<const N: usize>;

/// The static dim of size 1, the one that broadcasts.
///
/// ```
/// use shapecheck::prelude::*;
/// // `shape![2, 1]` is `(Dim<2>, One)`: the column broadcasts across the rows' 3 columns
/// let x = Tensor::<f32, shape![2, 3]>::full(1.0);
/// let col = Tensor::<f32, (Dim<2>, One)>::from_array([[10.0], [20.0]]);
/// let y = x.elementwise_add(&col, Axis::<-1>, Identity);
/// assert_eq!(y.as_slice(), &[11.0, 11.0, 11.0, 21.0, 21.0, 21.0]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct One;

/// A dim known only at run time. Every rule that involves it is checked when
/// the op runs and reported as a typed error.
///
/// ```
/// use shapecheck::prelude::*;
/// let t = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim::<3>), vec![0.0; 6]).unwrap();
/// assert_eq!(t.dims().as_slice(), &[2, 3]);
/// // the run-time dim is checked against the data
/// let err = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim::<3>), vec![0.0; 5]).unwrap_err();
/// assert_eq!(err.rule(), "shape/data-length");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyn(pub usize);

impl<const N: usize> sealed::Sealed for Dim<N> {}
impl sealed::Sealed for One {}
impl sealed::Sealed for Dyn {}

impl<const N: usize> DimLike for Dim<N> {
    const STATIC: Option<usize> = Some(N);
    type Kind = kind::Fixed;
    #[inline(always)]
    fn size(self) -> usize {
        N
    }
    fn from_size(n: usize) -> Option<Self> {
        (n == N).then_some(Dim)
    }
}

impl DimLike for One {
    const STATIC: Option<usize> = Some(1);
    type Kind = kind::Fixed;
    #[inline(always)]
    fn size(self) -> usize {
        1
    }
    fn from_size(n: usize) -> Option<Self> {
        (n == 1).then_some(One)
    }
}

impl DimLike for Dyn {
    const STATIC: Option<usize> = None;
    type Kind = kind::Runtime;
    #[inline(always)]
    fn size(self) -> usize {
        self.0
    }
    fn from_size(n: usize) -> Option<Self> {
        Some(Dyn(n))
    }
}

impl<const N: usize> StaticDim for Dim<N> {
    const SIZE: usize = N;
    type Arr<T: Copy> = [T; N];
    #[inline(always)]
    fn arr_filled<T: Copy>(v: T) -> [T; N] {
        [v; N]
    }
    #[inline(always)]
    fn arr_as_slice<T: Copy>(a: &[T; N]) -> &[T] {
        a
    }
    #[inline(always)]
    fn arr_as_mut_slice<T: Copy>(a: &mut [T; N]) -> &mut [T] {
        a
    }
    #[inline(always)]
    fn flatten<T: Copy>(s: &[[T; N]]) -> &[T] {
        s.as_flattened()
    }
    #[inline(always)]
    fn flatten_mut<T: Copy>(s: &mut [[T; N]]) -> &mut [T] {
        s.as_flattened_mut()
    }
}

impl StaticDim for One {
    const SIZE: usize = 1;
    type Arr<T: Copy> = [T; 1];
    #[inline(always)]
    fn arr_filled<T: Copy>(v: T) -> [T; 1] {
        [v]
    }
    #[inline(always)]
    fn arr_as_slice<T: Copy>(a: &[T; 1]) -> &[T] {
        a
    }
    #[inline(always)]
    fn arr_as_mut_slice<T: Copy>(a: &mut [T; 1]) -> &mut [T] {
        a
    }
    #[inline(always)]
    fn flatten<T: Copy>(s: &[[T; 1]]) -> &[T] {
        s.as_flattened()
    }
    #[inline(always)]
    fn flatten_mut<T: Copy>(s: &mut [[T; 1]]) -> &mut [T] {
        s.as_flattened_mut()
    }
}

/// The dims of a shape as the compiler knows them: `Some(n)` for a static dim,
/// `None` for [`Dyn`]. At most [`MAX_RANK`](crate::MAX_RANK).
pub type StaticDims = &'static [Option<usize>];
