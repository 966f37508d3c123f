//! Element-type rules as links, for short compile errors: an operand's
//! elements seen as another type (`U`) under a rule `R` (select's cond as
//! `bool`s, else as then's `T`; elementwise's `y` as `x`'s `T`).
//!
//! A plain bound on an element type (`CE: CondElement`) makes rustc point
//! at the argument and quote the function's where-clause. Reached through
//! [`Elements`] (one blanket impl over [`ElementRule`]), whose
//! [`Shape`](Elements::Shape) the op names in its return type, a wrong
//! element type is one error at the call, by the rule's own message; the
//! op's body gets the elements as a view of `U`s. (A link with `Self = ()`
//! between the two, `ElementLink`, changed no error's length:
//! `select/fail/cond_not_bool` is 10 lines either way, its last note naming
//! `Elements`, the trait in the op's signature, instead.)

use crate::element::SameElement;
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// An element rule `R` of the element type `Self`: the elements as `U`s.
/// Each rule's impl requires the trait that carries its message.
#[doc(hidden)]
pub trait ElementRule<R, U>: Copy {
    /// The elements as `U`s.
    fn cast(data: &[Self]) -> &[U];
}

/// The rule "both operands hold one element type" ([`SameElement`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SameRule;

impl<T, TY: SameElement<T> + Copy> ElementRule<SameRule, T> for TY {
    #[inline(always)]
    fn cast(data: &[TY]) -> &[T] {
        TY::same(data)
    }
}

/// An element rule `R` on the element type (`Self`) of an operand of shape
/// `S`, as one blanket impl over [`ElementRule`] (see the module docs of
/// `ops/elements.rs`).
#[doc(hidden)]
pub trait Elements<U: Copy, R, S: Shape>: Copy {
    /// `S`, once the rule holds.
    type Shape: Shape;
    /// A view of `t`'s elements as `U`s.
    fn view<B: Storage<Self>>(t: &Tensor<Self, S, B>) -> Tensor<U, Self::Shape, &[U]>;
}

impl<E: ElementRule<R, U>, U: Copy, R, S: Shape> Elements<U, R, S> for E {
    type Shape = S;
    #[inline(always)]
    fn view<B: Storage<E>>(t: &Tensor<E, S, B>) -> Tensor<U, Self::Shape, &[U]> {
        Tensor::from_parts_unchecked(*t.shape(), E::cast(t.as_slice()))
    }
}

/// The shape `Y` of an operand whose element type `TY` must be `T`
/// ([`SameRule`]): `Y`, once the rule holds.
pub type SameShape<TY, T, Y> = <TY as Elements<T, SameRule, Y>>::Shape;
