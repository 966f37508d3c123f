//! [`LodResetError`]: why `lod_reset` refused its inputs.

use core::fmt;

/// Where the new LoD level of a `lod_reset` comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelSource {
    /// The `target` offsets (Paddle's `target_lod` attribute).
    Target,
    /// y's data, a tensor without LoD whose int32 elements are read as offsets.
    YData,
}

impl fmt::Display for LevelSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LevelSource::Target => "from target",
            LevelSource::YData => "from y's int32 data",
        })
    }
}

crate::error::rule_errors! {
    /// Why `lod_reset` refused its inputs. Values are `i128` so that both a
    /// target's `usize` offsets and y's `i32` data (negative ones included)
    /// are reported as given.
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum LodResetError {
        /// Neither y nor target offsets were given.
        NoSource => "lod_reset/no-source",
            ("lod_reset: no new LoD was given; pass y (a LoD tensor, or a tensor of int32 offsets) \
                or target offsets"),
        /// y carries a LoD whose last level does not end at x's row count.
        YLodRows {
            /// The last offset of y's last level.
            last: usize,
            /// x's row count.
            rows: usize,
        } => "lod_reset/y-lod-rows",
            ("lod_reset: y's LoD must end at x's row count {rows}, but y's last level ends at offset {last}"),
        /// y carries no LoD and its elements are not int32, so they cannot be read as offsets.
        YNotInt32 {
            /// y's element type.
            dtype: &'static str,
        } => "lod_reset/y-int32",
            ("lod_reset: y carries no LoD, so its elements are read as offsets, which must be int32; \
                y holds {dtype}"),
        /// The static `lod_reset_like` was given a y without LoD.
        YWithoutLod => "lod_reset/y-without-lod",
            ("lod_reset_like: y carries no LoD to copy; to read y's int32 data as offsets, \
                use lod_reset_by_data"),
        /// The new level has fewer than 2 offsets.
        TooShort {
            /// Where the level comes from.
            source: LevelSource,
            /// Its number of offsets.
            len: usize,
        } => "lod_reset/too-short",
            ("lod_reset: the new LoD level ({source}) needs at least 2 offsets, a start and an end, \
                but has {len}"),
        /// The new level does not start at 0.
        BadStart {
            /// Where the level comes from.
            source: LevelSource,
            /// Its first offset.
            value: i128,
        } => "lod_reset/start",
            ("lod_reset: the new LoD level ({source}) must start at offset 0, but starts at {value}"),
        /// The new level does not end at x's row count.
        BadEnd {
            /// Where the level comes from.
            source: LevelSource,
            /// The position of its last offset.
            position: usize,
            /// Its last offset.
            last: i128,
            /// x's row count.
            rows: usize,
        } => "lod_reset/end",
            ("lod_reset: the new LoD level ({source}) must end at x's row count {rows}, \
                but its last offset (position {position}) is {last}"),
        /// The new level decreases somewhere.
        Decreasing {
            /// Where the level comes from.
            source: LevelSource,
            /// The position of the smaller offset.
            position: usize,
            /// The offset before it.
            previous: i128,
            /// The offset at `position`.
            value: i128,
        } => "lod_reset/decreasing",
            ("lod_reset: the offsets of the new LoD level ({source}) must never decrease, \
                but position {position} holds {value} after {previous}"),
        /// The caller's buffer for the new level is too short.
        Buffer {
            /// Offsets to store.
            needed: usize,
            /// The buffer's length.
            len: usize,
        } => "lod_reset/buffer",
            ("lod_reset: the buffer for the new LoD level has {len} entries, but {needed} offsets are given"),
        /// Backward: the upstream gradient `dout` has another shape than x.
        DoutShape {
            /// x's dims (the output's dense dims).
            x: crate::dims::Dims,
            /// `dout`'s dims.
            dout: crate::dims::Dims,
        } => "lod_reset/dout-shape",
            ("lod_reset backward: dout must have x's shape {x}, but it is {dout}"),
        /// Backward: the caller's gradient has another shape than x.
        GradShape {
            /// x's dims.
            x: crate::dims::Dims,
            /// The gradient's dims.
            grad: crate::dims::Dims,
        } => "lod_reset/grad-shape",
            ("lod_reset backward: the gradient must have x's shape {x}, but it is {grad}"),
        /// An allocation failed.
        Allocation {
            /// Entries requested.
            len: usize,
        } => "shape/allocation",
            ("lod_reset: could not allocate {len} LoD offsets"),
    }
    /// The stable identifier of the check this error reports (run time
    /// only: the LoD and the offsets are data): `lod_reset/no-source`,
    /// `lod_reset/y-lod-rows`, `lod_reset/y-int32`, `lod_reset/y-without-lod`,
    /// `lod_reset/too-short`, `lod_reset/start`, `lod_reset/end`,
    /// `lod_reset/decreasing`, `lod_reset/buffer`, `shape/allocation`, and
    /// the backward's `lod_reset/dout-shape`, `lod_reset/grad-shape`.
    ///
    /// ```
    /// use shapecheck::LodResetError;
    /// assert_eq!(LodResetError::NoSource.rule(), "lod_reset/no-source");
    /// ```
    fn rule;
}
