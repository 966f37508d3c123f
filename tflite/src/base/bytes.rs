//! Bytes read as `i8`, the crate's one `unsafe` outside the DSP loops
//! (`dsp` and the kernels' `dsp` modules): an int8
//! constant (a convolution's filter, a fully connected layer's weights) is
//! read in place from the model's bytes, and a kernel runs its blocked
//! loops only on a slice (`Values::contiguous`). Reading each value
//! through `Array::get` instead made the interpreter's person detection
//! 1.6 times `model!`'s time on the host (`cargo bench -p
//! shapecheck-benches --bench interpreter`, docs/measurements.md). The
//! fuzz target `tflite` runs every kernel on filters read this way.

/// `bytes` as `i8`s: the same memory, each byte one value.
#[allow(unsafe_code)]
pub(crate) fn as_i8(bytes: &[u8]) -> &[i8] {
    // SAFETY: `u8` and `i8` have the same size and alignment (1), every
    // bit pattern is a valid `i8`, and the slice keeps the input's length
    // and lifetime, so no byte outside `bytes` is read and `bytes` is not
    // written while the result lives (it is a shared borrow of it).
    unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<i8>(), bytes.len()) }
}

#[cfg(test)]
mod tests {
    use super::as_i8;

    #[test]
    fn every_byte_is_its_i8() {
        let bytes: [u8; 256] = core::array::from_fn(|i| i as u8);
        let values = as_i8(&bytes);
        assert_eq!(values.len(), 256);
        for (&b, &v) in bytes.iter().zip(values) {
            assert_eq!(v, b as i8);
        }
        assert!(as_i8(&[]).is_empty());
    }
}
