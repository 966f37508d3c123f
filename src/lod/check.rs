//! Paddle's `CheckLoD`, on offsets ([`check_lod`]) and on lengths
//! ([`check_lengths`], which checks what the offsets would be without
//! writing them).
//!
//! The checks, in Paddle's order (the first violation is reported):
//! 1. level by level from the top: at least 2 offsets, the first 0, never
//!    decreasing (equal neighbours, i.e. empty sequences, are allowed);
//! 2. the last level's last offset is the dense tensor's row count;
//! 3. level by level from the top: an upper level's last offset is the
//!    number of sequences of the level below (its offset count minus 1).
//!
//! An empty LoD (no level) is valid. Paddle checks (2) only when the height
//! is positive; here it is checked for 0 rows too, so a LoD over an empty
//! tensor cannot claim rows that do not exist.

use super::{Lengths, Levels, LodError, Offsets};

/// Checks one level on its own (step 1).
pub(crate) fn check_level(level: usize, o: Offsets<'_>) -> Result<(), LodError> {
    let s = o.as_slice();
    match s.first() {
        _ if s.len() < 2 => Err(LodError::TooFewOffsets {
            level,
            len: s.len(),
        }),
        Some(&value) if value != 0 => Err(LodError::NonzeroStart { level, value }),
        _ => {
            for (i, w) in s.windows(2).enumerate() {
                if let [previous, value] = *w
                    && value < previous
                {
                    return Err(LodError::Decreasing {
                        level,
                        position: i + 1,
                        previous,
                        value,
                    });
                }
            }
            Ok(())
        }
    }
}

/// Checks that each level from `from` down ends at the number of sequences
/// of the level below (step 3, restricted to the levels `from..`).
pub(crate) fn check_nesting<L: Levels + ?Sized>(lod: &L, from: usize) -> Result<(), LodError> {
    for k in from..lod.count().saturating_sub(1) {
        let (Some(upper), Some(lower)) = (lod.level(k), lod.level(k + 1)) else {
            break;
        };
        let last = upper.last().unwrap_or(0);
        let below = lower.sequences();
        if last != below {
            return Err(LodError::LevelMismatch {
                level: k,
                last,
                below,
            });
        }
    }
    Ok(())
}

/// Paddle's `CheckLoD(lod, rows)`: `Ok` if `lod` is a valid LoD over a
/// dense tensor of `rows` rows, otherwise the first violation.
///
/// ```
/// use shapecheck::{check_lod, LodError, Offsets};
/// let ok = [Offsets::new(&[0, 2, 4]), Offsets::new(&[0, 2, 4, 5, 6])];
/// assert_eq!(check_lod(&ok[..], 6), Ok(()));
/// // level 0 says 4 sequences below, level 1 holds 3
/// let bad = [Offsets::new(&[0, 2, 4]), Offsets::new(&[0, 2, 5, 6])];
/// assert_eq!(
///     check_lod(&bad[..], 6),
///     Err(LodError::LevelMismatch { level: 0, last: 4, below: 3 })
/// );
/// ```
pub fn check_lod<L: Levels + ?Sized>(lod: &L, rows: usize) -> Result<(), LodError> {
    let count = lod.count();
    for k in 0..count {
        if let Some(o) = lod.level(k) {
            check_level(k, o)?;
        }
    }
    let Some(last_level) = count.checked_sub(1) else {
        return Ok(());
    };
    let last = lod.level(last_level).and_then(|o| o.last()).unwrap_or(0);
    if last != rows {
        return Err(LodError::RowsMismatch {
            level: last_level,
            last,
            rows,
        });
    }
    check_nesting(lod, 0)
}

/// [`check_lod`] on the offsets that `lengths` (Paddle's
/// `recursive_sequence_lengths`) convert to, without writing them: first
/// that every level's sum fits in `usize`, then `CheckLoD`'s steps.
///
/// ```
/// use shapecheck::{check_lengths, LodError, Lengths};
/// // Paddle's test_lod_tensor.py: [[2, 3], [1, 3, 1, 2, 1]] is valid at height 8...
/// let lod = [Lengths::new(&[2, 3]), Lengths::new(&[1, 3, 1, 2, 1])];
/// assert_eq!(check_lengths(&lod, 8), Ok(()));
/// // ...and not at 9
/// assert_eq!(
///     check_lengths(&lod, 9),
///     Err(LodError::RowsMismatch { level: 1, last: 8, rows: 9 })
/// );
/// ```
pub fn check_lengths(lengths: &[Lengths<'_>], rows: usize) -> Result<(), LodError> {
    for (k, l) in lengths.iter().enumerate() {
        if let Err(position) = l.total() {
            return Err(LodError::LengthOverflow { level: k, position });
        }
    }
    // step 1: a level of n lengths has n + 1 offsets, starting at 0 and
    // never decreasing (lengths are unsigned)
    for (k, l) in lengths.iter().enumerate() {
        if l.is_empty() {
            return Err(LodError::TooFewOffsets { level: k, len: 1 });
        }
    }
    let total = |l: &Lengths<'_>| l.total().unwrap_or(0);
    let Some((last_level, last)) = lengths.len().checked_sub(1).zip(lengths.last()) else {
        return Ok(());
    };
    if total(last) != rows {
        return Err(LodError::RowsMismatch {
            level: last_level,
            last: total(last),
            rows,
        });
    }
    for (k, w) in lengths.windows(2).enumerate() {
        if let [upper, lower] = w
            && total(upper) != lower.len()
        {
            return Err(LodError::LevelMismatch {
                level: k,
                last: total(upper),
                below: lower.len(),
            });
        }
    }
    Ok(())
}
