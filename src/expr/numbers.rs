//! A number on the left of an expression: `2.0 * x.lazy()`, `1.0 - e`
//! (`e * 2.0` is the operators' own, a number being an operand like a
//! tensor). The number meets every shape, so the node's shape is the
//! expression's and no shape bound is asked, as for `&x * 2.0` on tensors.
//! One impl per number type and operator: Rust's orphan rule wants the
//! number's type written out, and a number of another type is then the
//! "elementwise/element-type" error.

use super::leaf::Scalar;
use super::node::{Binary, Node};
use super::Expr;
use crate::element::{Element, SameElement};
use crate::ops::elementwise::FloatElement;
use crate::ops::{Add, Div, Mul, Sub};
use crate::shape::Shape;
use core::marker::PhantomData;

/// `k op e` as a node: the number on the left, at axis -1 (numpy's rule:
/// the number repeats over every element of `e`).
#[inline(always)]
fn number_first<T, N, Op, S>(k: T, e: Expr<T, N, S>) -> Expr<T, Binary<Scalar<T>, N, Op, S, -1>, S>
where
    T: Element,
    N: Node<T, Shape = S>,
    S: Shape,
{
    let shape = e.node.shape();
    Expr::new(Binary {
        l: Scalar(k),
        r: e.node,
        shape,
        op: PhantomData,
    })
}

// `k op e` for a number type: one impl per operator (`/` for floats).
macro_rules! expr_numbers {
    ($num:ty) => {
        expr_numbers!($num, Mul, mul, Element);
        expr_numbers!($num, Add, add, Element);
        expr_numbers!($num, Sub, sub, Element);
        expr_numbers!($num, Div, div, FloatElement);
    };
    ($num:ty, $trait:ident, $method:ident, $elem:path) => {
        #[doc = concat!("`k ", stringify!($method), " e` for a number `k: ", stringify!($num), "` and an expression `e`.")]
        impl<T, N, S> core::ops::$trait<Expr<T, N, S>> for $num
        where
            T: $elem,
            N: Node<T, Shape = S>,
            S: Shape,
            $num: SameElement<T>,
        {
            type Output = Expr<T, Binary<Scalar<T>, N, $trait, S, -1>, S>;
            #[inline(always)]
            fn $method(self, e: Expr<T, N, S>) -> Self::Output {
                number_first(self.same_value(), e)
            }
        }
    };
}

expr_numbers!(f32);
expr_numbers!(f64);
expr_numbers!(i8);
expr_numbers!(i16);
expr_numbers!(i32);
expr_numbers!(i64);
expr_numbers!(u8);
expr_numbers!(u16);
expr_numbers!(u32);
expr_numbers!(u64);
#[cfg(feature = "half")]
expr_numbers!(half::f16);
#[cfg(feature = "half")]
expr_numbers!(half::bf16);
