//! The helpers of the band kernels' property tests, shared by
//! `tests/band.rs` (the portable kernels) and the DSP path's unit tests in
//! `src/band_dsp_tests.rs` (which include this file by its path): the
//! rows a band reads, written plainly, the bands of a split, a ring of
//! rows, and a layer run band by band.

extern crate std;

use super::TfliteError;
use core::ops::Range;
use proptest::prelude::*;
use std::vec::Vec;

/// A xorshift stream from `seed`: the operands' values.
pub fn stream(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The output size along one axis: `(size + pads − dilated filter) /
/// stride + 1`, `None` when the dilated filter is longer than the padded
/// input.
pub fn out_size(
    size: usize,
    pads: usize,
    filter: usize,
    stride: usize,
    dilation: usize,
) -> Option<usize> {
    let span = (filter - 1) * dilation + 1;
    (size + pads >= span).then(|| (size + pads - span) / stride + 1)
}

/// The input rows output rows `rows` read, written plainly: every tap
/// `o · stride + k · dilation − pad` inside `0..height`, from the least to
/// one past the largest (`None` if every tap is padding).
pub fn needed(
    rows: Range<usize>,
    (stride, pad, dilation, filter, height): (usize, usize, usize, usize, usize),
) -> Option<Range<usize>> {
    let mut taps = Vec::new();
    for o in rows {
        for k in 0..filter {
            let at = (o * stride + k * dilation) as i64 - pad as i64;
            if (0..height as i64).contains(&at) {
                taps.push(at as usize);
            }
        }
    }
    Some(*taps.iter().min()?..*taps.iter().max()? + 1)
}

/// The bands of `0..rows`: a band ends after row `i` where `cuts[i]`.
pub fn bands(rows: usize, cuts: &[bool]) -> Vec<Range<usize>> {
    let mut bands = Vec::new();
    let mut start = 0;
    for end in 1..=rows {
        if end == rows || cuts.get(end - 1).copied().unwrap_or(false) {
            bands.push(start..end);
            start = end;
        }
    }
    bands
}

/// The input rows `need` of `input` (rows of `row_len`) in a ring of
/// `need.len() + extra` rows, input row `r` at ring row `r % ring_rows`;
/// the ring's other rows hold values of no input row.
pub fn ring(input: &[i8], row_len: usize, need: &Range<usize>, extra: usize) -> (Vec<i8>, usize) {
    let ring_rows = need.len() + extra;
    let mut ring: Vec<i8> = (0..ring_rows * row_len)
        .map(|i| (i * 37 + 11) as i8)
        .collect();
    for r in need.clone() {
        let at = r % ring_rows * row_len;
        ring[at..at + row_len].copy_from_slice(&input[r * row_len..(r + 1) * row_len]);
    }
    (ring, ring_rows)
}

/// The layer's vertical window and the sizes of its rows, for [`by_bands`].
pub struct Rows {
    /// (stride, pad, dilation, filter, input height)
    pub axis: (usize, usize, usize, usize, usize),
    /// input values a row
    pub row_len: usize,
    /// output rows
    pub out_rows: usize,
    /// output values a row
    pub out_row_len: usize,
}

/// The output of `band` run band by band over the bands of `cuts`, each
/// band's ring its rows and `extra` more; and, for each band that needs an
/// input row, the check that a ring one row short is refused with the rows
/// it needs, nothing written.
pub fn by_bands(
    input: &[i8],
    layout: &Rows,
    cuts: &[bool],
    extra: usize,
    mut band: impl FnMut(&[i8], usize, Range<usize>, &mut [i8]) -> Result<(), TfliteError>,
) -> Result<Vec<i8>, TestCaseError> {
    let mut out = Vec::new();
    for rows in bands(layout.out_rows, cuts) {
        let need = needed(rows.clone(), layout.axis).unwrap_or(0..0);
        let (ring_values, ring_rows) = ring(input, layout.row_len, &need, extra);
        let mut part = std::vec![0i8; rows.len() * layout.out_row_len];
        band(&ring_values, ring_rows, rows.clone(), &mut part)
            .map_err(|e| TestCaseError::fail(std::format!("band {rows:?}: {e}")))?;
        out.extend_from_slice(&part);
        if !need.is_empty() {
            let (short, short_rows) = ring(input, layout.row_len, &(need.start..need.end - 1), 0);
            let mut untouched = std::vec![7i8; part.len()];
            let r = band(&short, short_rows, rows.clone(), &mut untouched);
            prop_assert_eq!(
                r,
                Err(TfliteError::RingTooSmall {
                    first_row: need.start,
                    rows: need.len(),
                    ring_rows: short_rows,
                })
            );
            prop_assert!(untouched.iter().all(|&v| v == 7));
        }
    }
    Ok(out)
}
