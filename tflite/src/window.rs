//! The filter taps of a convolution's or pool's output position that fall
//! inside the input, found once per output row or column: shared by the
//! depthwise and plain convolutions and the pools; and the length and
//! parameter checks those kernels share.

use crate::error::TfliteError;

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
        // the first tap at or past the padding
        let first = if base >= pad {
            0
        } else {
            (pad - base).div_ceil(dilation)
        };
        // the taps before the input's end: base + k · dilation < pad + size,
        // or, past usize, any tap whose position does not overflow
        let end = match pad.checked_add(size) {
            Some(limit) if limit > base => (limit - base - 1) / dilation + 1,
            Some(_) => 0,
            None => ((usize::MAX - base) / dilation).saturating_add(1),
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
