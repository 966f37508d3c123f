//! The backward of a fused expression: given `dout` (typed as the output),
//! the gradient of every tensor the tree reads, each typed as that tensor,
//! in one pass over `dout` and the leaves.
//!
//! The walk is the forward's: for each output element the tree is bound to
//! its row ([`super::row`]), and the element's gradient flows down the tree
//! ([`RowValues::back`](super::row::RowValues::back)), each node applying
//! its op's derivative, until each leaf adds its share at its own
//! position. The values a derivative needs are computed once per element,
//! on the way up ([`RowValues::record`](super::row::RowValues::record): a
//! tuple of the tree's values, in registers), never stored in memory. A
//! leaf that broadcasts along the output is read at the same position by
//! several output elements and so adds their shares there: the reduction
//! back to its shape happens in place, with no intermediate of the
//! output's size.
//!
//! The nodes with a derivative are the elementwise family, the activations
//! and select; `map` and `zip_with` (functions of yours) have none, and a
//! tree holding one has no `backward`.

use super::leaf::{Leaf, Scalar};
use super::node::{Activate, Binary, Node, Piece, Select, StaticTree};
use super::plan::{Plan, MAX_LEAVES};
use super::row::RowValues;
use super::{Expr, ExprError, Static};
use crate::element::Element;
use crate::kernel::plan::{fused_walk, strided_rows, RowCases};
use crate::kernel::Walk;
use crate::ops::elementwise::{Activation, BinaryOp};
use crate::ops::select::SelectMode;
use crate::shape::{Dims, Shape};
use crate::storage::{OutputStorage, OwnedStorage, Storage};
use crate::tensor::Tensor;

/// Nodes with a derivative (sealed, as [`Node`]): the gradients of their
/// leaves, nested as the tree is (`((gx, gy), gb)` for `x * y + b`; a
/// constant's is `()`, select's is then's and else's).
#[diagnostic::on_unimplemented(
    message = "this expression has no backward: it holds a node without a derivative (`map`, `zip_with`, or an in-place operand)",
    label = "a function of yours has no known derivative",
    note = "the nodes with a backward are the elementwise ops, the operators, the activations and select"
)]
#[doc(hidden)]
pub trait Backward<T: Element>: Node<T> {
    /// The leaves' gradients, each a tensor of its leaf's shape.
    type Grads;
    /// Every gradient filled with zeros.
    #[doc(hidden)]
    fn zero_grads(&self) -> Self::Grads;
    /// Each leaf's gradient as a slice, at its leaf number (from `first`).
    #[doc(hidden)]
    fn grad_slices<'g>(
        grads: &'g mut Self::Grads,
        first: usize,
        out: &mut [Option<&'g mut [T]>; MAX_LEAVES],
    );
    /// Each leaf's data and dims, at its leaf number (from `first`): what
    /// tells two reads of one tensor apart from two tensors.
    #[doc(hidden)]
    fn leaf_sources<'a>(&'a self, first: usize, out: &mut [Option<(&'a [T], Dims)>; MAX_LEAVES]);
}

/// A leaf's gradient: a tensor of its shape, stored as the shape chooses.
pub type LeafGrad<T, S> = Tensor<T, S, <S as OutputStorage<T>>::Buffer>;

impl<T: Element, S: Shape + OutputStorage<T>> Backward<T> for Leaf<'_, T, S> {
    type Grads = LeafGrad<T, S>;
    fn zero_grads(&self) -> Self::Grads {
        let data = <S as OutputStorage<T>>::Buffer::filled(&self.shape, T::default());
        Tensor::from_parts_unchecked(self.shape, data)
    }
    fn grad_slices<'g>(
        grads: &'g mut Self::Grads,
        first: usize,
        out: &mut [Option<&'g mut [T]>; MAX_LEAVES],
    ) {
        if let Some(slot) = out.get_mut(first) {
            *slot = Some(grads.as_mut_slice());
        }
    }
    fn leaf_sources<'a>(&'a self, first: usize, out: &mut [Option<(&'a [T], Dims)>; MAX_LEAVES]) {
        if let Some(slot) = out.get_mut(first) {
            *slot = Some((self.data, self.shape.dims()));
        }
    }
}

impl<T: Element> Backward<T> for Scalar<T> {
    type Grads = ();
    fn zero_grads(&self) {}
    fn grad_slices<'g>(_: &'g mut (), _: usize, _: &mut [Option<&'g mut [T]>; MAX_LEAVES]) {}
    fn leaf_sources<'a>(&'a self, _: usize, _: &mut [Option<(&'a [T], Dims)>; MAX_LEAVES]) {}
}

impl<T, L, R, Op, S, const AXIS: isize> Backward<T> for Binary<L, R, Op, S, AXIS>
where
    T: Element,
    L: Backward<T>,
    R: Backward<T>,
    Op: BinaryOp,
    S: Shape,
{
    type Grads = (L::Grads, R::Grads);
    fn zero_grads(&self) -> Self::Grads {
        (self.l.zero_grads(), self.r.zero_grads())
    }
    fn grad_slices<'g>(
        grads: &'g mut Self::Grads,
        first: usize,
        out: &mut [Option<&'g mut [T]>; MAX_LEAVES],
    ) {
        L::grad_slices(&mut grads.0, first, out);
        R::grad_slices(&mut grads.1, first + L::LEAVES, out);
    }
    fn leaf_sources<'a>(&'a self, first: usize, out: &mut [Option<(&'a [T], Dims)>; MAX_LEAVES]) {
        self.l.leaf_sources(first, out);
        self.r.leaf_sources(first + L::LEAVES, out);
    }
}

impl<T: Element, N: Backward<T>, A: Activation> Backward<T> for Activate<N, A> {
    type Grads = N::Grads;
    fn zero_grads(&self) -> Self::Grads {
        self.node.zero_grads()
    }
    fn grad_slices<'g>(
        grads: &'g mut Self::Grads,
        first: usize,
        out: &mut [Option<&'g mut [T]>; MAX_LEAVES],
    ) {
        N::grad_slices(grads, first, out);
    }
    fn leaf_sources<'a>(&'a self, first: usize, out: &mut [Option<(&'a [T], Dims)>; MAX_LEAVES]) {
        self.node.leaf_sources(first, out);
    }
}

impl<T, C, Th, El, M, S> Backward<T> for Select<'_, C, Th, El, M, S>
where
    T: Element,
    C: Shape,
    Th: Backward<T>,
    El: Backward<T>,
    M: SelectMode,
    S: Shape,
{
    type Grads = (Th::Grads, El::Grads);
    fn zero_grads(&self) -> Self::Grads {
        (self.then.zero_grads(), self.els.zero_grads())
    }
    fn grad_slices<'g>(
        grads: &'g mut Self::Grads,
        first: usize,
        out: &mut [Option<&'g mut [T]>; MAX_LEAVES],
    ) {
        // leaf `first` is cond, which has no gradient
        Th::grad_slices(&mut grads.0, first + 1, out);
        El::grad_slices(&mut grads.1, first + 1 + Th::LEAVES, out);
    }
    fn leaf_sources<'a>(&'a self, first: usize, out: &mut [Option<(&'a [T], Dims)>; MAX_LEAVES]) {
        // cond (leaf `first`) has no gradient, so it is not a source
        self.then.leaf_sources(first + 1, out);
        self.els.leaf_sources(first + 1 + Th::LEAVES, out);
    }
}

/// One pass over `dout` along `walk`, each element's gradient sent down
/// the tree and added into the leaves' gradients (every row read along
/// the leaves' strides).
#[inline(always)]
fn run_backward<T: Element, N: Backward<T>, const K: usize>(
    node: &N,
    walk: &Walk<K>,
    dout: &[T],
    grads: &mut N::Grads,
) {
    strided_rows(walk, Pass { node, dout, grads });
}

/// [`run_backward`]'s loop ([`RowCases`]).
struct Pass<'a, T: Element, N: Backward<T>> {
    node: &'a N,
    dout: &'a [T],
    grads: &'a mut N::Grads,
}

impl<T: Element, N: Backward<T>, const K: usize> RowCases<K> for Pass<'_, T, N> {
    type Out = ();
    #[inline(always)]
    fn run<const STRIDED: bool>(self, walk: &Walk<K>, inner: &[usize; K]) {
        let Pass { node, dout, grads } = self;
        let mut slices: [Option<&mut [T]>; MAX_LEAVES] = Default::default();
        N::grad_slices(grads, 0, &mut slices);
        let mut sink = |k: usize, pos: usize, g: T| {
            if let Some(Some(s)) = slices.get_mut(k)
                && let Some(v) = s.get_mut(pos)
            {
                *v = T::add(*v, g);
            }
        };
        let n = walk.inner();
        let mut row_start = 0usize;
        walk.for_each_row(|offsets| {
            let start = row_start;
            row_start = row_start.saturating_add(n);
            let at = Piece {
                offsets: &offsets,
                inner,
                start: 0,
            };
            let (Some(d), Some(values)) = (
                dout.get(start..start.saturating_add(n)),
                node.row::<STRIDED>(0, &at, n),
            ) else {
                return;
            };
            for (i, &g) in d.iter().enumerate() {
                let (_, tape) = values.record(i);
                values.back(i, g, &tape, &mut sink);
            }
        });
    }
}

/// [`run_backward`] with as many lanes as the tree has leaves.
#[inline(always)]
fn backward_plan<T: Element, N: Backward<T>>(node: &N, plan: &Plan, dout: &[T], g: &mut N::Grads) {
    match N::LEAVES {
        0..=2 => run_backward(node, &fused_walk(&plan.frame::<2>()), dout, g),
        3 => run_backward(node, &fused_walk(&plan.frame::<3>()), dout, g),
        4 => run_backward(node, &fused_walk(&plan.frame::<4>()), dout, g),
        _ => run_backward(node, &fused_walk(&plan.frame::<MAX_LEAVES>()), dout, g),
    }
}

impl<T: Element, N: Node<T, Shape = S>, S: Shape> Expr<T, N, S> {
    /// The gradient of every tensor this expression of static tensors
    /// reads, given `dout`, the gradient of its output (typed as the output:
    /// another shape does not compile). Each gradient has its tensor's
    /// shape: a tensor the tree broadcasts gets the sum over the dims it
    /// was broadcast along. Nested as the tree: `((gx, gy), gb)` for
    /// `x * y + b`. Derivatives as Paddle's grad kernels: max/min give a
    /// tie half to each side, the activations read their output.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, -2.0], [3.0, 4.0]];
    /// let (w, b) = (tensor![10.0f32, 20.0], tensor![0.5f32, 0.5]);
    /// let y = (x.lazy() * &w + &b).relu(); // forward: [[10.5, 0], [30.5, 80.5]]
    /// let ((gx, gw), gb) = y.backward(&Tensor::full(1.0));
    /// assert_eq!(gx.as_slice(), &[10.0, 0.0, 10.0, 20.0]); // w where relu let it through
    /// assert_eq!(gw.as_slice(), &[4.0, 4.0]); // summed over x's rows
    /// assert_eq!(gb.as_slice(), &[2.0, 1.0]);
    /// ```
    pub fn backward<B: Storage<T>>(&self, dout: &Tensor<T, S, B>) -> N::Grads
    where
        N: Backward<T> + StaticTree<T>,
    {
        let mut grads = self.node.zero_grads();
        let dout = dout.as_slice();
        match N::LEAVES {
            0..=2 => run_backward(&self.node, &Static::<T, N, 2>::WALK, dout, &mut grads),
            3 => run_backward(&self.node, &Static::<T, N, 3>::WALK, dout, &mut grads),
            4 => run_backward(&self.node, &Static::<T, N, 4>::WALK, dout, &mut grads),
            _ => run_backward(
                &self.node,
                &Static::<T, N, MAX_LEAVES>::WALK,
                dout,
                &mut grads,
            ),
        }
        grads
    }

    /// [`backward`](Self::backward) for expressions with run-time dims:
    /// the tree's rules and `dout`'s dims (`shape/output`) are checked
    /// first, and nothing is allocated if one fails.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(3), Dim), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let w = tensor![2.0f64, -1.0];
    /// let dout = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    /// let (gx, gw) = (x.lazy() * &w).try_backward(&dout).unwrap();
    /// assert_eq!(gx.as_slice(), &[2.0, -1.0, 2.0, -1.0, 2.0, -1.0]);
    /// assert_eq!(gw.as_slice(), &[9.0, 12.0]);
    /// let short = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    /// assert_eq!((x.lazy() * &w).try_backward(&short).unwrap_err().rule(), "shape/output");
    /// ```
    pub fn try_backward<B: Storage<T>>(&self, dout: &Tensor<T, S, B>) -> Result<N::Grads, ExprError>
    where
        N: Backward<T>,
    {
        let plan = self.node.plan()?;
        plan.out_dims().expect_output(dout.dims())?;
        let mut grads = self.node.zero_grads();
        backward_plan(&self.node, &plan, dout.as_slice(), &mut grads);
        Ok(grads)
    }
}

/// The gradients of a fused expression, one per tensor it reads (feature
/// `alloc`): a tensor read in several places (`x * x + x`) gets the sum of
/// its shares, and [`of`](Gradients::of) hands back each tensor's gradient,
/// typed as that tensor, instead of a tuple nested as the tree. Two reads
/// are of one tensor when they read the same memory with the same dims (a
/// view of a tensor is that tensor).
///
/// ```
/// use shapecheck::prelude::*;
/// let x = tensor![1.0f32, 2.0, 3.0];
/// let b = tensor![0.5f32, 0.5, 0.5];
/// // d/dx (x * x + x + b) = 2x + 1
/// let y = x.lazy() * &x + &x + &b;
/// let grads = y.gradients(&Tensor::full(1.0)).unwrap();
/// assert_eq!(grads.of(&x).unwrap().as_slice(), &[3.0, 5.0, 7.0]);
/// assert_eq!(grads.of(&b).unwrap().as_slice(), &[1.0, 1.0, 1.0]);
/// assert!(grads.of(&tensor![9.0f32, 9.0, 9.0]).is_none()); // not read
/// assert_eq!(grads.len(), 2);
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct Gradients<T> {
    entries: alloc::vec::Vec<GradEntry<T>>,
}

#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
struct GradEntry<T> {
    /// The tensor's data address and length, and its dims: its identity.
    at: (usize, usize),
    dims: Dims,
    grad: alloc::vec::Vec<T>,
}

#[cfg(feature = "alloc")]
impl<T: Element> Gradients<T> {
    /// The gradient of `x`, summed over every place the expression reads
    /// it, typed as `x` and stored in a `Vec`; `None` if the expression
    /// does not read `x` (or reads it only as select's cond).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f64, 2.0], [3.0, 4.0]];
    /// let w = tensor![10.0f64, 100.0];
    /// let g = (x.lazy() * &w).relu().gradients(&Tensor::full(1.0)).unwrap();
    /// let gw: Tensor<f64, shape![2], Vec<f64>> = g.of(&w).unwrap();
    /// assert_eq!(gw.as_slice(), &[4.0, 6.0]);
    /// ```
    #[must_use]
    pub fn of<S: Shape, B: Storage<T>>(
        &self,
        x: &Tensor<T, S, B>,
    ) -> Option<Tensor<T, S, alloc::vec::Vec<T>>> {
        let data = x.as_slice();
        let at = (data.as_ptr() as usize, data.len());
        let dims = x.dims();
        self.entries
            .iter()
            .find(|e| e.at == at && e.dims == dims)
            .map(|e| Tensor::from_parts_unchecked(*x.shape(), e.grad.clone()))
    }

    /// How many distinct tensors have a gradient.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![1.0f32, 2.0];
    /// assert_eq!((x.lazy() * &x).gradients(&Tensor::full(1.0)).unwrap().len(), 1);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no tensor has a gradient (an expression of constants).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![1.0f32, 2.0];
    /// assert!(!(x.lazy() + 1.0).gradients(&Tensor::full(1.0)).unwrap().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(feature = "alloc")]
impl<T: Element, N: Node<T, Shape = S>, S: Shape> Expr<T, N, S> {
    /// The gradients of every tensor the expression reads, one per tensor
    /// (see [`Gradients`]): [`try_backward`](Self::try_backward)'s values,
    /// with the shares of a tensor read several times summed. The tree's
    /// rules and `dout`'s dims are checked first.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![2.0f32, -1.0];
    /// // relu(x) * x: 2x where x > 0, else 0
    /// let g = (x.lazy().relu() * &x).gradients(&Tensor::full(1.0)).unwrap();
    /// assert_eq!(g.of(&x).unwrap().as_slice(), &[4.0, 0.0]);
    /// ```
    pub fn gradients<B: Storage<T>>(
        &self,
        dout: &Tensor<T, S, B>,
    ) -> Result<Gradients<T>, ExprError>
    where
        N: Backward<T>,
    {
        let mut grads = self.try_backward(dout)?;
        let mut slices: [Option<&mut [T]>; MAX_LEAVES] = Default::default();
        N::grad_slices(&mut grads, 0, &mut slices);
        let mut sources: [Option<(&[T], Dims)>; MAX_LEAVES] = Default::default();
        self.node.leaf_sources(0, &mut sources);
        let mut entries: alloc::vec::Vec<GradEntry<T>> = alloc::vec::Vec::new();
        for (grad, source) in slices.into_iter().zip(sources) {
            let (Some(grad), Some((data, dims))) = (grad, source) else {
                continue;
            };
            let at = (data.as_ptr() as usize, data.len());
            match entries.iter_mut().find(|e| e.at == at && e.dims == dims) {
                Some(e) => {
                    for (sum, &g) in e.grad.iter_mut().zip(grad.iter()) {
                        *sum = T::add(*sum, g);
                    }
                }
                None => entries.push(GradEntry {
                    at,
                    dims,
                    grad: grad.to_vec(),
                }),
            }
        }
        Ok(Gradients { entries })
    }
}
