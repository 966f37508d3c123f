//! Element-type rules as links, for short compile errors: an operand's
//! elements seen as another type (`U`) under a rule `R` (select's cond as
//! `bool`s, else as then's `T`; elementwise's `y` as `x`'s `T`).
//!
//! A plain bound on an element type (`CE: CondElement`) makes rustc point
//! at the argument and quote the function's where-clause. Reached through
//! [`ElementLink`] (a trait implemented for any `Self`) by [`Elements`]
//! (one blanket impl), whose [`Shape`](Elements::Shape) the op names in its
//! return type, a wrong element type is one error at the call, by the
//! rule's own message; the op's body gets the elements as a view of `U`s.

use crate::element::SameElement;
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// An element rule `R` of the element type `Self`: the elements as `U`s.
/// Each rule's impl requires the trait that carries its message.
///
/// ```
/// use shapecheck::ops::elements::{ElementRule, SameRule};
/// assert_eq!(<f32 as ElementRule<SameRule, f32>>::cast(&[1.0, 2.0]), &[1.0, 2.0]);
/// ```
pub trait ElementRule<R, U>: Copy {
    /// The elements as `U`s.
    ///
    /// ```
    /// use shapecheck::ops::elements::{ElementRule, SameRule};
    /// let data = [3i32, 4];
    /// assert_eq!(<i32 as ElementRule<SameRule, i32>>::cast(&data), &[3, 4]);
    /// ```
    fn cast(data: &[Self]) -> &[U];
}

/// The rule "both operands hold one element type" ([`SameElement`]).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::elements::{Elements, SameRule};
/// // elementwise's `y` must hold `x`'s element type: f32 passes for f32
/// let y = tensor![0.5f32, 1.5];
/// assert_eq!(<f32 as Elements<f32, SameRule, shape![2]>>::view(&y).as_slice(), &[0.5, 1.5]);
/// ```
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::elements::{Elements, SameRule};
/// // ... and an f64 `y` for an f32 `x` does not compile
/// let y = tensor![0.5f64, 1.5];
/// let _ = <f64 as Elements<f32, SameRule, shape![2]>>::view(&y);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SameRule;

impl<T, TY: SameElement<T> + Copy> ElementRule<SameRule, T> for TY {
    #[inline(always)]
    fn cast(data: &[TY]) -> &[T] {
        TY::same(data)
    }
}

/// [`ElementRule`] of `E` as a link with `Self = ()` (any `Self`): a view
/// of a tensor of shape `S` whose elements pass the rule.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::elements::{ElementLink, SameRule};
/// let y = tensor![1.0f32, 2.0];
/// let view = <() as ElementLink<f32, f32, SameRule, shape![2]>>::view(&y);
/// assert_eq!(view.as_slice(), &[1.0, 2.0]);
/// ```
pub trait ElementLink<E: Copy, U: Copy, R, S: Shape> {
    /// `S`.
    type Shape: Shape;
    /// A view of `t`'s elements as `U`s.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::elements::{ElementLink, SameRule};
    /// let t = tensor![[7u8, 8], [9, 10]];
    /// let v = <() as ElementLink<u8, u8, SameRule, shape![2, 2]>>::view(&t);
    /// assert_eq!((v.dims().as_slice(), v.as_slice()), (&[2, 2][..], &[7, 8, 9, 10][..]));
    /// ```
    fn view<B: Storage<E>>(t: &Tensor<E, S, B>) -> Tensor<U, Self::Shape, &[U]>;
}

impl<P, E: ElementRule<R, U>, U: Copy, R, S: Shape> ElementLink<E, U, R, S> for P {
    type Shape = S;
    #[inline(always)]
    fn view<B: Storage<E>>(t: &Tensor<E, S, B>) -> Tensor<U, S, &[U]> {
        Tensor::from_parts_unchecked(*t.shape(), E::cast(t.as_slice()))
    }
}

/// An element rule `R` on the element type (`Self`) of an operand of shape
/// `S`, as one blanket impl over [`ElementLink`] (see the
/// [module docs](self)).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::elements::{Elements, SameRule};
/// let y = tensor![[1i64, 2], [3, 4]];
/// let view = <i64 as Elements<i64, SameRule, shape![2, 2]>>::view(&y);
/// assert_eq!(view.as_slice(), &[1, 2, 3, 4]);
/// ```
pub trait Elements<U: Copy, R, S: Shape>: Copy {
    /// `S`, once the rule holds.
    type Shape: Shape;
    /// A view of `t`'s elements as `U`s.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::elements::{Elements, SameRule};
    /// let t = tensor![1.0f64, 2.0, 3.0];
    /// let v = <f64 as Elements<f64, SameRule, shape![3]>>::view(&t);
    /// assert_eq!(v.as_slice(), t.as_slice());
    /// ```
    fn view<B: Storage<Self>>(t: &Tensor<Self, S, B>) -> Tensor<U, Self::Shape, &[U]>;
}

impl<E: Copy, U: Copy, R, S: Shape> Elements<U, R, S> for E
where
    (): ElementLink<E, U, R, S>,
{
    type Shape = <() as ElementLink<E, U, R, S>>::Shape;
    #[inline(always)]
    fn view<B: Storage<E>>(t: &Tensor<E, S, B>) -> Tensor<U, Self::Shape, &[U]> {
        <() as ElementLink<E, U, R, S>>::view(t)
    }
}

/// The shape `Y` of an operand whose element type `TY` must be `T`
/// ([`SameRule`]): `Y`, once the rule holds.
pub type SameShape<TY, T, Y> = <TY as Elements<T, SameRule, Y>>::Shape;
