//! The one run-time rule of `lod_reset`: Paddle's checks and precedence,
//! called by every path (static, no-heap, dynamic).

use super::{LevelSource, LodResetError};
use crate::lod::Offsets;

/// What y is, as far as the rule is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YInput<'a> {
    /// y carries a LoD (at least one level) whose last level ends at `last`.
    Lod {
        /// The last offset of y's last level.
        last: usize,
    },
    /// y carries no LoD: its elements, read as offsets (any shape, flattened).
    Int32(&'a [i32]),
    /// y carries no LoD and its elements are of another type.
    NotInt32 {
        /// y's element type.
        dtype: &'static str,
    },
}

/// The new level chosen by the rule, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewLevel<'a> {
    /// The target offsets.
    Target(Offsets<'a>),
    /// y's int32 data (every value is then in `0..=rows`).
    YData(&'a [i32]),
}

impl NewLevel<'_> {
    /// The number of offsets.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            NewLevel::Target(o) => o.len(),
            NewLevel::YData(d) => d.len(),
        }
    }

    /// `true` if empty (never, once checked).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What `lod_reset` does, once its inputs passed the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetPlan<'a> {
    /// The output takes all of y's levels (`append` and target are ignored).
    UseYLod,
    /// The output's levels are `level` alone, or x's levels then `level` if `append`.
    NewLevel {
        /// The new level.
        level: NewLevel<'a>,
        /// Keep x's levels before it.
        append: bool,
    },
}

/// An offset value as given: a target's `usize`, y's `i32`.
trait OffsetValue: Copy {
    fn wide(self) -> i128;
}
impl OffsetValue for usize {
    fn wide(self) -> i128 {
        // usize is at most 64 bits on every target Rust supports
        i128::try_from(self).unwrap_or(i128::MAX)
    }
}
impl OffsetValue for i32 {
    fn wide(self) -> i128 {
        i128::from(self)
    }
}

/// Paddle's kernel checks on the new level, in its order: more than one
/// offset, the first 0, the last x's row count, never decreasing.
fn check_level<V: OffsetValue>(
    source: LevelSource,
    values: &[V],
    rows: usize,
) -> Result<(), LodResetError> {
    let (Some(first), Some(last), true) = (values.first(), values.last(), values.len() > 1) else {
        return Err(LodResetError::TooShort {
            source,
            len: values.len(),
        });
    };
    if first.wide() != 0 {
        return Err(LodResetError::BadStart {
            source,
            value: first.wide(),
        });
    }
    if last.wide() != rows.wide() {
        return Err(LodResetError::BadEnd {
            source,
            position: values.len() - 1,
            last: last.wide(),
            rows,
        });
    }
    for (i, w) in values.windows(2).enumerate() {
        if let [a, b] = w
            && b.wide() < a.wide()
        {
            return Err(LodResetError::Decreasing {
                source,
                position: i + 1,
                previous: a.wide(),
                value: b.wide(),
            });
        }
    }
    Ok(())
}

/// The rule of Paddle's `lod_reset(x, y, target_lod, append)` for an x of
/// `rows` rows:
/// 1. if y is given and carries a LoD, its last level must end at `rows`,
///    and the output takes y's levels (`target` and `append` are ignored);
/// 2. otherwise the new level is y's int32 data if y is given (y wins over
///    `target`), else `target`; neither is [`LodResetError::NoSource`];
/// 3. the new level has at least 2 offsets, starts at 0, ends at `rows` and
///    never decreases (checked in that order, the first failure reported);
/// 4. the output's levels are the new level alone, or x's levels then the
///    new one if `append` (their nesting is not checked, as in Paddle).
///
/// ```
/// use shapecheck::{lod_reset_rule, LevelSource, LodResetError, NewLevel, Offsets, ResetPlan, YInput};
/// let t = Offsets::new(&[0, 4, 6]);
/// assert_eq!(
///     lod_reset_rule(6, None, Some(t), false),
///     Ok(ResetPlan::NewLevel { level: NewLevel::Target(t), append: false })
/// );
/// // y wins over the target, and its data are offsets: [2, 4] does not start at 0
/// assert_eq!(
///     lod_reset_rule(6, Some(YInput::Int32(&[2, 4])), Some(t), false),
///     Err(LodResetError::BadStart { source: LevelSource::YData, value: 2 })
/// );
/// assert_eq!(lod_reset_rule(6, None, None, false), Err(LodResetError::NoSource));
/// ```
pub fn lod_reset_rule<'a>(
    rows: usize,
    y: Option<YInput<'a>>,
    target: Option<Offsets<'a>>,
    append: bool,
) -> Result<ResetPlan<'a>, LodResetError> {
    let level = match (y, target) {
        (Some(YInput::Lod { last }), _) => {
            return if last == rows {
                Ok(ResetPlan::UseYLod)
            } else {
                Err(LodResetError::YLodRows { last, rows })
            };
        }
        (Some(YInput::NotInt32 { dtype }), _) => return Err(LodResetError::YNotInt32 { dtype }),
        (Some(YInput::Int32(data)), _) => {
            check_level(LevelSource::YData, data, rows)?;
            NewLevel::YData(data)
        }
        (None, Some(t)) => {
            check_level(LevelSource::Target, t.as_slice(), rows)?;
            NewLevel::Target(t)
        }
        (None, None) => return Err(LodResetError::NoSource),
    };
    Ok(ResetPlan::NewLevel { level, append })
}
