//! The layers' shape rules as functions of values, `const` so that the
//! static path evaluates them on its shape types' sizes at compile time:
//! a convolution's or pool's output size and padding along one axis
//! (TFLite's `ComputeOutSize` and `ComputePaddingWithOffset`: the one rule,
//! `shapecheck_tflite::conv_axis`, a `const fn` the interpreter and
//! `model!` call too), a `PAD`'s output size, and the depths an int8
//! softmax's fixed point holds.

/// A convolution's (or pool's) output size along one axis and the padding
/// before the first input: with the dilated filter
/// `f = (filter − 1) · dilation + 1`, `SAME` gives `ceil(input / stride)`
/// outputs, `VALID` gives `(input − f) / stride + 1`; the total padding is
/// `max((output − 1) · stride + f − input, 0)`, half of it (rounded down)
/// before. `None` for a stride, dilation or filter of 0, a `VALID` dilated
/// filter longer than the input (no output), or sizes that overflow.
///
/// ```
/// use shapecheck::ops::layers::conv_output;
/// // speech.tflite's rows and columns: 49 × 40 in, a 10 × 8 filter, stride 2, SAME
/// assert_eq!(conv_output(true, 49, 10, 2, 1), Some((25, 4)));
/// assert_eq!(conv_output(true, 40, 8, 2, 1), Some((20, 3)));
/// assert_eq!(conv_output(false, 40, 8, 2, 1), Some((17, 0)));
/// assert_eq!(conv_output(false, 4, 8, 1, 1), None);
/// // dilation 2 makes a 3-tap filter 5 wide
/// assert_eq!(conv_output(false, 7, 3, 1, 2), Some((3, 0)));
/// assert_eq!(conv_output(true, 7, 3, 1, 2), Some((7, 2)));
/// ```
pub const fn conv_output(
    same: bool,
    input: usize,
    filter: usize,
    stride: usize,
    dilation: usize,
) -> Option<(usize, usize)> {
    let padding = if same {
        shapecheck_tflite::Padding::Same
    } else {
        shapecheck_tflite::Padding::Valid
    };
    match shapecheck_tflite::conv_axis(padding, input, filter, stride, dilation) {
        Ok(axis) => Some((axis.output, axis.pad_before)),
        Err(_) => None,
    }
}

/// `PAD`'s output size along one axis: `before + input + after`, `None`
/// if that overflows.
///
/// ```
/// use shapecheck::ops::layers::pad_output;
/// assert_eq!(pad_output(5, 1, 2), Some(8));
/// assert_eq!(pad_output(usize::MAX, 1, 0), None);
/// ```
pub const fn pad_output(input: usize, before: usize, after: usize) -> Option<usize> {
    match input.checked_add(before) {
        Some(s) => s.checked_add(after),
        None => None,
    }
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
                    for dilation in 0..4 {
                        for (same, padding) in [(true, Padding::Same), (false, Padding::Valid)] {
                            let ours = conv_output(same, input, filter, stride, dilation);
                            let theirs = conv_axis(padding, input, filter, stride, dilation)
                                .ok()
                                .map(|a| (a.output, a.pad_before));
                            assert_eq!(ours, theirs, "{input} {filter} {stride} {dilation} {same}");
                        }
                    }
                }
            }
        }
    }
}
