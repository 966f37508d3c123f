//! [`Values`]: what a kernel reads its constant operands (weights, filters,
//! biases) from, a slice or an [`Array`] read in place from a model's bytes,
//! so that running a model copies none of its constants.

use crate::format::array::{Array, LeNumber};

/// A run of `T` a kernel reads by position: a slice (`&[i8]`, `&[i32]`,
/// `&[f32]`, or an array of them) or an [`Array`] inside a model's bytes
/// ([`ModelTensor::data_as`](crate::ModelTensor::data_as)). Sealed.
///
/// ```
/// use shapecheck_tflite::{Array, Values};
///
/// let slice: &[i32] = &[1, -1];
/// let array = Array::<i32>::new(&[1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]).unwrap();
/// assert_eq!(slice.count(), 2);
/// assert_eq!(array.count(), 2);
/// assert_eq!(array.at(1), slice.at(1));
/// assert!(array.run(0, 2).eq([1, -1]));
/// assert_eq!(array.run(1, 5).count(), 0); // past the end: nothing
/// ```
pub trait Values<T: Copy>: sealed::Sealed {
    /// How many values there are.
    ///
    /// ```
    /// use shapecheck_tflite::Values;
    ///
    /// assert_eq!([1i8, 2, 3].count(), 3);
    /// ```
    fn count(&self) -> usize;

    /// Value `i`, or `None` past the end.
    ///
    /// ```
    /// use shapecheck_tflite::Values;
    ///
    /// assert_eq!([1i8, 2, 3].at(2), Some(3));
    /// assert_eq!([1i8, 2, 3].at(3), None);
    /// ```
    fn at(&self, i: usize) -> Option<T>;

    /// The values from `start` to `end` (exclusive), in order; none at all
    /// if that range is not inside.
    ///
    /// ```
    /// use shapecheck_tflite::Values;
    ///
    /// assert!([1i8, 2, 3].run(1, 3).eq([2, 3]));
    /// assert_eq!([1i8, 2, 3].run(2, 4).count(), 0);
    /// ```
    fn run(&self, start: usize, end: usize) -> impl Iterator<Item = T> + '_;

    /// The `N` values from `start`, or `None` if they are not all inside:
    /// what a kernel reads a block of channels with, one length check for
    /// the block.
    ///
    /// ```
    /// use shapecheck_tflite::Values;
    ///
    /// assert_eq!([1i8, 2, 3].chunk::<2>(1), Some([2, 3]));
    /// assert_eq!([1i8, 2, 3].chunk::<2>(2), None);
    /// ```
    fn chunk<const N: usize>(&self, start: usize) -> Option<[T; N]> {
        let first = self.at(start)?;
        let mut values = [first; N];
        for (i, v) in values.iter_mut().enumerate() {
            *v = self.at(start.checked_add(i)?)?;
        }
        Some(values)
    }

    /// The values as one slice, where they are one (a slice, an array, or
    /// an int8 [`Array`] in a model's bytes; not a wider `Array`, whose
    /// bytes need not be aligned): what a kernel runs its loops over
    /// several rows at once on.
    ///
    /// ```
    /// use shapecheck_tflite::{Array, Values};
    ///
    /// assert_eq!([1i8, 2].contiguous(), Some(&[1i8, 2][..]));
    /// // an int8 constant in the model's bytes is one too; wider ones are not
    /// assert_eq!(Array::<i8>::new(&[1, 2]).unwrap().contiguous(), Some(&[1i8, 2][..]));
    /// assert_eq!(Array::<i32>::new(&[1, 0, 0, 0]).unwrap().contiguous(), None);
    /// ```
    fn contiguous(&self) -> Option<&[T]> {
        None
    }
}

mod sealed {
    pub trait Sealed {}
}

impl<T: Copy> sealed::Sealed for [T] {}
impl<T: Copy> Values<T> for [T] {
    fn count(&self) -> usize {
        self.len()
    }
    fn at(&self, i: usize) -> Option<T> {
        self.get(i).copied()
    }
    fn run(&self, start: usize, end: usize) -> impl Iterator<Item = T> + '_ {
        self.get(start..end).unwrap_or(&[]).iter().copied()
    }
    #[inline]
    fn chunk<const N: usize>(&self, start: usize) -> Option<[T; N]> {
        let values = self.get(start..start.checked_add(N)?)?;
        <[T; N]>::try_from(values).ok()
    }
    #[inline]
    fn contiguous(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<T: Copy, const N: usize> sealed::Sealed for [T; N] {}
impl<T: Copy, const N: usize> Values<T> for [T; N] {
    fn count(&self) -> usize {
        N
    }
    fn at(&self, i: usize) -> Option<T> {
        self.get(i).copied()
    }
    fn run(&self, start: usize, end: usize) -> impl Iterator<Item = T> + '_ {
        self.as_slice().run(start, end)
    }
    #[inline]
    fn chunk<const M: usize>(&self, start: usize) -> Option<[T; M]> {
        self.as_slice().chunk(start)
    }
    #[inline]
    fn contiguous(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<T: LeNumber> sealed::Sealed for Array<'_, T> {}
impl<T: LeNumber> Values<T> for Array<'_, T> {
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn at(&self, i: usize) -> Option<T> {
        match T::from_bytes(self.as_bytes()) {
            Some(values) => values.get(i).copied(),
            None => self.get(i),
        }
    }
    #[inline]
    fn chunk<const N: usize>(&self, start: usize) -> Option<[T; N]> {
        if let Some(values) = T::from_bytes(self.as_bytes()) {
            return values.chunk(start);
        }
        let first = self.get(start)?;
        let mut values = [first; N];
        for (i, v) in values.iter_mut().enumerate() {
            *v = self.get(start.checked_add(i)?)?;
        }
        Some(values)
    }
    fn run(&self, start: usize, end: usize) -> impl Iterator<Item = T> + '_ {
        let bytes = start
            .checked_mul(T::SIZE)
            .zip(end.checked_mul(T::SIZE))
            .and_then(|(s, e)| self.as_bytes().get(s..e))
            .unwrap_or(&[]);
        bytes.chunks_exact(T::SIZE).filter_map(T::from_le)
    }
    #[inline]
    fn contiguous(&self) -> Option<&[T]> {
        T::from_bytes(self.as_bytes())
    }
}

/// An f32 constant (a float layer's weights or bias) as a step reads it:
/// in place in the model's bytes ([`Array`], each value read from its four
/// bytes, whatever their alignment), or an aligned `&[f32]`, which the
/// kernels' loops read as a slice ([`Values::contiguous`]). The interpreter
/// keeps the first, as it reads a model it did not place; `model!`'s
/// generated code writes the second (the values as `f32` literals in
/// flash, aligned), so that a float convolution loads each weight with one
/// `VLDR` rather than assembling it from bytes.
///
/// ```
/// use shapecheck_tflite::{Array, F32Constant, Values};
///
/// let bytes = [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]; // 1.0, 2.0
/// let in_model = F32Constant::InModel(Array::new(&bytes).unwrap());
/// let aligned = F32Constant::Aligned(&[1.0, 2.0]);
/// assert_eq!(in_model.count(), 2);
/// assert!(in_model.run(0, 2).eq(aligned.run(0, 2)));
/// assert_eq!(in_model.contiguous(), None);
/// assert_eq!(aligned.contiguous(), Some(&[1.0f32, 2.0][..]));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum F32Constant<'a> {
    /// In the model's bytes, little-endian, read in place.
    InModel(Array<'a, f32>),
    /// Aligned f32 values.
    Aligned(&'a [f32]),
}

impl sealed::Sealed for F32Constant<'_> {}
impl Values<f32> for F32Constant<'_> {
    fn count(&self) -> usize {
        match self {
            F32Constant::InModel(a) => a.count(),
            F32Constant::Aligned(s) => s.len(),
        }
    }
    #[inline]
    fn at(&self, i: usize) -> Option<f32> {
        match self {
            F32Constant::InModel(a) => a.at(i),
            F32Constant::Aligned(s) => s.get(i).copied(),
        }
    }
    /// Values `start..end`, or nothing where that range is not inside
    /// (as a slice's and an [`Array`]'s).
    fn run(&self, start: usize, end: usize) -> impl Iterator<Item = f32> + '_ {
        let inside = start <= end && end <= self.count();
        let (start, end) = if inside { (start, end) } else { (0, 0) };
        (start..end).filter_map(move |i| self.at(i))
    }
    #[inline]
    fn chunk<const N: usize>(&self, start: usize) -> Option<[f32; N]> {
        match self {
            F32Constant::InModel(a) => a.chunk(start),
            F32Constant::Aligned(s) => s.chunk(start),
        }
    }
    #[inline]
    fn contiguous(&self) -> Option<&[f32]> {
        match self {
            F32Constant::InModel(_) => None,
            F32Constant::Aligned(s) => Some(s),
        }
    }
}

impl crate::base::write_rust::WriteRust for F32Constant<'_> {
    /// Always the aligned form: `{k}::F32Constant::Aligned(&[…])`, each
    /// value written by its bits (`f32::from_bits(0x…)`), so that the
    /// generated constant is the model's to the bit, NaNs and −0.0
    /// included.
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        write!(w, "{k}::F32Constant::Aligned(&[")?;
        for i in 0..self.count() {
            let v = self.at(i).unwrap_or(0.0);
            write!(w, "f32::from_bits({:#010x}),", v.to_bits())?;
        }
        w.write_str("])")
    }
}
