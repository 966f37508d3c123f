//! The leaves of a fused expression: a tensor it reads ([`Leaf`]), the
//! tensor an in-place evaluation writes into ([`Place`]) and a constant
//! ([`Scalar`]). Each reads its values where the walk's lane for it points
//! ([`Piece`]); the operator nodes around them are in `node.rs`.

use super::node::{leaf_row, sealed, static_len, Node, Part, Piece, StaticTree};
use super::plan::Plan;
use super::row::{LeafRow, PlaceRow, ScalarRow};
use super::ExprError;
use crate::element::Element;
use crate::shape::{FixedShape, PlaceholderDims, Shape};

/// A tensor the expression reads (a leaf).
#[derive(Clone, Copy, Debug)]
pub struct Leaf<'a, T, S> {
    pub(crate) data: &'a [T],
    pub(crate) shape: S,
}

impl<T, S> sealed::Sealed for Leaf<'_, T, S> {}

impl<T: Element, S: Shape> Node<T> for Leaf<'_, T, S> {
    type Shape = S;
    const LEAVES: usize = 1;
    const PLAN: Option<Result<Plan, ExprError>> = if S::IS_STATIC {
        // a static shape is its own placeholder
        Some(Plan::leaf(<S::Placeholder<1> as PlaceholderDims>::DIMS))
    } else {
        None
    };
    fn shape(&self) -> S {
        self.shape
    }
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        static_len::<S>().is_none_or(|n| self.data.len() >= n)
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        Plan::leaf(&self.shape.dims())
    }
    type Row<'r, const STRIDED: bool>
        = LeafRow<'r, T, STRIDED>
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        first: usize,
        at: &Piece<'_>,
        len: usize,
    ) -> Option<LeafRow<'_, T, STRIDED>> {
        leaf_row(self.data, first, at, len)
    }
    #[inline(always)]
    fn write(&self, first: usize, at: &Piece<'_>, out: &mut [T]) {
        match at.part(first, self.data, out.len()) {
            Some(Part::Row(src)) => {
                for (o, &v) in out.iter_mut().zip(src) {
                    *o = v;
                }
            }
            Some(Part::Repeat(v)) => out.fill(v),
            None => {}
        }
    }
    #[inline(always)]
    fn combine<F: Fn(T, T) -> T>(&self, first: usize, at: &Piece<'_>, out: &mut [T], f: F) {
        match at.part(first, self.data, out.len()) {
            Some(Part::Row(src)) => {
                for (o, &v) in out.iter_mut().zip(src) {
                    *o = f(*o, v);
                }
            }
            Some(Part::Repeat(v)) => {
                for o in out.iter_mut() {
                    *o = f(*o, v);
                }
            }
            None => {}
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: FixedShape> StaticTree<T> for Leaf<'_, T, S> {}

/// The tensor an in-place evaluation ([`Tensor::update`](crate::Tensor::update))
/// writes into, as a leaf: each output element reads its own old value
/// before it is written, so the tree may read it anywhere (the output has
/// its shape, so it is read at the position being written).
#[derive(Clone, Copy, Debug)]
pub struct Place<S> {
    pub(crate) shape: S,
}

impl<S> sealed::Sealed for Place<S> {}

impl<T: Element, S: Shape> Node<T> for Place<S> {
    type Shape = S;
    const LEAVES: usize = 1;
    const PLAN: Option<Result<Plan, ExprError>> = if S::IS_STATIC {
        Some(Plan::leaf(<S::Placeholder<1> as PlaceholderDims>::DIMS))
    } else {
        None
    };
    fn shape(&self) -> S {
        self.shape
    }
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        true
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        Plan::leaf(&self.shape.dims())
    }
    type Row<'r, const STRIDED: bool>
        = PlaceRow
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        _first: usize,
        _at: &Piece<'_>,
        _len: usize,
    ) -> Option<PlaceRow> {
        Some(PlaceRow)
    }
    /// Leaves the piece as it is: an in-place evaluation goes row by row
    /// ([`Node::row`]), never piece by piece, so this is not called.
    #[inline(always)]
    fn write(&self, _first: usize, _at: &Piece<'_>, _out: &mut [T]) {}
}

#[diagnostic::do_not_recommend]
impl<T: Element, S: FixedShape> StaticTree<T> for Place<S> {}

/// A constant: a scalar (shape `[]`) that broadcasts to anything.
#[derive(Clone, Copy, Debug)]
pub struct Scalar<T>(pub(crate) T);

impl<T> sealed::Sealed for Scalar<T> {}

impl<T: Element> Node<T> for Scalar<T> {
    type Shape = ();
    const LEAVES: usize = 0;
    const PLAN: Option<Result<Plan, ExprError>> = Some(Ok(Plan::SCALAR));
    fn shape(&self) {}
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        true
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        Ok(Plan::SCALAR)
    }
    type Row<'r, const STRIDED: bool>
        = ScalarRow<T>
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        _first: usize,
        _at: &Piece<'_>,
        _len: usize,
    ) -> Option<ScalarRow<T>> {
        Some(ScalarRow(self.0))
    }
    #[inline(always)]
    fn write(&self, _first: usize, _at: &Piece<'_>, out: &mut [T]) {
        out.fill(self.0);
    }
    #[inline(always)]
    fn combine<F: Fn(T, T) -> T>(&self, _first: usize, _at: &Piece<'_>, out: &mut [T], f: F) {
        for o in out.iter_mut() {
            *o = f(*o, self.0);
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element> StaticTree<T> for Scalar<T> {}
