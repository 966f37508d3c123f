//! Bytes read as `i8`, the crate's one `unsafe` outside the DSP loops
//! (`dsp` and the kernels' `dsp` modules): an int8
//! constant (a convolution's filter, a fully connected layer's weights) is
//! read in place from the model's bytes, and a kernel runs its blocked
//! loops only on a slice (`Values::contiguous`). Reading each value
//! through `Array::get` instead made the interpreter's person detection
//! 1.6 times `model!`'s time on the host (`cargo bench -p
//! shapecheck-benches --bench interpreter`, docs/measurements.md). The
//! fuzz target `tflite` runs every kernel on filters read this way.
//!
//! And [`copy_forward`], the byte copy without `memcpy`'s slow word loop
//! that the stream's ring slides and the im2col gathering share.

/// `bytes` as `i8`s: the same memory, each byte one value.
#[allow(unsafe_code)]
pub(crate) fn as_i8(bytes: &[u8]) -> &[i8] {
    // SAFETY: `u8` and `i8` have the same size and alignment (1), every
    // bit pattern is a valid `i8`, and the slice keeps the input's length
    // and lifetime, so no byte outside `bytes` is read and `bytes` is not
    // written while the result lives (it is a shared borrow of it).
    unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<i8>(), bytes.len()) }
}

/// `d` ← `s` (of one length; else the shorter's bytes) 16 bytes a step,
/// then the last 0 to 15: the steps as four word loads and four stores
/// (unaligned ones are allowed on the Cortex-M4), where `memcpy`'s and
/// `memmove`'s word loops cost about 11 cycles per 4 bytes (a stream's
/// ring slide, an im2col row's runs of more than 16 bytes).
#[inline(never)]
pub(crate) fn copy_forward(d: &mut [i8], s: &[i8]) {
    let mut d16 = d.chunks_exact_mut(16);
    let mut s16 = s.chunks_exact(16);
    for (d, s) in (&mut d16).zip(&mut s16) {
        if let (Some(d), Some(s)) = (d.first_chunk_mut::<16>(), s.first_chunk::<16>()) {
            *d = *s;
        }
    }
    for (d, s) in d16.into_remainder().iter_mut().zip(s16.remainder()) {
        *d = *s;
    }
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
