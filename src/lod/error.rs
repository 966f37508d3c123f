//! [`LodError`]: a LoD that breaks Paddle's `CheckLoD`, or a buffer or level
//! argument that does not fit.

use core::fmt;

/// Why a LoD was rejected. Every variant names the level (0 is the top,
/// coarsest level; the last level indexes rows of the dense tensor) and the
/// offending values.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LodError {
    /// A level has fewer than 2 offsets (it needs a start and an end).
    TooFewOffsets {
        /// The level.
        level: usize,
        /// Its number of offsets.
        len: usize,
    },
    /// A level's first offset is not 0.
    NonzeroStart {
        /// The level.
        level: usize,
        /// Its first offset.
        value: usize,
    },
    /// An offset is smaller than the one before it.
    Decreasing {
        /// The level.
        level: usize,
        /// The position of the smaller offset within the level.
        position: usize,
        /// The offset before it.
        previous: usize,
        /// The offset at `position`.
        value: usize,
    },
    /// The last level does not end at the dense tensor's row count.
    RowsMismatch {
        /// The last level.
        level: usize,
        /// Its last offset.
        last: usize,
        /// The dense tensor's row count (its first dim).
        rows: usize,
    },
    /// An upper level's last offset is not the number of sequences of the
    /// level below (its offset count minus 1).
    LevelMismatch {
        /// The upper level.
        level: usize,
        /// Its last offset.
        last: usize,
        /// The number of sequences of level `level + 1`.
        below: usize,
    },
    /// Summing a level's lengths into offsets overflows `usize`.
    LengthOverflow {
        /// The level.
        level: usize,
        /// The position of the length whose addition overflows.
        position: usize,
    },
    /// The dense tensor is a scalar: a LoD indexes rows, so it needs a first dim.
    ScalarDense,
    /// A caller's buffer is too small.
    Buffer {
        /// What the buffer is for.
        what: &'static str,
        /// The entries needed.
        needed: usize,
        /// The buffer's length.
        len: usize,
    },
    /// A level that does not exist was asked for.
    NoSuchLevel {
        /// The level asked for.
        level: usize,
        /// The number of levels.
        levels: usize,
    },
    /// An allocation failed.
    Allocation {
        /// Entries requested.
        len: usize,
    },
}

impl LodError {
    /// The stable identifier of the check this error reports (run time
    /// only: a LoD is data). One per condition of Paddle's `CheckLoD`:
    /// `lod/too-few-offsets`, `lod/start`, `lod/decreasing`, `lod/rows` (the
    /// last level against the dense rows), `lod/levels` (an upper level
    /// against the level below), plus `lod/overflow` (lengths summed),
    /// `lod/scalar` (a dense tensor without rows), `lod/buffer`,
    /// `lod/no-such-level` and `shape/allocation`.
    ///
    /// ```
    /// use shapecheck::LodError;
    /// assert_eq!(LodError::NonzeroStart { level: 0, value: 1 }.rule(), "lod/start");
    /// ```
    pub const fn rule(&self) -> &'static str {
        match self {
            LodError::TooFewOffsets { .. } => "lod/too-few-offsets",
            LodError::NonzeroStart { .. } => "lod/start",
            LodError::Decreasing { .. } => "lod/decreasing",
            LodError::RowsMismatch { .. } => "lod/rows",
            LodError::LevelMismatch { .. } => "lod/levels",
            LodError::LengthOverflow { .. } => "lod/overflow",
            LodError::ScalarDense => "lod/scalar",
            LodError::Buffer { .. } => "lod/buffer",
            LodError::NoSuchLevel { .. } => "lod/no-such-level",
            LodError::Allocation { .. } => "shape/allocation",
        }
    }
}

impl fmt::Display for LodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LodError::TooFewOffsets { level, len } => write!(
                f,
                "LoD level {level} has {len} offset(s); every level needs at least 2 (a start and an end)"
            ),
            LodError::NonzeroStart { level, value } => write!(
                f,
                "LoD level {level} starts at offset {value}; every level starts at 0"
            ),
            LodError::Decreasing {
                level,
                position,
                previous,
                value,
            } => write!(
                f,
                "LoD level {level} decreases at position {position}: offset {value} follows {previous}; \
                 offsets never decrease (empty sequences, equal neighbours, are allowed)"
            ),
            LodError::RowsMismatch { level, last, rows } => write!(
                f,
                "the last LoD level ({level}) ends at offset {last}, but the dense tensor has {rows} rows; \
                 the last level must end at the row count"
            ),
            LodError::LevelMismatch { level, last, below } => write!(
                f,
                "LoD level {level} ends at offset {last}, but level {} holds {below} sequence(s); \
                 an upper level's offsets count the sequences of the level below",
                level.saturating_add(1)
            ),
            LodError::LengthOverflow { level, position } => write!(
                f,
                "the sequence lengths of LoD level {level} overflow usize when summed up to position {position}"
            ),
            LodError::ScalarDense => f.write_str(
                "a LoD tensor needs a first dim (its rows), but the dense tensor is a scalar",
            ),
            LodError::Buffer { what, needed, len } => write!(
                f,
                "the buffer for {what} has {len} entries, but {needed} are needed"
            ),
            LodError::NoSuchLevel { level, levels } => write!(
                f,
                "LoD level {level} does not exist: the LoD has {levels} level(s)"
            ),
            LodError::Allocation { len } => {
                write!(f, "could not allocate {len} LoD offsets")
            }
        }
    }
}

impl core::error::Error for LodError {}
