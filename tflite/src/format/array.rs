//! [`Array`]: a borrowed, little-endian array of numbers inside the model's
//! bytes (a shape, scales, zero points, indices, a tensor's data), read
//! element by element without copying or aligning.

use core::fmt;
use core::marker::PhantomData;

use crate::format::types::TensorType;

/// A number an [`Array`] can hold: its size and how it is read from
/// little-endian bytes. Implemented for `u8`, `i8`, `i16`, `i32`, `u32`,
/// `i64`, `f32` and `f64`; sealed.
///
/// ```
/// use shapecheck_tflite::{LeNumber, TensorType};
///
/// assert_eq!(<i32 as LeNumber>::SIZE, 4);
/// assert_eq!(<f32 as LeNumber>::DTYPE, TensorType::Float32);
/// assert_eq!(<i16 as LeNumber>::from_le(&[0x34, 0x12]), Some(0x1234));
/// assert_eq!(<i16 as LeNumber>::from_le(&[0x34]), None);
/// ```
pub trait LeNumber: Copy + sealed::Sealed {
    /// Its size in bytes.
    const SIZE: usize;
    /// The tensor type it reads ([`ModelTensor::data_as`](crate::ModelTensor::data_as)).
    const DTYPE: TensorType;
    /// The number in `bytes` (exactly [`SIZE`](Self::SIZE) of them), or
    /// `None` for any other length.
    fn from_le(bytes: &[u8]) -> Option<Self>;

    /// `bytes` as a slice of `Self`, where every byte is one value (`i8`
    /// and `u8`): what [`Values::contiguous`](crate::Values::contiguous)
    /// gives a kernel for an int8 constant read in place, so that it runs
    /// its loops over several rows at once as on an array. `None` for the
    /// wider types (their bytes need not be aligned for them).
    ///
    /// ```
    /// use shapecheck_tflite::LeNumber;
    ///
    /// assert_eq!(i8::from_bytes(&[0xff, 2]), Some(&[-1i8, 2][..]));
    /// assert_eq!(i32::from_bytes(&[0; 4]), None);
    /// ```
    fn from_bytes(bytes: &[u8]) -> Option<&[Self]> {
        let _ = bytes;
        None
    }
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! le_number {
    ($($t:ty: $dtype:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl LeNumber for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            const DTYPE: TensorType = TensorType::$dtype;
            fn from_le(bytes: &[u8]) -> Option<Self> {
                Some(<$t>::from_le_bytes(bytes.try_into().ok()?))
            }
        }
    )*};
}
le_number!(u8: Uint8, i16: Int16, i32: Int32, u32: Uint32, i64: Int64, f32: Float32, f64: Float64);

impl sealed::Sealed for i8 {}
impl LeNumber for i8 {
    const SIZE: usize = 1;
    const DTYPE: TensorType = TensorType::Int8;
    fn from_le(bytes: &[u8]) -> Option<Self> {
        Some(i8::from_le_bytes(bytes.try_into().ok()?))
    }
    fn from_bytes(bytes: &[u8]) -> Option<&[Self]> {
        Some(crate::base::bytes::as_i8(bytes))
    }
}

/// A borrowed array of `T` stored little-endian in the model's bytes: a
/// tensor's shape (`Array<i32>`), its scales (`Array<f32>`) and zero points
/// (`Array<i64>`), an operator's tensor indices, a constant tensor's data.
/// Zero-copy: it reads each element when asked, whatever the alignment.
///
/// ```
/// use shapecheck_tflite::Model;
///
/// let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite"));
/// let model = Model::parse(bytes)?;
/// let weights = model.tensor(6).unwrap(); // the first layer's [16, 1] int8 weights
/// let shape = weights.shape();
/// assert_eq!(shape.len(), 2);
/// assert_eq!(shape.get(0), Some(16));
/// assert_eq!(shape.iter().collect::<Vec<i32>>(), [16, 1]);
/// let data = weights.data_as::<i8>().unwrap();
/// assert_eq!(data.len(), 16);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Array<'a, T: LeNumber> {
    bytes: &'a [u8],
    _t: PhantomData<T>,
}

impl<'a, T: LeNumber> Array<'a, T> {
    /// The array whose elements are `bytes`, or `None` if their length is
    /// not a whole number of elements.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// let a = Array::<i32>::new(&[1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]).unwrap();
    /// assert_eq!(a.iter().collect::<Vec<_>>(), [1, -1]);
    /// assert!(Array::<i32>::new(&[1, 2, 3]).is_none());
    /// ```
    pub fn new(bytes: &'a [u8]) -> Option<Self> {
        bytes.len().is_multiple_of(T::SIZE).then_some(Array {
            bytes,
            _t: PhantomData,
        })
    }

    /// The array whose elements are `bytes`, as a constant: `model!`'s
    /// generated code writes a prepared step's constant tensors with it,
    /// with bytes whose length it has checked. Bytes past the last whole
    /// element are never read (as with every `Array`, whose length is
    /// checked when an element is). Not an API: use [`Array::new`].
    #[doc(hidden)]
    pub const fn from_static(bytes: &'a [u8]) -> Self {
        Array {
            bytes,
            _t: PhantomData,
        }
    }

    /// The empty array.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// assert!(Array::<f32>::empty().is_empty());
    /// ```
    pub fn empty() -> Self {
        Array {
            bytes: &[],
            _t: PhantomData,
        }
    }

    /// The number of elements.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// assert_eq!(Array::<i16>::new(&[0; 6]).unwrap().len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// Whether there are no elements.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// assert!(Array::<i32>::new(&[]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Element `i`, or `None` past the end.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// let a = Array::<i8>::new(&[0x80, 0x7f]).unwrap();
    /// assert_eq!((a.get(0), a.get(1), a.get(2)), (Some(-128), Some(127), None));
    /// ```
    pub fn get(&self, i: usize) -> Option<T> {
        let start = i.checked_mul(T::SIZE)?;
        let end = start.checked_add(T::SIZE)?;
        T::from_le(self.bytes.get(start..end)?)
    }

    /// The elements, in order.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// let a = Array::<f32>::new(&[0, 0, 0x80, 0x3f]).unwrap();
    /// assert_eq!(a.iter().collect::<Vec<_>>(), [1.0]);
    /// ```
    pub fn iter(&self) -> ArrayIter<'a, T> {
        self.into_iter()
    }

    /// The raw little-endian bytes.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// assert_eq!(Array::<u8>::new(&[1, 2]).unwrap().as_bytes(), &[1, 2]);
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Whether the elements equal `other`'s, in order.
    ///
    /// ```
    /// use shapecheck_tflite::Array;
    ///
    /// assert!(Array::<u8>::new(&[1, 2]).unwrap().eq_slice(&[1, 2]));
    /// ```
    pub fn eq_slice(&self, other: &[T]) -> bool
    where
        T: PartialEq,
    {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

impl<T: LeNumber + fmt::Debug> fmt::Debug for Array<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: LeNumber> IntoIterator for Array<'a, T> {
    type Item = T;
    type IntoIter = ArrayIter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        ArrayIter {
            array: self,
            next: 0,
        }
    }
}

/// The iterator of [`Array`]'s elements by value (`for x in array`).
///
/// ```
/// use shapecheck_tflite::Array;
///
/// let mut sum = 0;
/// for x in Array::<u8>::new(&[1, 2, 3]).unwrap() {
///     sum += x;
/// }
/// assert_eq!(sum, 6);
/// ```
#[derive(Clone, Debug)]
pub struct ArrayIter<'a, T: LeNumber> {
    array: Array<'a, T>,
    next: usize,
}

impl<T: LeNumber> Iterator for ArrayIter<'_, T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        let v = self.array.get(self.next)?;
        self.next += 1;
        Some(v)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.array.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl<T: LeNumber> ExactSizeIterator for ArrayIter<'_, T> {}

impl<T: LeNumber + PartialEq> PartialEq for Array<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<T: LeNumber> crate::base::write_rust::WriteRust for Array<'_, T> {
    /// A byte string literal: the constant goes to flash as it is in the
    /// model, and only the constants the steps read.
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        write!(w, "{k}::Array::from_static(b\"")?;
        for byte in self.as_bytes() {
            write!(w, "\\x{byte:02x}")?;
        }
        w.write_str("\")")
    }
}
