//! One LoD level, as offsets ([`Offsets`], the storage) or as sequence
//! lengths ([`Lengths`], Paddle's `recursive_sequence_lengths`): two types,
//! so one is never passed where the other is meant.

use super::LodError;

/// One LoD level as offsets: sequence `i` spans `[o[i], o[i + 1])` of the
/// level below (of the dense tensor's rows for the last level). `[0, 2, 5]`
/// is two sequences, of 2 and 3. This is how Paddle's C++ stores a LoD.
///
/// `Offsets::new` only tags the numbers as offsets; they are checked where
/// they are used (by [`LodTensor::new`](crate::LodTensor::new), by
/// `lod_reset`).
///
/// ```
/// use shapecheck::Offsets;
/// let o = Offsets::new(&[0, 2, 5]);
/// assert_eq!((o.len(), o.sequences()), (3, 2));
/// assert_eq!(o.lengths().collect::<Vec<_>>(), [2, 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offsets<'a>(&'a [usize]);

/// One LoD level as sequence lengths: `[2, 3]` is two sequences, of 2 and
/// 3 (offsets `[0, 2, 5]`). Paddle's Python API (`recursive_sequence_lengths`,
/// `create_lod_tensor`) speaks lengths.
///
/// ```
/// use shapecheck::Lengths;
/// let l = Lengths::new(&[2, 3]);
/// assert_eq!((l.len(), l.total()), (2, Ok(5)));
/// let mut buf = [0; 3];
/// assert_eq!(l.offsets_into(0, &mut buf).unwrap().as_slice(), &[0, 2, 5]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lengths<'a>(&'a [usize]);

impl<'a> Offsets<'a> {
    /// The numbers `offsets`, read as offsets.
    pub const fn new(offsets: &'a [usize]) -> Self {
        Offsets(offsets)
    }

    /// The offsets.
    pub const fn as_slice(&self) -> &'a [usize] {
        self.0
    }

    /// The number of offsets (one more than the number of sequences).
    pub const fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` if there is no offset at all.
    pub const fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of sequences: the number of offsets minus 1 (0 if none).
    #[must_use]
    pub const fn sequences(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    /// The last offset, `None` if there is none.
    #[must_use]
    pub fn last(&self) -> Option<usize> {
        self.0.last().copied()
    }

    /// The length of each sequence (`o[i + 1] - o[i]`, 0 where offsets
    /// decrease, which a checked LoD never does). No heap.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + 'a {
        self.0.windows(2).map(|w| match w {
            [a, b] => b.saturating_sub(*a),
            _ => 0,
        })
    }

    /// The lengths written into `buf`; an error if `buf` is shorter than the
    /// number of sequences (nothing is written then).
    pub fn lengths_into<'b>(&self, buf: &'b mut [usize]) -> Result<Lengths<'b>, LodError> {
        let n = self.sequences();
        let len = buf.len();
        let dst = buf.get_mut(..n).ok_or(LodError::Buffer {
            what: "lengths",
            needed: n,
            len,
        })?;
        for (slot, l) in dst.iter_mut().zip(self.lengths()) {
            *slot = l;
        }
        Ok(Lengths(dst))
    }
}

impl<'a> Lengths<'a> {
    /// The numbers `lengths`, read as sequence lengths.
    pub const fn new(lengths: &'a [usize]) -> Self {
        Lengths(lengths)
    }

    /// The lengths.
    pub const fn as_slice(&self) -> &'a [usize] {
        self.0
    }

    /// The number of sequences.
    pub const fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` if there is no sequence.
    pub const fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The total length (the last offset); `Err(position)` at the first
    /// length whose addition overflows `usize`.
    pub fn total(&self) -> Result<usize, usize> {
        let mut sum = 0usize;
        for (i, &l) in self.0.iter().enumerate() {
            sum = sum.checked_add(l).ok_or(i)?;
        }
        Ok(sum)
    }

    /// The offsets (prefix sums from 0, Paddle's `ConvertToOffsetBasedLoD`)
    /// written into `buf`, which needs one entry more than there are
    /// lengths. An error, with nothing written, if `buf` is too short or the
    /// sum overflows (`level` is only used to name the level in the error).
    pub fn offsets_into<'b>(
        &self,
        level: usize,
        buf: &'b mut [usize],
    ) -> Result<Offsets<'b>, LodError> {
        let needed = self.0.len().saturating_add(1);
        if buf.len() < needed {
            return Err(LodError::Buffer {
                what: "offsets",
                needed,
                len: buf.len(),
            });
        }
        self.total()
            .map_err(|position| LodError::LengthOverflow { level, position })?;
        let (dst, _) = buf.split_at_mut(needed);
        write_prefix_sums(self.0, dst);
        Ok(Offsets(dst))
    }
}

/// `dst[0] = 0`, `dst[i + 1] = dst[i] + lengths[i]`; the caller checked that
/// `dst` has `lengths.len() + 1` entries and that the sum fits.
pub(crate) fn write_prefix_sums(lengths: &[usize], dst: &mut [usize]) {
    let mut sum = 0usize;
    if let Some(first) = dst.first_mut() {
        *first = 0;
    }
    for (slot, &l) in dst.iter_mut().skip(1).zip(lengths) {
        sum = sum.saturating_add(l);
        *slot = sum;
    }
}

#[cfg(feature = "alloc")]
mod owned {
    use super::*;
    use alloc::vec::Vec;

    /// One LoD level as owned offsets (feature `alloc`).
    #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
    pub struct OffsetsBuf(pub(crate) Vec<usize>);

    /// One LoD level as owned sequence lengths (feature `alloc`).
    #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
    pub struct LengthsBuf(pub(crate) Vec<usize>);

    impl OffsetsBuf {
        /// The numbers `offsets`, read as offsets.
        #[must_use]
        pub fn new(offsets: Vec<usize>) -> Self {
            OffsetsBuf(offsets)
        }
        /// A borrowed view.
        #[must_use]
        pub fn as_offsets(&self) -> Offsets<'_> {
            Offsets(&self.0)
        }
        /// The numbers.
        #[must_use = "`into_vec` consumes the buffer: dropping the result drops the numbers"]
        pub fn into_vec(self) -> Vec<usize> {
            self.0
        }
    }

    impl LengthsBuf {
        /// The numbers `lengths`, read as sequence lengths.
        #[must_use]
        pub fn new(lengths: Vec<usize>) -> Self {
            LengthsBuf(lengths)
        }
        /// A borrowed view.
        #[must_use]
        pub fn as_lengths(&self) -> Lengths<'_> {
            Lengths(&self.0)
        }
        /// The numbers.
        #[must_use = "`into_vec` consumes the buffer: dropping the result drops the numbers"]
        pub fn into_vec(self) -> Vec<usize> {
            self.0
        }
    }

    impl Offsets<'_> {
        /// The sequence lengths, owned.
        #[must_use = "the result is a new buffer; the offsets are unchanged"]
        pub fn to_lengths(&self) -> LengthsBuf {
            LengthsBuf(self.lengths().collect())
        }
        /// An owned copy.
        #[must_use = "the result is a new buffer; the offsets are unchanged"]
        pub fn to_owned(&self) -> OffsetsBuf {
            OffsetsBuf(self.0.to_vec())
        }
    }

    impl Lengths<'_> {
        /// The offsets, owned; an error if the sum overflows or the
        /// allocation fails (`level` names the level in the error).
        pub fn to_offsets(&self, level: usize) -> Result<OffsetsBuf, LodError> {
            self.total()
                .map_err(|position| LodError::LengthOverflow { level, position })?;
            let needed = self.0.len().saturating_add(1);
            let mut v = Vec::new();
            v.try_reserve_exact(needed)
                .map_err(|_| LodError::Allocation { len: needed })?;
            v.resize(needed, 0);
            write_prefix_sums(self.0, &mut v);
            Ok(OffsetsBuf(v))
        }
    }
}

#[cfg(feature = "alloc")]
pub use owned::{LengthsBuf, OffsetsBuf};
