//! `select` (OpenVINO Select-1): `out = cond ? then : else`, element by element,
//! with `auto_broadcast` none / numpy / pdpd.

use crate::rules::{SelectNumpyPair, SelectPdpdInto, SelectSamePair};
use crate::shape::Shape;

/// `auto_broadcast = none`: cond, then and else have one shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoBroadcast;

/// `auto_broadcast = numpy` (OpenVINO's default): a three-way, bidirectional
/// numpy broadcast of cond, then and else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Numpy;

/// `auto_broadcast = pdpd` with an axis: the output has then's shape; cond and
/// else are placed at `AXIS` (-1: right-aligned) and broadcast one way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pdpd<const AXIS: isize>;

/// `auto_broadcast` as a value (dynamic path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AutoBroadcast {
    /// Identical shapes.
    None,
    /// Three-way numpy broadcast.
    #[default]
    Numpy,
    /// Paddle-style one-way broadcast to then's shape, at an axis.
    Pdpd {
        /// Where cond and else start in then's dims (-1: right-aligned).
        axis: isize,
    },
}

/// A broadcast mode as a type (static path).
pub trait SelectMode: Copy + Default {
    /// The same mode as a value.
    const KIND: AutoBroadcast;
}
impl SelectMode for NoBroadcast {
    const KIND: AutoBroadcast = AutoBroadcast::None;
}
impl SelectMode for Numpy {
    const KIND: AutoBroadcast = AutoBroadcast::Numpy;
}
impl<const AXIS: isize> SelectMode for Pdpd<AXIS> {
    const KIND: AutoBroadcast = AutoBroadcast::Pdpd { axis: AXIS };
}

/// Select, shape rule: cond (`Self`), then `T` and else `E` under mode `M`.
pub trait SelectShapes<T: Shape, E: Shape, M: SelectMode>: Shape {
    /// The output shape.
    type Output: Shape;
    /// Where cond, then and else start in the output's dims.
    fn positions() -> [usize; 3];
    /// The output shape's value.
    fn output(c: &Self, t: &T, e: &E) -> Self::Output;
}

type NumpyTE<C, T, E> = <T as SelectNumpyPair<E, C, T, E>>::Output;

impl<C: Shape, T: Shape, E: Shape> SelectShapes<T, E, Numpy> for C
where
    T: SelectNumpyPair<E, C, T, E>,
    NumpyTE<C, T, E>: SelectNumpyPair<C, C, T, E>,
{
    type Output = <NumpyTE<C, T, E> as SelectNumpyPair<C, C, T, E>>::Output;
    fn positions() -> [usize; 3] {
        let r = Self::Output::RANK;
        [r - C::RANK, r - T::RANK, r - E::RANK]
    }
    fn output(c: &C, t: &T, e: &E) -> Self::Output {
        let te = T::output(t, e);
        <NumpyTE<C, T, E> as SelectNumpyPair<C, C, T, E>>::output(&te, c)
    }
}

type SameTE<C, T, E> = <T as SelectSamePair<E, C, T, E>>::Output;

impl<C: Shape, T: Shape, E: Shape> SelectShapes<T, E, NoBroadcast> for C
where
    T: SelectSamePair<E, C, T, E>,
    SameTE<C, T, E>: SelectSamePair<C, C, T, E>,
{
    type Output = <SameTE<C, T, E> as SelectSamePair<C, C, T, E>>::Output;
    fn positions() -> [usize; 3] {
        [0, 0, 0]
    }
    fn output(c: &C, t: &T, e: &E) -> Self::Output {
        let te = T::output(t, e);
        <SameTE<C, T, E> as SelectSamePair<C, C, T, E>>::output(&te, c)
    }
}

impl<C: Shape, T: Shape, E: Shape, const AXIS: isize> SelectShapes<T, E, Pdpd<AXIS>> for C
where
    E: SelectPdpdInto<T, C, T, E, AXIS>,
    C: SelectPdpdInto<T, C, T, E, AXIS>,
{
    type Output = T;
    fn positions() -> [usize; 3] {
        [
            <C as SelectPdpdInto<T, C, T, E, AXIS>>::AT,
            0,
            <E as SelectPdpdInto<T, C, T, E, AXIS>>::AT,
        ]
    }
    fn output(_c: &C, t: &T, _e: &E) -> T {
        *t
    }
}

/// Why select rejected its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectError {
    /// A shape problem not specific to this op.
    Shape(crate::error::ShapeError),
}
