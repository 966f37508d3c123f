//! The layers' shape rules as functions of values, `const` so that the
//! static path evaluates them on its shape types' sizes at compile time:
//! a convolution's output size and padding along one axis (TFLite's
//! `ComputeOutSize` and `ComputePaddingWithOffset`, the arithmetic of
//! `shapecheck_tflite::conv_axis`, which a unit test compares it with),
//! and the depths an int8 softmax's fixed point holds.

/// A convolution's output size along one axis and the padding before the
/// first input, with dilation 1: `SAME` gives `ceil(input / stride)`
/// outputs, `VALID` gives `(input − filter) / stride + 1`; the total
/// padding is `max((output − 1) · stride + filter − input, 0)`, half of it
/// (rounded down) before. `None` for a stride or filter of 0, or a `VALID`
/// filter longer than the input (no output).
///
/// ```
/// use shapecheck::ops::layers::conv_output;
/// // speech.tflite's rows and columns: 49 × 40 in, a 10 × 8 filter, stride 2, SAME
/// assert_eq!(conv_output(true, 49, 10, 2), Some((25, 4)));
/// assert_eq!(conv_output(true, 40, 8, 2), Some((20, 3)));
/// assert_eq!(conv_output(false, 40, 8, 2), Some((17, 0)));
/// assert_eq!(conv_output(false, 4, 8, 1), None);
/// ```
pub const fn conv_output(
    same: bool,
    input: usize,
    filter: usize,
    stride: usize,
) -> Option<(usize, usize)> {
    if stride == 0 || filter == 0 {
        return None;
    }
    let output = if same {
        input.div_ceil(stride)
    } else if filter > input {
        return None;
    } else {
        (input - filter) / stride + 1
    };
    let covered = match output.saturating_sub(1).checked_mul(stride) {
        Some(c) => match c.checked_add(filter) {
            Some(c) => c,
            None => return None,
        },
        None => return None,
    };
    Some((output, covered.saturating_sub(input) / 2))
}

/// The deepest row an int8 softmax takes: each exponential is at most 1
/// (2^19 in the sum's Q12.19), and TFLite's fixed point needs a row's sum
/// below 2^28, so at most 511 of them.
///
/// ```
/// use shapecheck::ops::layers::SOFTMAX_MAX_DEPTH;
/// assert_eq!(SOFTMAX_MAX_DEPTH, 511);
/// ```
pub const SOFTMAX_MAX_DEPTH: usize = (1 << 28) / (1 << 19) - 1;

#[cfg(test)]
mod tests {
    use super::conv_output;
    use shapecheck_tflite::{conv_axis, Padding};

    #[test]
    fn agrees_with_the_readers_conv_axis() {
        for input in 0..24 {
            for filter in 0..9 {
                for stride in 0..5 {
                    for (same, padding) in [(true, Padding::Same), (false, Padding::Valid)] {
                        let ours = conv_output(same, input, filter, stride);
                        let theirs = conv_axis(padding, input, filter, stride, 1)
                            .ok()
                            .map(|a| (a.output, a.pad_before));
                        assert_eq!(ours, theirs, "{input} {filter} {stride} {same}");
                    }
                }
            }
        }
    }
}
