//! The filter taps of a convolution's or pool's output position that fall
//! inside the input, found once per output row or column: shared by the
//! depthwise and plain convolutions and the pools; and the length and
//! parameter checks those kernels share.

use crate::format::error::TfliteError;
use crate::format::types::Padding;
use core::ops::Range;

/// The filter taps of one output position along one axis that fall inside
/// the input: taps `first..end`, tap `first` reading input position
/// `position`, each next tap `dilation` further.
#[derive(Clone, Copy)]
pub(crate) struct Window {
    first: usize,
    end: usize,
    position: usize,
    dilation: usize,
}

impl Window {
    /// The taps of output position `o` whose input position
    /// `o · stride + k · dilation − pad` is inside `0..size` (a position
    /// whose computation overflows is outside, as it is for TFLite's
    /// signed arithmetic on any input that fits in memory).
    pub(crate) fn new(
        o: usize,
        stride: usize,
        pad: usize,
        dilation: usize,
        filter: usize,
        size: usize,
    ) -> Self {
        // at least 1 where the kernels' checks ran; a prechecked kernel
        // given 0 reads adjacent taps rather than divide by it
        let dilation = dilation.max(1);
        let empty = Window {
            first: 0,
            end: 0,
            position: 0,
            dilation,
        };
        let Some(base) = o.checked_mul(stride) else {
            return empty;
        };
        // `n / dilation` rounded down or up: no division for the common
        // undilated filter (a division is 2 to 12 cycles on a Cortex-M4)
        let over = |n: usize| if dilation == 1 { n } else { n / dilation };
        let over_up = |n: usize| {
            if dilation == 1 {
                n
            } else {
                n.div_ceil(dilation)
            }
        };
        // the first tap at or past the padding
        let first = if base >= pad { 0 } else { over_up(pad - base) };
        // the taps before the input's end: base + k · dilation < pad + size,
        // or, past usize, any tap whose position does not overflow
        let end = match pad.checked_add(size) {
            Some(limit) if limit > base => over(limit - base - 1) + 1,
            Some(_) => 0,
            None => over(usize::MAX - base).saturating_add(1),
        }
        .min(filter);
        if first >= end {
            return empty;
        }
        Window {
            first,
            end,
            // inside by the bounds above: no overflow
            position: base + first * dilation - pad,
            dilation,
        }
    }

    /// How many taps are inside.
    pub(crate) fn len(self) -> usize {
        self.end - self.first
    }

    /// `(tap, input position)` for each tap inside.
    pub(crate) fn taps(self) -> impl Iterator<Item = (usize, usize)> {
        (self.first..self.end).map(move |k| (k, self.position + (k - self.first) * self.dilation))
    }
}

/// The vertical geometry of a convolution's or pool's window: how output
/// rows step, pad and dilate over the input's `size` rows with a filter
/// of `filter` rows.
#[derive(Clone, Copy)]
pub(crate) struct RowAxis {
    pub(crate) stride: usize,
    pub(crate) pad: usize,
    pub(crate) dilation: usize,
    pub(crate) filter: usize,
    pub(crate) size: usize,
}

impl RowAxis {
    /// The filter rows of output row `o` inside the input.
    pub(crate) fn window(self, o: usize) -> Window {
        Window::new(
            o,
            self.stride,
            self.pad,
            self.dilation,
            self.filter,
            self.size,
        )
    }

    /// The input rows that output rows `rows` read: from the first tap
    /// inside the input of any of them to one past the last (`0..0` when
    /// every tap is padding). Without dilation the windows move
    /// monotonically (a later output row's first and last taps inside are
    /// at or below an earlier one's), so the first row is the first
    /// window's with a tap inside, and the end the last such window's: two
    /// windows for a band whose first and last rows read the input. A
    /// dilated filter's taps inside need not move so near the input's
    /// edges (the taps of a row a dilation apart): one window per row.
    pub(crate) fn needed(self, rows: Range<usize>) -> Range<usize> {
        let (first, last) = if self.dilation <= 1 {
            (
                rows.clone()
                    .find_map(|o| self.window(o).taps().next().map(|(_, at)| at)),
                rows.rev()
                    .find_map(|o| self.window(o).taps().last().map(|(_, at)| at)),
            )
        } else {
            let taps = rows.flat_map(|o| self.window(o).taps().map(|(_, at)| at));
            taps.fold(
                (None, None),
                |(lo, hi): (Option<usize>, Option<usize>), at| {
                    (
                        Some(lo.map_or(at, |l| l.min(at))),
                        Some(hi.map_or(at, |h| h.max(at))),
                    )
                },
            )
        };
        match (first, last) {
            (Some(first), Some(last)) => first..last + 1,
            _ => 0..0,
        }
    }
}

/// The filter rows of one output row inside the input, read from a ring of
/// `ring` input rows (input row `r` at ring row `r % ring`): as
/// [`Window`], each tap's position its ring row. The ring holds every row
/// the window reads (checked by [`check_band`]), so the window wraps past
/// the ring's last row at most once: its taps are two runs, those before
/// the ring's end (`head`) and those from ring row 0 on (`tail`), found
/// once per output row. A ring of the whole input never wraps (`tail` is
/// empty), and its ring rows are the input rows.
#[derive(Clone, Copy)]
pub(crate) struct RingRows {
    head: Window,
    tail: Window,
}

impl RingRows {
    /// `window`'s taps in a ring of `ring` rows (one division per output
    /// row, none per tap).
    pub(crate) fn new(window: Window, ring: usize) -> Self {
        let Window {
            first,
            end,
            position,
            dilation,
        } = window;
        // no division where the window is inside the ring's first pass (a
        // ring of the whole input: always)
        let start = if position < ring {
            position
        } else {
            position.checked_rem(ring).unwrap_or(0)
        };
        let len = end - first;
        // the taps whose ring row start + j · dilation is before the end
        let before = if len == 0 || start + (len - 1) * dilation < ring {
            len
        } else {
            ring.saturating_sub(start).div_ceil(dilation).min(len)
        };
        let split = first + before;
        RingRows {
            head: Window {
                first,
                end: split,
                position: start,
                dilation,
            },
            tail: Window {
                first: split,
                end,
                // past the ring's end when there is a tail: no underflow
                position: (start + before * dilation).saturating_sub(ring),
                dilation,
            },
        }
    }

    /// `(tap, ring row)` for each tap inside (where a test per tap does
    /// not matter: the pools).
    #[inline(always)]
    pub(crate) fn taps(self) -> impl Iterator<Item = (usize, usize)> {
        self.head.taps().chain(self.tail.taps())
    }

    /// How many taps are inside.
    pub(crate) fn len(self) -> usize {
        self.head.len() + self.tail.len()
    }

    /// The two runs of taps: those before the ring's end, then those from
    /// its start (empty unless the window wraps). A loop over each is a
    /// loop over [`Window::taps`], with nothing more per tap.
    pub(crate) fn runs(self) -> [Window; 2] {
        [self.head, self.tail]
    }
}

/// The checks of a band kernel beyond its layer's: one image
/// (`batches` 1), output rows `rows` inside `0..output_height`, a ring of
/// `ring_rows` rows of `Π row` values each (`ring_len` of them) that
/// holds every input row those output rows read
/// (`Err(RingTooSmall)` naming them otherwise), and an output of
/// `rows.len() · Π out_row` values (`output_len`).
pub(crate) fn check_band(
    batches: usize,
    axis: RowAxis,
    rows: &Range<usize>,
    output_height: usize,
    (ring_len, ring_rows, row): (usize, usize, &[usize]),
    (output_len, out_row): (usize, &[usize]),
) -> Result<(), TfliteError> {
    if batches != 1 {
        return Err(TfliteError::KernelParam {
            what: "band kernel's batches",
            value: i64::try_from(batches).unwrap_or(i64::MAX),
            rule: "a band kernel computes rows of one image",
        });
    }
    if rows.start > rows.end || rows.end > output_height {
        return Err(TfliteError::KernelParam {
            what: "band's end row",
            value: i64::try_from(rows.end).unwrap_or(i64::MAX),
            rule: "the band's rows must be an ascending range inside the output's rows",
        });
    }
    let ring = product("ring", &[ring_rows, product("ring", row)?])?;
    length("ring", ring, ring_len)?;
    let out = product(
        "output",
        &[rows.end - rows.start, product("output", out_row)?],
    )?;
    length("output", out, output_len)?;
    let needed = axis.needed(rows.clone());
    if needed.end - needed.start > ring_rows {
        return Err(TfliteError::RingTooSmall {
            first_row: needed.start,
            rows: needed.end - needed.start,
            ring_rows,
        });
    }
    Ok(())
}

/// The longest run of output rows from `rows.start` on (at least one row,
/// at most `rows`) whose input rows lie contiguous in a ring of `ring`
/// rows, and those input rows (`None` when its one row's window wraps
/// past the ring's end, or no row reads any input): for a kernel that
/// runs on a contiguous image (the DSP loops), the run is the rows
/// `needed` of an image that starts at the ring row of `needed.start`.
#[cfg(any(shapecheck_dsp, test))]
pub(crate) fn contiguous_run(
    axis: RowAxis,
    ring: usize,
    rows: Range<usize>,
) -> (Range<usize>, Option<Range<usize>>) {
    let fits = |n: &Range<usize>| {
        n.start
            .checked_rem(ring)
            .is_some_and(|s| s + (n.end - n.start) <= ring)
    };
    let mut needed: Option<Range<usize>> = None;
    let mut end = rows.start;
    while end < rows.end {
        let next = match (&needed, axis.needed(end..end + 1)) {
            (None, n) if n.is_empty() => None,
            (None, n) => Some(n),
            (Some(have), n) if n.is_empty() => Some(have.clone()),
            (Some(have), n) => Some(have.start.min(n.start)..have.end.max(n.end)),
        };
        if let Some(n) = &next {
            if !fits(n) {
                break;
            }
        }
        needed = next;
        end += 1;
    }
    if end == rows.start {
        // its one row wraps
        return (rows.start..(rows.start + 1).min(rows.end), None);
    }
    (rows.start..end, needed)
}

/// `Err(KernelParam)` for a parameter that must be at least 1 and is 0.
pub(crate) fn at_least_1(what: &'static str, value: usize) -> Result<(), TfliteError> {
    if value >= 1 {
        Ok(())
    } else {
        Err(TfliteError::KernelParam {
            what,
            value: 0,
            rule: "it must be at least 1",
        })
    }
}

/// The product of `factors` (0 if one is 0, however large the others), or
/// `Err(Length)` with `expected: usize::MAX` (the length that overflows)
/// naming `what`.
pub(crate) fn product(what: &'static str, factors: &[usize]) -> Result<usize, TfliteError> {
    if factors.contains(&0) {
        return Ok(0);
    }
    factors
        .iter()
        .try_fold(1usize, |acc, &f| acc.checked_mul(f))
        .ok_or(TfliteError::Length {
            what,
            expected: usize::MAX,
            actual: 0,
        })
}

/// `Err(Length)` unless `actual == expected`.
pub(crate) fn length(
    what: &'static str,
    expected: usize,
    actual: usize,
) -> Result<(), TfliteError> {
    if expected == actual {
        Ok(())
    } else {
        Err(TfliteError::Length {
            what,
            expected,
            actual,
        })
    }
}

/// One spatial axis of a convolution, as TFLite sizes it
/// ([`conv_axis`]): the output's size along it and the padding before the
/// first input (top or left). TFLite pads `SAME` with `total / 2` before
/// and the rest after; the kernel needs only the padding before.
///
/// ```
/// use shapecheck_tflite::{conv_axis, ConvAxis, Padding};
///
/// // speech.tflite's rows: 49 in, a 10-row filter, stride 2, SAME
/// assert_eq!(conv_axis(Padding::Same, 49, 10, 2, 1)?, ConvAxis { output: 25, pad_before: 4 });
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvAxis {
    /// the output's size along the axis
    pub output: usize,
    /// the padding before the first input element
    pub pad_before: usize,
}

/// The output size and padding of a convolution along one axis, as
/// TFLite's `ComputeOutSize` and `ComputePaddingWithOffset` compute them:
/// with the dilated filter `f = (filter − 1) · dilation + 1`, `SAME` gives
/// `ceil(input / stride)` outputs and `VALID` gives
/// `(input + stride − f) / stride`; the total padding is
/// `max((output − 1) · stride + f − input, 0)`, half of it (rounded down)
/// before the first input.
///
/// Fails with [`TfliteError::KernelParam`] for a stride or dilation of 0,
/// a filter of size 0, a `VALID` filter longer than the input (no output;
/// TFLite then fails to size the output), or sizes that overflow.
///
/// ```
/// use shapecheck_tflite::{conv_axis, ConvAxis, Padding};
///
/// // speech.tflite's columns: 40 in, 8 wide, stride 2: 6 of padding, 3 before
/// assert_eq!(conv_axis(Padding::Same, 40, 8, 2, 1)?, ConvAxis { output: 20, pad_before: 3 });
/// assert_eq!(conv_axis(Padding::Valid, 40, 8, 2, 1)?, ConvAxis { output: 17, pad_before: 0 });
/// // dilation 2 makes a 3-tap filter 5 wide
/// assert_eq!(conv_axis(Padding::Valid, 7, 3, 1, 2)?, ConvAxis { output: 3, pad_before: 0 });
/// assert!(conv_axis(Padding::Valid, 4, 8, 1, 1).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub const fn conv_axis(
    padding: Padding,
    input: usize,
    filter: usize,
    stride: usize,
    dilation: usize,
) -> Result<ConvAxis, TfliteError> {
    // a `const fn`: the library's compile-time layer checks call it too
    // (`shapecheck::ops::layers::conv_output`), so it is written without
    // closures or `?`
    if stride == 0 {
        return Err(zero_size("convolution's stride"));
    }
    if dilation == 0 {
        return Err(zero_size("convolution's dilation"));
    }
    if filter == 0 {
        return Err(zero_size("convolution's filter size"));
    }
    let overflow = TfliteError::KernelParam {
        what: "convolution's dilated filter size",
        value: i64::MAX,
        rule: "the sizes overflow",
    };
    let effective = match (filter - 1).checked_mul(dilation) {
        Some(f) => match f.checked_add(1) {
            Some(f) => f,
            None => return Err(overflow),
        },
        None => return Err(overflow),
    };
    let output = match padding {
        Padding::Same => input.div_ceil(stride),
        Padding::Valid => {
            if effective > input {
                return Err(TfliteError::KernelParam {
                    what: "convolution's dilated filter size",
                    value: if effective > i64::MAX as usize {
                        i64::MAX
                    } else {
                        effective as i64
                    },
                    rule: "VALID padding needs it no longer than the input",
                });
            }
            (input - effective) / stride + 1
        }
    };
    let covered = match output.saturating_sub(1).checked_mul(stride) {
        Some(c) => match c.checked_add(effective) {
            Some(c) => c,
            None => return Err(overflow),
        },
        None => return Err(overflow),
    };
    let total = covered.saturating_sub(input);
    Ok(ConvAxis {
        output,
        pad_before: total / 2,
    })
}

/// The error for a stride, dilation or filter size of 0.
const fn zero_size(what: &'static str) -> TfliteError {
    TfliteError::KernelParam {
        what,
        value: 0,
        rule: "it must be at least 1",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The rows a band reads, from its first and last windows with a
        /// tap inside, are those of every window of the band (each row's
        /// taps, one by one).
        #[test]
        fn needed_is_every_window_taps_span(
            (stride, pad, dilation, filter, size) in (1usize..4, 0usize..5, 1usize..4, 1usize..6, 1usize..12),
            (start, len) in (0usize..14, 0usize..8),
        ) {
            let axis = RowAxis { stride, pad, dilation, filter, size };
            let rows = start..start + len;
            let mut want: Option<Range<usize>> = None;
            for o in rows.clone() {
                for (_, at) in axis.window(o).taps() {
                    want = Some(match want {
                        Some(w) => w.start.min(at)..w.end.max(at + 1),
                        None => at..at + 1,
                    });
                }
            }
            prop_assert_eq!(axis.needed(rows), want.unwrap_or(0..0));
        }
    }
}
