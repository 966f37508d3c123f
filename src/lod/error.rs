//! [`LodError`]: a LoD that breaks Paddle's `CheckLoD`, or a buffer or level
//! argument that does not fit.

crate::error::rule_errors! {
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
        } => "lod/too-few-offsets",
            ("LoD level {level} has {len} offset(s); every level needs at least 2 (a start and an end)"),
        /// A level's first offset is not 0.
        NonzeroStart {
            /// The level.
            level: usize,
            /// Its first offset.
            value: usize,
        } => "lod/start",
            ("LoD level {level} starts at offset {value}; every level starts at 0"),
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
        } => "lod/decreasing",
            ("LoD level {level} decreases at position {position}: offset {value} follows {previous}; \
                offsets never decrease (empty sequences, equal neighbours, are allowed)"),
        /// The last level does not end at the dense tensor's row count.
        RowsMismatch {
            /// The last level.
            level: usize,
            /// Its last offset.
            last: usize,
            /// The dense tensor's row count (its first dim).
            rows: usize,
        } => "lod/rows",
            ("the last LoD level ({level}) ends at offset {last}, but the dense tensor has {rows} rows; \
                the last level must end at the row count"),
        /// An upper level's last offset is not the number of sequences of the
        /// level below (its offset count minus 1).
        LevelMismatch {
            /// The upper level.
            level: usize,
            /// Its last offset.
            last: usize,
            /// The number of sequences of level `level + 1`.
            below: usize,
        } => "lod/levels",
            ("LoD level {level} ends at offset {last}, but level {} holds {below} sequence(s); \
                an upper level's offsets count the sequences of the level below",
                level.saturating_add(1)),
        /// Summing a level's lengths into offsets overflows `usize`.
        LengthOverflow {
            /// The level.
            level: usize,
            /// The position of the length whose addition overflows.
            position: usize,
        } => "lod/overflow",
            ("the sequence lengths of LoD level {level} overflow usize when summed up to position {position}"),
        /// The dense tensor is a scalar: a LoD indexes rows, so it needs a first dim.
        ScalarDense => "lod/scalar",
            ("a LoD tensor needs a first dim (its rows), but the dense tensor is a scalar"),
        /// A caller's buffer is too small.
        Buffer {
            /// What the buffer is for.
            what: &'static str,
            /// The entries needed.
            needed: usize,
            /// The buffer's length.
            len: usize,
        } => "lod/buffer",
            ("the buffer for {what} has {len} entries, but {needed} are needed"),
        /// More levels, or more offsets in a level, than a
        /// [`BoundedLod`](crate::BoundedLod) has room for.
        Capacity {
            /// `"levels"` or `"offsets"`.
            what: &'static str,
            /// The room in the type.
            capacity: usize,
            /// The entries needed.
            needed: usize,
        } => "lod/capacity",
            ("the LoD needs {needed} {what}, but its type has room for {capacity}"),
        /// A level that does not exist was asked for.
        NoSuchLevel {
            /// The level asked for.
            level: usize,
            /// The number of levels.
            levels: usize,
        } => "lod/no-such-level",
            ("LoD level {level} does not exist: the LoD has {levels} level(s)"),
        /// An allocation failed.
        Allocation {
            /// Entries requested.
            len: usize,
        } => "shape/allocation",
            ("could not allocate {len} LoD offsets"),
    }
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
    fn rule;
}
