//! The static path: the elementwise methods of [`Tensor`].
//!
//! Every method calls the kernel with a walk from the one rule
//! ([`super::rule::frame`]): a constant for all-static shapes, computed when
//! the op runs for shapes with `Dyn` dims (the `try_` forms).

use super::bounds::ElementwiseShapes;
use super::kernel::{self, StaticWalk};
use super::{Activation, ActivationKind, Axis, BinaryOp, BinaryOpKind, ElementwiseError};
use crate::element::{Element, SameElement};
use crate::ops::elements::{Elements, SameRule, SameShape};
use crate::shape::{Shape, StaticShape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

/// The output type of `x (S) op y (Y)` at `AXIS`.
pub type ElementwiseOutput<S, Y, const AXIS: isize> = <S as ElementwiseShapes<Y, AXIS>>::Output;

/// The result of an elementwise op on `x: Tensor<T, S, B>` and a `Y`-shaped
/// operand: stored as the output's shape says ([`ResultStorage`]).
pub type ElementwiseResult<T, S, B, Y, const AXIS: isize> = Result<
    Tensor<
        T,
        ElementwiseOutput<S, Y, AXIS>,
        <B as ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>>::Out,
    >,
    ElementwiseError,
>;

/// The bounds every `try_` form of the family states, given once: `x`'s
/// shape `S` has an output with `Y` at `AXIS` (the type-level rule), `y`'s
/// element type is `x`'s, and `A` is an activation (see `shared_bounds!` in
/// the macros crate); the `_into` forms add `BO: StorageMut<T>` (first, in
/// brackets).
macro_rules! with_try_bounds {
    ([$($extra:tt)*] $($fns:tt)*) => {
        shapecheck_macros::shared_bounds! {
            where
                TY: SameElement<T> + Copy,
                BY: Storage<TY>,
                S: ElementwiseShapes<Y, AXIS>,
                Y: Shape,
                A: Activation,
                $($extra)*;
            $($fns)*
        }
    };
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    with_try_bounds! { []
        /// `act(op(self, y))` with Paddle's axis rule, for any shapes (run-time
        /// dims included): the static rules are checked by the compiler, the rest
        /// at run time. The result's storage is chosen by its shape (a `Vec` if
        /// it has a `Dyn` dim; see [`crate::storage`]).
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        /// // Y [2] at axis 0: y[i] meets row i of x; relu clips the second row
        /// let y = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![10.0, -10.0]).unwrap();
        /// let z = x.try_elementwise(Mul, &y, Axis::<0>, Relu).unwrap();
        /// assert_eq!(z.as_slice(), &[10.0, 20.0, 30.0, 0.0, 0.0, 0.0]);
        /// // Y [3] at axis 0 meets x's 2 rows
        /// let y3 = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
        /// let err = x.try_elementwise(Mul, &y3, Axis::<0>, Identity).unwrap_err();
        /// assert_eq!(err.rule(), "elementwise/broadcast");
        /// ```
        pub fn try_elementwise<Op, A, TY, Y, BY, const AXIS: isize>(
            &self,
            op: Op,
            y: &Tensor<TY, Y, BY>,
            axis: Axis<AXIS>,
            act: A,
        ) -> ElementwiseResult<T, S, B, Y, AXIS>
        where
            Op: BinaryOp,
            B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
        {
            // the rule first: nothing is allocated for shapes it rejects
            super::rule::frame(&self.dims(), &y.dims(), AXIS)?;
            let shape = S::output(self.shape(), y.shape());
            let mut out =
                Tensor::from_parts_unchecked(shape, B::Out::try_filled(&shape, T::default())?);
            self.try_elementwise_into(op, y, axis, act, &mut out)?;
            Ok(out)
        }

    }

    with_try_bounds! { [BO: StorageMut<T>]
        /// Like [`try_elementwise`](Self::try_elementwise), writing into `out`
        /// (any storage, a caller's buffer included), whose shape must be the output's.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        /// let y = tensor![10.0f32, 20.0];
        /// let mut buf = [0.0f32; 4];
        /// let mut out = Tensor::<f32, shape![Dyn, 2], &mut [f32]>::with_dims(&[2, 2], &mut buf[..]).unwrap();
        /// x.try_elementwise_into(Add, &y, Axis::<-1>, Identity, &mut out).unwrap();
        /// assert_eq!(buf, [11.0, 22.0, 13.0, 24.0]);
        /// // an output of another shape is an error, and nothing is written
        /// let mut small = [0.0f32; 2];
        /// let mut out = Tensor::<f32, shape![Dyn, 2], &mut [f32]>::with_dims(&[1, 2], &mut small[..]).unwrap();
        /// let err = x.try_elementwise_into(Add, &y, Axis::<-1>, Identity, &mut out).unwrap_err();
        /// assert_eq!(err.rule(), "shape/output");
        /// assert_eq!(small, [0.0; 2]);
        /// ```
        pub fn try_elementwise_into<Op, A, TY, Y, BY, BO, const AXIS: isize>(
            &self,
            _op: Op,
            y: &Tensor<TY, Y, BY>,
            _axis: Axis<AXIS>,
            _act: A,
            out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
        ) -> Result<(), ElementwiseError>
        where
            Op: BinaryOp,
        {
            let f = super::rule::frame(&self.dims(), &y.dims(), AXIS)?;
            f.out_dims().expect_output(out.dims())?;
            kernel::run(
                Op::KIND,
                A::KIND,
                &kernel::walk(&f),
                self.as_slice(),
                TY::same(y.as_slice()),
                out.as_mut_slice(),
            )
        }
    }

    /// The statically checked core: every dim static, the walk a constant,
    /// so nothing can fail but integer division by zero.
    #[inline(always)]
    pub(super) fn static_elementwise_into<TY, Y, BY, const AXIS: isize>(
        &self,
        op: BinaryOpKind,
        act: ActivationKind,
        y: &Tensor<TY, Y, BY>,
        out: &mut [T],
    ) -> Result<(), ElementwiseError>
    where
        S: StaticShape,
        Y: StaticShape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
        S: ElementwiseShapes<Y, AXIS>,
    {
        let walk = &StaticWalk::<S, Y, AXIS>::WALK;
        kernel::run(op, act, walk, self.as_slice(), TY::same(y.as_slice()), out)
    }
}

/// The result of a static op that cannot fail: the tensor itself.
macro_rules! cannot_fail {
    // what a doc example appends to the call: nothing, the op cannot fail
    (doc) => {
        ""
    };
    ($r:ident, $out:ident) => {{
        // only Div can fail, and this is not Div
        let _ = $r;
        $out
    }};
    ($r:ident) => {{
        let _ = $r;
    }};
}

/// The result of a static op that can fail (integer division by zero).
macro_rules! may_fail {
    // what a doc example appends to the call: the op returns a `Result`
    (doc) => {
        ".unwrap()"
    };
    ($r:ident, $out:ident) => {
        $r.map(|()| $out)
    };
    ($r:ident) => {
        $r
    };
}

/// One static op and its `_into` form. `$done` says whether it can fail.
macro_rules! static_op {
    ($name:ident => $op:ident, $done:ident, ($($ret:tt)*), ($($ret_into:tt)*), $doc:literal) => { paste::paste! {
        #[doc = concat!("Paddle's `", stringify!($name), "`: `act(x ", $doc, " y)` with Y placed at `axis` ")]
        #[doc = "(see the [module docs](crate::ops::elementwise)). Both shapes static: a shape the rule"]
        #[doc = "rejects is a compile error. The result's storage is chosen by its shape (inline here,"]
        #[doc = "or a `Vec` for a `Vec` operand)."]
        #[doc = ""]
        #[doc = "```"]
        #[doc = "use shapecheck::prelude::*;"]
        #[doc = "let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);"]
        #[doc = "// Y [2] placed at axis 0: y[i] meets row i of x"]
        #[doc = "let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);"]
        #[doc = concat!("let z: Tensor<f32, shape![2, 3]> = x.", stringify!($name), "(&y, Axis::<0>, Identity)", $done!(doc), ";")]
        #[doc = "// the same as numpy broadcasting the column [2, 1], with the rule run at run time"]
        #[doc = "let col = Tensor::<f32, shape![2, 1]>::from_array([[2.0], [4.0]]);"]
        #[doc = concat!("assert_eq!(z, x.try_elementwise(", stringify!($op), ", &col, Axis::<-1>, Identity).unwrap());")]
        #[doc = "```"]
        pub fn $name<TY, Y, BY, A, const AXIS: isize>(
            &self,
            y: &Tensor<TY, Y, BY>,
            _axis: Axis<AXIS>,
            _act: A,
        ) -> $($ret)*
        where
            // the element rule through a link, so that a wrong element type
            // is one short error ([`crate::ops::elements`]); `SameShape` is `Y`
            TY: Elements<T, SameRule, Y>,
            S: ElementwiseShapes<SameShape<TY, T, Y>, AXIS>,
            Y: StaticShape,
            SameShape<TY, T, Y>: StaticShape,
            BY: Storage<TY>,
            A: Activation,
            B: ResultStorage<T, ElementwiseOutput<S, SameShape<TY, T, Y>, AXIS>>,
        {
            let y = TY::view(y);
            let shape = S::output(self.shape(), y.shape());
            let mut out = Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
            let r = self.static_elementwise_into::<T, SameShape<TY, T, Y>, &[T], AXIS>(
                BinaryOpKind::$op, A::KIND, &y, out.as_mut_slice());
            $done!(r, out)
        }

        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") writing into `out` (a caller's buffer, no heap needed).")]
        #[doc = ""]
        #[doc = "```"]
        #[doc = "use shapecheck::prelude::*;"]
        #[doc = "let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);"]
        #[doc = "let y = Tensor::<f32, shape![3]>::from_array([2.0, 4.0, 8.0]);"]
        #[doc = "let mut buf = [0.0f32; 6];"]
        #[doc = "let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();"]
        #[doc = concat!("x.", stringify!($name), "_into(&y, Axis::<-1>, Identity, &mut out)", $done!(doc), ";")]
        #[doc = concat!("assert_eq!(out, x.try_elementwise(", stringify!($op), ", &y, Axis::<-1>, Identity).unwrap());")]
        #[doc = "```"]
        pub fn [<$name _into>]<TY, Y, BY, BO, A, const AXIS: isize>(
            &self,
            y: &Tensor<TY, Y, BY>,
            _axis: Axis<AXIS>,
            _act: A,
            out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
        ) -> $($ret_into)*
        where
            S: ElementwiseShapes<Y, AXIS>,
            BO: StorageMut<T>,
            A: Activation,
            Y: StaticShape,
            BY: Storage<TY>,
            TY: SameElement<T> + Copy,
        {
            let r = self.static_elementwise_into::<TY, Y, BY, AXIS>(
                BinaryOpKind::$op, A::KIND, y, out.as_mut_slice());
            $done!(r)
        }
    } };
}

/// The ops that cannot fail on static shapes.
macro_rules! infallible_ops {
    ($($name:ident => $op:ident, $doc:literal);* $(;)?) => { $(
        static_op!($name => $op, cannot_fail,
            (Tensor<T, ElementwiseOutput<S, SameShape<TY, T, Y>, AXIS>, B::Out>), (()), $doc);
    )* };
}

impl<T: Element, S: StaticShape, B: Storage<T>> Tensor<T, S, B> {
    infallible_ops!(
        elementwise_mul => Mul, "*";
        elementwise_add => Add, "+";
        elementwise_sub => Sub, "-";
        elementwise_max => Max, "max";
        elementwise_min => Min, "min";
    );
    // the only run-time error of a static op: an integer division by zero
    static_op!(elementwise_div => Div, may_fail,
        (ElementwiseResult<T, S, B, SameShape<TY, T, Y>, AXIS>), (Result<(), ElementwiseError>), "/");
}

/// The named `try_` forms: `x.try_elementwise_mul(&y, axis, act)` is
/// `x.try_elementwise(Mul, &y, axis, act)` (one implementation; these only
/// name the op), and `try_elementwise_mul_into` the same for `_into`.
macro_rules! try_named_ops {
    ($($name:ident => $op:ident, $doc:literal);* $(;)?) => { paste::paste! { $(
        with_try_bounds! { []
            #[doc = concat!("Paddle's `", stringify!($name), "` (`act(x ", $doc, " y)`) for any shapes, run-time dims included:")]
            #[doc = concat!("[`try_elementwise`](Self::try_elementwise) with [`", stringify!($op), "`](super::", stringify!($op), ").")]
            #[doc = "The static part of the rule is checked by the compiler, the rest when the op runs."]
            #[doc = ""]
            #[doc = "```"]
            #[doc = "use shapecheck::prelude::*;"]
            #[doc = "let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0, 2.0, 3.0, 4.0]).unwrap();"]
            #[doc = "let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);"]
            #[doc = concat!("let z = x.try_", stringify!($name), "(&y, Axis::<-1>, Identity).unwrap();")]
            #[doc = concat!("assert_eq!(z, x.try_elementwise(", stringify!($op), ", &y, Axis::<-1>, Identity).unwrap());")]
            #[doc = "let bad = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();"]
            #[doc = concat!("assert!(x.try_", stringify!($name), "(&bad, Axis::<-1>, Identity).is_err());")]
            #[doc = "```"]
            pub fn [<try_ $name>]<A, TY, Y, BY, const AXIS: isize>(
                &self,
                y: &Tensor<TY, Y, BY>,
                axis: Axis<AXIS>,
                act: A,
            ) -> ElementwiseResult<T, S, B, Y, AXIS>
            where
                B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
            {
                self.try_elementwise(super::$op, y, axis, act)
            }
        }

        with_try_bounds! { [BO: StorageMut<T>]
            #[doc = concat!("[`try_", stringify!($name), "`](Self::try_", stringify!($name), ") writing into `out` (any storage, a caller's buffer included):")]
            #[doc = concat!("[`try_elementwise_into`](Self::try_elementwise_into) with [`", stringify!($op), "`](super::", stringify!($op), ").")]
            #[doc = ""]
            #[doc = "```"]
            #[doc = "use shapecheck::prelude::*;"]
            #[doc = "let x = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);"]
            #[doc = "let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);"]
            #[doc = "let mut out = Tensor::<f32, shape![2, 2]>::zeros();"]
            #[doc = concat!("x.try_", stringify!($name), "_into(&y, Axis::<-1>, Identity, &mut out).unwrap();")]
            #[doc = concat!("assert_eq!(out, x.try_elementwise(", stringify!($op), ", &y, Axis::<-1>, Identity).unwrap());")]
            #[doc = "```"]
            pub fn [<try_ $name _into>]<A, TY, Y, BY, BO, const AXIS: isize>(
                &self,
                y: &Tensor<TY, Y, BY>,
                axis: Axis<AXIS>,
                act: A,
                out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
            ) -> Result<(), ElementwiseError> {
                self.try_elementwise_into(super::$op, y, axis, act, out)
            }
        }
    )* } };
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    try_named_ops!(
        elementwise_mul => Mul, "*";
        elementwise_add => Add, "+";
        elementwise_sub => Sub, "-";
        elementwise_div => Div, "/";
        elementwise_max => Max, "max";
        elementwise_min => Min, "min";
    );
}
