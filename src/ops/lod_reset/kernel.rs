//! `lod_reset`'s one loop: a checked new level written as `usize` offsets
//! (the dense data is never copied).

use super::rule::NewLevel;

/// Writes a checked new level as `usize` offsets into `dst` (which has
/// exactly `level.len()` entries).
pub(crate) fn write_level(level: NewLevel<'_>, dst: &mut [usize]) {
    match level {
        NewLevel::Target(o) => {
            for (d, &v) in dst.iter_mut().zip(o.as_slice()) {
                *d = v;
            }
        }
        NewLevel::YData(data) => {
            for (d, &v) in dst.iter_mut().zip(data) {
                // checked: 0 <= v <= rows
                *d = usize::try_from(v).unwrap_or(0);
            }
        }
    }
}
