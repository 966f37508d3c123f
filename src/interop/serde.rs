//! `serde` (feature `serde`): tensors, [`DynTensor`](crate::DynTensor) and [`Dims`] serialize
//! and deserialize, without `std` (and without `alloc` for inline tensors).
//!
//! A tensor is a struct `{ "shape": [dims], "data": [row-major elements] }`
//! (the conformance vectors' tensor format; other fields, such as their
//! `dtype`, are ignored when reading), `Dims` a sequence. Deserializing:
//! - into `Tensor<T, S>` (inline, no heap) or `Tensor<T, S, Vec<T>>`
//!   (feature `alloc`): the shape is checked against every static dim of `S`
//!   and the data's length against the shape; a mismatch fails with the
//!   [`ShapeError`] naming the values, carried in the format's own error
//!   (serde errors are the format's type; the message is ours);
//! - into `DynTensor<T>` (feature `alloc`): any shape up to
//!   [`MAX_RANK`] dims, the length checked against it.
//!
//! Storage other than inline and `Vec` (views, `GenericArray`) serializes but
//! does not deserialize: deserialize into an owned tensor and view it.
//! `dynamic_stitch` / `dynamic_partition` outputs are tensors (a `Dyn` first
//! dim) and need nothing more. LoD tensors ([`LodTensor`],
//! [`DynLodTensor`](crate::DynLodTensor)) add a field `"lod"`: the levels'
//! offsets, level 0 first (Paddle's `lod()`, not its lengths). They
//! deserialize (feature `alloc`) into `LodTensor<T, S, Vec<T>, OwnedLod>` or
//! `DynLodTensor<T>`, the dense part checked as above and the levels by
//! Paddle's `CheckLoD`: a bad level fails with our
//! [`LodError`](crate::LodError), naming the level, position and values.
//!
//! ```
//! use shapecheck::prelude::*;
//! let t = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
//! let json = serde_json::to_string(&t).unwrap();
//! assert_eq!(json, r#"{"shape":[2,2],"data":[1,2,3,4]}"#);
//! let back: Tensor<i32, shape![2, 2]> = serde_json::from_str(&json).unwrap();
//! assert_eq!(back, t);
//! // a static dim that differs is our error, inside serde_json's
//! let err = serde_json::from_str::<Tensor<i32, shape![2, 3]>>(&json).unwrap_err();
//! assert!(err.to_string().starts_with("dim 1 is 3 in the shape type, but 2 was given"));
//! ```

use crate::dims::{Dims, ShapeError, MAX_RANK};
use crate::lod::{Levels, LodTensor, RowShape};
use crate::ops::StaticShape;
use crate::shape::Shape;
use crate::storage::{Inline, Storage};
use crate::tensor::Tensor;
use ::serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use ::serde::ser::{SerializeSeq, SerializeStruct};
use ::serde::{Deserialize, Deserializer, Serialize, Serializer};
use core::fmt;
use core::marker::PhantomData;

impl Serialize for Dims {
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        let mut seq = s.serialize_seq(Some(self.rank()))?;
        for d in self.iter() {
            seq.serialize_element(d)?;
        }
        seq.end()
    }
}

struct DimsVisitor;

impl<'de> Visitor<'de> for DimsVisitor {
    type Value = Dims;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a sequence of at most {MAX_RANK} dims")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dims, A::Error> {
        let mut buf = [0usize; MAX_RANK];
        let mut rank = 0usize;
        while let Some(d) = seq.next_element::<usize>()? {
            if let Some(slot) = buf.get_mut(rank) {
                *slot = d;
            }
            rank += 1;
        }
        let dims = buf.get(..rank).ok_or(ShapeError::RankTooLarge { rank });
        dims.and_then(Dims::new).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Dims {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dims, D::Error> {
        d.deserialize_seq(DimsVisitor)
    }
}

impl<T: Copy + Serialize, S: Shape, B: Storage<T>> Serialize for Tensor<T, S, B> {
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        let mut st = s.serialize_struct("Tensor", 2)?;
        st.serialize_field("shape", &self.dims())?;
        st.serialize_field("data", self.as_slice())?;
        st.end()
    }
}

/// A LoD's levels as a sequence of offset sequences.
struct LevelsSer<'a, L: ?Sized>(&'a L);

impl<L: Levels + ?Sized> Serialize for LevelsSer<'_, L> {
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        let mut seq = s.serialize_seq(Some(self.0.count()))?;
        for k in 0..self.0.count() {
            if let Some(level) = self.0.level(k) {
                seq.serialize_element(level.as_slice())?;
            }
        }
        seq.end()
    }
}

impl<T: Copy + Serialize, S: RowShape, B: Storage<T>, L: Levels> Serialize
    for LodTensor<T, S, B, L>
{
    /// `{"shape": [..], "data": [..], "lod": [[offsets of level 0], ..]}`.
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        let mut st = s.serialize_struct("LodTensor", 3)?;
        st.serialize_field("shape", &self.dense().dims())?;
        st.serialize_field("data", self.as_slice())?;
        st.serialize_field("lod", &LevelsSer(self.lod()))?;
        st.end()
    }
}

/// What a tensor deserializes into: how its data is read, and how dims and
/// data become the value (every check is here).
trait Target<'de>: Sized {
    type Data;
    fn data<D: Deserializer<'de>>(d: D) -> Result<Self::Data, D::Error>;
    fn build(dims: Dims, data: Self::Data) -> Result<Self, ShapeError>;
}

struct DataSeed<X>(PhantomData<X>);

impl<'de, X: Target<'de>> DeserializeSeed<'de> for DataSeed<X> {
    type Value = X::Data;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<X::Data, D::Error> {
        X::data(d)
    }
}

enum Field {
    Shape,
    Data,
    Lod,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`shape`, `data` or `lod`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                Ok(match v {
                    "shape" => Field::Shape,
                    "data" => Field::Data,
                    "lod" => Field::Lod,
                    _ => Field::Other,
                })
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
                Ok(match v {
                    0 => Field::Shape,
                    1 => Field::Data,
                    2 => Field::Lod,
                    _ => Field::Other,
                })
            }
        }
        d.deserialize_identifier(FieldVisitor)
    }
}

/// What a deserialized value is assembled from: `shape`, `data` (read as
/// `Dense`'s data) and, for a LoD tensor, an `Extra` field (`lod`).
trait Assemble<'de> {
    /// The value assembled.
    type Output;
    /// The dense tensor whose data is read.
    type Dense: Target<'de>;
    /// The third field's value (unread where `EXTRA` is false).
    type Extra: Deserialize<'de>;
    /// Whether the third field is read.
    const EXTRA: bool;
    /// What the visitor expects, for serde's messages.
    const EXPECTING: &'static str;
    fn assemble<E: de::Error>(
        dims: Dims,
        data: <Self::Dense as Target<'de>>::Data,
        extra: Option<Self::Extra>,
    ) -> Result<Self::Output, E>;
}

impl<'de, X: Target<'de>> Assemble<'de> for X {
    type Output = X;
    type Dense = X;
    type Extra = IgnoredAny;
    const EXTRA: bool = false;
    const EXPECTING: &'static str = "a tensor: `shape` (dims) and `data` (row-major elements)";
    fn assemble<E: de::Error>(dims: Dims, data: X::Data, _: Option<IgnoredAny>) -> Result<X, E> {
        X::build(dims, data).map_err(E::custom)
    }
}

struct TensorVisitor<X>(PhantomData<X>);

impl<'de, X: Assemble<'de>> Visitor<'de> for TensorVisitor<X> {
    type Value = X::Output;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(X::EXPECTING)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<X::Output, A::Error> {
        let (dims, data, extra) = seq_fields::<X::Dense, _, A>(seq, X::EXTRA, &self)?;
        X::assemble(dims, data, extra)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<X::Output, A::Error> {
        let (dims, data, extra) = map_fields::<X::Dense, _, A>(map, X::EXTRA)?;
        X::assemble(dims, data, extra)
    }
}

/// `shape`, `data` and, with `extra`, a third field (a LoD tensor's `lod`),
/// in that order.
fn seq_fields<'de, X: Target<'de>, E: Deserialize<'de>, A: SeqAccess<'de>>(
    mut seq: A,
    extra: bool,
    expected: &dyn de::Expected,
) -> Result<(Dims, X::Data, Option<E>), A::Error> {
    let dims: Dims = seq
        .next_element()?
        .ok_or_else(|| de::Error::invalid_length(0, expected))?;
    let data = seq
        .next_element_seed(DataSeed::<X>(PhantomData))?
        .ok_or_else(|| de::Error::invalid_length(1, expected))?;
    if !extra {
        return Ok((dims, data, None));
    }
    let lod = seq
        .next_element()?
        .ok_or_else(|| de::Error::invalid_length(2, expected))?;
    Ok((dims, data, Some(lod)))
}

/// `shape`, `data` and, with `extra`, `lod`, by name in any order; unknown
/// keys (and `lod` without `extra`) are skipped, a repeated key is an error.
fn map_fields<'de, X: Target<'de>, E: Deserialize<'de>, A: MapAccess<'de>>(
    mut map: A,
    extra: bool,
) -> Result<(Dims, X::Data, Option<E>), A::Error> {
    let (mut dims, mut data, mut lod) = (None, None, None);
    while let Some(key) = map.next_key::<Field>()? {
        match key {
            Field::Shape if dims.is_some() => return Err(de::Error::duplicate_field("shape")),
            Field::Data if data.is_some() => return Err(de::Error::duplicate_field("data")),
            Field::Lod if extra && lod.is_some() => return Err(de::Error::duplicate_field("lod")),
            Field::Shape => dims = Some(map.next_value::<Dims>()?),
            Field::Data => data = Some(map.next_value_seed(DataSeed::<X>(PhantomData))?),
            Field::Lod if extra => lod = Some(map.next_value::<E>()?),
            Field::Lod | Field::Other => {
                map.next_value::<IgnoredAny>()?;
            }
        }
    }
    let dims = dims.ok_or_else(|| de::Error::missing_field("shape"))?;
    let data = data.ok_or_else(|| de::Error::missing_field("data"))?;
    if extra && lod.is_none() {
        return Err(de::Error::missing_field("lod"));
    }
    Ok((dims, data, lod))
}

fn deserialize_tensor<'de, X: Target<'de>, D: Deserializer<'de>>(d: D) -> Result<X, D::Error> {
    d.deserialize_struct(
        "Tensor",
        &["shape", "data"],
        TensorVisitor::<X>(PhantomData),
    )
}

/// Reads a sequence into an inline array without a heap, counting every
/// element (those past the array's end too, for the error).
struct FillVisitor<T: Copy, S: StaticShape>(PhantomData<(T, S)>);

impl<'de, T: Copy + Default + Deserialize<'de>, S: StaticShape> Visitor<'de> for FillVisitor<T, S> {
    type Value = (S::Array<T>, usize);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a sequence of {} elements", S::NUMEL)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut arr = S::array_filled(T::default());
        let mut len = 0usize;
        for slot in S::array_as_mut_slice(&mut arr) {
            match seq.next_element()? {
                Some(v) => *slot = v,
                None => return Ok((arr, len)),
            }
            len += 1;
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {
            len += 1;
        }
        Ok((arr, len))
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>, S: StaticShape> Target<'de> for Tensor<T, S> {
    type Data = (S::Array<T>, usize);
    fn data<D: Deserializer<'de>>(d: D) -> Result<Self::Data, D::Error> {
        d.deserialize_seq(FillVisitor::<T, S>(PhantomData))
    }
    fn build(dims: Dims, (arr, len): Self::Data) -> Result<Self, ShapeError> {
        let shape = S::from_dims(&dims)?;
        if len != S::NUMEL {
            return Err(ShapeError::DataLength {
                shape: dims,
                numel: S::NUMEL,
                len,
            });
        }
        Tensor::with_shape(shape, Inline(arr))
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>, S: StaticShape> Deserialize<'de> for Tensor<T, S> {
    /// An inline tensor (no heap): dims and length checked, see the module docs.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_tensor(d)
    }
}

#[cfg(feature = "alloc")]
mod heap {
    use super::*;
    use crate::dynamic::DynTensor;
    use crate::lod::{DynLodTensor, LodError, OwnedLod};
    use alloc::vec::Vec;

    impl<'de, T: Copy + Deserialize<'de>, S: Shape> Target<'de> for Tensor<T, S, Vec<T>> {
        type Data = Vec<T>;
        fn data<D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
            Vec::deserialize(d)
        }
        fn build(dims: Dims, data: Vec<T>) -> Result<Self, ShapeError> {
            Tensor::with_shape(S::from_dims(&dims)?, data)
        }
    }

    impl<'de, T: Copy + Deserialize<'de>, S: Shape> Deserialize<'de> for Tensor<T, S, Vec<T>> {
        /// A heap tensor: dims and length checked, see the module docs.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_tensor(d)
        }
    }

    impl<T: Copy + Serialize> Serialize for DynTensor<T> {
        fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
            let mut st = s.serialize_struct("Tensor", 2)?;
            st.serialize_field("shape", &self.dims())?;
            st.serialize_field("data", self.as_slice())?;
            st.end()
        }
    }

    impl<'de, T: Copy + Deserialize<'de>> Target<'de> for DynTensor<T> {
        type Data = Vec<T>;
        fn data<D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
            Vec::deserialize(d)
        }
        fn build(dims: Dims, data: Vec<T>) -> Result<Self, ShapeError> {
            DynTensor::new(&dims, data)
        }
    }

    impl<'de, T: Copy + Deserialize<'de>> Deserialize<'de> for DynTensor<T> {
        /// Any shape up to `MAX_RANK` dims; the length is checked against it.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_tensor(d)
        }
    }

    impl<T: Copy + Serialize, L: Levels> Serialize for DynLodTensor<T, L> {
        /// As [`LodTensor`]'s: `{"shape", "data", "lod"}`.
        fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
            let mut st = s.serialize_struct("LodTensor", 3)?;
            st.serialize_field("shape", &self.dense().dims())?;
            st.serialize_field("data", self.dense().as_slice())?;
            st.serialize_field("lod", &LevelsSer(self.lod()))?;
            st.end()
        }
    }

    /// What a LoD tensor deserializes into: its dense part `X` and how the
    /// levels join it (every check is in `build`).
    trait LodTarget<'de>: Sized {
        type Dense: Target<'de>;
        fn build(dense: Self::Dense, lod: OwnedLod) -> Result<Self, LodError>;
    }

    impl<'de, T: Copy + Deserialize<'de>, S: RowShape> LodTarget<'de>
        for LodTensor<T, S, Vec<T>, OwnedLod>
    {
        type Dense = Tensor<T, S, Vec<T>>;
        fn build(dense: Self::Dense, lod: OwnedLod) -> Result<Self, LodError> {
            LodTensor::new(dense, lod)
        }
    }

    impl<'de, T: Copy + Deserialize<'de>> LodTarget<'de> for DynLodTensor<T, OwnedLod> {
        type Dense = DynTensor<T>;
        fn build(dense: Self::Dense, lod: OwnedLod) -> Result<Self, LodError> {
            DynLodTensor::new(dense, lod)
        }
    }

    /// A LoD tensor `X` as [`Assemble`] sees it: the dense part checked as
    /// `X::Dense`, then the levels by `CheckLoD`.
    struct LodOf<X>(PhantomData<X>);

    impl<'de, X: LodTarget<'de>> Assemble<'de> for LodOf<X> {
        type Output = X;
        type Dense = X::Dense;
        type Extra = Vec<Vec<usize>>;
        const EXTRA: bool = true;
        const EXPECTING: &'static str =
            "a LoD tensor: `shape`, `data` and `lod` (levels of offsets)";
        fn assemble<E: de::Error>(
            dims: Dims,
            data: <X::Dense as Target<'de>>::Data,
            lod: Option<Vec<Vec<usize>>>,
        ) -> Result<X, E> {
            // `map_fields` and `seq_fields` return the levels whenever asked for them
            let lod = lod.ok_or_else(|| E::missing_field("lod"))?;
            let dense = X::Dense::build(dims, data).map_err(E::custom)?;
            X::build(dense, OwnedLod::from_offsets(lod)).map_err(E::custom)
        }
    }

    fn deserialize_lod<'de, X: LodTarget<'de>, D: Deserializer<'de>>(d: D) -> Result<X, D::Error> {
        d.deserialize_struct(
            "LodTensor",
            &["shape", "data", "lod"],
            TensorVisitor::<LodOf<X>>(PhantomData),
        )
    }

    impl<'de, T: Copy + Deserialize<'de>, S: RowShape> Deserialize<'de>
        for LodTensor<T, S, Vec<T>, OwnedLod>
    {
        /// The dense part checked as a heap tensor, the levels by `CheckLoD`.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_lod(d)
        }
    }

    impl<'de, T: Copy + Deserialize<'de>> Deserialize<'de> for DynLodTensor<T, OwnedLod> {
        /// The dense part checked as a `DynTensor`, the levels by `CheckLoD`.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_lod(d)
        }
    }
}
